import { asData, countTokens, unescapeData } from "pageindex-core";
import { z } from "zod/v4";
import type { LlmCaller } from "./caller.js";
import { cleanStructure, cleanTitle, type Entry, titleKey, toPageNumber } from "./entries.js";
import type { TocInfo } from "./toc-detect.js";

const TransformSchema = z.object({
  entries: z.array(
    z.object({
      structure: z.union([z.string(), z.number()]).nullable().optional(),
      title: z.string(),
      page: z.union([z.number(), z.string()]).nullable().optional(),
    }),
  ),
});

const TASK =
  "Task: table-of-contents transformation. Turn the piece of a table of contents given in <toc> into a list of entries, " +
  'in order, one per section. structure is the dotted hierarchy code of the entry ("1", "1.2", "1.2.3"): use the ' +
  "document's own numbering when it has one, otherwise derive it from the hierarchy (parts, chapters, sections); null when " +
  "there is no hierarchy. title is the section title as printed, without dot leaders or page number. page is the page number " +
  "printed for the entry (an integer), or null when none is printed. Include every entry of the piece, nothing else. " +
  'Answer as JSON: {"entries": [{"structure": "1.2", "title": "Risk factors", "page": 12}, ...]}.';

/** TOC text per call: keeps each answer (about twice as many tokens) far from output limits. */
export const TOC_PIECE_TOKENS = 1500;
const CONTEXT_ENTRIES = 5;

/** Splits TOC text into pieces of whole lines, each under `maxTokens` (a longer line is cut). */
export function splitTocText(text: string, maxTokens: number): string[] {
  const pieces: string[] = [];
  let current: string[] = [];
  let tokens = 0;
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trimEnd();
    if (line.trim() === "") continue;
    const lineTokens = countTokens(line) + 1;
    if (current.length > 0 && tokens + lineTokens > maxTokens) {
      pieces.push(current.join("\n"));
      current = [];
      tokens = 0;
    }
    current.push(line);
    tokens += lineTokens;
  }
  if (current.length > 0) pieces.push(current.join("\n"));
  return pieces;
}

/**
 * Turns the table of contents into a flat entry list, piece by piece so no answer is ever cut
 * off on a very large TOC. Pieces run in order: each sees the last entries of the one before, to
 * continue its structure codes. A piece the model could not read is skipped with a warning.
 */
export async function transformToc(
  toc: TocInfo,
  caller: LlmCaller,
  warnings: string[],
  pieceTokens = TOC_PIECE_TOKENS,
): Promise<Entry[]> {
  const entries: Entry[] = [];
  const pieces = splitTocText(toc.text, pieceTokens);
  for (const [i, piece] of pieces.entries()) {
    caller.checkAborted();
    const tail = entries.slice(-CONTEXT_ENTRIES);
    const context =
      tail.length > 0
        ? `This is piece ${i + 1} of ${pieces.length}. The previous piece ended with these entries; continue their structure codes:\n${asData(
            "toc",
            tail.map((e) => JSON.stringify({ structure: e.structure ?? null, title: e.title })).join("\n"),
          )}\n`
        : `This is piece ${i + 1} of ${pieces.length}.\n`;
    const answer = await caller.ask(
      "toc-transform",
      TransformSchema,
      TASK,
      `${context}${asData("toc", piece)}`,
    );
    if (!answer) {
      warnings.push(
        `table of contents piece ${i + 1} of ${pieces.length} could not be read; its entries are missing`,
      );
      if (caller.gaveUp) break;
      continue;
    }
    const recent = new Set(tail.map((e) => `${titleKey(e.title)}|${e.printedPage ?? ""}`));
    for (const item of answer.entries) {
      // The model read the title from escaped data and may copy an entity back ("&lt;").
      const title = cleanTitle(unescapeData(item.title));
      if (!title) continue;
      const printedPage = toPageNumber(item.page);
      // A line repeated at a piece boundary (or echoed context) is one entry, not two.
      if (recent.has(`${titleKey(title)}|${printedPage ?? ""}`)) continue;
      const structure = cleanStructure(item.structure);
      entries.push({
        id: entries.length,
        title,
        ...(structure !== undefined ? { structure } : {}),
        ...(printedPage !== undefined ? { printedPage } : {}),
      });
    }
  }
  return entries;
}
