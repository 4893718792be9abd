/**
 * Does each section's text start at its own heading (issue 18)? Runs the loader on outline PDFs
 * whose sections start mid-page, reference manuals with a running head on every page (Debian
 * documentation packages, fetched like scripts/eval-pdf-devset.ts does and cached in
 * `~/.cache/pageindex-devset`; never committed), through three paths:
 * - `outline`: the loader as users run it (the outline's destinations give page and y);
 * - `llm`: the same bookmarks with only title and page, as the LLM pipeline gives them, so the
 *   heading must be found by its text (the path a model's sections take);
 * - `layout`: the outline hidden, structure from the page layout (on a few documents).
 *
 * Per document and path:
 * - starts: % of sections whose text begins with their own heading, among the sections whose
 *   title is printed on their start page (a bookmark titled unlike any line cannot be checked;
 *   how many those are is shown);
 * - next: sections whose text holds the heading of the section after them (a line that starts
 *   with that title, past the first line), counted only when the next title is printed on its
 *   own start page; when the next section's text starts with its own heading, the line is only a
 *   mention of it (texts never overlap) and is counted apart;
 * - coverage: every node's own text in reading order against the document's body text (all page
 *   lines minus running heads, footers and page numbers as the loader detects them), compared as
 *   multisets of lines: characters lost and characters duplicated, and whether the whitespace-free
 *   concatenations are equal.
 *
 * Run: pnpm build && npx tsx scripts/eval-section-starts.ts [--only NAME] [--show NAME] [--paths outline,llm,layout]
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTree, type TreeNode } from "pageindex-core";
import { pdfToTree } from "pageindex-loader";
import { layoutContext, outlineStructure, readPdf } from "../packages/pageindex-loader/src/pdf/index.js";
// The steps every path ends in, fed the bookmarks' titles and pages as a model's sections would be.
import {
  bodyFurniture,
  entriesToDrafts,
  locateEntries,
  orderPositions,
  TextSlicer,
} from "../packages/pageindex-loader/src/pdf/structure/sections.js";
import { textFurniture, withEdgeBands } from "../packages/pageindex-loader/src/pdf/text/running-heads.js";
import { debianPdfs } from "./debian-docs.js";
import { asModelSections, nodeSections, score, withoutHeadings } from "./section-starts-score.js";

interface EvalDoc {
  pkg: string;
  path: string;
  /** Also run the layout path (outline hidden). */
  layout?: boolean;
}

const ERL = "usr/share/doc/erlang-doc/lib";
/** Reference manuals with running heads; sections (functions, options, topics) start mid-page. */
const DOCS: readonly EvalDoc[] = [
  { pkg: "erlang-doc", path: `${ERL}/crypto-5.1.2/doc/pdf/crypto-5.1.2.pdf`, layout: true },
  { pkg: "erlang-doc", path: `${ERL}/sasl-4.2/doc/pdf/sasl-4.2.pdf`, layout: true },
  { pkg: "erlang-doc", path: `${ERL}/tools-3.5.3/doc/pdf/tools-3.5.3.pdf` },
  { pkg: "erlang-doc", path: `${ERL}/kernel-8.5.3/doc/pdf/kernel-8.5.3.pdf` },
  { pkg: "erlang-doc", path: `${ERL}/stdlib-4.2/doc/pdf/stdlib-4.2.pdf` },
  { pkg: "octave-doc", path: "usr/share/doc/octave/liboctave.pdf", layout: true },
  { pkg: "pari-doc", path: "usr/share/pari/doc/users.pdf" },
  { pkg: "pari-doc", path: "usr/share/pari/doc/develop.pdf", layout: true },
  { pkg: "gap-doc", path: "usr/share/gap/doc/tut/manual.pdf", layout: true },
  { pkg: "gap-doc", path: "usr/share/gap/doc/hpc/manual.pdf" },
  { pkg: "maxima-doc", path: "usr/share/doc/maxima-doc/maximabook-19-Sept-2004.pdf.gz" },
];

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: join(homedir(), ".cache", "pageindex-devset") },
    only: { type: "string" },
    show: { type: "string" },
    paths: { type: "string", default: "outline,llm,layout" },
  },
});
const cache = values.cache as string;
const paths = new Set((values.paths as string).split(","));

const pct = (a: number, b: number): string => (b === 0 ? "-" : ((100 * a) / b).toFixed(1));

console.log(
  "doc | path | pages | sections | title printed | start at heading % | hold next heading | mention next heading | chars lost | chars duplicated | text equal",
);
console.log("--- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---");
const totals = new Map<
  string,
  { checkable: number; starting: number; containsNext: number; mentionsNext: number }
>();
for (const { doc, name, label, bytes } of debianPdfs(DOCS, cache, values.only)) {
  const pdf = await readPdf(bytes, { source: label });
  // As the loader does: headings are located past the layout's furniture and edge bands; text
  // leaves out the running heads the text cleaning finds (textFurniture), never a heading line.
  const layout = layoutContext(pdf.pages);
  const located = withEdgeBands(pdf.pages, layout.furniture);
  const furniture = textFurniture(pdf.pages, layout.runningHeads, located);
  const runs: Array<[string, () => Promise<TreeNode[]>]> = [];
  const load = (structure: "outline" | "layout") => async () => {
    const tree = await pdfToTree(bytes, { structure, summaries: "none", split: false, docName: name });
    return tree.nodes;
  };
  if (paths.has("outline")) runs.push(["outline", load("outline")]);
  if (paths.has("llm")) {
    runs.push([
      "llm",
      async () => {
        const bookmarks = outlineStructure(pdf.outline).entries;
        locateEntries(bookmarks, pdf.pages, located);
        const entries = asModelSections(bookmarks, pdf.pages);
        locateEntries(entries, pdf.pages, located);
        orderPositions(entries);
        const drafts = entriesToDrafts(entries, new TextSlicer(pdf.pages, bodyFurniture(furniture, entries)));
        const tree = createTree(
          { docId: "eval", docName: name, kind: "pdf", build: { loader: "pdf", structure: "llm" } },
          drafts,
        );
        return tree.nodes;
      },
    ]);
  }
  if (paths.has("layout") && doc.layout) runs.push(["layout", load("layout")]);
  for (const [path, run] of runs) {
    let nodes: TreeNode[];
    try {
      nodes = await run();
    } catch (error) {
      console.log(`${name} | ${path} | failed: ${(error as Error).message}`);
      continue;
    }
    const s = score(nodeSections(nodes), pdf.pages, withoutHeadings(furniture, nodes, pdf.pages));
    const t = totals.get(path) ?? { checkable: 0, starting: 0, containsNext: 0, mentionsNext: 0 };
    t.checkable += s.checkable;
    t.starting += s.starting;
    t.containsNext += s.containsNext;
    t.mentionsNext += s.mentionsNext;
    totals.set(path, t);
    console.log(
      `${name} | ${path} | ${pdf.pageCount} | ${s.sections} | ${s.checkable} | ${pct(s.starting, s.checkable)} | ${s.containsNext} | ${s.mentionsNext} | ${s.lost} | ${s.duplicated} | ${s.equal ? "yes" : "no"}`,
    );
    if (values.show && label.includes(values.show)) for (const b of s.bad.slice(0, 40)) console.log(`  ${b}`);
  }
}
for (const [path, t] of totals) {
  console.log(
    `\n${path}: ${pct(t.starting, t.checkable)} % of ${t.checkable} sections start at their heading; ${t.containsNext} hold the next one's heading, ${t.mentionsNext} more only mention it`,
  );
}
