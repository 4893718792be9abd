import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { type AIMessage, type BaseMessageLike, HumanMessage, SystemMessage } from "@langchain/core/messages";
import { z } from "zod/v4";
import { raceAbort } from "../abort.js";
import { PageIndexError } from "../errors.js";
import { countTokens } from "../tokens.js";
import { extractJson } from "./json-text.js";
import { classifyModelError, errorStatus, ModelCallError } from "./model-errors.js";
import type { UsageTracker } from "./usage.js";

export {
  classifyModelError,
  errorStatus,
  isContextOverflow,
  isTransientError,
  ModelCallError,
  type ModelErrorKind,
} from "./model-errors.js";

/** How to ask for structured output. */
export type StructuredMode = "auto" | "tool" | "json";

/** Options of {@link invokeStructured}. */
export interface StructuredCallOptions<T> {
  /** Zod schema the answer must satisfy (validated even when the provider claims to enforce it). */
  schema: z.ZodType<T>;
  /** Prompt: a string (one human message) or chat messages. */
  messages: string | BaseMessageLike[];
  /** Name of the step, for usage accounting and tool naming ("judge", "toc-detect", …). */
  step: string;
  usage?: UsageTracker;
  /** Callbacks for tracing; pass `runManager?.getChild()` so traces nest. */
  callbacks?: Callbacks;
  /**
   * Extra attempts after the first (bad answer, rate limit, timeout). Default 2. A request the
   * model refuses (see `classifyModelError`: a wrong key, an unknown model, a bad request) is not
   * retried, apart from one switch from tool calling to JSON text in `auto` mode.
   */
  retries?: number;
  /** Per-attempt timeout. Default 60 s. */
  timeoutMs?: number;
  /** First backoff delay after a rate limit or timeout; doubles each time. Default 1000 ms. */
  backoffMs?: number;
  signal?: AbortSignal;
  /**
   * `tool`: `withStructuredOutput`; `json`: ask for JSON in text and parse it (repairing small
   * errors); `auto` (default): tool calling when the model offers it, JSON text otherwise or after
   * a tool-calling answer that could not be used.
   */
  mode?: StructuredMode;
  /**
   * Called after each failed attempt (a timeout, a thrown client error), before any retry: lets
   * a caller that runs many calls stop them all at once (e.g. on a model that never answers)
   * without waiting for every retry.
   */
  onAttemptError?: (error: Error, attempt: number) => void;
}

/**
 * Outcome of {@link invokeStructured}: never a thrown error for a bad answer. `attempts` is the
 * number of model calls made, retries included (each one a sequential round trip). A failure
 * whose `error` is a {@link ModelCallError} was a refused request (not retried): a
 * misconfiguration the caller should surface rather than paper over.
 */
export type StructuredResult<T> =
  | { ok: true; value: T; attempts: number }
  | { ok: false; error: Error; attempts: number; lastText?: string };

/** The model did not produce a usable answer (after retries). */
export class ModelAnswerError extends PageIndexError {}

class AttemptTimeout extends Error {
  constructor(ms: number) {
    super(`model call timed out after ${ms} ms`);
    this.name = "TimeoutError";
  }
}

function toMessages(messages: string | BaseMessageLike[]): BaseMessageLike[] {
  return typeof messages === "string" ? [new HumanMessage(messages)] : messages;
}

function messageText(message: unknown): string {
  const content = (message as { content?: unknown })?.content;
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content
      .map((part) => (typeof part === "string" ? part : ((part as { text?: string }).text ?? "")))
      .join("");
  }
  return "";
}

function promptText(messages: BaseMessageLike[]): string {
  return messages
    .map((m) => (typeof m === "string" ? m : Array.isArray(m) ? String(m[1]) : messageText(m)))
    .join("\n");
}

function jsonInstruction(schema: z.ZodType): string {
  let shape = "";
  try {
    shape = JSON.stringify(z.toJSONSchema(schema));
  } catch {
    shape = "(see the instructions above)";
  }
  return (
    "Answer with one JSON value only, no prose and no code fences. It must satisfy this JSON Schema:\n" +
    shape
  );
}

async function withTimeout<T>(
  work: (signal: AbortSignal) => Promise<T>,
  ms: number,
  outer?: AbortSignal,
): Promise<T> {
  const controller = new AbortController();
  const onAbort = () => controller.abort(outer?.reason);
  outer?.addEventListener("abort", onAbort, { once: true });
  if (outer?.aborted) controller.abort(outer.reason);
  let timer: NodeJS.Timeout | undefined;
  try {
    // Race as well as abort: a client that ignores the signal must not hang the caller, neither
    // until the timeout nor after the caller's own signal fired.
    const attempt = Promise.race([
      work(controller.signal),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort();
          reject(new AttemptTimeout(ms));
        }, ms);
      }),
    ]);
    return await raceAbort(attempt, outer);
  } finally {
    clearTimeout(timer);
    outer?.removeEventListener("abort", onAbort);
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });

function supportsTools(model: BaseChatModel): boolean {
  return typeof (model as { bindTools?: unknown }).bindTools === "function";
}

/**
 * Asks a chat model for an answer that satisfies a zod schema, the robust way: tool calling
 * when available, JSON in text otherwise; sloppy JSON repaired; the answer validated; bounded
 * retries with exponential backoff on rate limits and timeouts; usage recorded. A bad answer is
 * returned as `{ ok: false }`, never thrown, so callers can degrade instead of failing.
 */
export async function invokeStructured<T>(
  model: BaseChatModel,
  options: StructuredCallOptions<T>,
): Promise<StructuredResult<T>> {
  const { schema, step, usage, callbacks, signal } = options;
  const retries = options.retries ?? 2;
  const timeoutMs = options.timeoutMs ?? 60_000;
  const backoffMs = options.backoffMs ?? 1000;
  const base = toMessages(options.messages);
  let mode: "tool" | "json" = options.mode === "json" || !supportsTools(model) ? "json" : "tool";
  let lastError: Error = new ModelAnswerError(`${step}: no attempt made`);
  let lastText: string | undefined;
  let feedback: string | undefined;
  let delay = backoffMs;
  let attempts = 0;
  let switchedForRefusal = false;

  for (let attempt = 1; attempt <= retries + 1; attempt += 1) {
    if (signal?.aborted) break;
    attempts = attempt;
    const messages: BaseMessageLike[] = [...base];
    if (mode === "json") messages.push(new SystemMessage(jsonInstruction(schema)));
    if (feedback) messages.push(new HumanMessage(feedback));
    const promptTokens = countTokens(promptText(messages));
    let raw: unknown;
    let rawText = "";
    try {
      raw = await withTimeout(
        async (callSignal) => {
          if (mode === "tool") {
            const runnable = model.withStructuredOutput(schema, {
              name: step.replace(/[^A-Za-z0-9_]/g, "_"),
              includeRaw: true,
            });
            return runnable.invoke(messages, { callbacks, signal: callSignal });
          }
          return model.invoke(messages, { callbacks, signal: callSignal });
        },
        timeoutMs,
        signal,
      );
    } catch (error) {
      usage?.record(step, { promptTokens, failures: 0 });
      lastError = error instanceof Error ? error : new Error(String(error));
      options.onAttemptError?.(lastError, attempt);
      if (signal?.aborted) break;
      const kind = classifyModelError(error);
      if (kind === "transient") {
        await sleep(delay + Math.random() * delay * 0.25, signal);
        delay = Math.min(delay * 2, 30_000);
      } else if (kind === "fatal") {
        // A bad request in tool mode may only mean "no tool calling here": try JSON text once.
        // Not for a prompt over the context window: the JSON-text prompt is longer still.
        const toolRefused =
          mode === "tool" &&
          options.mode !== "tool" &&
          errorStatus(error) === 400 &&
          (error as Error | undefined)?.name !== "ContextOverflowError";
        if (!toolRefused || switchedForRefusal || attempt > retries) {
          lastError = ModelCallError.from(step, error);
          break;
        }
        switchedForRefusal = true;
        mode = "json";
      } else if (mode === "tool" && options.mode !== "tool") {
        // Tool calling failed for a non-transient reason (unsupported, unparsable arguments):
        // the same model can usually still answer in JSON text.
        mode = "json";
      }
      continue;
    }

    // Tool mode with includeRaw gives {raw, parsed}; some models return the parsed value only.
    let candidate: unknown;
    let message: AIMessage | undefined;
    if (mode === "tool" && raw && typeof raw === "object" && "raw" in raw && "parsed" in raw) {
      const both = raw as { raw: AIMessage; parsed: unknown };
      message = both.raw;
      candidate = both.parsed ?? message.tool_calls?.[0]?.args;
      rawText = messageText(message);
      if (candidate == null) candidate = extractJson(rawText);
    } else if (mode === "tool") {
      candidate = raw;
      rawText = JSON.stringify(raw) ?? "";
    } else {
      message = raw as AIMessage;
      rawText = messageText(message);
      candidate = extractJson(rawText);
    }
    const reported = message?.usage_metadata;
    usage?.record(step, {
      promptTokens: reported?.input_tokens ?? promptTokens,
      completionTokens: reported?.output_tokens ?? countTokens(rawText),
    });
    lastText = rawText;

    const parsed = candidate === undefined ? undefined : schema.safeParse(candidate);
    if (parsed?.success) return { ok: true, value: parsed.data, attempts: attempt };
    const problem =
      parsed === undefined
        ? "the answer contained no JSON"
        : parsed.error.issues
            .slice(0, 5)
            .map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`)
            .join("; ");
    lastError = new ModelAnswerError(`${step}: unusable answer (${problem})`);
    feedback = `Your previous answer could not be used (${problem}). Answer again with valid JSON only.`;
    if (mode === "tool" && options.mode !== "tool") mode = "json";
  }
  usage?.record(step, { calls: 0, failures: 1 });
  return lastText === undefined
    ? { ok: false, error: lastError, attempts }
    : { ok: false, error: lastError, attempts, lastText };
}
