/**
 * The layout path (no outline, no LLM) on a dev set of real manuals it was not written on:
 * outline-bearing PDFs from Debian documentation packages of varied origin (Texinfo, LaTeX,
 * plain TeX, LyX, DocBook, AsciiDoc, Doxygen, Sphinx, XSL-FO). Each PDF's outline is hidden
 * (the layout path never reads it) and then serves as the reference, with its own levels.
 *
 * Fetching: `apt-get download <package>` into a cache folder outside the repository
 * (`--cache DIR`, default `~/.cache/pageindex-devset`; nothing is committed), unpacked with
 * `dpkg-deb -x`; `.pdf.gz` files are gunzipped in memory. Packages that cannot be fetched
 * (no apt, no network) are listed and skipped. These packages are deliberately NOT in the set,
 * so that a separate held-out check stays honest: r-doc-pdf, gnuplot-doc, glpk-doc,
 * ghostscript-doc, developers-reference, mpich-doc, libigraph-doc and all texlive-*-doc.
 *
 * Scoring, per document, on the top two levels: reference = the outline's level-1 and level-2
 * bookmarks; predicted = the layout tree's level-1 and level-2 nodes. A node matches a
 * bookmark when the start pages are equal, the titles are alike (see structure-match.ts) and
 * the levels are equal (level-aware: a heading at the wrong depth is an error). Precision,
 * recall and F1 per document; the mean F1 over documents is the headline. An outline whose
 * only top-level bookmark is the document's title holding everything is read one level down
 * (its children are level 1): the layout path makes such a title the document's title, not a
 * root node. "F1 any level" ignores levels, to tell depth errors from missed headings.
 *
 * Parsed pages are cached in `DIR/parsed` (JSON, one file per PDF) so that re-runs score the
 * layout path only; `--fresh` reads every PDF again (do so after a change to the PDF reader).
 *
 * Run: pnpm build && npx tsx scripts/eval-pdf-devset.ts [--cache DIR] [--only NAME] [--show NAME] [--fresh] [--holdout]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { readPdf } from "../packages/pageindex-loader/src/pdf/read/read-pdf.js";
import { layoutContext, layoutStructure } from "../packages/pageindex-loader/src/pdf/structure/layout.js";
import { outlineStructure } from "../packages/pageindex-loader/src/pdf/structure/outline.js";
import type { OutlineEntry, ParsedPage } from "../packages/pageindex-loader/src/pdf/types.js";
import { debianPdfBytes } from "./debian-docs.js";
import { DEVSET, DEVSET_CACHE, type DevDoc, HOLDOUT } from "./devset.js";
import { f1, referenceEntries, showEntries, topTwo } from "./layout-devset-score.js";
import { match } from "./structure-match.js";

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: DEVSET_CACHE },
    only: { type: "string" },
    show: { type: "string" },
    fresh: { type: "boolean", default: false },
    holdout: { type: "boolean", default: false },
  },
});
const cache = values.cache as string;

/** What the layout path and the reference need from a parsed PDF. */
interface Parsed {
  pageCount: number;
  pages: ParsedPage[];
  outline: OutlineEntry[];
  pageLabels: string[] | null;
}

/** The PDF read once and cached as JSON; `--fresh` reads it again. */
async function parsed(doc: DevDoc, label: string): Promise<Parsed | undefined> {
  const dir = join(cache, "parsed");
  const file = join(dir, `${`${doc.pkg}/${doc.path}`.replace(/[^A-Za-z0-9_.-]/g, "_")}.json`);
  if (!values.fresh && existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as Parsed;
  const bytes = debianPdfBytes(doc, cache);
  if (!bytes) return undefined;
  const pdf = await readPdf(bytes, { source: label });
  const out: Parsed = {
    pageCount: pdf.pageCount,
    pages: pdf.pages,
    outline: pdf.outline,
    pageLabels: pdf.pageLabels,
  };
  mkdirSync(dir, { recursive: true });
  writeFileSync(file, JSON.stringify(out));
  return out;
}

const pct = (x: number): string => (100 * x).toFixed(1);

interface Row {
  name: string;
  f1: number;
}

const rows: Row[] = [];
console.log(
  "doc | package | origin | pages | outline top-2 | layout top-2 | precision | recall | F1 | F1 any level | confidence | layout ms",
);
console.log("--- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---:");
for (const doc of values.holdout ? HOLDOUT : DEVSET) {
  const name = basename(doc.path).replace(/\.gz$/, "");
  const label = `${doc.pkg}/${name}`;
  if (values.only && !label.includes(values.only)) continue;
  const pdf = await parsed(doc, label);
  if (!pdf) continue;
  const outline = outlineStructure(pdf.outline);
  if (!outline.usable) {
    console.log(`not scored: ${label} (${outline.reason})`);
    continue;
  }
  const reference = referenceEntries(outline.entries);
  const t0 = performance.now();
  const ctx = layoutContext(pdf.pages, { pageLabels: pdf.pageLabels });
  const result = layoutStructure(ctx);
  const ms = performance.now() - t0;
  const predicted = topTwo(result.entries);
  const hits = match(reference, predicted, 0, true).size;
  const anyLevel = match(reference, predicted, 0, false).size;
  const precision = predicted.length === 0 ? 0 : hits / predicted.length;
  const recall = hits / reference.length;
  const score = f1(precision, recall);
  const blind = f1(predicted.length === 0 ? 0 : anyLevel / predicted.length, anyLevel / reference.length);
  rows.push({ name: label, f1: score });
  console.log(
    `${name} | ${doc.pkg} | ${doc.origin} | ${pdf.pageCount} | ${reference.length} | ${predicted.length} | ${pct(precision)} | ${pct(recall)} | ${pct(score)} | ${pct(blind)} | ${result.confidence.score.toFixed(2)} | ${ms.toFixed(0)}`,
  );
  if (values.show && label.includes(values.show)) {
    showEntries(reference, predicted);
  }
}
const mean = rows.reduce((s, r) => s + r.f1, 0) / Math.max(1, rows.length);
console.log(`\nmean level-aware F1 (top two levels) over ${rows.length} documents: ${pct(mean)}`);
