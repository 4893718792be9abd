/**
 * pageindex-retriever: a LangChain retriever that navigates document trees top-down with an
 * LLM (or BM25 offline), plus agent tools over the same trees. The A/B evaluation is the
 * `pageindex-retriever/eval` entry.
 * @packageDocumentation
 */

export { answerWithCitations, citationOf, DEFAULT_ANSWER_TIMEOUT_MS } from "./answer.js";
export { PromptTooLargeError, RetrievalFailedError, RetrieverConfigError, RetrieverError } from "./errors.js";
export { ByteStoreJudgmentCache, type JudgmentCache, LruJudgmentCache } from "./judge/cache.js";
export type { ExpertKnowledge } from "./judge/prompts.js";
export type { Judgment, NodeVerdict } from "./judge/types.js";
export { type DerivedArtifactReader, LexicalIndexes, type LexicalNeed } from "./lexical/index-cache.js";
export type { LexicalTextMode } from "./lexical/node-index.js";
export { PageIndexRetriever, type PageIndexRetrieverInput } from "./retriever.js";
export { createDocumentTools, type DocumentToolOptions } from "./tools/document-tools.js";
export { createPageIndexTools } from "./tools/index.js";
export { createNavigationTools, type NavigationToolOptions } from "./tools/navigation-tools.js";
export { InvalidPageRangeError } from "./tools/page-ranges.js";
export { createSearchTool, type SearchToolOptions, type SectionCitation } from "./tools/search-tool.js";
export type * from "./types.js";
