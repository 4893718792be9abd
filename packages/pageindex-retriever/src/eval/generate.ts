import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  asData,
  countTokens,
  DATA_NOT_INSTRUCTIONS,
  type LlmUsage,
  oneLine,
  pathLine,
  type TreeReader,
  tokenize,
  UsageTracker,
} from "pageindex-core";
import { z } from "zod/v4";
import { truncateToTokens } from "../token-budget.js";
import type { ModelAnswerCache } from "./answer-cache.js";
import { isBoilerplate } from "./boilerplate.js";
import { LexicalDifficulty } from "./difficulty.js";
import { EvalModel } from "./model-runner.js";
import type { EvalQuestion, Evidence } from "./questions.js";
import { type SampledSection, sampleSections } from "./sample-sections.js";

/** Options of {@link generateQuestions}. */
export interface GenerateOptions {
  /** Where the documents are (a `PageIndexStore`, a `MemoryTreeReader`, …). */
  reader: TreeReader;
  /** Documents to write questions about. */
  docIds: readonly string[];
  /** The model that writes and checks the questions (or give `runner`). */
  model?: BaseChatModel;
  /**
   * The model calls, bounded and cached ({@link EvalModel}); built from `model`, `concurrency`,
   * `timeoutMs`, `retries` and `cache` when not given.
   */
  runner?: EvalModel;
  /** How many questions to keep. */
  count: number;
  /** Fixes which sections are used, and in which order. Default 1. */
  seed?: number;
  /** How many of `count` need two sections of one document (compare, combine). Default 0. */
  pairs?: number;
  /** Sections with less own text than this (tokens) are not used. Default 80. */
  minTokens?: number;
  /** Section text shown to the model, at most (tokens). Default 1500. */
  maxSectionTokens?: number;
  /** Most sections tried per kept question before giving up. Default 3. */
  triesPerQuestion?: number;
  /**
   * Question difficulty for word matching ({@link LexicalDifficulty}): `rewrite` (default) asks
   * the model once to reword a question BM25 finds in the top ranks, and drops it if the rewording
   * is still found; `measure` only records it; `off` does neither.
   */
  difficulty?: "rewrite" | "measure" | "off";
  /** Documents whose sections the difficulty is ranked among. Default: `docIds`. */
  libraryDocIds?: readonly string[];
  /** Ranks that count as easy (found by word matching). Default 3. */
  easyRank?: number;
  /** Longest question kept (tokens): a longer one is not a user's question. Default 80. */
  maxQuestionTokens?: number;
  /** Reference answers are cut to this (tokens), as summaries are. Default 200. */
  maxAnswerTokens?: number;
  /** Model calls in flight at once (when `runner` is not given). Default 4. */
  concurrency?: number;
  retries?: number;
  timeoutMs?: number;
  /** Answers kept on disk and reused (when `runner` is not given). */
  cache?: ModelAnswerCache;
  callbacks?: Callbacks;
  signal?: AbortSignal;
  /** Called after each section is tried. */
  onProgress?: (done: { kept: number; tried: number; wanted: number }) => void;
}

/** Why a generated question was dropped. */
export type DropReason =
  | "generation failed"
  | "copies the title"
  | "found by word matching"
  | "question too long"
  | "check failed"
  | "not answerable from the section"
  | "answerable from the title alone"
  | "needs only one of the two sections";

/** A question the model wrote, with where its answer is. */
export interface GeneratedQuestion extends EvalQuestion {
  /** How it was made: from one section or from two. */
  kind: "single" | "pair";
  /** The check's one-line reason for keeping it. */
  check: string;
  /** The model's first wording, when word matching found it and it was rewritten. */
  rewrittenFrom?: string;
}

/** What {@link generateQuestions} produced and what it cost. */
export interface GeneratedSet {
  questions: GeneratedQuestion[];
  seed: number;
  /** Sections (or pairs) tried, kept or not. */
  tried: number;
  /** Dropped questions by reason: none is dropped silently. */
  dropped: Partial<Record<DropReason, number>>;
  /** Sections passed over without a model call: boilerplate about the document itself. */
  skipped: { boilerplate: number };
  /** Questions rewritten because word matching found them. */
  rewritten: number;
  /** The first distinct causes of failed calls (status, provider message), for the report. */
  failures: string[];
  /** The generator, as named in the report. */
  generator: string;
  /** Calls made, and answers taken from the cache instead. */
  calls: { made: number; cached: number };
  usage: LlmUsage;
}

const WrittenSchema = z.object({
  question: z.string().min(8).describe("the question, as a user would type it"),
  answer: z.string().min(1).describe("the answer in one or two sentences, from the section"),
});

const CheckSchema = z.object({
  answerable: z.boolean().describe("the section's text answers the question"),
  titleOnly: z.boolean().describe("the section's title alone is enough to answer it"),
  needsBoth: z.boolean().optional().describe("for two sections: the answer needs both of them"),
  reason: z.string().describe("one line"),
});

const WRITE_SYSTEM = [
  "You write evaluation questions for a document search system.",
  "Write the question a real user of the document would ask, which the given section answers.",
  "Use the user's everyday words: do not copy the section's title or its distinctive terms where plain words would do,",
  "and do not mention the section, its number or the document's page numbers. Ask something specific, not 'what does this section cover'.",
  "Give the answer in one or two sentences taken from the section.",
  DATA_NOT_INSTRUCTIONS,
].join(" ");

const CHECK_SYSTEM = [
  "You check evaluation questions for a document search system.",
  "Say whether the section text answers the question, and whether the section's title alone would be enough to answer it",
  "(a question that only restates the title is too easy).",
  DATA_NOT_INSTRUCTIONS,
].join(" ");

/** A section's text for a prompt: at most `maxTokens`, cut at a line end when possible. */
function excerpt(text: string, maxTokens: number): string {
  const cut = truncateToTokens(text, maxTokens);
  if (cut === text) return text;
  const lineEnd = cut.lastIndexOf("\n");
  return `${lineEnd > cut.length / 2 ? cut.slice(0, lineEnd) : cut} …`;
}

function sectionData(section: SampledSection, text: string, maxTokens: number): string {
  const attributes: Record<string, string> = {
    document: oneLine(section.docName),
    path: pathLine(section.path),
  };
  const { startPage, ownEndPage, endPage } = section.node;
  if (startPage !== undefined) attributes.pages = `${startPage}-${ownEndPage ?? endPage ?? startPage}`;
  return asData("section", excerpt(text, maxTokens), attributes);
}

/**
 * Whether a question gives the section away by repeating its title: most of the title's words
 * (at least two of them) are in the question.
 */
export function copiesTitle(question: string, title: string): boolean {
  const titleTerms = new Set(tokenize(title.replace(/^[\d.]+\s*/, "")));
  if (titleTerms.size < 2) return false;
  const asked = new Set(tokenize(question));
  let shared = 0;
  for (const term of titleTerms) if (asked.has(term)) shared += 1;
  return shared / titleTerms.size >= 0.8;
}

function evidenceOf(section: SampledSection): Evidence {
  const { node } = section;
  return {
    doc: section.docId,
    nodeId: node.nodeId,
    ancestors: section.ancestors,
    section: node.title,
    ...(node.startPage !== undefined ? { page: node.startPage } : {}),
  };
}

/** Sibling pairs first (a comparison reads naturally), then any two sections of one document. */
function pairUp(sections: readonly SampledSection[]): Array<[SampledSection, SampledSection]> {
  const pairs: Array<[SampledSection, SampledSection]> = [];
  const used = new Set<SampledSection>();
  for (const a of sections) {
    if (used.has(a)) continue;
    const b =
      sections.find(
        (s) => !used.has(s) && s !== a && s.docId === a.docId && s.node.parentId === a.node.parentId,
      ) ?? sections.find((s) => !used.has(s) && s !== a && s.docId === a.docId);
    if (!b) continue;
    used.add(a);
    used.add(b);
    pairs.push([a, b]);
  }
  return pairs;
}

const RewriteSchema = z.object({
  question: z.string().min(8).describe("the same question in a user's own words"),
});

const REWRITE_SYSTEM = [
  "You reword evaluation questions for a document search system so that they read like a real user's question.",
  "A user has not read the document: they describe their problem or goal in everyday words, not in the document's own terms.",
  "Keep the meaning and the answer; do not use the words you are told to avoid (nor their forms), the section's title, or names only the document uses when plain words would do.",
  DATA_NOT_INSTRUCTIONS,
].join(" ");

/** One candidate's outcome: a question (not yet numbered) or why there is none. */
type Outcome =
  | { kept: Omit<GeneratedQuestion, "id">; rewritten: boolean }
  | { drop: DropReason; rewritten: boolean; cause?: string }
  | { skip: "boilerplate" };

/**
 * Writes a question set from the documents themselves, for an A/B test without labels: samples
 * sections (spread over documents, depths and sizes; never back matter, contents lists,
 * boilerplate about the document or near-empty sections; order fixed by `seed`), has the model
 * write the question a user would ask that each answers, measures how easily word matching finds
 * it (BM25 over every section of the library) and has the model reword one that is found at once,
 * then checks each with a second call (answerable from the section, not from its title alone).
 * Failures are dropped and counted, and the next section is tried. Calls run `concurrency` at a
 * time; the set is the same whatever order they finish in. The gold of a question is its
 * section: document, node and pages.
 *
 * @example
 * ```ts
 * const set = await generateQuestions({ reader: store, docIds: ["manual.pdf"], model, count: 20 });
 * await writeFile("questions.jsonl", questionsToJsonl(set.questions));
 * ```
 * @throws the runner's stop reason (a `ModelCallError`) when the model refused, never answered,
 * or the deadline passed: a run that cannot generate ends at once with the cause.
 */
export async function generateQuestions(options: GenerateOptions): Promise<GeneratedSet> {
  const seed = options.seed ?? 1;
  const usage = new UsageTracker();
  const runner =
    options.runner ??
    new EvalModel({
      model: options.model ?? missingModel(),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.retries !== undefined ? { retries: options.retries } : {}),
      ...(options.cache ? { cache: options.cache } : {}),
      ...(options.callbacks ? { callbacks: options.callbacks } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  const ownRunner = options.runner === undefined;
  const startCalls = runner.calls;
  const dropped: Partial<Record<DropReason, number>> = {};
  const failures: string[] = [];
  const skeletons = await Promise.all(options.docIds.map((id) => options.reader.getSkeleton(id)));
  const sections = sampleSections(skeletons, {
    seed,
    ...(options.minTokens !== undefined ? { minTokens: options.minTokens } : {}),
  });
  const mode = options.difficulty ?? "rewrite";
  const difficulty =
    mode === "off"
      ? undefined
      : await LexicalDifficulty.fromReader(options.reader, options.libraryDocIds ?? options.docIds, {
          ...(options.easyRank !== undefined ? { easyRank: options.easyRank } : {}),
        });
  const maxTokens = options.maxSectionTokens ?? 1500;
  const maxQuestionTokens = options.maxQuestionTokens ?? 80;
  const maxAnswerTokens = options.maxAnswerTokens ?? 200;
  const tries = Math.max(1, options.triesPerQuestion ?? 3);
  const pairsWanted = Math.min(options.pairs ?? 0, options.count);
  const call = <T>(schema: z.ZodType<T>, step: string, system: string, human: string) =>
    runner.call({ schema, step, system, human, usage });
  const textOf = async (section: SampledSection) =>
    (await options.reader.getNodeTexts(section.docId, [section.node.nodeId])).get(section.node.nodeId) ?? "";
  const noteFailure = (error: Error) => {
    const cause = oneLine(error.message).slice(0, 300);
    if (failures.length < 3 && !failures.includes(cause)) failures.push(cause);
  };

  const questions: GeneratedQuestion[] = [];
  let tried = 0;
  let rewritten = 0;
  let boilerplate = 0;

  /**
   * One candidate: the model writes a question about `group`; `verdict` rules on it (a reason to
   * drop it, or none) before and after the check call; an easy one is reworded first.
   */
  const attempt = async (
    group: readonly SampledSection[],
    writeTask: string,
    checkTask: (question: string) => string,
    verdict: (question: string, check?: z.infer<typeof CheckSchema>) => DropReason | undefined,
  ): Promise<Outcome> => {
    const texts = await Promise.all(group.map(textOf));
    const opening = (s: SampledSection) => s.node.startPage === 1 || s.node.startLine === 1;
    if (
      group.some((s, i) => isBoilerplate(s.path, texts[i] ?? "", { opening: opening(s), docName: s.docName }))
    )
      return { skip: "boilerplate" };
    const budget = Math.floor(maxTokens / group.length);
    const data = group.map((s, i) => sectionData(s, texts[i] ?? "", budget)).join("\n");
    const written = await call(WrittenSchema, "generate-question", WRITE_SYSTEM, `${writeTask}\n${data}`);
    if (!written.ok)
      return { drop: "generation failed", rewritten: false, cause: oneLine(written.error.message) };
    let question = oneLine(written.value.question);
    if (countTokens(question) > maxQuestionTokens) return { drop: "question too long", rewritten: false };
    const gold = group.map((s) => ({ docId: s.docId, nodeId: s.node.nodeId }));
    let measure = difficulty?.measure(question, gold);
    let early = verdict(question);
    let rewrittenFrom: string | undefined;
    const easy = () => early === "copies the title" || measure?.difficulty === "easy";
    if (mode === "rewrite" && easy()) {
      const avoid = [
        ...new Set([...(measure?.distinctiveWords ?? []), ...titleWords(group.map((s) => s.node.title))]),
      ];
      const reworded = await call(
        RewriteSchema,
        "rewrite-question",
        REWRITE_SYSTEM,
        `Question: ${question}\nIts answer: ${oneLine(written.value.answer)}\nWords to avoid: ${avoid.join(", ") || "(none)"}\nWrite the question again, as a user who has not read the document would ask it.`,
      );
      if (!reworded.ok)
        return { drop: "generation failed", rewritten: true, cause: oneLine(reworded.error.message) };
      rewrittenFrom = question;
      question = oneLine(reworded.value.question);
      if (countTokens(question) > maxQuestionTokens) return { drop: "question too long", rewritten: true };
      measure = difficulty?.measure(question, gold);
      early = verdict(question);
      if (easy()) return { drop: early ?? "found by word matching", rewritten: true };
    }
    const used = rewrittenFrom !== undefined;
    if (early) return { drop: early, rewritten: used };
    const checked = await call(
      CheckSchema,
      "check-question",
      CHECK_SYSTEM,
      `${checkTask(question)}\n${data}`,
    );
    if (!checked.ok) return { drop: "check failed", rewritten: used, cause: oneLine(checked.error.message) };
    const late = verdict(question, checked.value);
    if (late) return { drop: late, rewritten: used };
    return {
      rewritten: used,
      kept: {
        question,
        answer: capTokens(oneLine(written.value.answer), maxAnswerTokens),
        doc: group[0]?.docId as string,
        evidence: group.map(evidenceOf),
        kind: group.length > 1 ? "pair" : "single",
        check: capTokens(oneLine(checked.value.reason), 60),
        ...(measure ? { difficulty: measure.difficulty, lexicalRank: measure.lexicalRank } : {}),
        ...(rewrittenFrom !== undefined ? { rewrittenFrom } : {}),
      },
    };
  };

  /**
   * Tries candidates in waves of as many as are still wanted, all at once (the runner bounds the
   * calls in flight), and takes the outcomes in candidate order: the set does not depend on which
   * call finished first. Stops at `wanted` kept questions or `budget` candidates tried.
   */
  const run = async <C>(
    candidates: readonly C[],
    wanted: number,
    budget: number,
    tryOne: (candidate: C) => Promise<Outcome>,
    onKept?: (candidate: C) => void,
  ): Promise<void> => {
    let next = 0;
    let kept = 0;
    let spent = 0;
    while (kept < wanted && spent < budget && next < candidates.length) {
      const wave = candidates.slice(next, next + Math.min(wanted - kept, budget - spent));
      next += wave.length;
      const outcomes = await Promise.all(wave.map(tryOne));
      if (runner.stopped) throw runner.stopped;
      outcomes.forEach((outcome, i) => {
        if ("skip" in outcome) {
          boilerplate += 1;
          return;
        }
        spent += 1;
        tried += 1;
        if (outcome.rewritten) rewritten += 1;
        if ("drop" in outcome) {
          dropped[outcome.drop] = (dropped[outcome.drop] ?? 0) + 1;
          if (outcome.cause) noteFailure(new Error(outcome.cause));
        } else if (kept < wanted) {
          kept += 1;
          questions.push({ id: `g${questions.length + 1}`, ...outcome.kept });
          onKept?.(wave[i] as C);
        }
        options.onProgress?.({ kept: questions.length, tried, wanted: options.count });
      });
    }
  };

  try {
    // Two-section questions come first from the front of the order, single ones from the rest.
    const inPairs = new Set<SampledSection>();
    if (pairsWanted > 0) {
      await run(
        pairUp(sections),
        pairsWanted,
        pairsWanted * tries,
        (pair) =>
          attempt(
            pair,
            "Two sections of one document follow. Write one question that needs BOTH of them to answer (a comparison or a combination), and its answer.",
            (question) =>
              `Question: ${question}\nDoes the answer need both sections below (needsBoth), is it answerable from them, is a title alone enough?`,
            (_question, check) =>
              !check
                ? undefined
                : !check.answerable
                  ? "not answerable from the section"
                  : check.needsBoth === false
                    ? "needs only one of the two sections"
                    : undefined,
          ),
        (pair) => {
          for (const s of pair) inPairs.add(s); // a kept pair's sections are not asked about again
        },
      );
    }
    const singlesWanted = options.count - questions.length;
    await run(
      sections.filter((s) => !inPairs.has(s)),
      singlesWanted,
      singlesWanted * tries,
      (section) =>
        attempt(
          [section],
          "Write one question this section answers, and its answer.",
          (question) => `Question: ${question}\nSection title: ${oneLine(section.node.title)}`,
          (question, check) =>
            // A title copy is caught before the check: no check call is spent on it.
            !check
              ? copiesTitle(question, section.node.title)
                ? "copies the title"
                : undefined
              : !check.answerable
                ? "not answerable from the section"
                : check.titleOnly
                  ? "answerable from the title alone"
                  : undefined,
        ),
    );
  } finally {
    if (ownRunner) runner.close();
  }
  const endCalls = runner.calls;
  return {
    questions,
    seed,
    tried,
    dropped,
    skipped: { boilerplate },
    rewritten,
    failures,
    generator: runner.label,
    calls: { made: endCalls.done - startCalls.done, cached: endCalls.cached - startCalls.cached },
    usage: usage.toJSON(),
  };
}

function missingModel(): never {
  throw new TypeError("generateQuestions needs a model or a runner");
}

/** Text cut to about `tokens` tokens, marked when cut. */
function capTokens(text: string, tokens: number): string {
  const cut = truncateToTokens(text, tokens);
  return cut === text ? text : `${cut.trimEnd()} …`;
}

/** The content words of titles, without numbering. */
function titleWords(titles: readonly string[]): string[] {
  const out: string[] = [];
  for (const title of titles)
    for (const word of title.replace(/^[\d.]+\s*/, "").split(/[^\p{L}\p{N}_+-]+/u))
      if (word && tokenize(word).length > 0 && !out.includes(word)) out.push(word);
  return out;
}

/**
 * The questions as a JSONL questions file `pageindex eval` reads back (and a person can edit):
 * one `{id, question, doc_name, answer, evidence: [{doc_name, node_id, ancestors, section,
 * page?}], difficulty?, lexical_rank?, generated}` per line.
 */
export function questionsToJsonl(questions: readonly GeneratedQuestion[], seed?: number): string {
  return questions
    .map((q) =>
      JSON.stringify({
        id: q.id,
        question: q.question,
        ...(q.doc !== undefined ? { doc_name: q.doc } : {}),
        ...(q.answer !== undefined ? { answer: q.answer } : {}),
        evidence: q.evidence.map((e) => ({
          ...(e.doc !== undefined ? { doc_name: e.doc } : {}),
          ...(e.nodeId !== undefined ? { node_id: e.nodeId } : {}),
          ...(e.ancestors !== undefined ? { ancestors: e.ancestors } : {}),
          ...(e.section !== undefined ? { section: e.section } : {}),
          ...(e.page !== undefined ? { page: e.page } : {}),
        })),
        ...(q.difficulty !== undefined ? { difficulty: q.difficulty } : {}),
        ...(q.lexicalRank !== undefined ? { lexical_rank: q.lexicalRank } : {}),
        generated: {
          kind: q.kind,
          check: q.check,
          ...(q.rewrittenFrom !== undefined ? { rewritten_from: q.rewrittenFrom } : {}),
          ...(seed !== undefined ? { seed } : {}),
        },
      }),
    )
    .join("\n")
    .concat(questions.length > 0 ? "\n" : "");
}
