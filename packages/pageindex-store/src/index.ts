/**
 * pageindex-store: the PageIndex tree model (types, runtime schema, conversions, navigation
 * helpers) and the persistent tree store. Helpers the sibling packages share (BM25, the
 * tokenizer, prompt and model-call plumbing) are the `pageindex-store/internals` entry, not
 * part of the public API.
 * @packageDocumentation
 */

export type { CardOutlineEntry, CardSection, DocumentCard } from "./catalog/card.js";
export type {
  CatalogFilter,
  DocumentMatch,
  DocumentPage,
  DocumentPageOptions,
  SearchDocumentsOptions,
} from "./catalog/index.js";
export type { CatalogReader } from "./catalog/reader.js";
export {
  type DocumentsToTreeInit,
  documentsToTree,
  type NodeDocumentMetadata,
  type NodeLocation,
  nodeDocumentId,
  treeToDocuments,
} from "./convert/documents.js";
export * from "./convert/pageindex.js";
export * from "./errors.js";
export { toDocId } from "./ids.js";
export type {
  LibraryDocumentHit,
  LibraryEntry,
  LibraryIndex,
  LibraryReader,
  LibrarySection,
  SearchLibraryOptions,
  SectionHit,
} from "./library/types.js";
export { ModelAnswerError, ModelCallError, type ModelErrorKind } from "./llm/structured.js";
export * from "./llm/usage.js";
export { createTree, type NodeDraft, type TreeInit } from "./model/build.js";
export { MAX_TREE_DEPTH } from "./model/limits.js";
export * from "./model/memory-reader.js";
export {
  childrenOf,
  findNode,
  getNode,
  isLeaf,
  pathToRoot,
  rootsOf,
  subtreeNodes,
  subtreeText,
  subtreeTokenCount,
  titlePath,
  walk,
} from "./model/navigate.js";
export { type DocumentInfo, DocumentNotFoundError, type TreeReader } from "./model/reader.js";
export { TreeDocumentSchema, TreeNodeSchema } from "./model/schema.js";
export { type RenderTocOptions, renderToc } from "./model/toc.js";
export * from "./model/types.js";
export { parseTree } from "./model/validate.js";
export * from "./store/index.js";
export { countTokens } from "./tokens.js";
