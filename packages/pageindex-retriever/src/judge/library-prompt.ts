import { type BaseMessage, HumanMessage } from "@langchain/core/messages";
import type { LibraryDocumentHit, SectionHit } from "pageindex-store";
import { asData, oneLine, pathLine } from "pageindex-store/internals";
import { clip, type ExpertKnowledge, system } from "./prompts.js";

/** A candidate document as the library prompt offers it: a short id and its evidence. */
export interface OfferedDocument {
  /** Prompt id of the document (`d1`, `d2`…). */
  key: string;
  hit: LibraryDocumentHit;
  /** Its sections offered, each with its prompt id (`s1`, `s2`…), best first. */
  sections: Array<{ key: string; section: SectionHit }>;
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
  return asData("toc", lines.join("\n"), {
    doc: doc.key,
    name: card.docName.slice(0, 120),
    ...(card.pageCount ? { pages: card.pageCount } : {}),
  });
}

const TASK =
  "You choose where to look for the answer to a question in a library of documents. Each candidate " +
  "document is listed with the sections a keyword search matched best (it can be wrong): `[id] path › " +
  "title (pages)`, some with a line of summary. Pick the sections that most likely contain the answer, " +
  "best first, by their ids (`s…`); they are opened and read. When a document may hold the answer but " +
  "none of its listed sections does, pick the document's id (`d…`, the doc attribute of its block): it " +
  "is then searched from its table of contents.";

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
): BaseMessage[] {
  return [
    system(`${TASK} Pick from at most ${maxDocuments} document(s).`, expert),
    new HumanMessage(
      `Question: ${query}\n\nCandidate documents:\n${docs.map((d) => documentBlock(d, detail)).join("\n")}`,
    ),
  ];
}
