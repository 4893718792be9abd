import type { DocumentInterface } from "@langchain/core/documents";
import { countTokens } from "pageindex-core";
import type { GradedAnswer } from "./grade.js";
import type { EvalQuestion, Evidence } from "./questions.js";

/** Lower-cased name without extension or non-alphanumerics, so "ADOBE_2022_10K.pdf" ≈ "adobe-2022-10k". */
export function normaliseDocName(name: string): string {
  return name
    .replace(/\.(pdf|md|markdown|txt)$/i, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "");
}

function docNamesOf(metadata: Record<string, unknown>): string[] {
  return ["docId", "docName", "source"]
    .map((k) => metadata[k])
    .filter((v): v is string => typeof v === "string")
    .map((v) => normaliseDocName(v.split(/[\\/]/).pop() ?? v));
}

function pageRangeOf(metadata: Record<string, unknown>): [number, number] | undefined {
  const start =
    metadata.startPage ?? metadata.page ?? (metadata.loc as { pageNumber?: number } | undefined)?.pageNumber;
  if (typeof start !== "number") return undefined;
  // A section returned without its subsections holds only its own text: a page that only its
  // subsections cover is not evidence it holds.
  const own = metadata.includesDescendants !== true ? metadata.ownEndPage : undefined;
  const end = typeof own === "number" ? own : typeof metadata.endPage === "number" ? metadata.endPage : start;
  return [start, Math.max(start, end)];
}

/**
 * Whether a retrieved document holds a piece of evidence: same document (when the evidence names
 * one) and, for evidence naming a node, that node (or an ancestor returned whole, or a chunk of
 * it); otherwise a page range containing the evidence page (a section's own pages unless it was
 * returned with its subsections), or a title path containing the
 * evidence section. Works for tree nodes (`startPage`/`endPage`, `path`) and chunks (`page` or `startPage`).
 */
export function documentHoldsEvidence(doc: DocumentInterface, evidence: Evidence): boolean {
  const meta = doc.metadata as Record<string, unknown>;
  if (evidence.doc) {
    const names = docNamesOf(meta);
    if (names.length > 0 && !names.includes(normaliseDocName(evidence.doc))) return false;
  }
  if (evidence.nodeId !== undefined && typeof meta.nodeId === "string") {
    if (meta.nodeId === evidence.nodeId) return true;
    return meta.includesDescendants === true && (evidence.ancestors ?? []).includes(meta.nodeId);
  }
  if (evidence.page !== undefined) {
    const range = pageRangeOf(meta);
    return range !== undefined && evidence.page >= range[0] && evidence.page <= range[1];
  }
  if (evidence.section) {
    const wanted = evidence.section.toLowerCase();
    const path = Array.isArray(meta.path) ? meta.path : [meta.title];
    if (path.some((t) => typeof t === "string" && t.toLowerCase().includes(wanted))) return true;
    // A section returned with its whole subtree holds its subsections too; their headings are
    // lines of its text.
    return (
      meta.includesDescendants === true &&
      doc.pageContent
        .split("\n")
        .some((line) => line.toLowerCase().includes(wanted) && line.length < wanted.length + 40)
    );
  }
  return false;
}

/** One returned Document, as a report lists it: where it is and whether it holds evidence. */
export interface ReturnedSection {
  docId?: string;
  /** Tree node (sections) or the node a chunk comes from. */
  nodeId?: string;
  title?: string;
  startPage?: number;
  endPage?: number;
  startLine?: number;
  endLine?: number;
  tokens: number;
  /** Whether it holds a piece of the question's evidence. */
  hit: boolean;
}

/** Scores of one question for one retriever. */
export interface QuestionScore {
  id: string;
  /** 1-based rank of the first returned document holding evidence; `null` when none does. */
  firstHitRank: number | null;
  returned: number;
  /** Tokens of the returned text (o200k_base): what a chain would put in the prompt. */
  returnedTokens: number;
  /** What came back, in rank order. */
  sections: ReturnedSection[];
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  /** Time of the query alone, after the retriever and its index were built. */
  latencyMs: number;
  /** When the query started (ISO time). */
  startedAt?: string;
  /** Time spent building the retriever for this question (a chunk index the first time it is needed). */
  setupMs: number;
  /** Model judgments asked, when the retriever reports them (PageIndexRetriever). */
  judgments?: number;
  /** Judgments whose model answer failed or was unusable, made by the lexical judge instead. */
  fallbacks?: number;
  /** The answer a model gave from the returned context, graded against the gold (answer grading). */
  answer?: GradedAnswer;
  error?: string;
}

/** Answer grades of one retriever over all questions. */
export interface AnswerSummary {
  graded: number;
  correct: number;
  partial: number;
  wrong: number;
  /** Answers that could not be given or graded (a failed call, no reference). */
  ungraded: number;
  /** Share of graded answers that are correct (partial counts half in `score`). */
  correctRate: number;
  /** Mean of correct = 1, partial = 0.5, wrong = 0 over graded answers. */
  score: number;
  /** Model calls and prompt tokens spent answering and grading, per question. */
  meanCalls: number;
  meanPromptTokens: number;
}

/** Summarises graded answers; `undefined` when none were graded. */
export function summariseAnswers(scores: readonly QuestionScore[]): AnswerSummary | undefined {
  const answers = scores.flatMap((s) => (s.answer ? [s.answer] : []));
  if (answers.length === 0) return undefined;
  const count = (grade: GradedAnswer["grade"]) => answers.filter((a) => a.grade === grade).length;
  const correct = count("correct");
  const partial = count("partial");
  const wrong = count("wrong");
  const graded = correct + partial + wrong;
  return {
    graded,
    correct,
    partial,
    wrong,
    ungraded: count("ungraded"),
    correctRate: graded === 0 ? 0 : correct / graded,
    score: graded === 0 ? 0 : (correct + partial / 2) / graded,
    meanCalls: mean(answers.map((a) => a.calls)),
    meanPromptTokens: mean(answers.map((a) => a.promptTokens)),
  };
}

const num = (value: unknown) => (typeof value === "number" ? value : undefined);
const str = (value: unknown) => (typeof value === "string" ? value : undefined);

/** Where a returned Document is, for the per-question report. */
function describeReturned(doc: DocumentInterface, hit: boolean): ReturnedSection {
  const meta = doc.metadata as Record<string, unknown>;
  const range = pageRangeOf(meta);
  // Absent fields stay undefined; JSON.stringify leaves them out of report.json.
  return {
    docId: str(meta.docId) ?? str(meta.docName) ?? str(meta.source),
    nodeId: str(meta.nodeId),
    title: str(meta.title),
    startPage: range?.[0],
    endPage: range?.[1],
    startLine: num(meta.startLine),
    endLine: num(meta.endLine),
    tokens: countTokens(doc.pageContent),
    hit,
  };
}

/** Scores the documents a retriever returned for a question. */
export function scoreRetrieval(
  question: EvalQuestion,
  docs: DocumentInterface[],
): Pick<QuestionScore, "firstHitRank" | "returned" | "returnedTokens" | "sections"> {
  const sections = docs.map((doc) =>
    describeReturned(
      doc,
      question.evidence.some((e) => documentHoldsEvidence(doc, e)),
    ),
  );
  const index = sections.findIndex((s) => s.hit);
  return {
    firstHitRank: index < 0 ? null : index + 1,
    returned: docs.length,
    returnedTokens: sections.reduce((sum, s) => sum + s.tokens, 0),
    sections,
  };
}

/** Aggregates over the questions of one retriever. */
export interface RetrieverSummary {
  name: string;
  questions: number;
  /** Share of questions with a hit in the top k. */
  hitRate: number;
  /** Mean reciprocal rank of the first hit (0 for a miss). */
  mrr: number;
  meanReturnedTokens: number;
  meanLlmCalls: number;
  meanPromptTokens: number;
  meanCompletionTokens: number;
  /** Mean query time, index building excluded. */
  meanLatencyMs: number;
  /**
   * Time to build the retriever's index in this run (chunking, embedding, or the tree indexing
   * when the caller adds it); `undefined` when not measured (e.g. trees indexed in an earlier run).
   */
  indexMs?: number;
  /** Model judgments asked over all questions (retrievers that report them). */
  judgments: number;
  /** Of those, how many failed and were made by the lexical judge instead. */
  fallbacks: number;
  errors: number;
  /** Answer grades, when the evaluation graded answers. */
  answers?: AnswerSummary;
}

const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

/** Summarises per-question scores at cut-off `k`. */
export function summarise(name: string, scores: QuestionScore[], k: number): RetrieverSummary {
  const answers = summariseAnswers(scores);
  return {
    ...(answers ? { answers } : {}),
    name,
    questions: scores.length,
    hitRate: mean(scores.map((s) => (s.firstHitRank !== null && s.firstHitRank <= k ? 1 : 0))),
    mrr: mean(scores.map((s) => (s.firstHitRank !== null && s.firstHitRank <= k ? 1 / s.firstHitRank : 0))),
    meanReturnedTokens: mean(scores.map((s) => s.returnedTokens)),
    meanLlmCalls: mean(scores.map((s) => s.llmCalls)),
    meanPromptTokens: mean(scores.map((s) => s.promptTokens)),
    meanCompletionTokens: mean(scores.map((s) => s.completionTokens)),
    meanLatencyMs: mean(scores.map((s) => s.latencyMs)),
    indexMs: scores.reduce((sum, s) => sum + s.setupMs, 0),
    judgments: scores.reduce((sum, s) => sum + (s.judgments ?? 0), 0),
    fallbacks: scores.reduce((sum, s) => sum + (s.fallbacks ?? 0), 0),
    errors: scores.filter((s) => s.error !== undefined).length,
  };
}
