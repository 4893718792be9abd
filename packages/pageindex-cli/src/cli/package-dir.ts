import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

let cached: string | undefined;

/**
 * The pageindex-cli package folder (the one with `samples/` and `package.json`), found
 * from this module in `src/cli/` (tests) or `dist/` (the bin).
 * @returns `undefined` when the package files are not next to the code (e.g. a re-bundled copy).
 */
export function packageDir(): string | undefined {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i += 1) {
    if (existsSync(join(dir, "samples")) && existsSync(join(dir, "package.json"))) {
      cached = dir;
      return dir;
    }
    dir = dirname(dir);
  }
  return undefined;
}

/** The package's version from its package.json, for `pageindex --version`. */
export function packageVersion(): string {
  const dir = packageDir();
  if (!dir) return "unknown";
  const pkg = JSON.parse(readFileSync(join(dir, "package.json"), "utf8")) as { version?: unknown };
  return typeof pkg.version === "string" ? pkg.version : "unknown";
}
