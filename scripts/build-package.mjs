// Builds the package in the current folder with its tsdown.config.ts, through tsdown's API:
// the `tsdown` command prints a Node-version deprecation notice on every run under Node < 22.18
// (its bin checks `process.version`; the library does not), although 0.21 builds fine on the
// Node 20.19+ this project supports. Empties dist/ first so removed entries do not linger.
// Usage (a package's "build" script): node ../../scripts/build-package.mjs
import { rmSync } from "node:fs";
import { build } from "tsdown";

rmSync("dist", { recursive: true, force: true });
await build({});
