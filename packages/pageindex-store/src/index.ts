/**
 * pageindex-store: the persistent PageIndex tree store over any LangChain byte store (a folder
 * on disk, Redis, in memory), its corpus catalog and `MemoryTreeReader`. The tree model
 * (types, schema, conversions, navigation, errors) lives in `pageindex-core`.
 * @packageDocumentation
 */

/*
 * Moved to pageindex-core; re-exported for one release so code importing the tree model from
 * pageindex-store keeps compiling. Import these from "pageindex-core"; this block goes away in
 * the next minor release. They are the same bindings (one class per error, so `instanceof`
 * holds whichever package a value came through).
 */
export {
  type BackMatterKind,
  type BuildInfo,
  childrenOf,
  countTokens,
  createTree,
  type DocumentInfo,
  DocumentNotFoundError,
  type DocumentsToTreeInit,
  documentsToTree,
  type FromPageIndexOptions,
  findNode,
  fromPageIndexJson,
  getNode,
  InvalidIdError,
  isLeaf,
  type LlmUsage,
  MAX_TREE_DEPTH,
  ModelAnswerError,
  ModelCallError,
  type ModelErrorKind,
  type NodeDocumentMetadata,
  type NodeDraft,
  type NodeLocation,
  nodeDocumentId,
  PageIndexError,
  type PageIndexJson,
  type PageIndexNode,
  parseTree,
  pathToRoot,
  type RenderTocOptions,
  renderToc,
  rootsOf,
  type SkeletonNode,
  type StructureSource,
  subtreeNodes,
  subtreeText,
  subtreeTokenCount,
  type TextPosition,
  type ToPageIndexOptions,
  TREE_SCHEMA_VERSION,
  type TreeDocument,
  TreeDocumentSchema,
  type TreeInit,
  type TreeIssue,
  type TreeKind,
  type TreeNode,
  TreeNodeSchema,
  type TreeReader,
  type TreeSkeleton,
  TreeValidationError,
  titlePath,
  toDocId,
  toPageIndexJson,
  treeToDocuments,
  type UsageCounts,
  UsageTracker,
  walk,
} from "pageindex-core";
export type { CardOutlineEntry, CardSection, DocumentCard } from "./catalog/card.js";
export {
  type CatalogFilter,
  type DocumentMatch,
  type DocumentPage,
  type DocumentPageOptions,
  matchesFilter,
  type SearchDocumentsOptions,
} from "./catalog/index.js";
export { type CatalogReader, isCatalogReader } from "./catalog/reader.js";
export { LIBRARY_LIMITS, libraryEntry } from "./library/entry.js";
export { LibraryIndexError } from "./library/errors.js";
export { MemoryLibraryIndex } from "./library/memory-library-index.js";
export { isLibraryReader } from "./library/reader.js";
export { CHAMPIONS, type ChampionBuildProgress } from "./library/sqlite/champions.js";
export {
  LIBRARY_FILE,
  SqliteLibraryIndex,
  type SqliteLibraryIndexOptions,
} from "./library/sqlite/sqlite-library-index.js";
export type {
  LibraryDocumentHit,
  LibraryEntry,
  LibraryIndex,
  LibraryIntent,
  LibraryReader,
  LibrarySection,
  SearchLibraryOptions,
  SectionHit,
} from "./library/types.js";
export * from "./model/memory-reader.js";
export * from "./postgres/index.js";
export * from "./store/index.js";
