import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import pLimit from "p-limit";
import { DATA_NOT_INSTRUCTIONS, invokeStructured, throwIfAborted, type UsageTracker } from "pageindex-core";
import type { z } from "zod/v4";

/** What {@link LlmCaller} needs from the pipeline's options. */
export interface CallerOptions {
  model: BaseChatModel;
  usage: UsageTracker;
  concurrency: number;
  callbacks?: Callbacks;
  signal?: AbortSignal;
  retries?: number;
  timeoutMs?: number;
  backoffMs?: number;
  onProgress?: (e: { llmCalls: number }) => void;
}

/** After this many failed calls in a row (each already retried) the model is taken as unusable. */
const MAX_CONSECUTIVE_FAILURES = 3;

const ROLE =
  "You recover the section structure of a document (its table of contents, with the physical page where each section starts). " +
  "Physical pages are the page tags' physical_page attributes, counted from the first page of the file; " +
  "they can differ from page numbers printed in the text. ";

/**
 * Every model call of the pipeline goes through one caller: it bounds concurrency, delegates to
 * `invokeStructured` (repair, validation, retries, usage by step), reports progress, and stops
 * calling a model that keeps failing so a dead endpoint costs a few calls, not hundreds.
 */
export class LlmCaller {
  private readonly limit: pLimit.Limit;
  private consecutiveFailures = 0;
  private readonly failures = new Map<string, { count: number; last: string }>();
  /** Set once the model failed {@link MAX_CONSECUTIVE_FAILURES} calls in a row. */
  gaveUp = false;

  constructor(private readonly options: CallerOptions) {
    this.limit = pLimit(Math.max(1, Math.floor(options.concurrency)));
  }

  /** Throws the abort reason when the caller's signal fired (a user request, not a model failure). */
  checkAborted(): void {
    throwIfAborted(this.options.signal);
  }

  /**
   * Asks the model one structured question. Resolves to `undefined` when no usable answer came
   * (after retries) or the model was given up on; never throws for a model failure.
   */
  async ask<T>(step: string, schema: z.ZodType<T>, task: string, data: string): Promise<T | undefined> {
    return this.limit(async () => {
      this.checkAborted();
      if (this.gaveUp) return undefined;
      const o = this.options;
      const result = await invokeStructured(o.model, {
        schema,
        step,
        usage: o.usage,
        messages: [new SystemMessage(`${ROLE}${task}\n${DATA_NOT_INSTRUCTIONS}`), new HumanMessage(data)],
        ...(o.callbacks !== undefined ? { callbacks: o.callbacks } : {}),
        ...(o.signal !== undefined ? { signal: o.signal } : {}),
        ...(o.retries !== undefined ? { retries: o.retries } : {}),
        ...(o.timeoutMs !== undefined ? { timeoutMs: o.timeoutMs } : {}),
        ...(o.backoffMs !== undefined ? { backoffMs: o.backoffMs } : {}),
      });
      o.onProgress?.({ llmCalls: o.usage.total.calls });
      this.checkAborted();
      if (result.ok) {
        this.consecutiveFailures = 0;
        return result.value;
      }
      const seen = this.failures.get(step) ?? { count: 0, last: "" };
      this.failures.set(step, { count: seen.count + 1, last: result.error.message });
      this.consecutiveFailures += 1;
      if (this.consecutiveFailures >= MAX_CONSECUTIVE_FAILURES) this.gaveUp = true;
      return undefined;
    });
  }

  /** One warning per step that had failed calls, plus one if the model was given up on. */
  warnings(): string[] {
    const out = [...this.failures].map(
      ([step, f]) => `${step}: ${f.count} model call(s) gave no usable answer (last: ${f.last})`,
    );
    if (this.gaveUp) {
      out.push(`the model failed ${MAX_CONSECUTIVE_FAILURES} calls in a row; stopped calling it`);
    }
    return out;
  }
}
