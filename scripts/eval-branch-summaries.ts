/**
 * Issue 14: does every branch reach the judge with a readable summary, and is back matter
 * marked? Trees are built offline (outline/layout structure, extractive summaries) by this
 * version of the loaders, from
 * - the corpus (../shared/corpus: FinanceBench filings, PageIndex's reference PDFs, the
 *   Markdown specifications; skipped with a message when absent), and
 * - fresh Debian documentation PDFs, fetched with `apt-get download` into
 *   ~/.cache/pageindex-devset (never committed; held-out packages such as r-doc-pdf are never
 *   used).
 *
 * Per document: internal nodes, how many had a readable summary before (their own intro summary,
 * what the judge read until now) and after (what the judge reads now: the intro summary when
 * readable, else the branch summary the loader derives from the subsections), the nodes marked
 * as back matter (by kind) and whether the PDF's page labels were kept. A summary is readable
 * when it has at least five words besides the section's title (`isReadableSummary`).
 *
 * Run: pnpm run build && npx tsx scripts/eval-branch-summaries.ts [--set corpus|debian|all] [--show]
 * Writes .bench-out/eval-branch-summaries.json.
 */
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { isReadableSummary, readableSummary, type TreeDocument } from "pageindex-core";
import { MarkdownTreeLoader, PdfTreeLoader } from "pageindex-loader";
import { option } from "./cli-option.js";
import { CORPUS_DIR, corpusPdfs } from "./corpus.js";
import { debianPdfBytes } from "./debian-docs.js";

const SET = option("set", "all");
const SHOW = process.argv.includes("--show");

/** Fresh public manuals, not tuned on: varied producers (Texinfo, LaTeX, DocBook, Doxygen, FOP, Sphinx). */
const DEBIAN: ReadonlyArray<{ pkg: string; path: string }> = [
  { pkg: "gprolog-doc", path: "usr/share/doc/gprolog-doc/gprolog.pdf" },
  { pkg: "sdcc-doc", path: "usr/share/doc/sdcc-doc/sdccman.pdf.gz" },
  { pkg: "debian-faq", path: "usr/share/doc/debian/FAQ/debian-faq.en.pdf.gz" },
  { pkg: "debmake-doc", path: "usr/share/doc/debmake-doc/debmake-doc.en.pdf" },
  { pkg: "dblatex-doc", path: "usr/share/doc/dblatex/manual.pdf.gz" },
  { pkg: "freefem-doc", path: "usr/share/doc/freefem-doc/freefem.pdf" },
  { pkg: "yorick-doc", path: "usr/share/doc/yorick-doc/yorick.pdf.gz" },
  { pkg: "erlang-doc", path: "usr/share/doc/erlang-doc/lib/crypto-5.1.2/doc/pdf/crypto-5.1.2.pdf" },
  { pkg: "verilator", path: "usr/share/doc/verilator/verilator.pdf" },
  { pkg: "doxygen-doc", path: "usr/share/doc/doxygen/doxygen_manual.pdf" },
];

interface Row {
  doc: string;
  set: string;
  nodes: number;
  internal: number;
  readableBefore: number;
  readableAfter: number;
  backMatter: Record<string, number>;
  backMatterTitles: string[];
  pageLabels: boolean;
}

function measure(tree: TreeDocument, set: string): Row {
  const internal = tree.nodes.filter((n) => n.childIds.length > 0);
  const before = internal.filter((n) => isReadableSummary(n.summary ?? n.prefixSummary, n.title));
  const after = internal.filter((n) => isReadableSummary(readableSummary(tree, n), n.title));
  const marked = tree.nodes.filter((n) => n.backMatter);
  const backMatter: Record<string, number> = {};
  for (const n of marked) backMatter[n.backMatter as string] = (backMatter[n.backMatter as string] ?? 0) + 1;
  if (SHOW) {
    for (const n of internal.filter((x) => !before.includes(x)).slice(0, 3)) {
      console.log(`  ${tree.docId} [${n.nodeId}] ${n.title}\n    -> ${readableSummary(tree, n)}`);
    }
  }
  return {
    doc: tree.docId,
    set,
    nodes: tree.nodes.length,
    internal: internal.length,
    readableBefore: before.length,
    readableAfter: after.length,
    backMatter,
    backMatterTitles: marked.map((n) => `${n.title} (${n.backMatter})`),
    pageLabels: tree.pageLabels !== undefined,
  };
}

async function corpusTrees(): Promise<Array<Promise<TreeDocument>>> {
  if (!existsSync(CORPUS_DIR)) {
    console.log(`Corpus not found at ${CORPUS_DIR}: the corpus set is skipped.`);
    return [];
  }
  const pdfs = corpusPdfs().map((pdf) => () => new PdfTreeLoader(pdf).loadTree());
  const mdDir = join(CORPUS_DIR, "markdown");
  const mds = readdirSync(mdDir)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .map((f) => () => new MarkdownTreeLoader(join(mdDir, f)).loadTree());
  return [...pdfs, ...mds].map((load) => load());
}

function print(r: Row): void {
  const pct = (x: number) => (r.internal ? `${((100 * x) / r.internal).toFixed(1)} %` : "-");
  const bm = Object.entries(r.backMatter)
    .map(([k, v]) => `${k} ${v}`)
    .join(", ");
  console.log(
    `${r.doc.slice(0, 44).padEnd(44)} ${String(r.internal).padStart(5)} internal  readable ${pct(r.readableBefore).padStart(7)} -> ${pct(r.readableAfter).padStart(7)}  back matter: ${bm || "none"}${r.pageLabels ? "  (page labels)" : ""}`,
  );
}

function total(rows: readonly Row[], set: string): void {
  const internal = rows.reduce((s, r) => s + r.internal, 0);
  const before = rows.reduce((s, r) => s + r.readableBefore, 0);
  const after = rows.reduce((s, r) => s + r.readableAfter, 0);
  const pct = (x: number) => `${((100 * x) / Math.max(1, internal)).toFixed(1)} %`;
  console.log(
    `${`TOTAL ${set} (${rows.length} documents)`.padEnd(44)} ${String(internal).padStart(5)} internal  readable ${pct(before).padStart(7)} -> ${pct(after).padStart(7)}\n`,
  );
}

async function main() {
  const rows: Row[] = [];
  if (SET === "all" || SET === "corpus") {
    const corpus: Row[] = [];
    for (const tree of await corpusTrees()) {
      const row = measure(await tree, "corpus");
      print(row);
      corpus.push(row);
    }
    if (corpus.length) total(corpus, "corpus");
    rows.push(...corpus);
  }
  if (SET === "all" || SET === "debian") {
    const debian: Row[] = [];
    for (const { pkg, path } of DEBIAN) {
      const bytes = debianPdfBytes({ pkg, path });
      if (!bytes) continue;
      const name = basename(path).replace(/\.pdf(\.gz)?$/, "");
      const tree = await new PdfTreeLoader(bytes, { docName: `${pkg}/${name}` }).loadTree();
      const row = measure(tree, "debian");
      print(row);
      debian.push(row);
    }
    if (debian.length) total(debian, "debian");
    rows.push(...debian);
  }
  const out = resolve(".bench-out");
  mkdirSync(out, { recursive: true });
  writeFileSync(join(out, "eval-branch-summaries.json"), `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`wrote ${join(out, "eval-branch-summaries.json")}`);
}

await main();
