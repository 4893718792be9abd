/**
 * pageindex-core: the ground floor every PageIndex package shares. The tree model (types, a zod
 * runtime schema, building, navigation, validation, conversions to LangChain `Document`s and
 * PageIndex JSON), the tokenizer (`countTokens`), lexical ranking (BM25 / BM25F and the
 * tokenizer/stemmer behind it), structured LLM calls with model-error classification, prompt
 * escaping, usage accounting, the error classes and abort plumbing.
 *
 * The first group below is what applications call; the second holds the building blocks the
 * loader, store and retriever are made of. Both are documented and stable within a minor
 * release.
 * @packageDocumentation
 */

// Building blocks the loader, store and retriever share (BM25, tokenizer, prompt escaping,
// structured calls, abort helpers, tree checks and navigation aids).
export * from "./abort.js";
// The tree model, its conversions and errors: what applications call.
export {
  type DocumentsToTreeInit,
  documentsToTree,
  type NodeDocumentMetadata,
  type NodeLocation,
  nodeDocumentId,
  nodeMetadata,
  nodeOfDocument,
  treeToDocuments,
} from "./convert/documents.js";
export * from "./convert/pageindex.js";
export * from "./errors.js";
export {
  FileReadError,
  type FileReadProblem,
  fileKind,
  openRegularFile,
  type ReadRegularFileOptions,
  readRegularFile,
} from "./fs/read-file.js";
export { assertSafeId, toDocId } from "./ids.js";
export * from "./lexical/bm25.js";
export * from "./lexical/bm25f-postings.js";
export { abbreviationsOf, isStopWord, stem, tokenize, tokenizeQuery } from "./lexical/tokenize.js";
export { chatModelProblem } from "./llm/chat-model-check.js";
export * from "./llm/json-text.js";
export * from "./llm/prompt.js";
export {
  classifyModelError,
  errorStatus,
  invokeStructured,
  isContextOverflow,
  isTransientError,
  ModelAnswerError,
  ModelCallError,
  type ModelErrorKind,
  type StructuredCallOptions,
  type StructuredMode,
  type StructuredResult,
} from "./llm/structured.js";
export * from "./llm/usage.js";
export * from "./model/back-matter.js";
export * from "./model/branch-summary.js";
export { createTree, type NodeDraft, preorderId, type TreeInit } from "./model/build.js";
export { MAX_TREE_DEPTH } from "./model/limits.js";
export {
  childrenOf,
  findNode,
  getNode,
  isLeaf,
  type NodeGraph,
  nodeIndex,
  pathToRoot,
  rootsOf,
  subtreeNodes,
  subtreeText,
  subtreeTokenCount,
  titlePath,
  walk,
} from "./model/navigate.js";
export * from "./model/page-labels.js";
export {
  type DocumentInfo,
  DocumentNotFoundError,
  documentInfo,
  type TreeReader,
  toSkeleton,
} from "./model/reader.js";
export {
  BuildInfoSchema,
  ID_PATTERN,
  LlmUsageSchema,
  TreeDocumentSchema,
  TreeNodeSchema,
} from "./model/schema.js";
export { checkTreeStructure } from "./model/structure.js";
export { formatRange, type RenderTocOptions, renderToc } from "./model/toc.js";
export * from "./model/types.js";
export { checkTreeLinks, parseTree, zodIssues } from "./model/validate.js";
export { countTokens } from "./tokens.js";
