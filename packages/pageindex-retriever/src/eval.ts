/**
 * pageindex-retriever/eval: A/B evaluation of retrievers on your own questions — question sets
 * (read, or generated from the documents), chunk baselines (BM25, vector), runners, metrics,
 * answer grading, reports and LangSmith export. Needs nothing beyond the retriever's own
 * dependencies; the `pageindex eval` command of pageindex-cli is built on it.
 * @packageDocumentation
 */

export { ModelAnswerCache } from "./eval/answer-cache.js";
export {
  Bm25ChunkRetriever,
  type Bm25ChunkRetrieverInput,
  type ChunkMetadata,
  type ChunkOptions,
  chunkTree,
  chunkTrees,
  DEFAULT_CHUNKING,
  HashingEmbeddings,
  type HashingEmbeddingsParams,
  VectorChunkRetriever,
  type VectorChunkRetrieverInput,
} from "./eval/baselines.js";
export { aboutTheDocumentShare, isBoilerplate } from "./eval/boilerplate.js";
export {
  type Difficulty,
  type DifficultyMeasure,
  type DifficultyOptions,
  LexicalDifficulty,
  type LibrarySection,
} from "./eval/difficulty.js";
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
  type LangSmithScore,
  toLangSmithExamples,
  toLangSmithExperiment,
} from "./eval/langsmith.js";
export {
  type AnswerSummary,
  normaliseDocName,
  type QuestionScore,
  type RetrieverSummary,
  type ReturnedSection,
} from "./eval/metrics.js";
export {
  callLimit,
  EvalModel,
  type EvalModelOptions,
  type EvalRequest,
  ModelDeadlineError,
} from "./eval/model-runner.js";
export {
  type EvalQuestion,
  type Evidence,
  parseQuestions,
  QuestionsFileError,
  readQuestions,
} from "./eval/questions.js";
export {
  difficultyTable,
  evaluationChart,
  evaluationReport,
  evaluationTable,
  fallbackCell,
} from "./eval/report.js";
export {
  type EvaluateOptions,
  type EvaluationResult,
  evaluateRetrievers,
  type RetrieverUnderTest,
  renameRetriever,
} from "./eval/run.js";
