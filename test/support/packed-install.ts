// npm projects that install packed workspace packages, cached between runs by content: the
// packs are hashed with the project's dependencies, and a project installed before from exactly
// the same tarballs is reused instead of installed again (an install is most of the consumer
// test's time). Projects are installed side by side, not one after another.
import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";

const exec = promisify(execFile);

/** Where installed projects are kept between runs (one per content hash). */
export const INSTALL_CACHE = join(tmpdir(), "pageindex-consumer-cache");

/** Packs `packages` (folders under `packagesDir`) with `pnpm pack`, all at once; returns name → tarball path. */
export async function packAll(packagesDir: string, packages: readonly string[], into: string) {
  await mkdir(into, { recursive: true });
  await Promise.all(
    packages.map((name) =>
      exec("pnpm", ["pack", "--pack-destination", into], { cwd: join(packagesDir, name), timeout: 180_000 }),
    ),
  );
  const files = await readdir(into);
  const tarballs = new Map<string, string>();
  for (const name of packages) {
    const file = files.find((f) => f.startsWith(`${name}-`) && f.endsWith(".tgz"));
    if (file) tarballs.set(name, join(into, file));
  }
  return tarballs;
}

/** An installed npm project: its folder and what `npm install` printed (warnings included). */
export interface InstalledProject {
  dir: string;
  npmOutput: string;
  /** True when an earlier run's install of the same content was reused. */
  cached: boolean;
}

/**
 * A project whose package.json lists `dependencies` (registry ranges, or tarball paths from
 * {@link packAll} given as `file:` + path), installed with plain npm. Cached by the bytes of the
 * tarballs and the dependency list; a new install is built in a temporary folder and renamed into
 * place, so a run that stops midway or a concurrent run never leaves a half-installed project.
 */
export async function installedProject(
  label: string,
  dependencies: Record<string, string>,
): Promise<InstalledProject> {
  const hash = createHash("sha256").update(label);
  for (const [name, spec] of Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b))) {
    hash.update(`${name}\0${spec.startsWith("file:") ? "" : spec}\0`);
    if (spec.startsWith("file:")) hash.update(await readFile(spec.slice("file:".length)));
  }
  const key = `${label}-${hash.digest("hex").slice(0, 16)}`;
  const dir = join(INSTALL_CACHE, key);
  const log = join(dir, "npm-install.log");
  if (existsSync(log)) {
    const now = new Date();
    await utimes(dir, now, now); // marks it used, see dropOtherVersions
    return { dir, npmOutput: await readFile(log, "utf8"), cached: true };
  }

  await mkdir(INSTALL_CACHE, { recursive: true });
  const work = await mkdtemp(join(INSTALL_CACHE, `.${label}-`));
  // Tarballs are copied in: the cached project must not point at a temporary pack folder.
  const local: Record<string, string> = {};
  for (const [name, spec] of Object.entries(dependencies)) {
    if (!spec.startsWith("file:")) {
      local[name] = spec;
      continue;
    }
    const file = `${name.replace("/", "-")}.tgz`;
    await writeFile(join(work, file), await readFile(spec.slice("file:".length)));
    local[name] = `file:${file}`;
  }
  await writeFile(
    join(work, "package.json"),
    JSON.stringify({ name: "consumer", private: true, dependencies: local }),
  );
  try {
    // --loglevel=warn: the output is kept so a test can check it (no EBADENGINE on this Node).
    const { stdout, stderr } = await exec(
      "npm",
      ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=warn"],
      { cwd: work, timeout: 480_000, maxBuffer: 20 * 1024 * 1024 },
    );
    await writeFile(join(work, "npm-install.log"), `${stdout}${stderr}`);
    await dropOtherVersions(label, key);
    await rename(work, dir).catch(async (error: NodeJS.ErrnoException) => {
      // Another run installed the same content first: use theirs.
      if (!existsSync(log)) throw error;
      await rm(work, { recursive: true, force: true });
    });
  } catch (error) {
    await rm(work, { recursive: true, force: true });
    throw error;
  }
  return { dir, npmOutput: await readFile(log, "utf8"), cached: false };
}

/** A day: cached installs unused for longer are removed. */
const STALE_MS = 24 * 60 * 60 * 1000;

/**
 * Removes cached installs of `label` for other contents not used for a day, so the cache does
 * not grow without end; younger ones stay, another checkout may be using them right now.
 */
async function dropOtherVersions(label: string, keep: string): Promise<void> {
  for (const entry of await readdir(INSTALL_CACHE)) {
    if (!entry.startsWith(`${label}-`) || entry === keep) continue;
    const used = await stat(join(INSTALL_CACHE, entry)).catch(() => undefined);
    if (used && Date.now() - used.mtimeMs > STALE_MS) {
      await rm(join(INSTALL_CACHE, entry), { recursive: true, force: true });
    }
  }
}
