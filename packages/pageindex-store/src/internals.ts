/**
 * pageindex-store/internals: helpers pageindex-loader, pageindex-retriever and pageindex-cli
 * share — BM25 and the tokenizer, prompt escaping, structured model calls and error
 * classification, abort plumbing, catalog and key-layout details. Not a public API: it may
 * change in any release; use the root entry.
 * @packageDocumentation
 */

export * from "./abort.js";
export { CARD_FIELDS, CARD_LIMITS } from "./catalog/card.js";
export { matchesFilter } from "./catalog/index.js";
export { isCatalogReader } from "./catalog/reader.js";
export { nodeMetadata, nodeOfDocument } from "./convert/documents.js";
export { assertSafeId } from "./ids.js";
export * from "./lexical/bm25.js";
export { isStopWord, stem, tokenize, tokenizeQuery } from "./lexical/tokenize.js";
export * from "./llm/json-text.js";
export * from "./llm/prompt.js";
export {
  classifyModelError,
  errorStatus,
  invokeStructured,
  isContextOverflow,
  isTransientError,
  type StructuredCallOptions,
  type StructuredMode,
  type StructuredResult,
} from "./llm/structured.js";
export * from "./model/back-matter.js";
export * from "./model/branch-summary.js";
export { preorderId } from "./model/build.js";
export { type NodeGraph, nodeIndex } from "./model/navigate.js";
export * from "./model/page-labels.js";
export { documentInfo, toSkeleton } from "./model/reader.js";
export { BuildInfoSchema, ID_PATTERN, LlmUsageSchema } from "./model/schema.js";
export { formatRange } from "./model/toc.js";
export { checkTreeLinks, zodIssues } from "./model/validate.js";
export {
  KeyLayout,
  MAX_STORE_DOC_ID_LENGTH,
  MAX_STORE_KEY_LENGTH,
  maxDocIdLength,
  type ParsedPendingKey,
  type ParsedRetiredKey,
  type ParsedVersionKey,
} from "./store/keys.js";
