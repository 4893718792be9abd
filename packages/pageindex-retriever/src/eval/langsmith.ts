import { createHash } from "node:crypto";
import type { QuestionScore, RetrieverSummary } from "./metrics.js";
import type { EvalQuestion } from "./questions.js";

/**
 * The evaluation in LangSmith's shapes, written as files so no account is needed to run it:
 * the question set as dataset examples (what `client.createExamples` takes: `inputs`,
 * `outputs`, `metadata`), and each retriever's run as the body of LangSmith's
 * `POST /datasets/upload-experiment` (experiments run outside LangSmith), whose rows carry the
 * returned sections, the graded answer and the scores as feedback.
 */

/** One dataset example. */
export interface LangSmithExample {
  inputs: { question: string };
  outputs: { answer?: string; evidence: EvalQuestion["evidence"] };
  metadata: { question_id: string; doc?: string; [key: string]: unknown };
}

/** A feedback score on a run, as LangSmith's upload endpoint takes it. */
export interface LangSmithScore {
  key: string;
  score?: number;
  value?: string;
  comment?: string;
}

/** One row of an uploaded experiment: an example and the retriever's run on it. */
export interface LangSmithExperimentRow {
  row_id: string;
  inputs: { question: string };
  expected_outputs: LangSmithExample["outputs"];
  actual_outputs: { answer?: string; sections: QuestionScore["sections"] };
  evaluation_scores: LangSmithScore[];
  start_time: string;
  end_time: string;
  run_name: string;
  error?: string;
  run_metadata: Record<string, unknown>;
}

/** The body of `POST /datasets/upload-experiment`. */
export interface LangSmithExperiment {
  experiment_name: string;
  experiment_description: string;
  experiment_start_time: string;
  experiment_end_time: string;
  dataset_name: string;
  dataset_description: string;
  experiment_metadata: Record<string, unknown>;
  summary_experiment_scores: LangSmithScore[];
  results: LangSmithExperimentRow[];
}

/** A UUID derived from a name (same name, same id), so re-runs group under the same rows. */
export function stableUuid(name: string): string {
  const hex = createHash("sha256").update(name).digest("hex");
  const variant = ((Number.parseInt(hex[16] as string, 16) & 0x3) | 0x8).toString(16);
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-5${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`;
}

/** The question set as dataset examples. */
export function toLangSmithExamples(questions: readonly EvalQuestion[]): LangSmithExample[] {
  return questions.map((q) => ({
    inputs: { question: q.question },
    outputs: { ...(q.answer !== undefined ? { answer: q.answer } : {}), evidence: q.evidence },
    metadata: { question_id: q.id, ...(q.doc !== undefined ? { doc: q.doc } : {}) },
  }));
}

const GRADE_SCORE = { correct: 1, partial: 0.5, wrong: 0 } as const;

/** Per-question feedback: hit@k, reciprocal rank, and the answer grade when graded. */
function scoresOf(score: QuestionScore, k: number): LangSmithScore[] {
  const hit = score.firstHitRank !== null && score.firstHitRank <= k;
  const out: LangSmithScore[] = [
    { key: `hit@${k}`, score: hit ? 1 : 0 },
    { key: "reciprocal_rank", score: hit && score.firstHitRank ? 1 / score.firstHitRank : 0 },
  ];
  const answer = score.answer;
  if (answer && answer.grade !== "ungraded") {
    out.push({
      key: "answer_grade",
      score: GRADE_SCORE[answer.grade],
      value: answer.grade,
      comment: answer.reason,
    });
  }
  return out;
}

/** Options of {@link toLangSmithExperiment}. */
export interface ExperimentInput {
  /** The retriever's name in the evaluation. */
  name: string;
  datasetName: string;
  questions: readonly EvalQuestion[];
  scores: readonly QuestionScore[];
  summary: RetrieverSummary;
  k: number;
  /** Settings of the run (model, strategy, …), kept as experiment metadata. */
  settings: Record<string, unknown>;
}

/** One retriever's run as an upload-experiment body. */
export function toLangSmithExperiment(input: ExperimentInput): LangSmithExperiment {
  const examples = toLangSmithExamples(input.questions);
  const byId = new Map(input.questions.map((q, i) => [q.id, examples[i] as LangSmithExample]));
  const rows = input.scores.map((score): LangSmithExperimentRow => {
    const example = byId.get(score.id);
    const start = Date.parse(score.startedAt ?? "") || Date.now();
    return {
      row_id: stableUuid(`${input.datasetName}\n${score.id}`),
      inputs: example?.inputs ?? { question: score.id },
      expected_outputs: example?.outputs ?? { evidence: [] },
      actual_outputs: {
        ...(score.answer ? { answer: score.answer.answer } : {}),
        sections: score.sections,
      },
      evaluation_scores: scoresOf(score, input.k),
      start_time: new Date(start).toISOString(),
      end_time: new Date(start + Math.max(1, Math.round(score.latencyMs))).toISOString(),
      run_name: input.name,
      ...(score.error !== undefined ? { error: score.error } : {}),
      run_metadata: {
        question_id: score.id,
        llm_calls: score.llmCalls,
        prompt_tokens: score.promptTokens,
        returned_tokens: score.returnedTokens,
      },
    };
  });
  const times = rows.flatMap((r) => [Date.parse(r.start_time), Date.parse(r.end_time)]);
  const s = input.summary;
  const summary: LangSmithScore[] = [
    { key: `hit@${input.k}`, score: s.hitRate },
    { key: "mrr", score: s.mrr },
    { key: "mean_prompt_tokens", score: s.meanPromptTokens },
    ...(s.answers ? [{ key: "answers_correct", score: s.answers.correctRate }] : []),
  ];
  return {
    experiment_name: input.name,
    experiment_description: `pageindex eval: ${input.name} on ${input.questions.length} questions`,
    experiment_start_time: new Date(times.length > 0 ? Math.min(...times) : Date.now()).toISOString(),
    experiment_end_time: new Date(times.length > 0 ? Math.max(...times) : Date.now()).toISOString(),
    dataset_name: input.datasetName,
    dataset_description: "Questions of a pageindex A/B evaluation",
    experiment_metadata: input.settings,
    summary_experiment_scores: summary,
    results: rows,
  };
}
