import type { DocumentInterface } from "@langchain/core/documents";
import {
  answerWithCitations,
  citationOf,
  type PageIndexDocumentMetadata,
  PageIndexRetriever,
  type RetrievalRun,
  type SearchStrategy,
} from "pageindex-retriever";
import type { CliContext } from "../context.js";
import { resolveDocIds } from "../doc-ids.js";
import { CliError, EXIT, plural, printable, printJson } from "../output.js";

/** Options of `pageindex ask`. */
export interface AskOptions {
  doc?: string[];
  k?: number;
  strategy?: SearchStrategy;
  maxSteps?: number;
  expert?: string;
  answer?: boolean;
  chars?: number;
  /** Seconds each model call (judgments and the answer) may take. */
  timeout?: number;
  /** Seconds the whole question (search and answer) may take. Default 600. */
  deadline?: number;
}

const STRATEGIES: SearchStrategy[] = ["auto", "expand", "beam", "single-shot"];

/** One question's result, as `--json` prints it. */
export interface AskResult {
  question: string;
  model: string;
  sections: Array<Record<string, unknown>>;
  answer?: string;
  /** Why no answer came (the sections are still given): a timeout, a refused or failed call. */
  answerError?: string;
  stats?: RetrievalRun["stats"];
  warnings: string[];
}

/** Retrieves (and, with a model, answers) one question; prints nothing. */
export async function retrieveAnswer(
  ctx: CliContext,
  question: string,
  options: AskOptions,
): Promise<{ result: AskResult; docs: DocumentInterface<PageIndexDocumentMetadata>[]; run?: RetrievalRun }> {
  if (!question.trim()) throw new CliError("The question is empty");
  if (options.strategy && !STRATEGIES.includes(options.strategy)) {
    throw new CliError(`--strategy must be one of ${STRATEGIES.join(", ")} (got "${options.strategy}")`);
  }
  const store = await ctx.store();
  const docIds = options.doc?.length ? await resolveDocIds(store, options.doc) : undefined;
  if (!docIds && (await store.listDocuments({ limit: 1 })).total === 0) {
    throw new CliError(
      "The store is empty: index documents first (pageindex index <files>) or run pageindex demo",
    );
  }
  const model = await ctx.model();
  const timeoutMs = options.timeout !== undefined ? options.timeout * 1000 : undefined;
  const retriever = new PageIndexRetriever({
    reader: store,
    ...(model ? { model } : {}),
    k: options.k ?? 3,
    ...(options.strategy ? { strategy: options.strategy } : {}),
    ...(options.maxSteps !== undefined ? { maxSteps: options.maxSteps } : {}),
    ...(docIds ? { docIds } : {}),
    ...(options.expert ? { expertKnowledge: options.expert } : {}),
    ...(timeoutMs !== undefined ? { timeoutMs } : {}),
  });
  // One bound on the whole question: however many judgments and retries, it ends.
  const deadlineMs = (options.deadline ?? 600) * 1000;
  const deadline = AbortSignal.timeout(deadlineMs);
  const passed = () =>
    new CliError(
      `The question passed its deadline of ${deadlineMs / 1000} s (--deadline) before the model finished`,
      EXIT.model,
    );
  let docs: Awaited<ReturnType<typeof retriever.invoke>>;
  try {
    docs = await retriever.invoke(question, { signal: deadline });
  } catch (error) {
    if (deadline.aborted) throw passed();
    throw error;
  }
  const run = retriever.lastRun;
  const wantAnswer = options.answer !== false && model !== undefined && docs.length > 0;
  let answer: string | undefined;
  let answerError: string | undefined;
  if (wantAnswer && model) {
    try {
      answer = await answerWithCitations(model, question, docs, {
        signal: deadline,
        ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      });
    } catch (error) {
      // The sections were found: the person gets them, with the reason there is no answer.
      answerError = deadline.aborted ? passed().message : ctx.describeError(error);
    }
  }
  const result: AskResult = {
    question,
    model: ctx.modelLabel(),
    sections: docs.map((doc) => ({
      rank: doc.metadata.rank,
      docId: doc.metadata.docId,
      docName: doc.metadata.docName,
      nodeId: doc.metadata.nodeId,
      title: doc.metadata.title,
      path: doc.metadata.path,
      startPage: doc.metadata.startPage,
      endPage: doc.metadata.endPage,
      startLine: doc.metadata.startLine,
      endLine: doc.metadata.endLine,
      score: doc.metadata.score,
      reason: doc.metadata.reason,
      judge: doc.metadata.judge,
      text: doc.pageContent,
    })),
    ...(answer !== undefined ? { answer } : {}),
    ...(answerError !== undefined ? { answerError } : {}),
    ...(run ? { stats: run.stats } : {}),
    warnings: [...(run?.warnings ?? []), ...fallbackWarning(ctx, run)],
  };
  return run ? { result, docs, run } : { result, docs };
}

/**
 * A warning when the model's judgments failed and the lexical judge answered for it, so that a
 * run where the model never worked does not pass for an LLM-judged one.
 */
function fallbackWarning(ctx: CliContext, run: RetrievalRun | undefined): string[] {
  const fallbacks = run?.stats.fallbacks ?? 0;
  if (!run || fallbacks === 0) return [];
  const judged = run.stats.steps;
  const all = fallbacks >= judged;
  return [
    `the model (${ctx.modelLabel()}) failed ${all ? "every judgment" : `${fallbacks} of ${plural(judged, "judgment")}`}: ` +
      `the lexical judge answered instead (${plural(fallbacks, "fallback")})` +
      (all ? "; these sections were not chosen by the model" : ""),
  ];
}

/** Prints one question's result for a person. */
function printAsk(
  ctx: CliContext,
  { result, docs, run }: Awaited<ReturnType<typeof retrieveAnswer>>,
  options: AskOptions,
): void {
  ctx.io.out(`Question: ${printable(result.question)}\n`);
  if (docs.length === 0) ctx.io.out("No relevant section found.");
  const chars = options.chars ?? 400;
  docs.forEach((doc, i) => {
    ctx.io.out(`[${i + 1}] ${printable(citationOf(doc))}`);
    ctx.io.out(
      `    score ${doc.metadata.score.toFixed(2)} (${doc.metadata.judge}) — ${printable(doc.metadata.reason)}`,
    );
    const text = doc.pageContent.replace(/\s+/g, " ").trim();
    if (chars > 0 && text) ctx.io.out(`    ${text.length > chars ? `${text.slice(0, chars)}…` : text}`);
    ctx.io.out("");
  });
  if (result.answer !== undefined) ctx.io.out(`Answer (${result.model}):\n${result.answer}\n`);
  if (result.answerError !== undefined)
    ctx.io.out(`Answer (${result.model}): none, the model failed (see the error below)\n`);
  if (run) {
    const s = run.stats;
    ctx.io.out(
      `Searched ${plural(run.docIds.length, "document")} with ${run.strategy}: ${plural(s.calls, "LLM call")}, ${plural(s.roundTrips, "sequential round trip")}, ${plural(s.promptTokens, "prompt token")}, ${plural(s.nodesJudged, "node")} judged.`,
    );
  }
  for (const warning of result.warnings) ctx.io.err(`warning: ${printable(warning)}`);
}

/** `pageindex ask "<question>"`: retrieved sections with citations, and an answer when a model is set. */
export async function ask(ctx: CliContext, question: string, options: AskOptions): Promise<number> {
  return askMany(ctx, [question], options);
}

/** Asks several questions; `--json` prints one result, or `{ results: [...] }` for several. */
export async function askMany(ctx: CliContext, questions: string[], options: AskOptions): Promise<number> {
  const results: AskResult[] = [];
  for (const [i, question] of questions.entries()) {
    const outcome = await retrieveAnswer(ctx, question, options);
    results.push(outcome.result);
    if (!ctx.options.json) {
      if (i > 0) ctx.io.out("");
      printAsk(ctx, outcome, options);
    } else {
      // Scripts read stdout; a model that never answered must still be visible to the person.
      for (const warning of fallbackWarning(ctx, outcome.run)) ctx.io.err(`warning: ${warning}`);
    }
  }
  if (ctx.options.json) printJson(ctx.io, results.length === 1 ? results[0] : { results });
  const failed = results.find((r) => r.answerError !== undefined);
  if (failed) {
    // Printed last, after the sections: the command did not do all it was asked (exit 4).
    throw new CliError(`${failed.answerError} (no answer; the sections were found and printed)`, EXIT.model);
  }
  return EXIT.ok;
}
