// The build stamp of a workspace package: a SHA-256 over everything its build reads, kept in
// node_modules/.cache/pageindex-build/stamp.json (outside dist/, so it is never packed) with the
// list of files the build wrote. Content decides: a checkout or a `touch` does not rebuild, an
// edit always does. The hash covers the package's src/, package.json, tsconfig and tsdown
// config, the shared tsconfig, the build scripts, tsdown's package.json (its version) and the
// hashes of the workspace packages it depends on (built first), so a change in pageindex-core
// rebuilds its dependents too.
//
// Hashing every source on every `pnpm demo` is the slow part of a check, so the stamp also keeps
// each input's size and mtime: when the same files have the same sizes and mtimes, nothing is
// read. Any difference (or an mtime too close to when the stamp was written to be trusted, as git
// does for its index) falls back to the content hash, and a matching hash refreshes the sizes and
// mtimes so the next check is cheap again.
import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

export const root = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const STAMP = join("node_modules", ".cache", "pageindex-build", "stamp.json");
/** An mtime this close (ms) to the stamp's writing may hide a same-size edit in the same tick. */
const RACY_MS = 2000;

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

let tsdownManifest;
/** Every file the build of package folder `pkg` reads, as absolute paths, in a fixed order. */
function inputFiles(pkg) {
  tsdownManifest ??= createRequire(join(root, "package.json")).resolve("tsdown/package.json");
  const own = [...filesUnder(pkg, "src"), "package.json", "tsconfig.json", "tsdown.config.ts"]
    .map((file) => join(pkg, file))
    .filter((file) => existsSync(file));
  const shared = ["tsconfig.base.json", "scripts/build-stamp.mjs", "scripts/build-package.mjs"];
  return [...own, ...shared.map((file) => join(root, file)), tsdownManifest];
}

/** The stamp of package folder `pkg`, or undefined when it has none (never built, or cleared). */
function readStamp(pkg) {
  try {
    return JSON.parse(readFileSync(join(pkg, STAMP), "utf8"));
  } catch {
    return undefined;
  }
}

/** The hashes of the stamps of the workspace packages `pkg` depends on ("unbuilt" for none). */
function depHashes(pkg) {
  return Object.fromEntries(
    workspaceDeps(pkg).map((name) => [name, readStamp(join(root, "packages", name))?.hash ?? "unbuilt"]),
  );
}

/** Hash of the content of `files` (labelled by path, so a rename counts) and the dependencies' hashes. */
function contentHash(files, deps) {
  const hash = createHash("sha256");
  const add = (label, content) => hash.update(`${label}\0${content.length}\0`).update(content);
  for (const file of files) add(relative(root, file), readFileSync(file));
  for (const [name, depHash] of Object.entries(deps)) add(name, depHash);
  return hash.digest("hex");
}

/** Size and mtime of each of `files`, keyed by path relative to the repository. */
function statsOf(files) {
  return Object.fromEntries(
    files.map((file) => {
      const stat = statSync(file);
      return [relative(root, file), [stat.size, stat.mtimeMs]];
    }),
  );
}

/** Whether `stats` (from statsOf) are those `stamp` recorded, each old enough to trust. */
function sameStats(stamp, stats) {
  const recorded = stamp.inputs ?? {};
  const names = Object.keys(stats);
  if (names.length !== Object.keys(recorded).length) return false;
  return names.every((name) => {
    const [size, mtime] = stats[name];
    const was = recorded[name];
    return was !== undefined && was[0] === size && was[1] === mtime && mtime < stamp.writtenAt - RACY_MS;
  });
}

/** Hash of everything the build of package folder `pkg` reads. */
export function inputsHash(pkg) {
  return contentHash(inputFiles(pkg), depHashes(pkg));
}

/**
 * Whether package folder `pkg` was built from exactly these inputs and its outputs are all
 * there. Reads no source when sizes and mtimes are unchanged since the stamp was written.
 */
export function isUpToDate(pkg) {
  if (process.env.PAGEINDEX_FORCE_BUILD === "1") return false;
  const stamp = readStamp(pkg);
  if (!stamp || !Array.isArray(stamp.outputs)) return false;
  if (!stamp.outputs.every((file) => existsSync(join(pkg, file)))) return false;
  const files = inputFiles(pkg);
  const stats = statsOf(files);
  const deps = depHashes(pkg);
  const depsSame = JSON.stringify(deps) === JSON.stringify(stamp.deps ?? null);
  if (depsSame && sameStats(stamp, stats)) return true;
  if (contentHash(files, deps) !== stamp.hash) return false;
  // Same content, new mtimes (a checkout, a touch, or a fresh build): trust the new ones next time.
  saveStamp(pkg, { ...stamp, deps, inputs: stats });
  return true;
}

/** Forgets the stamp (before a build: a failed build must not look current). */
export function clearStamp(pkg) {
  rmSync(join(pkg, STAMP), { force: true });
}

/**
 * Writes `stamp` with the time now (for the racy-mtime rule), whole or not at all: another
 * process checking at the same moment must not read half a stamp and rebuild.
 */
function saveStamp(pkg, stamp) {
  const file = join(pkg, STAMP);
  mkdirSync(dirname(file), { recursive: true });
  const partial = `${file}.${process.pid}.tmp`;
  writeFileSync(partial, `${JSON.stringify({ ...stamp, writtenAt: Date.now() }, null, 2)}\n`);
  renameSync(partial, file);
}

/** Records that package folder `pkg` was just built from its current inputs. */
export function writeStamp(pkg) {
  const files = inputFiles(pkg);
  // Stats before content: an edit while hashing leaves a newer mtime, so the next check rehashes.
  const inputs = statsOf(files);
  const deps = depHashes(pkg);
  saveStamp(pkg, { hash: contentHash(files, deps), deps, inputs, outputs: filesUnder(pkg, "dist") });
}
