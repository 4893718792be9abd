import { mkdir, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import { type DocumentInfo, oneLine } from "pageindex-store";
import {
  Bm25ChunkRetriever,
  chunkTree,
  DEFAULT_CHUNKING,
  HashingEmbeddings,
  VectorChunkRetriever,
} from "../../eval/baselines.js";
import { normaliseDocName } from "../../eval/metrics.js";
import { type EvalQuestion, readQuestions } from "../../eval/questions.js";
import { evaluationChart, evaluationTable, fallbackCell } from "../../eval/report.js";
import { evaluateRetrievers, type RetrieverUnderTest } from "../../eval/run.js";
import { PageIndexRetriever } from "../../retriever.js";
import type { SearchStrategy } from "../../types.js";
import type { CliContext } from "../context.js";
import { CliError, EXIT, plural, printJson } from "../output.js";
import { relabelFallbacks, withTreeIndexing } from "./eval-result.js";
import { failureLine, type IndexOutcome, indexFiles } from "./index-files.js";

/** Options of `pageindex eval`. */
export interface EvalOptions {
  docs?: string[];
  k?: number;
  out?: string;
  retrievers?: string;
  strategy?: SearchStrategy;
  allDocs?: boolean;
  /** Cap on the tree retriever's returned text (tokens), to compare at an equal context budget. */
  contentTokens?: number;
}

const KNOWN = ["pageindex", "bm25", "vector"];

/**
 * The store document a question is about (by normalised name), when it names one. An id match
 * wins over a name match, as in `ask --doc`: of two `notes.md` files, the one with id `notes.md`.
 */
function documentFor(question: EvalQuestion, docs: DocumentInfo[]): DocumentInfo | undefined {
  if (!question.doc) return undefined;
  const wanted = normaliseDocName(question.doc);
  return (
    docs.find((d) => normaliseDocName(d.docId) === wanted) ??
    docs.find((d) => normaliseDocName(d.docName) === wanted)
  );
}

async function embeddingsFor(ctx: CliContext): Promise<{ embeddings: EmbeddingsInterface; label: string }> {
  if (ctx.env.OPENAI_API_KEY && (ctx.env.PAGEINDEX_EMBEDDINGS ?? "openai") === "openai") {
    const { OpenAIEmbeddings } = await import("@langchain/openai");
    const model = ctx.env.PAGEINDEX_EMBEDDING_MODEL ?? "text-embedding-3-small";
    return { embeddings: new OpenAIEmbeddings({ model }), label: `openai:${model}` };
  }
  return {
    embeddings: new HashingEmbeddings(),
    label: "hashing (offline lexical stand-in, not a semantic model)",
  };
}

/**
 * `pageindex eval <questions.jsonl>`: the A/B test. Each question is asked of the tree retriever
 * and of BM25 and vector retrievers over chunks of the same documents (scoped to the question's
 * document when it names one), and scored on hit rate at k, MRR, returned tokens, model calls
 * and tokens, latency. Writes a Markdown table, an SVG chart and JSON.
 */
export async function evaluate(
  ctx: CliContext,
  questionsFile: string,
  options: EvalOptions,
): Promise<number> {
  const names = (options.retrievers ?? KNOWN.join(","))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !KNOWN.includes(n));
  if (unknown.length > 0)
    throw new CliError(`Unknown retriever(s) ${unknown.join(", ")}: use ${KNOWN.join(", ")}`);
  const questions = await readQuestions(questionsFile);
  if (questions.length === 0) throw new CliError(`No questions in ${questionsFile}`);
  const indexed: IndexOutcome[] = [];
  if (options.docs?.length) {
    const code = await indexFiles(ctx, options.docs, {}, { json: false, outcomes: indexed });
    if (code !== EXIT.ok) {
      // Thrown, not returned: with --json, indexFiles printed nothing and this is the only report.
      const failed = indexed.filter((o) => o.status === "failed");
      throw new CliError(
        `Not evaluated: ${plural(failed.length, "document")} of ${indexed.length} could not be indexed (${failed.map(failureLine).join("; ")})`,
        code,
      );
    }
  }
  const store = await ctx.store();
  const docs = await store.listDocuments();
  if (docs.length === 0) throw new CliError("The store is empty: pass --docs or index the documents first");
  const missing = [...new Set(questions.filter((q) => q.doc && !documentFor(q, docs)).map((q) => q.doc))];
  if (missing.length > 0 && !ctx.options.json) {
    ctx.io.err(
      `warning: not in the store, questions about them search every document: ${missing.join(", ")}`,
    );
  }
  const k = options.k ?? 5;
  const startedAt = new Date().toISOString();
  const model = await ctx.model();
  const scope = (q: EvalQuestion): string[] => {
    const doc = options.allDocs ? undefined : documentFor(q, docs);
    return doc ? [doc.docId] : docs.map((d) => d.docId);
  };

  // Chunk baselines are built once per document set and reused across questions.
  const chunkCache = new Map<string, Promise<BaseRetrieverInterface>>();
  const chunked = (kind: "bm25" | "vector", embeddings?: EmbeddingsInterface) => (q: EvalQuestion) => {
    const ids = scope(q);
    const key = `${kind}:${ids.join(",")}`;
    let retriever = chunkCache.get(key);
    if (!retriever) {
      // Built whole here (chunks, BM25 index, embeddings), so the run times it as index building
      // and the first query's latency is the query alone.
      retriever = (async () => {
        const chunks = (await Promise.all(ids.map(async (id) => chunkTree(await store.getTree(id))))).flat();
        if (kind === "bm25") return new Bm25ChunkRetriever({ documents: chunks, k });
        const vector = new VectorChunkRetriever({
          documents: chunks,
          embeddings: embeddings as EmbeddingsInterface,
          k,
        });
        await vector.embedChunks();
        return vector;
      })();
      chunkCache.set(key, retriever);
    }
    return retriever;
  };

  const retrievers: Record<string, RetrieverUnderTest> = {};
  let embeddingsLabel: string | undefined;
  const treeLabel = model ? `pageindex (${ctx.modelLabel()})` : "pageindex (offline BM25 judge)";
  for (const name of names) {
    if (name === "pageindex") {
      retrievers[treeLabel] = (q) =>
        new PageIndexRetriever({
          reader: store,
          k,
          docIds: scope(q),
          ...(model ? { model } : {}),
          ...(options.strategy ? { strategy: options.strategy } : {}),
          ...(options.contentTokens !== undefined ? { maxContentTokens: options.contentTokens } : {}),
        });
    } else if (name === "bm25") {
      retrievers["bm25 chunks"] = chunked("bm25");
    } else {
      const { embeddings, label } = await embeddingsFor(ctx);
      embeddingsLabel = label;
      retrievers["vector chunks"] = chunked("vector", embeddings);
    }
  }
  if (embeddingsLabel && !ctx.options.json) ctx.io.err(`Vector baseline embeddings: ${embeddingsLabel}`);

  const raw = await evaluateRetrievers({
    questions,
    retrievers,
    k,
    onResult: (name, question, score) => {
      if (ctx.options.json || ctx.options.progress === false) return;
      const hit = score.firstHitRank === null ? "miss" : `hit@${score.firstHitRank}`;
      ctx.io.err(
        `${name} · ${question.id}: ${hit}${score.error ? ` (error: ${ctx.redact(oneLine(score.error))})` : ""}`,
      );
    },
  });
  const result = relabelFallbacks(
    withTreeIndexing(raw, treeLabel, indexed, docs),
    treeLabel,
    ctx.modelLabel(),
  );
  const table = evaluationTable(result);
  const outDir = resolve(options.out ?? ".pageindex-eval");
  await mkdir(outDir, { recursive: true });
  const config = {
    questionsFile: resolve(questionsFile),
    questions: questions.length,
    documents: docs.map((d) => d.docId),
    k,
    retrievers: names,
    model: ctx.modelLabel(),
    embeddings: embeddingsLabel,
    strategy: options.strategy ?? "auto",
    scope: options.allDocs ? "all documents" : "the question's document when it names one",
    contentTokens: options.contentTokens,
    chunking: DEFAULT_CHUNKING,
    indexedNow: indexed.filter((o) => o.status === "indexed").map((o) => o.docId),
    startedAt,
    node: process.version,
  };
  const report = { config, questionsFile, model: ctx.modelLabel(), embeddings: embeddingsLabel, ...result };
  await writeFile(join(outDir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
  await writeFile(join(outDir, "report.md"), `${table}\n`);
  await writeFile(
    join(outDir, "chart.svg"),
    evaluationChart(result, `Hit@${k} vs context size (${questions.length} questions)`),
  );
  if (ctx.options.json) printJson(ctx.io, report);
  else ctx.io.out(table);
  // On stderr with --json too (as ask does): a model that failed must be visible to the person.
  for (const s of result.summaries) {
    if (s.fallbacks > 0)
      ctx.io.err(`warning: ${s.name}: ${fallbackCell(s)} model judgments fell back to the lexical judge`);
    const failed = result.scores[s.name]?.find((score) => score.error !== undefined);
    if (failed) {
      ctx.io.err(
        `warning: ${s.name}: ${s.errors} of ${plural(s.questions, "question")} failed and count as misses (${failed.id}: ${ctx.redact(oneLine(failed.error ?? ""))})`,
      );
    }
  }
  if (!ctx.options.json) ctx.io.out(`\nWrote ${join(outDir, "report.md")}, chart.svg and report.json`);
  return EXIT.ok;
}
