/**
 * pageindex-retriever: a LangChain retriever that navigates document trees top-down with an
 * LLM (or BM25 offline), plus agent tools over the same trees. The A/B evaluation is the
 * `pageindex-retriever/eval` entry.
 * @packageDocumentation
 */

export { answerWithCitations, citationOf, DEFAULT_ANSWER_TIMEOUT_MS } from "./answer.js";
export {
  LexicalIndexDamagedError,
  PromptTooLargeError,
  RetrievalFailedError,
  RetrieverConfigError,
  RetrieverError,
  UnusableJudgmentError,
} from "./errors.js";
export { ByteStoreJudgmentCache, type JudgmentCache, LruJudgmentCache } from "./judge/cache.js";
export { CachedJudge, type CachedJudgeOptions } from "./judge/cached-judge.js";
export { FallbackJudge } from "./judge/fallback-judge.js";
export { LexicalJudge, type LexicalJudgeOptions } from "./judge/lexical-judge.js";
export { LlmJudge, type LlmJudgeOptions } from "./judge/llm-judge.js";
export type { ExpertKnowledge, OutlineView } from "./judge/prompts.js";
export type {
  DocumentChoice,
  DocumentChoiceRequest,
  Judge,
  JudgeKind,
  JudgeOutcome,
  JudgeRequest,
  JudgeRun,
  Judgment,
  LibraryChoice,
  LibraryChoiceRequest,
  LibraryPick,
  ModelCallOptions,
  NodeVerdict,
  OutlineRequest,
  TableOfContentsRequest,
} from "./judge/types.js";
export { type DerivedArtifactReader, LexicalIndexes, type LexicalNeed } from "./lexical/index-cache.js";
export type { LexicalTextMode } from "./lexical/node-index.js";
export { LEXICAL_INDEX_ARTIFACT } from "./lexical/persisted.js";
export {
  type BudgetOptions,
  type CacheOptions,
  type CallOptions,
  type DeadEndOptions,
  type DocumentOptions,
  type LexicalOptions,
  RETRIEVER_DEFAULTS,
} from "./options.js";
export { PageIndexRetriever, type PageIndexRetrieverInput } from "./retriever.js";
export type { DocumentScoring } from "./search/documents.js";
export type { LevelEntry, SiblingGroup } from "./search/groups.js";
export { createDocumentTools, type DocumentToolOptions } from "./tools/document-tools.js";
export { createPageIndexTools } from "./tools/index.js";
export { createNavigationTools, type NavigationToolOptions } from "./tools/navigation-tools.js";
export { InvalidPageRangeError } from "./tools/page-ranges.js";
export { createSearchTool, type SearchToolOptions, type SectionCitation } from "./tools/search-tool.js";
export type * from "./types.js";
