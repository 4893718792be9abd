import { BaseCallbackHandler } from "@langchain/core/callbacks/base";
import type { DocumentInterface } from "@langchain/core/documents";
import type { LLMResult } from "@langchain/core/outputs";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import type { RetrievalRun } from "../types.js";
import type { AnswerGrader, GradedAnswer } from "./grade.js";
import { type QuestionScore, type RetrieverSummary, scoreRetrieval, summarise } from "./metrics.js";
import type { EvalQuestion } from "./questions.js";

/** Counts chat-model calls and tokens seen by the callbacks of one retrieval. */
export class LlmCallCounter extends BaseCallbackHandler {
  name = "pageindex-llm-call-counter";
  calls = 0;
  promptTokens = 0;
  completionTokens = 0;

  override handleChatModelStart(): void {
    this.calls += 1;
  }

  override handleLLMStart(): void {
    this.calls += 1;
  }

  override handleLLMEnd(output: LLMResult): void {
    const usage = output.llmOutput?.tokenUsage as
      | { promptTokens?: number; completionTokens?: number }
      | undefined;
    let prompt = usage?.promptTokens ?? 0;
    let completion = usage?.completionTokens ?? 0;
    if (!usage) {
      for (const generation of output.generations.flat()) {
        const meta = (
          generation as { message?: { usage_metadata?: { input_tokens?: number; output_tokens?: number } } }
        ).message?.usage_metadata;
        prompt += meta?.input_tokens ?? 0;
        completion += meta?.output_tokens ?? 0;
      }
    }
    this.promptTokens += prompt;
    this.completionTokens += completion;
  }
}

/**
 * A retriever to evaluate, or a function that gives one for a question (e.g. scoped to its
 * document). The function's time is reported as index-building time (`setupMs`), not as query
 * latency, so a factory should build what its retriever needs (chunk index, embeddings) before
 * returning it.
 */
export type RetrieverUnderTest =
  | BaseRetrieverInterface
  | ((question: EvalQuestion) => BaseRetrieverInterface | Promise<BaseRetrieverInterface>);

/** Options of {@link evaluateRetrievers}. */
export interface EvaluateOptions {
  questions: EvalQuestion[];
  retrievers: Record<string, RetrieverUnderTest>;
  /** Cut-off for hit rate and MRR; returned lists are truncated to it. Default 5. */
  k?: number;
  /** Called after each question and retriever, for progress output. */
  onResult?: (name: string, question: EvalQuestion, score: QuestionScore) => void;
  /**
   * Grades the answer a model gives from each retriever's returned context (an
   * {@link AnswerGrader}); its calls are not counted as the retriever's.
   */
  grader?: Pick<AnswerGrader, "grade">;
  /** Stops the run's queries (a deadline): a query still running rejects and scores an error. */
  signal?: AbortSignal;
}

/** Per-retriever summaries and every per-question score. */
export interface EvaluationResult {
  k: number;
  summaries: RetrieverSummary[];
  scores: Record<string, QuestionScore[]>;
}

/** The record of the last query, for retrievers that keep one (PageIndexRetriever's `lastRun`). */
function lastRunOf(retriever: BaseRetrieverInterface | undefined): RetrievalRun | undefined {
  const run = (retriever as { lastRun?: Partial<RetrievalRun> } | undefined)?.lastRun;
  return run && typeof run.stats === "object" ? (run as RetrievalRun) : undefined;
}

/**
 * Runs every question through every retriever, one at a time (so latency is comparable; the
 * answering and grading calls of earlier questions run meanwhile, bounded by the grader), and
 * scores hit rate at k, MRR, returned tokens, model calls and tokens, latency. Building a
 * retriever (the factory call) is timed apart from the query. A retriever that throws on a
 * question scores a miss with the error recorded; the run goes on.
 */
export async function evaluateRetrievers(options: EvaluateOptions): Promise<EvaluationResult> {
  const k = options.k ?? 5;
  const scores: Record<string, QuestionScore[]> = {};
  // Answers and grades go on while the next questions are retrieved; the grader bounds its calls.
  const grading: Promise<void>[] = [];
  for (const [name, under] of Object.entries(options.retrievers)) {
    const list: QuestionScore[] = [];
    scores[name] = list;
    for (const [index, question] of options.questions.entries()) {
      const counter = new LlmCallCounter();
      let docs: DocumentInterface[] = [];
      let error: string | undefined;
      let retriever: BaseRetrieverInterface | undefined;
      const setupStarted = performance.now();
      try {
        retriever = typeof under === "function" ? await under(question) : under;
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
      const setupMs = performance.now() - setupStarted;
      const started = performance.now();
      const startedAt = new Date().toISOString();
      if (retriever) {
        try {
          docs = (
            await retriever.invoke(question.question, {
              callbacks: [counter],
              ...(options.signal ? { signal: options.signal } : {}),
            })
          ).slice(0, k);
        } catch (e) {
          error = e instanceof Error ? e.message : String(e);
        }
      }
      const latencyMs = performance.now() - started;
      const run = error === undefined ? lastRunOf(retriever) : undefined;
      const finish = (answer?: GradedAnswer) => {
        const score: QuestionScore = {
          id: question.id,
          ...scoreRetrieval(question, docs),
          llmCalls: counter.calls,
          promptTokens: counter.promptTokens,
          completionTokens: counter.completionTokens,
          latencyMs,
          startedAt,
          setupMs,
          ...(run ? { judgments: run.stats.steps, fallbacks: run.stats.fallbacks } : {}),
          ...(answer ? { answer } : {}),
          ...(error !== undefined ? { error } : {}),
        };
        list[index] = score;
        options.onResult?.(name, question, score);
      };
      if (options.grader) grading.push(options.grader.grade(question, docs).then(finish));
      else finish();
    }
  }
  await Promise.all(grading);
  return { k, summaries: Object.entries(scores).map(([name, list]) => summarise(name, list, k)), scores };
}

/** The result with one retriever renamed (e.g. once its run shows the model never judged). */
export function renameRetriever(result: EvaluationResult, from: string, to: string): EvaluationResult {
  if (from === to || !(from in result.scores)) return result;
  const scores = Object.fromEntries(
    Object.entries(result.scores).map(([name, list]) => [name === from ? to : name, list]),
  );
  const summaries = result.summaries.map((s) => (s.name === from ? { ...s, name: to } : s));
  return { ...result, summaries, scores };
}
