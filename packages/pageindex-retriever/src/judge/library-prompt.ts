import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import { asData, clipModelText, oneLine, pathLine } from "pageindex-core";
import type { CardSection, LibraryDocumentHit, SectionHit } from "pageindex-store";
import { promptTokens } from "./prompt-tokens.js";
import { clip, type ExpertKnowledge, system } from "./prompts.js";
import { type LibrarySelection, modelReason, normaliseScore } from "./schema.js";
import type { LibraryChoiceRequest, LibraryPick } from "./types.js";

/** A candidate document as the library prompt offers it: a short id and its evidence. */
export interface OfferedDocument {
  /** Prompt id of the document (`d1`, `d2`…). */
  key: string;
  hit: LibraryDocumentHit;
  /** Its sections offered, each with its prompt id (`s1`, `s2`…), best first. */
  sections: Array<{ key: string; section: SectionHit }>;
  /** A small document's other sections, by title in document order (see {@link OUTLINE_MAX_SECTIONS}). */
  outline?: Array<{ key: string; nodeId: string; title: string }>;
}

/** How much of each description and summary a prompt shows (shortened to fit the budget). */
export interface LibraryPromptDetail {
  descriptionChars: number;
  summaryChars: number;
}

/** Ancestors shown before a section's title; deeper paths keep their first and last titles. */
const MAX_PATH_TITLES = 4;

function sectionPath(section: SectionHit): string {
  const above = section.ancestors;
  const shown =
    above.length <= MAX_PATH_TITLES
      ? above
      : [above[0] as string, "…", ...above.slice(-(MAX_PATH_TITLES - 2))];
  return pathLine([...shown.map((t) => clip(t, 60)), clip(section.title, 120)]);
}

function location(section: SectionHit): string {
  if (section.startPage !== undefined) {
    const end = section.endPage ?? section.startPage;
    return end === section.startPage ? `p. ${section.startPage}` : `pp. ${section.startPage}-${end}`;
  }
  if (section.startLine !== undefined)
    return `lines ${section.startLine}-${section.endLine ?? section.startLine}`;
  return "";
}

/** One offered section: `[s3] Part › Chapter › Title (pp. 12-14)`, then a line of its summary. */
function sectionLine(key: string, section: SectionHit, summaryChars: number): string {
  const where = location(section);
  const mark = section.backMatter ? " [back matter]" : "";
  const head = `[${key}] ${sectionPath(section)}${where ? ` (${where})` : ""}${mark}`;
  const summary = summaryChars > 0 && section.summary ? oneLine(section.summary) : "";
  return summary ? `${head}\n    ${clip(summary, summaryChars)}` : head;
}

/** The block of one candidate document: its card line, then its best-matching sections. */
function documentBlock(doc: OfferedDocument, detail: LibraryPromptDetail): string {
  const { card } = doc.hit;
  const description =
    detail.descriptionChars > 0 && card.description?.trim()
      ? ` — ${clip(card.description, detail.descriptionChars)}`
      : "";
  const lines = [`Document: ${clip(card.docName, 120)}${description}`];
  for (const { key, section } of doc.sections) lines.push(sectionLine(key, section, detail.summaryChars));
  if (doc.outline && doc.outline.length > 0) {
    lines.push("Its other sections:");
    for (const { key, title } of doc.outline) lines.push(`[${key}] ${clip(title, 120)}`);
  }
  return asData("toc", lines.join("\n"), {
    doc: doc.key,
    name: card.docName.slice(0, 120),
    ...(card.pageCount ? { pages: card.pageCount } : {}),
  });
}

const TASK =
  "You choose where to look for the answer to a question in a library of documents. Each candidate " +
  "document is listed with the sections a keyword search matched best (it can be wrong): `[id] path › " +
  "title (pages)`, some with a line of summary; a small document also lists its other sections by title. Pick the sections that most likely contain the answer, " +
  "best first, by their ids (`s…`); they are opened and read. When a document may hold the answer but " +
  "none of its listed sections does, pick the document's id (`d…`, the doc attribute of its block): it " +
  'is then searched from its table of contents. Add "self": true when a section\'s own text, before ' +
  "its subsections, answers.";

/**
 * A library pick scored at most this is unsure: with search words, the next candidates are looked
 * at too, and the surer of the two choices is kept.
 */
export const SURE_SCORE = 0.7;

/** Said when more candidates follow an empty answer (see `LibraryChoiceRequest.more`). */
const MORE =
  'If no listed document is likely to hold the answer, answer with an empty list and put in "search" the words ' +
  "the answering section would use (commands, options, technical terms): the library is searched again with " +
  'them and the next candidates are listed. Give "search" too when no pick of yours scores above ' +
  `${SURE_SCORE}: the next candidates are then weighed against your picks.`;

/**
 * The first prompt of a library question: the best candidate documents, each with its
 * best-matching sections in their outline context, so the model picks documents and sections
 * at once (one round trip, like the first prompt of a one-document question).
 */
export function libraryPrompt(
  query: string,
  docs: readonly OfferedDocument[],
  maxDocuments: number,
  detail: LibraryPromptDetail,
  expert: ExpertKnowledge,
  more = false,
): BaseMessage[] {
  const none = more ? ` ${MORE}` : "";
  return [
    system(`${TASK} Pick from at most ${maxDocuments} document(s).${none}`, expert),
    new HumanMessage(
      `Question: ${query}\n\nCandidate documents:\n${docs.map((d) => documentBlock(d, detail)).join("\n")}`,
    ),
  ];
}

/**
 * Documents a library prompt offers at most (the best candidates; the search offers the next ones
 * in a second prompt only when the model picks none of these, only near misses, or only unsure
 * picks with search words). With the library's length prior
 * the answer's document is among the first few (Debian dev set: top 3 in 34 of 36), so the budget
 * goes to their sections: 7 documents and 0.35 of `maxPromptTokens` answered all 36 with the
 * oracle at 2,305 tokens and 1.14 round trips; 5 documents missed one (2,646, 1.17), 10 cost 2,511
 * and 1.19.
 */
export const LIBRARY_PAGE_DOCUMENTS = 7;
/** Sections per document the library prompt offers at most (strongest first across documents). */
const OFFERED_SECTIONS = 12;
/**
 * A candidate with at most this many sections lists all of them (the others by title), so the
 * model can pick the answering one even where the keyword search matched only its neighbours —
 * as a one-document question shows its whole table of contents. Only the first
 * {@link OUTLINE_DOCUMENTS} candidates, and only while the prompt fits.
 */
const OUTLINE_MAX_SECTIONS = 24;
const OUTLINE_DOCUMENTS = 3;
/**
 * Detail levels tried, richest first, before documents are dropped from the tail. Measured with
 * the oracle judge on the corpus: more sections beat longer summaries (a picked section saves
 * the opening of its document), so summaries are one short line.
 */
const DETAILS: readonly LibraryPromptDetail[] = [
  { descriptionChars: 120, summaryChars: 80 },
  { descriptionChars: 80, summaryChars: 0 },
  { descriptionChars: 0, summaryChars: 0 },
];

/**
 * The library prompt fitted into `request.promptTokens`: every candidate document with its best
 * section, then more sections, strongest first across the library, as long as the prompt fits
 * (so the leading documents show more of their evidence); descriptions and summaries are
 * shortened first, then documents dropped from the tail.
 */
export function fitLibraryPrompt(
  query: string,
  request: LibraryChoiceRequest,
  expert: ExpertKnowledge,
): { messages: BaseMessage[]; offered: OfferedDocument[] } {
  const docs = request.documents.slice(0, LIBRARY_PAGE_DOCUMENTS);
  // Sections beyond each document's best, strongest first (a document's own stay in order).
  const extra = docs
    .flatMap((hit, d) =>
      hit.sections.slice(1, OFFERED_SECTIONS).map((section) => ({ d, score: section.score })),
    )
    .sort((a, b) => b.score - a.score);
  const make = (documents: number, extras: number, detail: LibraryPromptDetail, outlines = 0) => {
    const counts = docs.map(() => 1);
    for (const e of extra.slice(0, extras)) counts[e.d] = (counts[e.d] as number) + 1;
    let n = 0;
    const offered = docs.slice(0, documents).map((hit, i): OfferedDocument => {
      const sections = hit.sections.slice(0, counts[i]).map((section) => {
        n += 1;
        return { key: `s${n}`, section };
      });
      if (i >= outlines) return { key: `d${i + 1}`, hit, sections };
      const shown = new Set(sections.map((s) => s.section.nodeId));
      const outline = smallOutline(hit)
        .filter((s) => !shown.has(s.nodeId))
        .map((s) => {
          n += 1;
          return { key: `s${n}`, nodeId: s.nodeId, title: s.title };
        });
      return { key: `d${i + 1}`, hit, sections, ...(outline.length > 0 ? { outline } : {}) };
    });
    return {
      messages: libraryPrompt(query, offered, request.max, detail, expert, request.more ?? false),
      offered,
    };
  };
  const fits = (offer: ReturnType<typeof make>) => promptTokens(offer.messages) <= request.promptTokens;
  for (const detail of DETAILS) {
    if (!fits(make(docs.length, 0, detail))) continue;
    // Small documents' outlines first (best candidates first), then the most extra sections that
    // fit (tokens grow with each one: a binary search).
    let outlines = 0;
    while (
      outlines < Math.min(OUTLINE_DOCUMENTS, docs.length) &&
      fits(make(docs.length, 0, detail, outlines + 1))
    )
      outlines += 1;
    let lo = 0;
    let hi = extra.length;
    while (lo < hi) {
      const mid = Math.ceil((lo + hi) / 2);
      if (fits(make(docs.length, mid, detail, outlines))) lo = mid;
      else hi = mid - 1;
    }
    return make(docs.length, lo, detail, outlines);
  }
  const terse = DETAILS.at(-1) as LibraryPromptDetail;
  let documents = docs.length;
  while (documents > 1 && !fits(make(documents, 0, terse))) documents -= 1;
  return make(documents, 0, terse);
}

/** Every section of a small candidate (its card lists them all), in document order; else none. */
function smallOutline(hit: LibraryDocumentHit): CardSection[] {
  const { card } = hit;
  if (card.nodeCount > OUTLINE_MAX_SECTIONS || card.sections.length < card.nodeCount) return [];
  return card.sections;
}

/** Lower-cases and strips brackets and a "section"/"doc" prefix from a model's id. */
function cleanId(raw: unknown): string {
  return String(raw)
    .trim()
    .replace(/^\[|\]$/g, "")
    .replace(/^(section|document|doc)\s*[:#]?\s*/i, "")
    .trim()
    .toLowerCase();
}

/**
 * The picks of a model's answer to a library prompt: section ids (`s…`) and document ids (`d…`,
 * or an offered document's own id), validated against what was offered; the rest in `unknown`.
 */
export function readLibraryAnswer(
  selection: LibrarySelection,
  offered: readonly OfferedDocument[],
): { picks: LibraryPick[]; unknown: string[]; search?: string } {
  const docs = new Map<string, OfferedDocument>();
  const sections = new Map<string, { doc: OfferedDocument; nodeId: string }>();
  for (const doc of offered) {
    docs.set(doc.key, doc);
    docs.set(doc.hit.docId.toLowerCase(), doc);
    for (const s of doc.sections) sections.set(s.key, { doc, nodeId: s.section.nodeId });
    for (const s of doc.outline ?? []) sections.set(s.key, { doc, nodeId: s.nodeId });
  }
  const picks: LibraryPick[] = [];
  const unknown: string[] = [];
  for (const [rank, item] of selection.relevant.entries()) {
    const id = cleanId(item.id);
    const section = sections.get(id);
    const doc = section?.doc ?? docs.get(id);
    if (!doc) {
      unknown.push(String(item.id));
      continue;
    }
    picks.push({
      docId: doc.hit.docId,
      ...(section ? { nodeId: section.nodeId } : {}),
      score: normaliseScore(item.score, rank),
      reason: modelReason(item.reason, "chosen by the model from the library's matches"),
      ...(section && item.self === true ? { self: true } : {}),
    });
  }
  // Search words for the next candidates, one line.
  const search = clipModelText(oneLine(selection.search ?? ""), 300);
  return { picks, unknown, ...(search ? { search } : {}) };
}
