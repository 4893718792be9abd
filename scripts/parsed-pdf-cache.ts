/**
 * A dev-set PDF read once by the loader's reader and kept as JSON under the cache folder
 * (`DIR/parsed`, outside the repository), so evaluations re-run in seconds; `fresh` reads it
 * again (do so after a change to the PDF reader).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ParsedPdf, readPdf } from "../packages/pageindex-loader/src/pdf/read/read-pdf.js";
import { type DebianPdf, debianPdfBytes } from "./debian-docs.js";
import { isRendered, renderedPdfBytes } from "./groff-render.js";

/** The parsed PDF (from the cache when there), or undefined when its package or file is missing. */
export async function parsedPdf(
  doc: DebianPdf,
  cache: string,
  fresh = false,
): Promise<ParsedPdf | undefined> {
  const dir = join(cache, "parsed");
  const file = join(dir, `${`${doc.pkg}/${doc.path}`.replace(/[^A-Za-z0-9_.-]/g, "_")}.full.json`);
  if (!fresh && existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as ParsedPdf;
  const bytes = isRendered(doc) ? renderedPdfBytes(doc, cache) : debianPdfBytes(doc, cache);
  if (!bytes) return undefined;
  const pdf = await readPdf(bytes, { source: `${doc.pkg}/${doc.path}` });
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(pdf));
  return pdf;
}
