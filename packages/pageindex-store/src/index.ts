/**
 * pageindex-store: the PageIndex tree model (types, runtime schema, conversions, helpers)
 * and the persistent tree store.
 * @packageDocumentation
 */

export * from "./abort.js";
export {
  CARD_FIELDS,
  CARD_LIMITS,
  type CardOutlineEntry,
  type CardSection,
  type DocumentCard,
} from "./catalog/card.js";
export {
  type CatalogFilter,
  type DocumentMatch,
  type DocumentPage,
  type DocumentPageOptions,
  matchesFilter,
  type SearchDocumentsOptions,
} from "./catalog/index.js";
export { type CatalogReader, isCatalogReader } from "./catalog/reader.js";
export * from "./convert/documents.js";
export * from "./convert/pageindex.js";
export * from "./errors.js";
export * from "./ids.js";
export * from "./lexical/bm25.js";
export { isStopWord, stem, tokenize, tokenizeQuery } from "./lexical/tokenize.js";
export * from "./llm/json-text.js";
export * from "./llm/prompt.js";
export * from "./llm/structured.js";
export * from "./llm/usage.js";
export * from "./model/back-matter.js";
export * from "./model/branch-summary.js";
export * from "./model/build.js";
export { MAX_TREE_DEPTH } from "./model/limits.js";
export * from "./model/memory-reader.js";
export * from "./model/navigate.js";
export * from "./model/page-labels.js";
export * from "./model/reader.js";
export * from "./model/schema.js";
export * from "./model/toc.js";
export * from "./model/types.js";
export * from "./model/validate.js";
export * from "./store/index.js";
export { countTokens } from "./tokens.js";
