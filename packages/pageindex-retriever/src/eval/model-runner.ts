import { setMaxListeners } from "node:events";
import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import pLimit from "p-limit";
import {
  abortError,
  classifyModelError,
  invokeStructured,
  ModelCallError,
  type StructuredResult,
  type UsageTracker,
} from "pageindex-core";
import { z } from "zod/v4";
import { ModelAnswerCache } from "./answer-cache.js";

/** Options of {@link EvalModel}. */
export interface EvalModelOptions {
  model: BaseChatModel;
  /** Names the model in reports and keys its cached answers, e.g. "openai:gpt-4o-mini". */
  label?: string;
  /** Most calls in flight at once, for this model (or share `limit` between models). Default 4. */
  concurrency?: number;
  /** A limiter shared with other models, so the whole run keeps one bound. */
  limit?: <T>(work: () => Promise<T>) => Promise<T>;
  /** Longest wait for one attempt of one call. Default 60 s. */
  timeoutMs?: number;
  /** Extra attempts after the first (rate limits, bad answers). Default 2. */
  retries?: number;
  /** Wall-clock bound on all of this model's calls, from construction. */
  deadlineMs?: number;
  /** Answers kept on disk: a call whose prompt was answered before is not made again. */
  cache?: ModelAnswerCache;
  callbacks?: Callbacks;
  signal?: AbortSignal;
  /** Called when a call ends (answered, failed or from the cache). */
  onCall?: (calls: { done: number; cached: number; inFlight: number }) => void;
}

/** One structured request: the schema of the answer, a step name and the two messages. */
export interface EvalRequest<T> {
  schema: z.ZodType<T>;
  step: string;
  system: string;
  human: string;
  usage?: UsageTracker;
}

/**
 * The model calls of an evaluation (question writing, checks, answers, grading), made the way a
 * user's run needs them: at most `concurrency` in flight, each attempt bounded by `timeoutMs`,
 * all of them by `deadlineMs`, answers reused from an on-disk cache. It stops every call at once
 * — and keeps the cause for the caller to show — when a request is refused (a wrong key, an
 * unknown model), when the model has not answered once and a call times out or fails after its
 * retries (a server that never answers, a rate limit from the first call), or at the deadline.
 * After a first answer, a failed call is the caller's to count; the run goes on.
 *
 * @example
 * ```ts
 * const runner = new EvalModel({ model, label: "openai:gpt-4o-mini", concurrency: 4, timeoutMs: 30_000 });
 * const result = await runner.call({ schema, step: "grade", system, human });
 * if (runner.stopped) throw runner.stopped; // names the status, the provider's message
 * ```
 */
export class EvalModel {
  readonly label: string;
  /** Why every call was stopped, once one was: a refused request, no answer, the deadline. */
  stopped: Error | undefined;
  private readonly options: EvalModelOptions;
  private readonly limit: <T>(work: () => Promise<T>) => Promise<T>;
  private readonly controller = new AbortController();
  private readonly deadline: NodeJS.Timeout | undefined;
  private answered = 0;
  private done = 0;
  private cached = 0;
  private inFlight = 0;
  /** Most calls that were in flight at once (for the concurrency bound's tests). */
  maxInFlight = 0;

  constructor(options: EvalModelOptions) {
    this.options = options;
    this.label = options.label ?? modelId(options.model);
    // Every call in flight listens to this signal (and retries add their own): not a leak.
    setMaxListeners(0, this.controller.signal);
    this.limit = options.limit ?? callLimit(options.concurrency ?? 4);
    const outer = options.signal;
    if (outer) {
      if (outer.aborted) this.stop(abortError(outer));
      else outer.addEventListener("abort", () => this.stop(abortError(outer)), { once: true });
    }
    if (options.deadlineMs !== undefined) {
      const ms = options.deadlineMs;
      this.deadline = setTimeout(
        () =>
          this.stop(
            new ModelDeadlineError(
              `${this.label}: the run's model calls passed the deadline of ${seconds(ms)}`,
            ),
          ),
        ms,
      );
      this.deadline.unref?.();
    }
  }

  /** The model's answer to one request (from the cache when this prompt was answered before). */
  async call<T>(request: EvalRequest<T>): Promise<StructuredResult<T>> {
    const cache = this.options.cache;
    const key = cache ? cacheKey(this.label, request) : undefined;
    if (cache && key) {
      const hit = cache.get(key);
      const parsed = hit === undefined ? undefined : request.schema.safeParse(hit);
      if (parsed?.success) {
        this.cached += 1;
        this.report();
        return { ok: true, value: parsed.data, attempts: 0 };
      }
    }
    return this.limit(async () => {
      if (this.stopped) return { ok: false, error: this.stopped, attempts: 0 } as const;
      this.inFlight += 1;
      this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
      const timeoutMs = this.options.timeoutMs ?? 60_000;
      try {
        const result = await invokeStructured(this.options.model, {
          schema: request.schema,
          step: request.step,
          messages: [
            ["system", request.system],
            ["human", request.human],
          ],
          timeoutMs,
          signal: this.controller.signal,
          ...(request.usage ? { usage: request.usage } : {}),
          ...(this.options.retries !== undefined ? { retries: this.options.retries } : {}),
          ...(this.options.callbacks ? { callbacks: this.options.callbacks } : {}),
          onAttemptError: (error) => {
            // A model that never answered and now lets a call time out is not answering at all:
            // stop now, not after every retry of every call.
            if (this.answered === 0 && error.name === "TimeoutError")
              this.stop(
                new ModelCallError(
                  `${request.step}: ${this.label} did not answer within ${seconds(timeoutMs)} (no call has been answered): stopped`,
                  error,
                ),
              );
          },
        });
        if (result.ok) {
          this.answered += 1;
          if (cache && key) await cache.put(key, request.step, result.value);
          return result;
        }
        if (this.stopped) return { ...result, error: this.stopped };
        if (result.error instanceof ModelCallError) this.stop(result.error);
        else if (this.answered === 0 && classifyModelError(result.error) === "transient")
          this.stop(ModelCallError.from(request.step, result.error));
        return result;
      } finally {
        this.inFlight -= 1;
        this.done += 1;
        this.report();
      }
    });
  }

  /** Calls made or taken from the cache so far. */
  get calls(): { done: number; cached: number } {
    return { done: this.done, cached: this.cached };
  }

  /** Stops every call in flight and every call after: they fail with `reason`. */
  stop(reason: Error): void {
    if (this.stopped) return;
    this.stopped = reason;
    this.controller.abort(reason);
    if (this.deadline) clearTimeout(this.deadline);
  }

  /** Ends the deadline timer (the run is over). */
  close(): void {
    if (this.deadline) clearTimeout(this.deadline);
  }

  private report(): void {
    this.options.onCall?.({ done: this.done, cached: this.cached, inFlight: this.inFlight });
  }
}

/**
 * A bound on calls in flight shared by several {@link EvalModel}s (a generator, an answering
 * model and a grader of one run), so the whole run keeps one concurrency limit.
 */
export function callLimit(concurrency: number): <T>(work: () => Promise<T>) => Promise<T> {
  const limiter = pLimit(Math.max(1, concurrency));
  return (work) => limiter(work);
}

/** The run's model calls passed their overall deadline. */
export class ModelDeadlineError extends ModelCallError {
  constructor(message: string) {
    super(message, undefined);
  }
}

/** A model's id for the cache when no label is given: its type and model name. */
function modelId(model: BaseChatModel): string {
  const name =
    (model as { model?: unknown; modelName?: unknown }).model ?? (model as { modelName?: unknown }).modelName;
  return `${model._llmType()}:${typeof name === "string" ? name : ""}`;
}

function cacheKey(label: string, request: EvalRequest<unknown>): string {
  let schema = "";
  try {
    schema = JSON.stringify(z.toJSONSchema(request.schema));
  } catch {
    schema = request.step;
  }
  return ModelAnswerCache.key(label, request.step, schema, request.system, request.human);
}

function seconds(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}
