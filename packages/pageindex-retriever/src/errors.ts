import { PageIndexError } from "pageindex-store";

/** Base class of the retriever's own errors. */
export class RetrieverError extends PageIndexError {}

/** Retriever options that cannot work (e.g. `k` < 1, neither `reader` nor `trees`). */
export class RetrieverConfigError extends RetrieverError {}

/** The single-shot prompt would not fit `maxPromptTokens` and falling back was disabled. */
export class PromptTooLargeError extends RetrieverError {
  readonly tokens: number;
  readonly limit: number;
  constructor(tokens: number, limit: number) {
    super(
      `single-shot prompt needs about ${tokens} tokens, over maxPromptTokens=${limit}; ` +
        'use strategy "expand", raise maxPromptTokens, or set onPromptTooLarge: "expand"',
    );
    this.tokens = tokens;
    this.limit = limit;
  }
}

/** Nothing at all could be judged (e.g. the reader failed for every document). */
export class RetrievalFailedError extends RetrieverError {}

/**
 * A judge's answer could not be used (malformed, only ids that were not offered, a failed call).
 * Thrown by {@link LlmJudge}; a {@link FallbackJudge} catches it and asks its fallback instead.
 */
export class UnusableJudgmentError extends RetrieverError {
  /** Model calls made for the answer, retries included (sequential round trips spent). */
  readonly attempts: number;
  /** The prompt was over the model's context window: a smaller prompt may work. */
  readonly overflow: boolean;
  /** Why, as the model call reported it (`undefined` when it gave no reason). */
  readonly reason: string | undefined;
  constructor(reason: string | undefined, attempts: number, overflow = false) {
    super(reason ?? "unusable judgment");
    this.reason = reason;
    this.attempts = attempts;
    this.overflow = overflow;
  }
}
