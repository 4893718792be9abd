/**
 * How clean the PDF loader's node texts are, on real manuals: counts of the defects the judge
 * complained about (issue 14), per document and in total. Run it before and after a change to
 * the text cleaning and compare the totals.
 *
 * - **splits**: a word broken at a line end ("sys-\ntems") or by pdf.js joining two runs
 *   ("manip- ulated"), counted when the joined word occurs elsewhere in the document's page text.
 * - **running heads**: page-edge lines (the top-most and bottom-most line of a page) that carry
 *   the page number, are one, or repeat on a fifth of the pages (see `runningHeads`), counted
 *   each time such a line is still a line of some node's text.
 * - **ligature losses**: "de nition", two letter runs around a space that become a word of the
 *   dictionary (the words of the other documents read in the run, so a manual whose every "fi"
 *   is lost, leaving "nition" in its own text, is judged by the others) once "fi", "fl", "ff",
 *   "ffi" or "ffl" fills the space, while one side alone is no word.
 * - **bar dashes**: " | " between two words, an em dash read as a vertical bar.
 *
 * Documents: the dev set's Debian PDFs (scripts/devset.ts) plus glpk-doc's glpk.pdf (fetched
 * with `apt-get download`, never committed), then the PDFs of ../shared/corpus (said when absent).
 * Trees are built with the default structure mode and no model (`summaries: "none"`).
 *
 * Run: pnpm build && npx tsx scripts/eval-pdf-text.ts [--cache DIR] [--only NAME] [--no-corpus] [--show NAME]
 */
import { existsSync, readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { pdfToTree } from "pageindex-loader";
import { readPdf } from "../packages/pageindex-loader/src/pdf/read/read-pdf.js";
import { CORPUS_DIR, corpusPdfs } from "./corpus.js";
import { debianPdfBytes } from "./debian-docs.js";
import { DEVSET, DEVSET_CACHE, type DevDoc } from "./devset.js";

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: DEVSET_CACHE },
    only: { type: "string" },
    show: { type: "string" },
    "no-corpus": { type: "boolean", default: false },
  },
});
const cache = values.cache as string;

const GLPK: DevDoc = { pkg: "glpk-doc", path: "usr/share/doc/glpk-doc/glpk.pdf", origin: "LaTeX" };
const LIGATURES = ["fi", "fl", "ff", "ffi", "ffl"];

interface DocText {
  name: string;
  pages: number;
  /** Lower-case words of the page text. */
  words: Set<string>;
  /** Page-edge lines judged running heads or page numbers. */
  heads: string[];
  /** Node texts. */
  texts: string[];
}

const wordsOf = (text: string): string[] => text.toLowerCase().match(/\p{L}+/gu) ?? [];
const BARE_NUMBER = /^(?:\d{1,4}|[ivxlc]{1,6})$/i;

/**
 * The top-most and bottom-most line of each page that are running heads: a bare page number; a
 * line starting or ending with a number that is off from its physical page by one of the
 * document's common offsets (seen on a tenth of the pages or more); or a line whose exact text
 * is the top-most or bottom-most on a fifth of the pages or more. A section heading that opens
 * a page ("Errors", "Chapter 3") is none of these.
 */
function runningHeads(pages: Awaited<ReturnType<typeof readPdf>>["pages"]): string[] {
  const edges: Array<{ text: string; page: number }> = [];
  for (const page of pages) {
    if (page.lines.length < 3) continue;
    const byY = [...page.lines].sort((a, b) => b.y - a.y);
    for (const line of [byY[0], byY[byY.length - 1]])
      if (line) edges.push({ text: line.text, page: page.pageNumber });
  }
  const numbers = (text: string): number[] =>
    [/^(\d{1,4})\s/, /\s(\d{1,4})$/].flatMap((re) => {
      const m = re.exec(text.trim());
      return m ? [Number(m[1])] : [];
    });
  const offsets = new Map<number, number>();
  const texts = new Map<string, number>();
  for (const e of edges) {
    for (const n of numbers(e.text)) offsets.set(n - e.page, (offsets.get(n - e.page) ?? 0) + 1);
    texts.set(e.text, (texts.get(e.text) ?? 0) + 1);
  }
  const common = (count: number | undefined, share: number) =>
    (count ?? 0) >= Math.max(3, share * pages.length);
  return edges
    .filter(
      (e) =>
        BARE_NUMBER.test(e.text.trim()) ||
        numbers(e.text).some((n) => common(offsets.get(n - e.page), 0.1)) ||
        common(texts.get(e.text), 0.2),
    )
    .map((e) => e.text);
}

async function measure(name: string, bytes: Uint8Array): Promise<DocText> {
  const pdf = await readPdf(bytes.slice(), { source: name });
  const tree = await pdfToTree(bytes.slice(), { summaries: "none" }, { name, path: name });
  const words = new Set(pdf.pages.flatMap((p) => wordsOf(p.text)));
  return {
    name,
    pages: pdf.pageCount,
    words,
    heads: runningHeads(pdf.pages),
    texts: tree.nodes.map((n) => n.text),
  };
}

function countSplits(doc: DocText): number {
  let n = 0;
  for (const text of doc.texts) {
    for (const m of text.matchAll(/(\p{L}+)-(?:\n| )(\p{L}+)/gu)) {
      if (doc.words.has(`${m[1]}${m[2]}`.toLowerCase())) n++;
    }
  }
  return n;
}

function countHeads(doc: DocText, show: boolean): number {
  const lines = new Map<string, number>();
  for (const text of doc.texts) for (const l of text.split("\n")) lines.set(l, (lines.get(l) ?? 0) + 1);
  const heads = new Map<string, number>();
  for (const h of doc.heads) heads.set(h, (heads.get(h) ?? 0) + 1);
  let n = 0;
  for (const [h, count] of heads) {
    const left = Math.min(count, lines.get(h) ?? 0);
    if (show && left > 0) console.log(`  running head left ${left}×: "${h}"`);
    n += left;
  }
  return n;
}

function countLigatureLosses(doc: DocText, docsWith: Map<string, number>, show: boolean): number {
  const known = (w: string) => (docsWith.get(w) ?? 0) - (doc.words.has(w) ? 1 : 0) > 0;
  let n = 0;
  for (const text of doc.texts) {
    for (const m of text.matchAll(/(?<!\p{L})(\p{L}+) (\p{L}+)(?!\p{L})/gu)) {
      const a = (m[1] as string).toLowerCase();
      const b = (m[2] as string).toLowerCase();
      if (known(a) && known(b)) continue;
      const fill = LIGATURES.find((l) => known(`${a}${l}${b}`));
      if (fill) {
        n++;
        if (show && n <= 10) console.log(`  ligature loss: "${m[0]}" (${a}${fill}${b})`);
      }
    }
  }
  return n;
}

const countBars = (doc: DocText): number =>
  doc.texts.reduce((s, t) => s + (t.match(/\p{L} \| \p{L}/gu)?.length ?? 0), 0);

const docs: DocText[] = [];
const wanted = (label: string) => !values.only || label.includes(values.only);
for (const doc of [...DEVSET, GLPK]) {
  // The package and the file with its folder: gap-doc holds several "manual.pdf".
  const label = `${doc.pkg}/${doc.path.split("/").slice(-2).join("/").replace(/\.gz$/, "")}`;
  if (!wanted(label)) continue;
  const bytes = debianPdfBytes(doc, cache, { layoutHeldOut: doc === GLPK });
  if (bytes) docs.push(await measure(label, bytes));
}
if (!values["no-corpus"]) {
  if (existsSync(CORPUS_DIR)) {
    for (const file of corpusPdfs()) {
      const label = `corpus/${basename(file)}`;
      if (wanted(label)) docs.push(await measure(label, new Uint8Array(readFileSync(file))));
    }
  } else console.log(`corpus not found at ${CORPUS_DIR}: only the Debian PDFs are measured`);
}

const docsWith = new Map<string, number>();
for (const d of docs) for (const w of d.words) docsWith.set(w, (docsWith.get(w) ?? 0) + 1);

console.log("doc | pages | nodes | splits | running heads | ligature losses | bar dashes");
console.log("--- | ---: | ---: | ---: | ---: | ---: | ---:");
const total = { splits: 0, heads: 0, ligatures: 0, bars: 0 };
for (const d of docs) {
  const show = values.show !== undefined && d.name.includes(values.show);
  const row = {
    splits: countSplits(d),
    heads: countHeads(d, show),
    ligatures: countLigatureLosses(d, docsWith, show),
    bars: countBars(d),
  };
  total.splits += row.splits;
  total.heads += row.heads;
  total.ligatures += row.ligatures;
  total.bars += row.bars;
  console.log(
    `${d.name} | ${d.pages} | ${d.texts.length} | ${row.splits} | ${row.heads} | ${row.ligatures} | ${row.bars}`,
  );
}
console.log(
  `total (${docs.length} documents) | | | ${total.splits} | ${total.heads} | ${total.ligatures} | ${total.bars}`,
);
