/**
 * Recall at k = 1, 3, 5 on the FinanceBench questions, each asked in its own filing:
 * - the tree retriever with the offline (BM25) judge (`PageIndexRetriever`, no model);
 * - LangChain's `BM25Retriever` (`@langchain/community`, a dev dependency only) over fixed-size
 *   chunks made the LangChain way: the PDF's pages (pdf-parse) split by
 *   `RecursiveCharacterTextSplitter` (`@langchain/textsplitters`), 1,600 characters with 200 of
 *   overlap (≈ 400 and 50 tokens), a chunk keeping its page;
 * - our own `Bm25ChunkRetriever` over the tree's node texts cut into 400-token chunks with
 *   50 of overlap (a chunk's pages are its node's own pages).
 *
 * Recall at k is the share of questions for which one of the first k results holds an evidence
 * page (FinanceBench questions mostly have one evidence page). A chunk holds a page when its
 * page (range) contains it. A tree section is scored two ways: `own pages` (an internal node
 * counts with its own intro pages, unless returned with its descendants: the fair comparison,
 * since a chunk covers a page or two) and `full range` (its whole subtree's pages, as
 * `pageindex eval` counts it).
 *
 * Trees are built with `PdfTreeLoader` (offline) unless `--store DIR` names a PageIndex store
 * holding the filings as `<name>.pdf` (e.g. `.pageindex` after `pageindex eval … --docs`), so
 * the numbers can be compared with that command's on the very same trees.
 *
 * Run: pnpm build && npx tsx scripts/eval-financebench-recall.ts [--store .pageindex] [--verbose]
 * Writes .bench-out/eval-financebench-recall.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { BM25Retriever } from "@langchain/community/retrievers/bm25";
import { Document } from "@langchain/core/documents";
import { RecursiveCharacterTextSplitter } from "@langchain/textsplitters";
import type { TreeDocument } from "pageindex-core";
import { PdfTreeLoader } from "pageindex-loader";
import { PageIndexRetriever } from "pageindex-retriever";
import { Bm25ChunkRetriever } from "pageindex-retriever/eval";
import { PageIndexStore } from "pageindex-store";
import { PDFParse } from "pdf-parse";
import { type FinanceBenchQuestion, financeBenchQuestions, requireCorpus } from "./corpus.js";

const KS = [1, 3, 5] as const;
const CHUNK_CHARS = 1600;
const OVERLAP_CHARS = 200;
const CHUNK_TOKENS = 400;
const OVERLAP_TOKENS = 50;
const VERBOSE = process.argv.includes("--verbose");
const STORE = process.argv.includes("--store")
  ? process.argv[process.argv.indexOf("--store") + 1]
  : undefined;

type Question = FinanceBenchQuestion;

/** Page ranges of returned results, best first. */
type Ranges = Array<[number, number]>;

/** A way of answering a question with ranked page ranges, given at most k results. */
type Method = (q: Question, k: number) => Promise<Ranges>;

/** The PDF's pages as LangChain Documents (`metadata.page`, 1-based), as a PDF loader gives them. */
async function pdfPages(path: string): Promise<Document[]> {
  const parser = new PDFParse({ data: new Uint8Array(readFileSync(path)) });
  try {
    const { pages } = await parser.getText();
    return pages.map((p) => new Document({ pageContent: p.text, metadata: { source: path, page: p.num } }));
  } finally {
    await parser.destroy();
  }
}

function holds(ranges: Ranges, pages: number[], k: number): boolean {
  return ranges.slice(0, k).some(([a, b]) => pages.some((p) => p >= a && p <= b));
}

async function main() {
  const dir = requireCorpus("financebench");
  const questions = financeBenchQuestions(dir);
  const docs = [...new Set(questions.map((q) => q.doc))];
  const trees = new Map<string, TreeDocument>();
  const lcRetrievers = new Map<string, BM25Retriever>();
  const ourRetrievers = new Map<string, Bm25ChunkRetriever>();
  const splitter = new RecursiveCharacterTextSplitter({
    chunkSize: CHUNK_CHARS,
    chunkOverlap: OVERLAP_CHARS,
  });
  const store = STORE ? await PageIndexStore.fromPath(STORE) : undefined;
  for (const doc of docs) {
    const pdf = join(dir, "pdfs", `${doc}.pdf`);
    const tree = store
      ? await store.getTree(`${doc}.pdf`)
      : await new PdfTreeLoader(pdf, { docId: doc }).loadTree();
    trees.set(doc, tree);
    const chunks = await splitter.splitDocuments(await pdfPages(pdf));
    lcRetrievers.set(doc, BM25Retriever.fromDocuments(chunks, { k: Math.max(...KS) }));
    ourRetrievers.set(
      doc,
      Bm25ChunkRetriever.fromTrees([tree], {
        k: Math.max(...KS),
        chunkTokens: CHUNK_TOKENS,
        overlapTokens: OVERLAP_TOKENS,
      }),
    );
    console.log(
      `${doc}: ${tree.nodes.length} nodes (${tree.build.structure}), ${chunks.length} LangChain chunks`,
    );
  }

  const tree =
    (scoring: "own" | "full"): Method =>
    async (q, k) => {
      const retriever = new PageIndexRetriever({ trees: [trees.get(q.doc) as TreeDocument], k });
      const found = await retriever.invoke(q.question);
      return found.map((d) => {
        const m = d.metadata;
        const start = m.startPage ?? 0;
        const internal = scoring === "own" && !m.includesDescendants && m.ownEndPage !== undefined;
        return [start, internal ? (m.ownEndPage ?? start) : (m.endPage ?? start)];
      });
    };
  const chunkRanges = (found: Document[]): Ranges =>
    found.map((d) => {
      const m = d.metadata as { page?: number; startPage?: number; endPage?: number };
      const start = m.page ?? m.startPage ?? 0;
      return [start, m.page ?? m.endPage ?? start];
    });
  const methods: Record<string, Method> = {
    "tree retriever, offline judge (own pages)": tree("own"),
    "tree retriever, offline judge (full range)": tree("full"),
    [`LangChain BM25Retriever, ${CHUNK_CHARS}-char chunks`]: async (q, k) =>
      chunkRanges(await (lcRetrievers.get(q.doc) as BM25Retriever).invoke(q.question)).slice(0, k),
    [`our Bm25ChunkRetriever, ${CHUNK_TOKENS}-token chunks`]: async (q, k) =>
      chunkRanges(await (ourRetrievers.get(q.doc) as Bm25ChunkRetriever).invoke(q.question)).slice(0, k),
  };

  const results: Record<string, Record<string, number>> = {};
  const perQuestion: Array<Record<string, unknown>> = [];
  for (const q of questions) perQuestion.push({ id: q.id, doc: q.doc, pages: q.pages });
  for (const [name, method] of Object.entries(methods)) {
    const recall: Record<string, number> = {};
    for (const k of KS) {
      let hit = 0;
      for (const [i, q] of questions.entries()) {
        const ranges = await method(q, k);
        const ok = holds(ranges, q.pages, k);
        if (ok) hit += 1;
        (perQuestion[i] as Record<string, unknown>)[`${name} @${k}`] = ok;
        if (VERBOSE && k === 3)
          console.log(`  ${name} ${q.id} ${ok ? "hit" : "miss"} ${JSON.stringify(ranges)}`);
      }
      recall[`@${k}`] = hit / questions.length;
    }
    results[name] = recall;
  }

  console.log(
    `\nFinanceBench, ${questions.length} questions, each in its filing, trees ${STORE ? `from ${STORE}` : "built now"}: recall at k (share of questions)`,
  );
  console.log(
    `| retriever | ${KS.map((k) => `@${k}`).join(" | ")} |\n|---|${KS.map(() => "---").join("|")}|`,
  );
  for (const [name, recall] of Object.entries(results)) {
    console.log(
      `| ${name} | ${KS.map((k) => `${Math.round((recall[`@${k}`] ?? 0) * 100)} %`).join(" | ")} |`,
    );
  }
  const out = resolve(".bench-out");
  mkdirSync(out, { recursive: true });
  const file = join(out, "eval-financebench-recall.json");
  writeFileSync(
    file,
    `${JSON.stringify(
      {
        questions: questions.length,
        langchainChunks: { chunkSize: CHUNK_CHARS, chunkOverlap: OVERLAP_CHARS, unit: "characters" },
        ourChunks: { chunkTokens: CHUNK_TOKENS, overlapTokens: OVERLAP_TOKENS, unit: "o200k tokens" },
        recall: results,
        perQuestion,
      },
      null,
      2,
    )}\n`,
  );
  console.log(`\nwrote ${file}`);
}

await main();
