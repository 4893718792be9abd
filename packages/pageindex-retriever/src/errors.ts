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

/** Nothing at all could be judged (e.g. the reader failed for every document). */
export class RetrievalFailedError extends RetrieverError {}
