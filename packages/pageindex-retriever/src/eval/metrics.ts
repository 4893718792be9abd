import type { DocumentInterface } from "@langchain/core/documents";
import { countTokens } from "pageindex-store";
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
  const end = typeof metadata.endPage === "number" ? metadata.endPage : start;
  return [start, end];
}

/**
 * Whether a retrieved document holds a piece of evidence: same document (when the evidence names
 * one) and a page range containing the evidence page, or a title path containing the evidence
 * section. Works for tree nodes (`startPage`/`endPage`, `path`) and chunks (`page` or `startPage`).
 */
export function documentHoldsEvidence(doc: DocumentInterface, evidence: Evidence): boolean {
  const meta = doc.metadata as Record<string, unknown>;
  if (evidence.doc) {
    const names = docNamesOf(meta);
    if (names.length > 0 && !names.includes(normaliseDocName(evidence.doc))) return false;
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

/** Scores of one question for one retriever. */
export interface QuestionScore {
  id: string;
  /** 1-based rank of the first returned document holding evidence; `null` when none does. */
  firstHitRank: number | null;
  returned: number;
  /** Tokens of the returned text (o200k_base): what a chain would put in the prompt. */
  returnedTokens: number;
  llmCalls: number;
  promptTokens: number;
  completionTokens: number;
  latencyMs: number;
  error?: string;
}

/** Scores the documents a retriever returned for a question. */
export function scoreRetrieval(
  question: EvalQuestion,
  docs: DocumentInterface[],
): Pick<QuestionScore, "firstHitRank" | "returned" | "returnedTokens"> {
  const index = docs.findIndex((doc) => question.evidence.some((e) => documentHoldsEvidence(doc, e)));
  return {
    firstHitRank: index < 0 ? null : index + 1,
    returned: docs.length,
    returnedTokens: docs.reduce((sum, d) => sum + countTokens(d.pageContent), 0),
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
  meanLatencyMs: number;
  errors: number;
}

const mean = (values: number[]) =>
  values.length === 0 ? 0 : values.reduce((a, b) => a + b, 0) / values.length;

/** Summarises per-question scores at cut-off `k`. */
export function summarise(name: string, scores: QuestionScore[], k: number): RetrieverSummary {
  return {
    name,
    questions: scores.length,
    hitRate: mean(scores.map((s) => (s.firstHitRank !== null && s.firstHitRank <= k ? 1 : 0))),
    mrr: mean(scores.map((s) => (s.firstHitRank !== null && s.firstHitRank <= k ? 1 / s.firstHitRank : 0))),
    meanReturnedTokens: mean(scores.map((s) => s.returnedTokens)),
    meanLlmCalls: mean(scores.map((s) => s.llmCalls)),
    meanPromptTokens: mean(scores.map((s) => s.promptTokens)),
    meanLatencyMs: mean(scores.map((s) => s.latencyMs)),
    errors: scores.filter((s) => s.error !== undefined).length,
  };
}
