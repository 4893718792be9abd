// PDF indexing speed (no LLM): pages per second of the loader's outline and layout paths next to
// raw `pdf-parse` v2 text extraction (`getText()`) of the same bytes, in one process, as ratios.
// Also the loader's read step alone (pdf.js text items → lines, fonts, outline) to show where the
// time goes. Each measurement is the best of `--runs` (default 2) after one warm-up file, so a
// noisy neighbour on the shared machine inflates a number less often.
// Reads ../shared/corpus (FinanceBench and PageIndex sample PDFs) and says so when it is absent.
// Usage: pnpm build && npx tsx scripts/bench-pdf.ts [--runs N] [--files a.pdf,b.pdf]
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import { parseArgs } from "node:util";
import { pdfToTree } from "pageindex-loader";
import { PDFParse } from "pdf-parse";
import { readPdf } from "../packages/pageindex-loader/src/pdf/read/read-pdf.js";
import { outlineStructure } from "../packages/pageindex-loader/src/pdf/structure/outline.js";
import { corpusPdfs } from "./corpus.js";

const { values } = parseArgs({
  options: { runs: { type: "string", default: "2" }, files: { type: "string" } },
});
const runs = Math.max(1, Number.parseInt(values.runs ?? "2", 10) || 2);

// --files a.pdf,b.pdf measures those instead (e.g. the dev set's large manuals, see eval-pdf-devset.ts).
const files = values.files ? values.files.split(",").filter(Boolean) : corpusPdfs();

async function rawPdfParse(bytes: Uint8Array): Promise<number> {
  // pdf.js may take ownership of the buffer it is given: hand each parser its own copy.
  const parser = new PDFParse({ data: bytes.slice() });
  try {
    const result = await parser.getText();
    return result.pages.length;
  } finally {
    await parser.destroy();
  }
}

async function best(work: () => Promise<unknown>): Promise<number> {
  let min = Number.POSITIVE_INFINITY;
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await work();
    min = Math.min(min, performance.now() - start);
  }
  return min;
}

const build = (bytes: Uint8Array, name: string, structure: "outline" | "layout") =>
  pdfToTree(bytes.slice(), { structure, summaries: "none" }, { name, path: name });

// Warm-up: pdf.js module load, JIT, the tokenizer's rank table.
if (files[0]) {
  const warm = new Uint8Array(readFileSync(files[0]));
  await rawPdfParse(warm);
  await build(warm, "warm", "layout");
}

console.log(
  `best of ${runs} run(s) per cell; ratios are loader time / raw pdf-parse time on the same file\n`,
);
console.log(
  "file | pages | raw pdf-parse ms | read step × | outline path × | layout path × | layout pages/s",
);
console.log("--- | ---: | ---: | ---: | ---: | ---: | ---:");
const totals = { pages: 0, raw: 0, read: 0, layout: 0, outlineRaw: 0, outline: 0 };
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const name = basename(file);
  let pages = 0;
  const raw = await best(async () => {
    pages = await rawPdfParse(bytes);
  });
  let hasOutline = false;
  const read = await best(async () => {
    const parsed = await readPdf(bytes.slice(), { source: name });
    hasOutline = outlineStructure(parsed.outline).usable;
  });
  const outline = hasOutline ? await best(() => build(bytes, name, "outline")) : undefined;
  const layout = await best(() => build(bytes, name, "layout"));
  totals.pages += pages;
  totals.raw += raw;
  totals.read += read;
  totals.layout += layout;
  if (outline !== undefined) {
    totals.outlineRaw += raw;
    totals.outline += outline;
  }
  console.log(
    [
      name,
      pages,
      raw.toFixed(0),
      (read / raw).toFixed(2),
      outline === undefined ? "no usable outline" : (outline / raw).toFixed(2),
      (layout / raw).toFixed(2),
      ((pages * 1000) / layout).toFixed(0),
    ].join(" | "),
  );
}
console.log(
  [
    "**all**",
    totals.pages,
    totals.raw.toFixed(0),
    (totals.read / totals.raw).toFixed(2),
    totals.outlineRaw > 0 ? (totals.outline / totals.outlineRaw).toFixed(2) : "n/a",
    (totals.layout / totals.raw).toFixed(2),
    ((totals.pages * 1000) / totals.layout).toFixed(0),
  ].join(" | "),
);
console.log(
  `\nraw pdf-parse: ${((totals.pages * 1000) / totals.raw).toFixed(0)} pages/s over ${files.length} files. ` +
    "The outline ratio is over the files that have an outline.",
);
