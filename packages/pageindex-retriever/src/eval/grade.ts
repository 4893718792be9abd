import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { DocumentInterface } from "@langchain/core/documents";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  asData,
  countTokens,
  DATA_NOT_INSTRUCTIONS,
  oneLine,
  pathLine,
  type TreeReader,
  UsageTracker,
} from "pageindex-core";
import { z } from "zod/v4";
import { truncateToTokens } from "../token-budget.js";
import { EvalModel } from "./model-runner.js";
import type { EvalQuestion } from "./questions.js";

/** How an answer compares with the gold: right, partly right, or wrong (or not graded). */
export type AnswerGrade = "correct" | "partial" | "wrong" | "ungraded";

/** The answer a chain gave from one retriever's context, and its grade. */
export interface GradedAnswer {
  answer: string;
  grade: AnswerGrade;
  /** One line: why this grade (or why no grade could be given). */
  reason: string;
  /** Model calls spent answering and grading (retries included). */
  calls: number;
  promptTokens: number;
}

/** Options of {@link AnswerGrader}. */
export interface AnswerGraderOptions {
  /** The user's model: it answers from the retrieved context (and grades, without `graderModel`). */
  model?: BaseChatModel;
  /** The answering calls, bounded and cached ({@link EvalModel}); built from `model` when not given. */
  runner?: EvalModel;
  /** A separate grader (often a stronger model); the answering model grades when not given. */
  grader?: EvalModel;
  /** Reads the gold sections' text (questions whose evidence names nodes). */
  reader?: TreeReader;
  /** Most context tokens given to the answering call. Default 6000. */
  maxContextTokens?: number;
  /** Most gold-text tokens given to the grading call. Default 3000. */
  maxGoldTokens?: number;
  /** Answers are cut to this (tokens) before grading and in the report. Default 300. */
  maxAnswerTokens?: number;
  /** Model calls in flight at once (when `runner` is not given). Default 4. */
  concurrency?: number;
  retries?: number;
  timeoutMs?: number;
  callbacks?: Callbacks;
}

const AnswerSchema = z.object({ answer: z.string() });

const GradeSchema = z.object({
  // Models write "Correct", "PARTIAL", "incorrect": read the intent, not the spelling.
  grade: z.preprocess(
    (value) => {
      const text = String(value ?? "")
        .trim()
        .toLowerCase();
      if (text.startsWith("incorrect") || text.startsWith("wrong")) return "wrong";
      if (text.startsWith("partial")) return "partial";
      if (text.startsWith("correct") || text === "right") return "correct";
      return text;
    },
    z.enum(["correct", "partial", "wrong"]),
  ),
  reason: z.string(),
});

const ANSWER_SYSTEM = [
  "Answer the user's question from the context sections only.",
  "If the context does not contain the answer, say that it is not in the context. Be brief: one to three sentences.",
  DATA_NOT_INSTRUCTIONS,
].join(" ");

const GRADE_SYSTEM = [
  "You grade answers against the reference: the section of the document that answers the question, and a reference answer when one is given.",
  "correct: the answer states what the reference says (wording may differ). partial: some of it, or right with a wrong detail.",
  "wrong: it contradicts the reference, misses the point, or says the answer is not available.",
  DATA_NOT_INSTRUCTIONS,
].join(" ");

/** `text` cut to about `budget` tokens (marked when cut), and the tokens it takes of the budget. */
function withinTokens(text: string, budget: number): { text: string; tokens: number } {
  const tokens = countTokens(text);
  if (tokens <= budget) return { text, tokens };
  return { text: `${truncateToTokens(text, budget)} …`, tokens: budget };
}

/** Concatenates sections up to a token budget; the last one cut to fit. */
function contextOf(docs: readonly DocumentInterface[], budget: number): string {
  const parts: string[] = [];
  let left = budget;
  for (const doc of docs) {
    if (left <= 0) break;
    const meta = doc.metadata as Record<string, unknown>;
    const title = Array.isArray(meta.path)
      ? pathLine(meta.path.filter((t): t is string => typeof t === "string"))
      : String(meta.title ?? "");
    const cut = withinTokens(doc.pageContent, left);
    left -= cut.tokens;
    parts.push(asData("section", cut.text, { title: oneLine(title) || "(untitled)" }));
  }
  return parts.join("\n");
}

/**
 * Answer-level grading for an A/B test: a retriever is judged by the answer a chain gives from
 * what it returned, not only by page hits. For each question and retriever the user's model
 * answers from the returned context alone, then grades that answer against the gold (the
 * answering section's text and the reference answer): correct, partial or wrong, with a
 * one-line reason. A failed call gives `ungraded` with the reason, never a silent grade.
 *
 * @example
 * ```ts
 * const grader = new AnswerGrader({ model, reader: store });
 * const graded = await grader.grade(question, await retriever.invoke(question.question));
 * graded.grade; // "correct" | "partial" | "wrong" | "ungraded"
 * ```
 */
export class AnswerGrader {
  private readonly options: AnswerGraderOptions;
  private readonly answerer: EvalModel;
  private readonly grader: EvalModel;

  constructor(options: AnswerGraderOptions) {
    this.options = options;
    this.answerer =
      options.runner ??
      new EvalModel({
        model: options.model ?? missingModel(),
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        ...(options.retries !== undefined ? { retries: options.retries } : {}),
        ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
        ...(options.callbacks ? { callbacks: options.callbacks } : {}),
      });
    this.grader = options.grader ?? this.answerer;
  }

  /** The gold text of a question: its evidence sections' own text, when the reader has them. */
  private async goldText(question: EvalQuestion): Promise<string> {
    const reader = this.options.reader;
    if (!reader) return "";
    const parts: string[] = [];
    for (const evidence of question.evidence) {
      if (!evidence.doc || !evidence.nodeId) continue;
      try {
        const texts = await reader.getNodeTexts(evidence.doc, [evidence.nodeId]);
        const text = texts.get(evidence.nodeId);
        if (text) parts.push(text);
      } catch {
        // A document no longer stored: grade against the reference answer alone.
      }
    }
    return parts.join("\n\n");
  }

  /** Why no more calls are made: a model refused a request, never answered, or the deadline passed. */
  get stopped(): Error | undefined {
    return this.answerer.stopped ?? this.grader.stopped;
  }

  /** Answers `question` from `docs` and grades the answer. */
  async grade(question: EvalQuestion, docs: readonly DocumentInterface[]): Promise<GradedAnswer> {
    const usage = new UsageTracker();
    const cost = () => ({ calls: usage.total.calls, promptTokens: usage.total.promptTokens });
    const stoppedAnswer = (): GradedAnswer | undefined => {
      const stopped = this.stopped;
      if (!stopped) return undefined;
      return {
        answer: "",
        grade: "ungraded",
        reason: `not graded: calls were stopped (${oneLine(stopped.message)})`,
        ...cost(),
      };
    };
    const early = stoppedAnswer();
    if (early) return early;
    const context = contextOf(docs, this.options.maxContextTokens ?? 6000);
    const answered = await this.answerer.call({
      usage,
      schema: AnswerSchema,
      step: "answer",
      system: ANSWER_SYSTEM,
      human: `Question: ${oneLine(question.question)}\n${context || "(no context was retrieved)"}`,
    });
    if (!answered.ok) {
      return {
        answer: "",
        grade: "ungraded",
        reason: `no answer: ${oneLine(answered.error.message)}`,
        ...cost(),
      };
    }
    const answer = withinTokens(oneLine(answered.value.answer), this.options.maxAnswerTokens ?? 300).text;
    const gold = await this.goldText(question);
    if (!gold && !question.answer) {
      return { answer, grade: "ungraded", reason: "no reference: no gold section text or answer", ...cost() };
    }
    const reference = [
      question.answer ? `Reference answer: ${oneLine(question.answer)}` : "",
      gold
        ? asData("section", withinTokens(gold, this.options.maxGoldTokens ?? 3000).text, {
            role: "reference",
          })
        : "",
    ]
      .filter(Boolean)
      .join("\n");
    const graded = await this.grader.call({
      usage,
      schema: GradeSchema,
      step: "grade",
      system: GRADE_SYSTEM,
      human: `Question: ${oneLine(question.question)}\nAnswer to grade: ${answer}\n${reference}`,
    });
    if (!graded.ok) {
      return {
        answer,
        grade: "ungraded",
        reason: `grading failed: ${oneLine(graded.error.message)}`,
        ...cost(),
      };
    }
    const reason = withinTokens(oneLine(graded.value.reason), 80).text;
    return { answer, grade: graded.value.grade, reason, ...cost() };
  }
}

function missingModel(): never {
  throw new TypeError("AnswerGrader needs a model or a runner");
}
