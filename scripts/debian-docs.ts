import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";

/** Where fetched Debian documentation packages are kept (outside the repository; never committed). */
export const DEBIAN_CACHE = join(homedir(), ".cache", "pageindex-devset");

/** Packages held out for separate checks (see eval-pdf-devset.ts): no evaluation here uses them. */
const EXCLUDED = [
  "r-doc-pdf",
  "gnuplot-doc",
  "glpk-doc",
  "ghostscript-doc",
  "developers-reference",
  "mpich-doc",
  "libigraph-doc",
];

/** Whether a package is held out (the list above and every texlive-*-doc). */
export function excludedPackage(pkg: string): boolean {
  return EXCLUDED.includes(pkg) || pkg.startsWith("texlive-");
}

/**
 * A Debian package's files, fetched with `apt-get download` and unpacked with `dpkg-deb -x`
 * once into `cache`; `undefined` (with a message) when it cannot be fetched.
 */
export function debianPackageRoot(pkg: string, cache = DEBIAN_CACHE): string | undefined {
  if (excludedPackage(pkg)) throw new Error(`${pkg} is excluded from evaluations`);
  const debs = join(cache, "debs");
  const root = join(cache, "x", pkg);
  if (existsSync(root)) return root;
  mkdirSync(debs, { recursive: true });
  const find = () => readdirSync(debs).find((f) => f.startsWith(`${pkg}_`) && f.endsWith(".deb"));
  if (!find()) {
    try {
      execFileSync("apt-get", ["download", pkg], { cwd: debs, stdio: "pipe" });
    } catch (error) {
      console.log(`skipped ${pkg}: apt-get download failed (${(error as Error).message.split("\n")[0]})`);
      return undefined;
    }
  }
  const deb = find();
  if (!deb) return undefined;
  mkdirSync(root, { recursive: true });
  execFileSync("dpkg-deb", ["-x", join(debs, deb), root]);
  return root;
}

/** A PDF of a Debian package (`.pdf.gz` unpacked in memory), or `undefined` with a message. */
export function debianPdf(pkg: string, path: string, cache = DEBIAN_CACHE): Uint8Array | undefined {
  const root = debianPackageRoot(pkg, cache);
  if (!root) return undefined;
  const file = join(root, path);
  if (!existsSync(file)) {
    console.log(`skipped ${pkg}: ${path} is not in the package`);
    return undefined;
  }
  const raw = readFileSync(file);
  return new Uint8Array(path.endsWith(".gz") ? gunzipSync(raw) : raw);
}
