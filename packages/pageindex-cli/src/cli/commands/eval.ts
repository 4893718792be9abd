import { mkdir, stat, writeFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { EmbeddingsInterface } from "@langchain/core/embeddings";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import { type DocumentInfo, oneLine } from "pageindex-core";
import { PageIndexRetriever, RETRIEVER_DEFAULTS, type SearchStrategy } from "pageindex-retriever";
import {
  AnswerGrader,
  Bm25ChunkRetriever,
  callLimit,
  chunkTree,
  DEFAULT_CHUNKING,
  type EvalQuestion,
  evaluateRetrievers,
  evaluationChart,
  evaluationReport,
  evaluationTable,
  fallbackCell,
  type GeneratedSet,
  generateQuestions,
  HashingEmbeddings,
  ModelAnswerCache,
  ModelDeadlineError,
  normaliseDocName,
  questionsToJsonl,
  type RetrieverUnderTest,
  readQuestions,
  toLangSmithExamples,
  toLangSmithExperiment,
  VectorChunkRetriever,
} from "pageindex-retriever/eval";
import type { CliContext } from "../context.js";
import { CliError, EXIT, plural, printJson } from "../output.js";
import { createProgress, progressModeOf } from "../progress.js";
import { describeEvalFailure, resolveEvalModels, runnerFor } from "./eval-models.js";
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
  /** Write this many questions from the documents first (needs a model). */
  generate?: number;
  /** Seed of the generated set's section sampling. Default 1. */
  seed?: number;
  /** How many generated questions need two sections. Default 0. */
  pairs?: number;
  /** Grade answers (default: when a model is configured); `true` without a model is an error. */
  grade?: boolean;
  /** Seconds each model call may take (each attempt). Default 60. */
  timeout?: number;
  /** Seconds all of the run's model calls may take together. Default 3600. */
  deadline?: number;
  /** Model calls in flight at once. Default: the retriever's `calls.concurrency` (4). */
  concurrency?: number;
  /** Writes the questions (default: --model). */
  generatorModel?: string;
  /** Grades the answers (default: --model). */
  graderModel?: string;
  /** Reuse model answers kept next to the question set (default true; --no-cache). */
  cache?: boolean;
  /** What to do with generated questions word matching finds: rewrite (default), measure, off. */
  difficulty?: "rewrite" | "measure" | "off";
}

const DIFFICULTY_MODES = ["rewrite", "measure", "off"] as const;

const NEEDS_MODEL =
  "needs a model: pass --model (e.g. --model openai:gpt-4o-mini with OPENAI_API_KEY set, or --model ollama:llama3.1) or set PAGEINDEX_MODEL";

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/** "5 copies the title, 2 not answerable from the section", or "none". */
function droppedText(set: GeneratedSet): string {
  const parts = Object.entries(set.dropped).map(([reason, count]) => `${count} ${reason}`);
  return parts.length > 0 ? `dropped: ${parts.join(", ")}` : "none dropped";
}

/** What generation produced and cost, in one line. */
function generationLine(set: GeneratedSet, wanted: number): string {
  const extra = [
    set.rewritten > 0 ? `${set.rewritten} reworded as word matching found them` : "",
    set.skipped.boilerplate > 0
      ? `${plural(set.skipped.boilerplate, "boilerplate section")} passed over`
      : "",
    set.calls.cached > 0 ? `${plural(set.calls.cached, "answer")} from the cache` : "",
  ].filter(Boolean);
  return `Generated ${set.questions.length} of ${wanted} questions from ${plural(set.tried, "section")} tried (${droppedText(set)}${extra.length > 0 ? `; ${extra.join(", ")}` : ""}); ${plural(set.calls.made, "model call")}, ${set.usage.promptTokens} prompt and ${set.usage.completionTokens} completion tokens`;
}

/**
 * Runs the evaluation with one progress bar over every (question, retriever) pair on a
 * terminal (a line per retriever elsewhere) instead of a line per question; failed queries are
 * listed after the bar.
 */
async function evaluateWithProgress(
  ctx: CliContext,
  input: Omit<Parameters<typeof evaluateRetrievers>[0], "onResult">,
  calls: CallCount,
): Promise<Awaited<ReturnType<typeof evaluateRetrievers>>> {
  const progress = createProgress(ctx.io, progressModeOf(ctx.options));
  const total = input.questions.length * Object.keys(input.retrievers).length;
  const failures: string[] = [];
  let done = 0;
  let llmCalls = 0;
  const phase = { name: "evaluating" };
  calls.onChange = () => progress.update({ phase: phase.name, done, total, llmCalls: llmCalls + calls.done });
  progress.start("evaluating");
  try {
    return await evaluateRetrievers({
      ...input,
      onResult: (name, question, score) => {
        done += 1;
        llmCalls += score.llmCalls;
        if (score.error) failures.push(`${name} · ${question.id}: ${ctx.redact(oneLine(score.error))}`);
        phase.name = name;
        calls.onChange?.();
      },
    });
  } finally {
    const pairs = `${plural(input.questions.length, "question")} × ${plural(Object.keys(input.retrievers).length, "retriever")}`;
    calls.onChange = undefined;
    progress.stop(
      `Evaluated ${plural(done, "query", "queries")} (${pairs}); ${plural(llmCalls, "LLM call")} by the retrievers, ${plural(calls.done, "answering or grading call")}`,
    );
    for (const line of failures) ctx.io.err(`error: ${line}`);
  }
}

/** Model calls of the run's runners, for the progress bar. */
interface CallCount {
  done: number;
  onChange: (() => void) | undefined;
}

/**
 * Generates the question set with a progress bar (stderr) counting model calls (two or three
 * per question), and the questions kept so far.
 */
async function generateFromStore(
  ctx: CliContext,
  input: Omit<Parameters<typeof generateQuestions>[0], "onProgress">,
  calls: CallCount,
): Promise<GeneratedSet> {
  const progress = createProgress(ctx.io, progressModeOf(ctx.options));
  let kept = 0;
  let tried = 0;
  const draw = () =>
    progress.update({
      phase: `calls · ${kept} of ${input.count} questions kept (${tried} tried)`,
      done: calls.done,
      total: Math.max(calls.done, 2 * input.count),
      llmCalls: calls.done,
    });
  calls.onChange = draw;
  progress.start("generating questions");
  let summary = "question generation stopped";
  try {
    const set = await generateQuestions({
      ...input,
      onProgress: (progressed) => {
        kept = progressed.kept;
        tried = progressed.tried;
        draw();
      },
    });
    summary = generationLine(set, input.count);
    return set;
  } finally {
    calls.onChange = undefined;
    progress.stop(summary);
  }
}

/** A file name for a retriever's label: "pageindex (openai:gpt-4o)" → "pageindex-openai-gpt-4o". */
function slug(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60);
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
  questionsArg: string | undefined,
  options: EvalOptions,
): Promise<number> {
  const names = (options.retrievers ?? KNOWN.join(","))
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const unknown = names.filter((n) => !KNOWN.includes(n));
  if (unknown.length > 0)
    throw new CliError(`Unknown retriever(s) ${unknown.join(", ")}: use ${KNOWN.join(", ")}`);
  if (questionsArg === undefined && options.generate === undefined)
    throw new CliError("Give a questions file, or --generate N to write one from the documents");
  if (options.generate !== undefined && questionsArg !== undefined && (await exists(questionsArg)))
    throw new CliError(
      `${questionsArg} exists: --generate writes the questions there; remove it, name a new file, or leave the argument out (it then goes to the --out folder)`,
    );
  if (options.difficulty !== undefined && !DIFFICULTY_MODES.includes(options.difficulty))
    throw new CliError(
      `--difficulty must be one of ${DIFFICULTY_MODES.join(", ")} (got "${options.difficulty}")`,
    );
  // Before any indexing: a run that cannot do what was asked stops at once.
  const models = await resolveEvalModels(ctx, options);
  const model = models.main?.model;
  const answering = models.main ?? models.grader;
  if (!models.generator && options.generate !== undefined) throw new CliError(`--generate ${NEEDS_MODEL}`);
  if (!answering && options.grade === true) throw new CliError(`Answer grading (--grade) ${NEEDS_MODEL}`);
  const outDir = resolve(options.out ?? ".pageindex-eval");
  let questions: EvalQuestion[] = [];
  const questionsFile = questionsArg === undefined ? join(outDir, "questions.jsonl") : resolve(questionsArg);
  if (questionsArg !== undefined && options.generate === undefined) {
    questions = await readQuestions(questionsArg);
    if (questions.length === 0) throw new CliError(`No questions in ${questionsArg}`);
  }
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
  // Every model call of the run: one bound on calls in flight, a timeout each, one deadline.
  const timeoutMs = (options.timeout ?? 60) * 1000;
  const deadlineMs = (options.deadline ?? 3600) * 1000;
  const deadline = new AbortController();
  const deadlineTimer = setTimeout(
    () =>
      deadline.abort(
        new ModelDeadlineError(
          `the run's model calls passed the deadline of ${deadlineMs / 1000} s (--deadline)`,
        ),
      ),
    deadlineMs,
  );
  deadlineTimer.unref?.();
  const calls: CallCount = { done: 0, onChange: undefined };
  const cache =
    options.cache === false
      ? undefined
      : await ModelAnswerCache.open(join(dirname(questionsFile), "model-cache.jsonl"));
  const settings = {
    limit: callLimit(options.concurrency ?? RETRIEVER_DEFAULTS.calls.concurrency),
    timeoutMs,
    cache,
    signal: deadline.signal,
    onCall: () => {
      calls.done += 1;
      calls.onChange?.();
    },
  };
  try {
    return await evaluateWith();
  } finally {
    clearTimeout(deadlineTimer);
  }

  async function evaluateWith(): Promise<number> {
    let generation: GeneratedSet | undefined;
    if (options.generate !== undefined && models.generator) {
      const fromDocs = indexed.filter((o) => o.status !== "failed").map((o) => o.docId);
      const generator = runnerFor(models.generator, settings);
      try {
        generation = await generateFromStore(
          ctx,
          {
            runner: generator,
            reader: store,
            docIds: fromDocs.length > 0 ? fromDocs : docs.map((d) => d.docId),
            libraryDocIds: docs.map((d) => d.docId),
            count: options.generate,
            seed: options.seed ?? 1,
            pairs: options.pairs ?? 0,
            difficulty: options.difficulty ?? "rewrite",
          },
          calls,
        );
      } catch (error) {
        if (generator.stopped)
          throw new CliError(
            `Question generation stopped: ${describeEvalFailure(ctx, models.generator, generator.stopped)}`,
            EXIT.model,
            { cause: generator.stopped },
          );
        throw error;
      }
      if (generation.failures.length > 0 && !ctx.options.json)
        for (const cause of generation.failures)
          ctx.io.err(
            `warning: a generation call failed: ${describeEvalFailure(ctx, models.generator, new Error(cause))}`,
          );
      questions = generation.questions;
      await mkdir(dirname(questionsFile), { recursive: true });
      await writeFile(questionsFile, questionsToJsonl(generation.questions, generation.seed));
      if (!ctx.options.json) ctx.io.err(`Wrote ${questionsFile}`);
      if (questions.length === 0)
        throw new CliError(
          `No generated question passed the check (${droppedText(generation)}): nothing to evaluate${generation.failures[0] ? `; the model failed: ${describeEvalFailure(ctx, models.generator, new Error(generation.failures[0]))}` : ""}`,
          generation.failures.length > 0 ? EXIT.model : EXIT.usage,
        );
    }
    const missing = [...new Set(questions.filter((q) => q.doc && !documentFor(q, docs)).map((q) => q.doc))];
    if (missing.length > 0 && !ctx.options.json) {
      ctx.io.err(
        `warning: not in the store, questions about them search every document: ${missing.join(", ")}`,
      );
    }
    const k = options.k ?? 5;
    const startedAt = new Date().toISOString();
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
          const chunks = (
            await Promise.all(ids.map(async (id) => chunkTree(await store.getTree(id))))
          ).flat();
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
            calls: {
              timeoutMs,
              ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
            },
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

    const answerRunner = answering && (options.grade ?? true) ? runnerFor(answering, settings) : undefined;
    const gradeRunner =
      answerRunner && models.grader && models.grader !== answering
        ? runnerFor(models.grader, settings)
        : answerRunner;
    const grader = answerRunner
      ? new AnswerGrader({
          runner: answerRunner,
          ...(gradeRunner ? { grader: gradeRunner } : {}),
          reader: store,
        })
      : undefined;
    const raw = await evaluateWithProgress(
      ctx,
      {
        questions,
        retrievers,
        k,
        signal: deadline.signal,
        ...(grader ? { grader } : {}),
      },
      calls,
    );
    // A model that stopped answering or grading (a refused key, no answer, the deadline) is named with its cause.
    const stopped = answerRunner?.stopped
      ? { error: answerRunner.stopped, choice: answering }
      : gradeRunner?.stopped
        ? { error: gradeRunner.stopped, choice: models.grader }
        : undefined;
    if (stopped)
      ctx.io.err(
        `warning: answering and grading stopped, the rest is ungraded: ${describeEvalFailure(ctx, stopped.choice, stopped.error)}`,
      );
    const result = relabelFallbacks(
      withTreeIndexing(raw, treeLabel, indexed, docs),
      treeLabel,
      ctx.modelLabel(),
    );
    const table = evaluationTable(result);
    await mkdir(outDir, { recursive: true });
    const config = {
      questionsFile: resolve(questionsFile),
      questions: questions.length,
      documents: docs.map((d) => d.docId),
      k,
      retrievers: names,
      model: ctx.modelLabel(),
      models: {
        retriever: ctx.modelLabel(),
        generator: generation ? models.generator?.label : undefined,
        answers: grader ? answering?.label : undefined,
        grader: grader ? (models.grader ?? answering)?.label : undefined,
      },
      concurrency: options.concurrency ?? RETRIEVER_DEFAULTS.calls.concurrency,
      timeoutSeconds: timeoutMs / 1000,
      deadlineSeconds: deadlineMs / 1000,
      modelCache: cache ? `${cache.path} (${cache.hits} answers reused)` : "off",
      embeddings: embeddingsLabel,
      strategy: options.strategy ?? "auto",
      scope: options.allDocs ? "all documents" : "the question's document when it names one",
      contentTokens: options.contentTokens,
      answerGrading: grader
        ? `answers by ${answering?.label} from each retriever's context, graded by ${(models.grader ?? answering)?.label} against the gold section`
        : "off",
      ...(generation
        ? {
            generated: {
              seed: generation.seed,
              wanted: options.generate,
              kept: generation.questions.length,
              tried: generation.tried,
              dropped: generation.dropped,
              rewritten: generation.rewritten,
              skippedBoilerplate: generation.skipped.boilerplate,
              difficulty: difficultyCounts(questions),
              calls: generation.calls,
              usage: generation.usage,
            },
          }
        : {}),
      chunking: DEFAULT_CHUNKING,
      indexedNow: indexed.filter((o) => o.status === "indexed").map((o) => o.docId),
      startedAt,
      node: process.version,
    };
    const report = { config, questionsFile, model: ctx.modelLabel(), embeddings: embeddingsLabel, ...result };
    await writeFile(join(outDir, "report.json"), `${JSON.stringify(report, null, 2)}\n`);
    await writeFile(join(outDir, "report.md"), evaluationReport(result, questions, config));
    const datasetName = `pageindex-eval ${basename(questionsFile)}`;
    const langsmith = join(outDir, "langsmith");
    await mkdir(langsmith, { recursive: true });
    await writeFile(
      join(langsmith, "dataset.jsonl"),
      toLangSmithExamples(questions)
        .map((e) => JSON.stringify(e))
        .join("\n")
        .concat("\n"),
    );
    for (const summary of result.summaries) {
      const experiment = toLangSmithExperiment({
        name: summary.name,
        datasetName,
        questions,
        scores: result.scores[summary.name] ?? [],
        summary,
        k,
        settings: config,
      });
      await writeFile(
        join(langsmith, `experiment-${slug(summary.name)}.json`),
        `${JSON.stringify(experiment, null, 2)}\n`,
      );
    }
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
    if (!ctx.options.json)
      ctx.io.out(
        `\nWrote ${join(outDir, "report.md")}, chart.svg, report.json and langsmith/ (dataset and experiments)`,
      );
    return EXIT.ok;
  }
}

/** How many questions of each difficulty the set has (those measured). */
function difficultyCounts(questions: readonly EvalQuestion[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const q of questions) if (q.difficulty) counts[q.difficulty] = (counts[q.difficulty] ?? 0) + 1;
  return counts;
}
