/**
 * A/B test on your own questions: a vector retriever (MemoryVectorStore over chunks) vs
 * PageIndexRetriever vs BM25 over the same chunks, scored by whether a returned Document holds
 * the evidence (page or section), with context size, model calls and latency per question.
 *
 * Run: pnpm --filter pageindex-examples ab-test
 *      pnpm --filter pageindex-examples ab-test -- --questions my-questions.jsonl --docs reports/ --k 5
 * Offline, the vector side embeds with HashingEmbeddings (a lexical stand-in, not a semantic
 * model) and PageIndex navigates with its BM25 judge; with OPENAI_API_KEY, OpenAI embeddings and
 * gpt-4o-mini (or PAGEINDEX_MODEL) are used. Writes out/ab-test.svg and out/ab-test.json.
 */
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { extname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import type { TreeDocument } from "pageindex-core";
import { PageIndexRetriever } from "pageindex-retriever";
import {
  Bm25ChunkRetriever,
  chunkTrees,
  type EvalQuestion,
  type EvaluationResult,
  evaluateRetrievers,
  evaluationChart,
  evaluationTable,
  normaliseDocName,
  readQuestions,
} from "pageindex-retriever/eval";
import {
  type ExampleOptions,
  exampleEmbeddings,
  exampleModel,
  isMain,
  loadTree,
  SAMPLES_DIR,
} from "./support.js";

const HERE = fileURLToPath(new URL(".", import.meta.url));

/** The bundled questions about the bundled samples. */
export const DEFAULT_QUESTIONS = join(HERE, "data", "sample-questions.jsonl");

/** Options of {@link main}; the CLI flags map onto them. */
export interface AbTestOptions extends ExampleOptions {
  /** JSONL questions (see `parseQuestions`). Default the bundled sample questions. */
  questions?: string;
  /** Documents (files or folders of .md/.pdf). Default the bundled samples. */
  docs?: string[];
  /** Cut-off for hit rate and MRR, and what each retriever returns. Default 3. */
  k?: number;
  /** Chunk size of the vector and BM25 baselines, in tokens. Default 400 (overlap 50). */
  chunkTokens?: number;
  /** Where the chart and JSON go. Default `examples/out`. */
  outDir?: string;
}

/** The result of {@link main}. */
export interface AbTestResult {
  result: EvaluationResult;
  table: string;
  files: { svg: string; json: string };
}

const DOC_EXTENSIONS = [".md", ".markdown", ".pdf"];

async function expandDocs(inputs: string[]): Promise<string[]> {
  const out: string[] = [];
  for (const input of inputs) {
    const path = resolve(input);
    if ((await stat(path)).isDirectory()) {
      const entries = (await readdir(path)).sort();
      out.push(
        ...entries.filter((e) => DOC_EXTENSIONS.includes(extname(e).toLowerCase())).map((e) => join(path, e)),
      );
    } else {
      out.push(path);
    }
  }
  return out;
}

/** The tree a question is about, when it names one of the loaded documents. */
function treeOf(question: EvalQuestion, trees: TreeDocument[]): TreeDocument | undefined {
  if (!question.doc) return undefined;
  const wanted = normaliseDocName(question.doc);
  return trees.find((t) => normaliseDocName(t.docName) === wanted || normaliseDocName(t.docId) === wanted);
}

/** Runs the three retrievers over the questions, prints the table, writes the chart and JSON. */
export async function main(options: AbTestOptions = {}): Promise<AbTestResult> {
  const log = options.log ?? console.log;
  const env = options.env ?? process.env;
  const k = options.k ?? 3;
  const chunkTokens = options.chunkTokens ?? 400;
  const questionsPath = options.questions ?? DEFAULT_QUESTIONS;
  const outDir = options.outDir ?? join(HERE, "out");
  const resolved = await exampleModel(env);
  const { embeddings, label: embeddingsLabel } = await exampleEmbeddings(env);

  const questions = await readQuestions(questionsPath);
  const paths = await expandDocs(options.docs ?? [SAMPLES_DIR]);
  log(`Indexing ${paths.length} document(s) …`);
  const trees: TreeDocument[] = [];
  for (const path of paths) trees.push(await loadTree(path, resolved?.model));
  const chunks = chunkTrees(trees, { chunkTokens, overlapTokens: Math.min(50, Math.floor(chunkTokens / 4)) });
  log(
    `  ${trees.reduce((n, t) => n + t.nodes.length, 0)} tree nodes, ${chunks.length} chunks of ≤ ${chunkTokens} tokens`,
  );
  log(`Vector embeddings: ${embeddingsLabel}`);
  log(
    `PageIndex judge: ${resolved ? resolved.label : "lexical BM25 (offline; set OPENAI_API_KEY for an LLM judge)"}`,
  );
  // A question naming a document --docs did not load is searched in every document (and
  // most likely missed): say so, as `pageindex eval` does, rather than count it silently.
  const notLoaded = [
    ...new Set(questions.filter((q) => q.doc && !treeOf(q, trees)).map((q) => q.doc as string)),
  ];
  if (notLoaded.length > 0) {
    log(
      `Warning: not among the documents, questions about them search every document: ${notLoaded.join(", ")}`,
    );
  }

  // Each question is searched in its own document when it names a loaded one (FinanceBench
  // style), else across all of them: the same scope for every retriever.
  const store = await MemoryVectorStore.fromDocuments(chunks, embeddings);
  const pageIndexOptions = { k, ...(resolved ? { model: resolved.model } : {}) };
  const pageIndex = new PageIndexRetriever({ trees, ...pageIndexOptions });
  const pageIndexFor = new Map<string, PageIndexRetriever>();
  const bm25All = new Bm25ChunkRetriever({ documents: chunks, k });
  const bm25For = new Map<string, Bm25ChunkRetriever>();
  const scoped = <R>(
    question: EvalQuestion,
    all: R,
    build: (tree: TreeDocument) => R,
    cache: Map<string, R>,
  ): R => {
    const tree = treeOf(question, trees);
    if (!tree || trees.length === 1) return all;
    let retriever = cache.get(tree.docId);
    if (!retriever) {
      retriever = build(tree);
      cache.set(tree.docId, retriever);
    }
    return retriever;
  };

  const names = {
    vector: `vector (${resolved ? "OpenAI embeddings" : "hashing stand-in"})`,
    pageIndex: `PageIndex (${resolved ? resolved.label : "BM25 judge"})`,
    bm25: "BM25 over chunks",
  };
  const retrievers: Record<string, (q: EvalQuestion) => BaseRetrieverInterface> = {
    [names.vector]: (q) => {
      const tree = trees.length > 1 ? treeOf(q, trees) : undefined;
      return store.asRetriever({ k, ...(tree ? { filter: (d) => d.metadata.docId === tree.docId } : {}) });
    },
    [names.pageIndex]: (q) =>
      scoped(
        q,
        pageIndex,
        (tree) =>
          new PageIndexRetriever({ reader: pageIndex.reader, docIds: [tree.docId], ...pageIndexOptions }),
        pageIndexFor,
      ),
    [names.bm25]: (q) =>
      scoped(
        q,
        bm25All,
        (tree) =>
          new Bm25ChunkRetriever({ documents: chunks.filter((c) => c.metadata.docId === tree.docId), k }),
        bm25For,
      ),
  };

  log(`\n${questions.length} questions from ${questionsPath}, k = ${k}`);
  const run = await evaluateRetrievers({
    questions,
    retrievers,
    k,
    onResult: (name, question, score) => {
      if (score.error) log(`  ${name} · ${question.id}: error: ${score.error}`);
    },
  });
  // The trees and the embeddings were built before the run, which times only the factories: their
  // index time is not known here (the first PDF load also pays module start-up), so it is n/a,
  // not the near-zero the factories took.
  const builtBefore = new Set([names.pageIndex, names.vector]);
  const result = {
    ...run,
    summaries: run.summaries.map((s) => (builtBefore.has(s.name) ? { ...s, indexMs: undefined } : s)),
  };
  const table = evaluationTable(result);
  log(`\n${table}\n`);
  log(
    "hit@k: a returned Document holds the evidence (its page range contains the evidence page, or its section " +
      "path contains the evidence section). Returned tokens: what the answering model would have to read.",
  );

  await mkdir(outDir, { recursive: true });
  const files = { svg: join(outDir, "ab-test.svg"), json: join(outDir, "ab-test.json") };
  await writeFile(
    files.svg,
    evaluationChart(result, `Hit@${k} vs context size — ${questions.length} questions`),
  );
  const config = {
    questions: questionsPath,
    documents: trees.map((t) => ({ docId: t.docId, docName: t.docName, nodes: t.nodes.length })),
    k,
    chunks: { count: chunks.length, chunkTokens },
    embeddings: embeddingsLabel,
    judge: resolved?.label ?? "lexical",
  };
  await writeFile(files.json, `${JSON.stringify({ config, ...result }, null, 2)}\n`);
  log(`Wrote ${files.svg} and ${files.json}`);
  return { result, table, files };
}

/**
 * `--questions path --docs path… --k n --chunk-tokens n --out dir`. Relative paths are taken from
 * `cwd` (pnpm runs scripts in examples/, and sets INIT_CWD to where the command was typed).
 */
export function parseCli(argv: string[], cwd = process.env.INIT_CWD ?? process.cwd()): AbTestOptions {
  const { values } = parseArgs({
    args: argv,
    options: {
      questions: { type: "string" },
      docs: { type: "string", multiple: true },
      k: { type: "string" },
      "chunk-tokens": { type: "string" },
      out: { type: "string" },
    },
    allowPositionals: false,
  });
  const int = (name: string, value: string | undefined) => {
    if (value === undefined) return undefined;
    const n = Number(value);
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`--${name} must be a whole number >= 1 (got "${value}")`);
    return n;
  };
  const options: AbTestOptions = {};
  if (values.questions) options.questions = resolve(cwd, values.questions);
  if (values.docs) options.docs = values.docs.map((d) => resolve(cwd, d));
  const k = int("k", values.k);
  if (k !== undefined) options.k = k;
  const chunkTokens = int("chunk-tokens", values["chunk-tokens"]);
  if (chunkTokens !== undefined) options.chunkTokens = chunkTokens;
  if (values.out) options.outDir = resolve(cwd, values.out);
  return options;
}

if (isMain(import.meta.url)) {
  Promise.resolve()
    .then(() => main(parseCli(process.argv.slice(2).filter((a) => a !== "--"))))
    .catch((error) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    });
}
