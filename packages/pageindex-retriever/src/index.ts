/**
 * pageindex-retriever: a LangChain retriever that navigates document trees top-down with an
 * LLM (or BM25 offline), plus agent tools over the same trees.
 * @packageDocumentation
 */

export {
  type Bm25Doc,
  type Bm25fCountedField,
  type Bm25fField,
  Bm25fIndex,
  Bm25Index,
  type Bm25Params,
  bm25Doc,
  countField,
  isStopWord,
  type QueryTerm,
  stem,
  tokenize,
  tokenizeQuery,
  type WeightedField,
} from "pageindex-store";
export * from "./answer.js";
export { chatModelFromSpec, type ModelEnv, ModelSpecError, type ResolvedModel } from "./cli/model-spec.js";
export * from "./errors.js";
export * from "./eval/baselines.js";
export {
  type DropReason,
  type GeneratedQuestion,
  type GeneratedSet,
  type GenerateOptions,
  generateQuestions,
  questionsToJsonl,
} from "./eval/generate.js";
export { type AnswerGrade, AnswerGrader, type AnswerGraderOptions, type GradedAnswer } from "./eval/grade.js";
export {
  type LangSmithExample,
  type LangSmithExperiment,
  type LangSmithExperimentRow,
  toLangSmithExamples,
  toLangSmithExperiment,
} from "./eval/langsmith.js";
export * from "./eval/metrics.js";
export * from "./eval/questions.js";
export * from "./eval/report.js";
export * from "./eval/run.js";
export * from "./judge/cache.js";
export { lexicalJudgment } from "./judge/lexical-judge.js";
export type { ExpertKnowledge } from "./judge/prompts.js";
export { type Selection, type SelectionItem, SelectionSchema } from "./judge/schema.js";
export type { JudgeKind, JudgeRequest, Judgment, NodeVerdict } from "./judge/types.js";
export { documentPriors } from "./lexical/doc-names.js";
export { expandQuery } from "./lexical/expand.js";
export {
  type DerivedArtifactReader,
  keepsDerivedArtifacts,
  LexicalIndexes,
  type LexicalNeed,
} from "./lexical/index-cache.js";
export {
  AUTO_TEXT_MAX_TOKENS,
  type CountedNodeFields,
  type LexicalScores,
  type LexicalTextMode,
  NodeTermIndex,
  needsText,
  nodeFields,
  queryTerms,
} from "./lexical/node-index.js";
export { LEXICAL_INDEX_ARTIFACT } from "./lexical/persisted.js";
export { PageIndexRetriever, type PageIndexRetrieverInput } from "./retriever.js";
export * from "./tools/index.js";
export type * from "./types.js";
