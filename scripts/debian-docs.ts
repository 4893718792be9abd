/**
 * PDFs and Markdown files from Debian documentation packages for the evaluation scripts: `apt-get download` into a
 * cache folder outside the repository (nothing is committed), unpacked once with `dpkg-deb -x`;
 * `.gz` files (`.pdf.gz`, `.md.gz`) are gunzipped in memory. A package apt cannot fetch is
 * reported and skipped.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { homedir } from "node:os";
import { basename, join } from "node:path";
import { gunzipSync } from "node:zlib";

/** Where fetched Debian documentation packages are kept (outside the repository; never committed). */
export const DEBIAN_CACHE = join(homedir(), ".cache", "pageindex-devset");

/** Held out of every evaluation here: separate checks measure on them. */
const HELD_OUT = ["r-doc-pdf", "gnuplot-doc", "libigraph-doc"];

/**
 * Held out of the layout dev set (issue 15's list). glpk-doc's manual is the ligature case issue 14
 * names, so the text-cleaning evaluation may read it; no structure evaluation does.
 */
const LAYOUT_HELD_OUT = ["glpk-doc", "ghostscript-doc", "developers-reference", "mpich-doc"];

/** Whether a package is held out (texlive-*-doc always; the layout list unless `layoutHeldOut` is allowed). */
export function excludedPackage(pkg: string, allow: { layoutHeldOut?: boolean } = {}): boolean {
  if (HELD_OUT.includes(pkg) || pkg.startsWith("texlive-")) return true;
  return !allow.layoutHeldOut && LAYOUT_HELD_OUT.includes(pkg);
}

/** One PDF inside a package. */
export interface DebianPdf {
  /** Debian package. */
  pkg: string;
  /** Path inside the package. */
  path: string;
}

/** The package's files under `cache`, fetched and unpacked once; undefined (with a message) when apt cannot fetch it. */
export function unpackedPackage(
  pkg: string,
  cache: string = DEBIAN_CACHE,
  allow: { layoutHeldOut?: boolean } = {},
): string | undefined {
  if (excludedPackage(pkg, allow)) throw new Error(`${pkg} is held out of the evaluations`);
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

/** A file's bytes (gunzipped when it ends in `.gz`), or undefined (with a message) when its package or file is missing. */
export function debianFileBytes(
  doc: DebianPdf,
  cache: string = DEBIAN_CACHE,
  allow: { layoutHeldOut?: boolean } = {},
): Uint8Array | undefined {
  const root = unpackedPackage(doc.pkg, cache, allow);
  if (!root) return undefined;
  const file = join(root, doc.path);
  if (!existsSync(file)) {
    console.log(`skipped ${doc.pkg}: ${doc.path} is not in the package`);
    return undefined;
  }
  const raw = readFileSync(file);
  return new Uint8Array(doc.path.endsWith(".gz") ? gunzipSync(raw) : raw);
}

/** The PDF's bytes, or undefined (with a message) when its package or file is missing. */
export const debianPdfBytes = debianFileBytes;

/** The documents (those whose "package/file" label contains `only`, when given) with their bytes, skipping missing ones. */
export function* debianPdfs<D extends DebianPdf>(
  docs: readonly D[],
  cache: string,
  only?: string,
): Generator<{ doc: D; name: string; label: string; bytes: Uint8Array }> {
  for (const doc of docs) {
    const name = basename(doc.path).replace(/\.gz$/, "");
    const label = `${doc.pkg}/${name}`;
    if (only && !label.includes(only)) continue;
    const bytes = debianPdfBytes(doc, cache);
    if (bytes) yield { doc, name, label, bytes };
  }
}
