import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  asData,
  DATA_NOT_INSTRUCTIONS,
  invokeStructured,
  type LlmUsage,
  oneLine,
  pathLine,
  type TreeReader,
  tokenize,
  UsageTracker,
} from "pageindex-core";
import { z } from "zod/v4";
import { truncateToTokens } from "../token-budget.js";
import type { EvalQuestion, Evidence } from "./questions.js";
import { type SampledSection, sampleSections } from "./sample-sections.js";

/** Options of {@link generateQuestions}. */
export interface GenerateOptions {
  /** Where the documents are (a `PageIndexStore`, a `MemoryTreeReader`, …). */
  reader: TreeReader;
  /** Documents to write questions about. */
  docIds: readonly string[];
  /** The model that writes and checks the questions. */
  model: BaseChatModel;
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
  retries?: number;
  timeoutMs?: number;
  callbacks?: Callbacks;
  signal?: AbortSignal;
  /** Called after each section is tried. */
  onProgress?: (done: { kept: number; tried: number; wanted: number }) => void;
}

/** Why a generated question was dropped. */
export type DropReason =
  | "generation failed"
  | "copies the title"
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
}

/** What {@link generateQuestions} produced and what it cost. */
export interface GeneratedSet {
  questions: GeneratedQuestion[];
  seed: number;
  /** Sections (or pairs) tried, kept or not. */
  tried: number;
  /** Dropped questions by reason: none is dropped silently. */
  dropped: Partial<Record<DropReason, number>>;
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

/**
 * Writes a question set from the documents themselves, for an A/B test without labels: samples
 * sections (spread over documents, depths and sizes; never back matter, contents lists or
 * near-empty sections; order fixed by `seed`), has the model write the question a user would ask
 * that each answers, and checks each with a second call (answerable from the section, not from its
 * title alone). Failures are dropped and counted, and the next section is tried. The gold of a
 * question is its section: document, node and pages.
 *
 * @example
 * ```ts
 * const set = await generateQuestions({ reader: store, docIds: ["manual.pdf"], model, count: 20 });
 * await writeFile("questions.jsonl", questionsToJsonl(set.questions));
 * ```
 */
export async function generateQuestions(options: GenerateOptions): Promise<GeneratedSet> {
  const seed = options.seed ?? 1;
  const usage = new UsageTracker();
  const dropped: Partial<Record<DropReason, number>> = {};
  const drop = (reason: DropReason) => {
    dropped[reason] = (dropped[reason] ?? 0) + 1;
  };
  const skeletons = await Promise.all(options.docIds.map((id) => options.reader.getSkeleton(id)));
  const sections = sampleSections(skeletons, {
    seed,
    ...(options.minTokens !== undefined ? { minTokens: options.minTokens } : {}),
  });
  const maxTokens = options.maxSectionTokens ?? 1500;
  const tries = Math.max(1, options.triesPerQuestion ?? 3);
  const pairsWanted = Math.min(options.pairs ?? 0, options.count);
  const call = <T>(schema: z.ZodType<T>, step: string, system: string, human: string) =>
    invokeStructured(options.model, {
      schema,
      step,
      usage,
      messages: [
        ["system", system],
        ["human", human],
      ],
      ...(options.retries !== undefined ? { retries: options.retries } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
      ...(options.callbacks ? { callbacks: options.callbacks } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  const textOf = async (section: SampledSection) =>
    (await options.reader.getNodeTexts(section.docId, [section.node.nodeId])).get(section.node.nodeId) ?? "";

  const questions: GeneratedQuestion[] = [];
  let tried = 0;

  /**
   * One try: the model writes a question about `sections`, `verdict` rules on it (a reason to
   * drop it, or none) before and after the check call; a kept question joins the set.
   */
  const attempt = async (
    sections: readonly SampledSection[],
    writeTask: string,
    checkTask: (question: string) => string,
    verdict: (question: string, check?: z.infer<typeof CheckSchema>) => DropReason | undefined,
  ): Promise<boolean> => {
    tried += 1;
    const budget = Math.floor(maxTokens / sections.length);
    const texts = await Promise.all(sections.map(textOf));
    const data = sections.map((s, i) => sectionData(s, texts[i] ?? "", budget)).join("\n");
    let kept = false;
    const written = await call(WrittenSchema, "generate-question", WRITE_SYSTEM, `${writeTask}\n${data}`);
    const question = written.ok ? oneLine(written.value.question) : "";
    const early = written.ok ? verdict(question) : "generation failed";
    if (early) drop(early);
    else if (written.ok) {
      const checked = await call(
        CheckSchema,
        "check-question",
        CHECK_SYSTEM,
        `${checkTask(question)}\n${data}`,
      );
      const late = checked.ok ? verdict(question, checked.value) : "check failed";
      if (late) drop(late);
      else if (checked.ok) {
        kept = true;
        questions.push({
          id: `g${questions.length + 1}`,
          question,
          answer: oneLine(written.value.answer),
          doc: sections[0]?.docId as string,
          evidence: sections.map(evidenceOf),
          kind: sections.length > 1 ? "pair" : "single",
          check: oneLine(checked.value.reason),
        });
      }
    }
    options.onProgress?.({ kept: questions.length, tried, wanted: options.count });
    return kept;
  };

  // Two-section questions come first from the front of the order, single ones from the rest.
  const inPairs = new Set<SampledSection>();
  let pairTries = 0;
  for (const pair of pairsWanted > 0 ? pairUp(sections) : []) {
    if (questions.length >= pairsWanted || pairTries >= pairsWanted * tries) break;
    pairTries += 1;
    const kept = await attempt(
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
    );
    if (kept) for (const s of pair) inPairs.add(s); // a kept pair's sections are not asked about again
  }

  const pairCount = questions.length;
  const singlesWanted = options.count - pairCount;
  let singleTries = 0;
  for (const section of sections) {
    if (questions.length - pairCount >= singlesWanted || singleTries >= singlesWanted * tries) break;
    if (inPairs.has(section)) continue;
    singleTries += 1;
    await attempt(
      [section],
      "Write one question this section answers, and its answer.",
      (question) => `Question: ${question}\nSection title: ${oneLine(section.node.title)}`,
      (question, check) =>
        // A title copy is dropped before the check: no call is spent on it.
        !check
          ? copiesTitle(question, section.node.title)
            ? "copies the title"
            : undefined
          : !check.answerable
            ? "not answerable from the section"
            : check.titleOnly
              ? "answerable from the title alone"
              : undefined,
    );
  }
  return { questions, seed, tried, dropped, usage: usage.toJSON() };
}

/**
 * The questions as a JSONL questions file `pageindex eval` reads back (and a person can edit):
 * one `{id, question, doc_name, answer, evidence: [{doc_name, node_id, ancestors, section,
 * page?}], generated}` per line.
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
        generated: { kind: q.kind, check: q.check, ...(seed !== undefined ? { seed } : {}) },
      }),
    )
    .join("\n")
    .concat(questions.length > 0 ? "\n" : "");
}
