// Builds every workspace package that changed, in dependency order, from one process: an
// unchanged package costs a hash of its sources, not a `pnpm run` and a tsdown start-up each,
// so `pnpm demo` and `pnpm test` start at once when nothing changed. Each stale package is
// built by its own `build` script (scripts/build-package.mjs). Prints nothing unless a build
// fails. Usage: node scripts/build.mjs (the root "build" script).
import { spawnSync } from "node:child_process";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { isUpToDate, root, workspaceDeps } from "./build-stamp.mjs";

const dirs = new Map(
  readdirSync(join(root, "packages"), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => [entry.name, join(root, "packages", entry.name)]),
);
const done = new Set();
/** Builds `name` after the workspace packages it depends on. */
function buildInOrder(name) {
  if (done.has(name)) return;
  done.add(name);
  const dir = dirs.get(name);
  for (const dep of workspaceDeps(dir)) if (dirs.has(dep)) buildInOrder(dep);
  if (isUpToDate(dir)) return;
  const run = spawnSync(process.execPath, [join(root, "scripts", "build-package.mjs")], {
    cwd: dir,
    stdio: "inherit",
  });
  if (run.status !== 0) {
    console.error(`build of ${name} failed (exit ${run.status ?? run.signal})`);
    process.exit(1);
  }
}
for (const name of [...dirs.keys()].sort()) buildInOrder(name);
