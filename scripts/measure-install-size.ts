/**
 * Install size of each package as a user gets it: the workspace packages packed (`pnpm pack`,
 * as published), each installed with plain npm into an empty project together with
 * `@langchain/core` (the peer every package needs) and the tarballs of the sibling packages it
 * depends on; the size is `du` of node_modules minus that of a project holding @langchain/core
 * alone. Needs the npm registry (or npm's cache). Usage: pnpm run build && npx tsx scripts/measure-install-size.ts
 */
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);
const root = resolve(import.meta.dirname, "..");
const PACKAGES = [
  "pageindex-core",
  "pageindex-store",
  "pageindex-loader",
  "pageindex-retriever",
  "pageindex-cli",
];
const CORE = "1.2.18";

const work = await mkdtemp(join(tmpdir(), "pageindex-size-"));
const packs = join(work, "packs");
await mkdir(packs);
for (const name of PACKAGES)
  await exec("pnpm", ["pack", "--pack-destination", packs], { cwd: join(root, "packages", name) });
const tarballs = await readdir(packs);
const tarball = (name: string) =>
  `file:${join(packs, tarballs.find((f) => f.startsWith(`${name}-`)) ?? name)}`;

/** Workspace packages `name` needs, itself included, from the packed manifests' dependencies. */
async function withSiblings(name: string): Promise<string[]> {
  const manifest = JSON.parse(await readFile(join(root, "packages", name, "package.json"), "utf8")) as {
    dependencies?: Record<string, string>;
  };
  const siblings = Object.keys(manifest.dependencies ?? {}).filter((d) => PACKAGES.includes(d));
  const nested = await Promise.all(siblings.map(withSiblings));
  return [...new Set([name, ...nested.flat()])];
}

/** KiB of node_modules after npm installs `dependencies` into an empty project. */
async function installedKiB(label: string, dependencies: Record<string, string>): Promise<number> {
  const dir = join(work, label);
  await mkdir(dir);
  await writeFile(join(dir, "package.json"), JSON.stringify({ name: label, private: true, dependencies }));
  await exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], {
    cwd: dir,
    timeout: 600_000,
  });
  const { stdout } = await exec("du", ["-sk", join(dir, "node_modules")]);
  return Number(stdout.split("\t")[0]);
}

const mb = (kib: number) => `${(kib / 1024).toFixed(1)} MB`;
try {
  const core = await installedKiB("core-only", { "@langchain/core": CORE });
  console.log(`@langchain/core ${CORE} alone: ${mb(core)} (subtracted below)`);
  const rows: Array<[string, string]> = [];
  for (const name of PACKAGES) {
    const deps: Record<string, string> = { "@langchain/core": CORE };
    for (const pkg of await withSiblings(name)) deps[pkg] = tarball(pkg);
    const kib = await installedKiB(name, deps);
    rows.push([name, mb(kib - core)]);
    console.log(`${name}: ${mb(kib - core)} on top of @langchain/core`);
  }
  const search = await installedKiB("search-only", {
    "@langchain/core": CORE,
    "pageindex-core": tarball("pageindex-core"),
    "pageindex-store": tarball("pageindex-store"),
    "pageindex-retriever": tarball("pageindex-retriever"),
  });
  console.log(`pageindex-store + pageindex-retriever (search only): ${mb(search - core)}`);
  console.log(`\n| package | install size on top of @langchain/core |\n| --- | --- |`);
  for (const [name, size] of rows) console.log(`| ${name} | ${size} |`);
} finally {
  await rm(work, { recursive: true, force: true });
}
