// Builds the package in the current folder with its tsdown.config.ts, through tsdown's API:
// the `tsdown` command prints a Node-version deprecation notice on every run under Node < 22.18
// (its bin checks `process.version`; the library does not), although 0.21 builds fine on the
// Node 20.19+ this project supports. Skipped when the package's build stamp says nothing it reads
// changed (see build-stamp.mjs; PAGEINDEX_FORCE_BUILD=1 rebuilds). Otherwise empties dist/ first
// so removed entries do not linger. Quiet unless something is wrong: warnings and errors only,
// rolldown's plugin-timing notes off.
// Usage (a package's "build" script): node ../../scripts/build-package.mjs
import { rmSync } from "node:fs";
import { clearStamp, isUpToDate, writeStamp } from "./build-stamp.mjs";

const pkg = process.cwd();
if (!isUpToDate(pkg)) {
  clearStamp(pkg);
  rmSync("dist", { recursive: true, force: true });
  // Imported only now: loading tsdown costs more than checking the stamp.
  const { build } = await import("tsdown");
  await build({ logLevel: "warn", checks: { pluginTimings: false } });
  writeStamp(pkg);
}
