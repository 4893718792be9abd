/**
 * Quality of the offline (no-model) navigation of PageIndexRetriever: hit rate and MRR of the
 * lexical judge on real PDFs, with trees built by `PdfTreeLoader` (offline: outline/layout
 * structure, extractive summaries and descriptions).
 *
 * Two question sets (read from ../shared/corpus; the script exits cleanly when it is absent):
 * - `financebench` — the development set: FinanceBench questions over 5 filings, evidence pages
 *   from the benchmark;
 * - `reference` — a held-out set NOT used for tuning: questions written for this evaluation from
 *   the text of PageIndex's reference PDFs (paraphrased, not copying section titles), with the
 *   pages that answer them (`REFERENCE_QUESTIONS` below).
 *
 * Each question is asked in three settings: `single` (only its document, as in
 * bench-retriever), `all` (every document of the set is searched) and `select` (the retriever
 * picks documents first: `documentSelection: "llm"`, lexical without a model).
 * A returned section hits when its own pages hold an evidence page (an internal node counts
 * with its intro pages only, unless it was returned with its descendants).
 *
 * Trees are built once and cached as JSON in the OS temp folder (`--rebuild` to redo them).
 *
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/eval-offline-judge.ts
 *      [--set financebench|reference|all] [--k 3] [--text auto|skeleton|full] [--rebuild] [--verbose]
 * Writes .bench-out/eval-offline-judge.json.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { Document } from "@langchain/core/documents";
import type { TreeDocument } from "pageindex-core";
import type { PageIndexDocumentMetadata } from "pageindex-retriever";
import * as retrieverPackage from "pageindex-retriever";
import { NodeTermIndex } from "../packages/pageindex-retriever/src/lexical/node-index.js";
import { option } from "./cli-option.js";
import { financeBenchQuestions, requireCorpus } from "./corpus.js";
import { cachedPdfTree, docIdOf } from "./tree-cache.js";

/**
 * The retriever under test: the built package, or `--retriever <module>` (e.g. another
 * version's `src/index.ts`, run through tsx) for a before/after comparison in one run.
 */
const RETRIEVER_MODULE = option("retriever", "");
const { PageIndexRetriever } = (
  RETRIEVER_MODULE ? await import(resolve(RETRIEVER_MODULE)) : retrieverPackage
) as typeof retrieverPackage;
type PageIndexRetriever = InstanceType<typeof PageIndexRetriever>;

// ---------------------------------------------------------------- options
function flag(name: string): boolean {
  return process.argv.includes(`--${name}`);
}
const K = Number(option("k", "3"));
/** Depth of the MRR cut-off (the retriever is asked for this many sections). */
const DEPTH = 10;
const SET = option("set", "all");
const TEXT = option("text", "auto") as "auto" | "skeleton" | "full";
const VERBOSE = flag("verbose");

export interface Question {
  id: string;
  /** File stem of the PDF. */
  doc: string;
  question: string;
  /** 1-based pages that answer it. */
  pages: number[];
}

// ---------------------------------------------------------------- held-out questions
/**
 * Written from the page text of the reference PDFs (pages checked with the extracted text),
 * phrased as a user would ask, avoiding the section titles' wording where possible.
 */
export const REFERENCE_QUESTIONS: Question[] = [
  {
    id: "ref-01",
    doc: "q1-fy25-earnings",
    pages: [4],
    question: "What stake does Disney keep in the joint venture it formed with Reliance in India?",
  },
  {
    id: "ref-02",
    doc: "q1-fy25-earnings",
    pages: [8],
    question: "Why did programming and production costs at domestic ESPN go up this quarter?",
  },
  {
    id: "ref-03",
    doc: "q1-fy25-earnings",
    pages: [10],
    question: "Why did Disney pay less interest on its borrowings than a year earlier?",
  },
  {
    id: "ref-04",
    doc: "q1-fy25-earnings",
    pages: [12],
    question: "Why did investment in parks and resorts jump compared with the prior-year quarter?",
  },
  {
    id: "ref-05",
    doc: "q1-fy25-earnings",
    pages: [16],
    question: "When does someone stop being counted as a paid subscriber?",
  },
  {
    id: "ref-06",
    doc: "q1-fy25-earnings",
    pages: [9],
    question: "How did the hurricanes affect results at the domestic parks?",
  },
  {
    id: "ref-07",
    doc: "q1-fy25-earnings",
    pages: [22],
    question: "Where and when can investors listen to the earnings call webcast?",
  },
  {
    id: "ref-08",
    doc: "earthmover",
    pages: [1],
    question: "Why is EMD preferred over Euclidean distance for comparing images?",
  },
  {
    id: "ref-09",
    doc: "earthmover",
    pages: [6],
    question:
      "In the worked example, after what share of iterations does the running lower bound reach the pruning threshold?",
  },
  {
    id: "ref-10",
    doc: "earthmover",
    pages: [12],
    question: "Why do approximation methods for EMD not scale to large datasets?",
  },
  {
    id: "ref-11",
    doc: "earthmover",
    pages: [9],
    question: "Which image collections were used in the experiments and how many objects do they hold?",
  },
  {
    id: "ref-12",
    doc: "earthmover",
    pages: [4],
    question:
      "How does the baseline search prune candidates before computing the exact distance for k-NN queries?",
  },
  {
    id: "ref-13",
    doc: "four-lectures",
    pages: [4],
    question: "How do you compute the depth of a tree with a recursive function?",
  },
  {
    id: "ref-14",
    doc: "four-lectures",
    pages: [18],
    question: "Why should signatures be kept small, and how can an existing one be extended?",
  },
  {
    id: "ref-15",
    doc: "four-lectures",
    pages: [33],
    question: "How does type checking change once lists are added to the interpreter?",
  },
  {
    id: "ref-16",
    doc: "four-lectures",
    pages: [27],
    question: "Are external names generative when a functor is applied?",
  },
  {
    id: "ref-17",
    doc: "Regulation Best Interest_Interpretive release",
    pages: [12],
    question: "What did the court in the Thomas case say about how much advice a broker gives?",
  },
  {
    id: "ref-18",
    doc: "Regulation Best Interest_Interpretive release",
    pages: [16],
    question:
      "Can a broker-dealer have unlimited discretion over client accounts and still rely on the exclusion?",
  },
  {
    id: "ref-19",
    doc: "Regulation Best Interest_Interpretive release",
    pages: [19],
    question: "What did commenters argue about brokers that keep watching how a customer's account performs?",
  },
  {
    id: "ref-20",
    doc: "Regulation Best Interest_Interpretive release",
    pages: [26],
    question: "How might this interpretation shift demand between brokers and investment advisers?",
  },
  {
    id: "ref-21",
    doc: "2023-annual-report-truncated",
    pages: [5],
    question: "Into how many regional districts was the central bank system divided when it was created?",
  },
  {
    id: "ref-22",
    doc: "2023-annual-report-truncated",
    pages: [25],
    question: "How did the ratio of household and business debt to GDP evolve in 2023?",
  },
  {
    id: "ref-23",
    doc: "2023-annual-report-truncated",
    pages: [36],
    question:
      "How many savings and loan holding companies with over $1 billion in assets were inspected in 2023?",
  },
  {
    id: "ref-24",
    doc: "2023-annual-report-truncated",
    pages: [41],
    question: "What must state member banks do before engaging in activities involving dollar tokens?",
  },
  {
    id: "ref-25",
    doc: "2023-annual-report-truncated",
    pages: [44],
    question: "Which program supports minority-owned banks, and when was it established?",
  },
  {
    id: "ref-26",
    doc: "2023-annual-report-truncated",
    pages: [50],
    question: "Is the examination manual for anti-money-laundering compliance being revised?",
  },
];

// ---------------------------------------------------------------- trees
/** Builds (or reads from the temp cache) the tree of a PDF. */
function treeOf(pdf: string): Promise<TreeDocument> {
  return cachedPdfTree(pdf, "pageindex-eval-offline-judge", flag("rebuild"));
}

// ---------------------------------------------------------------- scoring
/** Rank (1-based) of the first returned section holding an evidence page, or 0. */
export function firstHit(docs: Document<PageIndexDocumentMetadata>[], q: Question): number {
  const i = docs.findIndex((d) => {
    const m = d.metadata;
    if (m.docId !== docIdOf(q.doc) || m.startPage === undefined) return false;
    const internal = (m.childIds?.length ?? 0) > 0 && !m.includesDescendants;
    const end = internal ? (m.ownEndPage ?? m.startPage) : (m.endPage ?? m.startPage);
    return q.pages.some((p) => p >= (m.startPage as number) && p <= end);
  });
  return i + 1;
}

type Setting = "single" | "all" | "select";
const SETTINGS: Setting[] = ["single", "all", "select"];

interface Outcome {
  id: string;
  rank: number;
  top: string[];
  ms: number;
}

/**
 * Cost of the lexical index with texts, per document: build time and size in term entries
 * (words and phrases per node; roughly 100 bytes each in a V8 Map).
 */
function indexCost(trees: TreeDocument[]): Array<Record<string, unknown>> {
  const rows: Array<Record<string, unknown>> = [];
  for (const tree of trees) {
    const texts = new Map(tree.nodes.map((n) => [n.nodeId, n.text]));
    const started = performance.now();
    const index = new NodeTermIndex(tree, texts);
    const ms = performance.now() - started;
    const tokens = tree.nodes.reduce((sum, n) => sum + n.tokenCount, 0);
    const { postings } = index;
    rows.push({ docId: index.docId, pages: tree.pageCount, nodes: tree.nodes.length, tokens, ms, postings });
    console.log(
      `  index ${tree.docId}: ${tree.pageCount} pages, ${tree.nodes.length} nodes, ${tokens} tokens: ${ms.toFixed(0)} ms, ${postings} entries (~${((postings * 100) / 2 ** 20).toFixed(1)} MB)`,
    );
  }
  return rows;
}

async function evaluate(name: string, trees: TreeDocument[], questions: Question[]) {
  console.log(
    `\n## ${name}: ${questions.length} questions over ${trees.length} documents, lexicalText ${TEXT}`,
  );
  const results: Record<string, unknown> = { indexCost: indexCost(trees) };
  console.log(`setting   hit@1   hit@${K}   hit@${DEPTH}   MRR@${DEPTH}   ms/query`);
  for (const setting of SETTINGS) {
    const retriever = new PageIndexRetriever({
      trees,
      k: DEPTH,
      lexicalText: TEXT,
      cache: false,
      ...(setting === "select" ? { documentSelection: "llm" as const, maxDocuments: 1 } : {}),
    });
    // Index building (reading texts once per document) is not a per-query cost: warm up.
    await retriever.invoke("warm up the index");
    const perDoc = new Map(
      trees.map((t) => [
        t.docId,
        new PageIndexRetriever({ trees, k: DEPTH, lexicalText: TEXT, cache: false, docIds: [t.docId] }),
      ]),
    );
    if (setting === "single") for (const r of perDoc.values()) await r.invoke("warm up the index");
    const outcomes: Outcome[] = [];
    for (const q of questions) {
      const started = performance.now();
      const docs = await (setting === "single"
        ? (perDoc.get(docIdOf(q.doc)) as PageIndexRetriever)
        : retriever
      ).invoke(q.question);
      outcomes.push({
        id: q.id,
        rank: firstHit(docs, q),
        top: docs
          .slice(0, K)
          .map(
            (d) => `${d.metadata.docId}:${d.metadata.startPage}-${d.metadata.endPage} ${d.metadata.title}`,
          ),
        ms: performance.now() - started,
      });
    }
    const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);
    const at = (n: number) => mean(outcomes.map((o) => (o.rank > 0 && o.rank <= n ? 1 : 0)));
    const summary = {
      hit1: at(1),
      hitK: at(K),
      hitDepth: at(DEPTH),
      mrr: mean(outcomes.map((o) => (o.rank > 0 ? 1 / o.rank : 0))),
      msPerQuery: mean(outcomes.map((o) => o.ms)),
    };
    console.log(
      `${setting.padEnd(8)} ${pct(summary.hit1)}  ${pct(summary.hitK)}  ${pct(summary.hitDepth).padStart(6)}  ${summary.mrr.toFixed(3).padStart(7)}  ${summary.msPerQuery.toFixed(1).padStart(9)}`,
    );
    if (VERBOSE) {
      for (const [i, o] of outcomes.entries()) {
        const q = questions[i] as Question;
        console.log(
          `   ${o.rank > 0 && o.rank <= K ? "HIT " : "miss"} r=${o.rank} ${q.doc} p${q.pages.join(",")} ${q.question.slice(0, 90)}`,
        );
        for (const t of o.top) console.log(`        ${t}`);
      }
    }
    results[setting] = { summary, perQuery: outcomes };
  }
  return results;
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0).padStart(4)}%`;
}

// ---------------------------------------------------------------- sets
export async function financeBench(
  corpus: string,
): Promise<{ trees: TreeDocument[]; questions: Question[] }> {
  const dir = join(corpus, "financebench");
  const questions = financeBenchQuestions(dir);
  const names = [...new Set(questions.map((q) => q.doc))];
  const trees = await Promise.all(names.map((n) => treeOf(join(dir, "pdfs", `${n}.pdf`))));
  return { trees, questions };
}

export async function reference(corpus: string): Promise<{ trees: TreeDocument[]; questions: Question[] }> {
  const dir = join(corpus, "pageindex-reference/pdfs");
  const names = [...new Set(REFERENCE_QUESTIONS.map((q) => q.doc))];
  const trees: TreeDocument[] = [];
  for (const n of names) trees.push(await treeOf(join(dir, `${n}.pdf`)));
  return { trees, questions: REFERENCE_QUESTIONS };
}

async function main() {
  const corpus = requireCorpus();
  const out: Record<string, unknown> = { k: K, depth: DEPTH, lexicalText: TEXT };
  if (SET === "all" || SET === "financebench") {
    const fb = await financeBench(corpus);
    out.financebench = await evaluate("FinanceBench (development set)", fb.trees, fb.questions);
  }
  if ((SET === "all" || SET === "reference") && REFERENCE_QUESTIONS.length > 0) {
    const ref = await reference(corpus);
    out.reference = await evaluate("PageIndex reference PDFs (held-out set)", ref.trees, ref.questions);
  }
  const dir = resolve(".bench-out");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "eval-offline-judge.json"), `${JSON.stringify(out, null, 2)}\n`);
  console.log(`\nwrote ${join(dir, "eval-offline-judge.json")}`);
}

// Run when executed, not when another script imports its question sets and trees.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await main();
