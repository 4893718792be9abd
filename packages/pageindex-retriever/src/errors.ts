import { PageIndexError } from "pageindex-core";

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

/**
 * A saved lexical index whose postings turned out damaged when a query first decoded them
 * (a saved index is checked a block at a time, as it is read, not all at load). The retriever
 * treats it as a damaged index found at load: rebuilt from the document's texts and saved again.
 */
export class LexicalIndexDamagedError extends RetrieverError {
  /** The index, e.g. `lexical index "lexical-index-v2" of document "acme"`. */
  readonly source: string;
  /** The block of postings found damaged. */
  readonly block: number;
  constructor(source: string, block: number) {
    super(`${source}: postings block ${block} is damaged (cut short, out of order or out of range)`);
    this.source = source;
    this.block = block;
  }
}

/**
 * Declared for a query where nothing at all could be judged; never thrown.
 * @deprecated No code path throws it: when the only documents asked for cannot be read, the
 * store's own error (e.g. `StoreCorruptionError`) reaches the caller, and unreadable documents
 * among others are skipped with a warning in `lastRun.warnings`. Kept so that existing imports
 * compile; it will be removed in a later release.
 */
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
