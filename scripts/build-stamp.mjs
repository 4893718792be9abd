// The build stamp of a workspace package: a SHA-256 over everything its build reads, kept in
// node_modules/.cache/pageindex-build/stamp.json (outside dist/, so it is never packed) with the
// list of files the build wrote. Content, not mtimes: a checkout or a `touch` does not rebuild,
// an edit always does. The hash covers the package's src/, package.json, tsconfig and tsdown
// config, the shared tsconfig, the build scripts, the tsdown version and the stamps of the
// workspace packages it depends on (built first), so a change in pageindex-core rebuilds its
// dependents too.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STAMP = join("node_modules", ".cache", "pageindex-build", "stamp.json");
const SCRIPTS = ["build-stamp.mjs", "build-package.mjs"].map((name) => join(root, "scripts", name));

/** Files under `dir` of package `pkg`, recursively, sorted, relative to the package. */
function filesUnder(pkg, dir) {
  const abs = join(pkg, dir);
  if (!existsSync(abs)) return [];
  return readdirSync(abs, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(pkg, join(entry.parentPath, entry.name)))
    .sort();
}

/** The workspace packages `pkg` (a folder) depends on, by name. */
export function workspaceDeps(pkg) {
  const manifest = JSON.parse(readFileSync(join(pkg, "package.json"), "utf8"));
  return Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies })
    .filter(([, range]) => String(range).startsWith("workspace:"))
    .map(([name]) => name)
    .sort();
}

/** Hash of everything the build of package folder `pkg` reads. */
export function inputsHash(pkg) {
  const hash = createHash("sha256");
  const add = (label, content) => hash.update(`${label}\0${content.length}\0`).update(content);
  for (const file of [...filesUnder(pkg, "src"), "package.json", "tsconfig.json", "tsdown.config.ts"]) {
    if (existsSync(join(pkg, file))) add(file, readFileSync(join(pkg, file)));
  }
  add("tsconfig.base.json", readFileSync(join(root, "tsconfig.base.json")));
  for (const script of SCRIPTS) add(relative(root, script), readFileSync(script));
  add("tsdown", createRequire(join(pkg, "package.json"))("tsdown/package.json").version);
  for (const name of workspaceDeps(pkg)) {
    const stamp = join(root, "packages", name, STAMP);
    add(name, existsSync(stamp) ? readFileSync(stamp) : "unbuilt");
  }
  return hash.digest("hex");
}

/** Whether package folder `pkg` was built from exactly these inputs and its outputs are all there. */
export function isUpToDate(pkg) {
  if (process.env.PAGEINDEX_FORCE_BUILD === "1") return false;
  try {
    const stamp = JSON.parse(readFileSync(join(pkg, STAMP), "utf8"));
    return stamp.hash === inputsHash(pkg) && stamp.outputs.every((file) => existsSync(join(pkg, file)));
  } catch {
    return false;
  }
}

/** Forgets the stamp (before a build: a failed build must not look current). */
export function clearStamp(pkg) {
  rmSync(join(pkg, STAMP), { force: true });
}

/** Records that package folder `pkg` was just built from its current inputs. */
export function writeStamp(pkg) {
  mkdirSync(dirname(join(pkg, STAMP)), { recursive: true });
  const stamp = { hash: inputsHash(pkg), outputs: filesUnder(pkg, "dist") };
  writeFileSync(join(pkg, STAMP), `${JSON.stringify(stamp, null, 2)}\n`);
}
