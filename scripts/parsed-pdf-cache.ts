/**
 * A dev-set PDF read once by the loader's reader and kept as JSON under the cache folder
 * (`DIR/parsed/<reader>`, outside the repository), so evaluations re-run in seconds; `fresh`
 * reads it again. `<reader>` is a hash of the reader's sources (`read-pdf.ts` and every module
 * it imports, transitively), so a change to how PDFs are read lands in a new folder instead of
 * being hidden by copies read with the old code (the fifteenth session's leader-dots change was
 * invisible until 295 cached PDFs were read again by hand).
 */
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { type ParsedPdf, readPdf } from "../packages/pageindex-loader/src/pdf/read/read-pdf.js";
import { type DebianPdf, debianPdfBytes } from "./debian-docs.js";
import { isRendered, renderedPdfBytes } from "./groff-render.js";

const READER = fileURLToPath(
  new URL("../packages/pageindex-loader/src/pdf/read/read-pdf.ts", import.meta.url),
);

/** Relative imports of a module (`./x.js` → `./x.ts`), the only ones whose change matters here. */
function relativeImports(file: string): string[] {
  const source = readFileSync(file, "utf8");
  const found: string[] = [];
  for (const match of source.matchAll(/from\s+"(\.{1,2}\/[^"]+)"/g)) {
    found.push(resolve(dirname(file), (match[1] as string).replace(/\.js$/, ".ts")));
  }
  return found;
}

/** Hash of the reader's own sources, transitively; 12 hex digits name its cache folder. */
export function readerVersion(entry = READER): string {
  const seen = new Set<string>();
  const queue = [entry];
  while (queue.length > 0) {
    const file = queue.pop() as string;
    if (seen.has(file) || !existsSync(file)) continue;
    seen.add(file);
    queue.push(...relativeImports(file));
  }
  const hash = createHash("sha256");
  for (const file of [...seen].sort()) {
    hash.update(relative(dirname(READER), file)).update(readFileSync(file));
  }
  return hash.digest("hex").slice(0, 12);
}

let version: string | undefined;

/** The parsed PDF (from the cache when there), or undefined when its package or file is missing. */
export async function parsedPdf(
  doc: DebianPdf,
  cache: string,
  fresh = false,
): Promise<ParsedPdf | undefined> {
  version ??= readerVersion();
  const dir = join(cache, "parsed", version);
  const file = join(dir, `${`${doc.pkg}/${doc.path}`.replace(/[^A-Za-z0-9_.-]/g, "_")}.full.json`);
  if (!fresh && existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as ParsedPdf;
  const bytes = isRendered(doc) ? renderedPdfBytes(doc, cache) : debianPdfBytes(doc, cache);
  if (!bytes) return undefined;
  const pdf = await readPdf(bytes, { source: `${doc.pkg}/${doc.path}` });
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(pdf));
  return pdf;
}
