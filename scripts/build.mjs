// Builds every workspace package that changed, in dependency order, from one process: an
// unchanged package costs a look at its sources' sizes and mtimes (see build-stamp.mjs), not a
// `pnpm run` and a tsdown start-up each, so `pnpm demo` and `pnpm test` start at once when
// nothing changed. Each stale package is built by scripts/build-package.mjs (its `build`
// script). Prints nothing unless a build fails.
// Usage: node scripts/build.mjs (the root "build" script), or buildChanged() (scripts/demo.mjs).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { isUpToDate, root, workspaceDeps } from "./build-stamp.mjs";

/**
 * Builds the stale workspace packages under `workspace`/packages, dependencies first. Returns
 * undefined when all are current, or the message of the first build that failed.
 */
export function buildChanged(workspace = root) {
  const dirs = new Map(
    readdirSync(join(workspace, "packages"), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => [entry.name, join(workspace, "packages", entry.name)]),
  );
  const done = new Set();
  const buildInOrder = (name) => {
    if (done.has(name)) return undefined;
    done.add(name);
    const dir = dirs.get(name);
    for (const dep of workspaceDeps(dir)) {
      const failed = dirs.has(dep) ? buildInOrder(dep) : undefined;
      if (failed) return failed;
    }
    if (isUpToDate(dir)) return undefined;
    const run = spawnSync(process.execPath, [join(root, "scripts", "build-package.mjs")], {
      cwd: dir,
      stdio: "inherit",
    });
    return run.status === 0 ? undefined : `build of ${name} failed (exit ${run.status ?? run.signal})`;
  };
  for (const name of [...dirs.keys()].sort()) {
    const failed = buildInOrder(name);
    if (failed) return failed;
  }
  return undefined;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const failed = buildChanged();
  if (failed) {
    console.error(failed);
    process.exit(1);
  }
}
