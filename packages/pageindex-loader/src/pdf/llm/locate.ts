import { asData } from "pageindex-core";
import { z } from "zod/v4";
import type { PdfPage } from "../types.js";
import type { LlmCaller } from "./caller.js";
import type { Entry } from "./entries.js";
import { renderPages } from "./pages.js";

const LocateSchema = z.object({
  sections: z.array(
    z.object({
      index: z.union([z.number(), z.string()]),
      physical_page: z.union([z.number(), z.string()]).nullable(),
    }),
  ),
});

const TASK =
  "Task: section location. <toc> lists sections of the document, each with an index. Find which of them START in the " +
  "given pages: the page where the section's heading appears as a heading (allow small differences in spacing, case " +
  "and punctuation). A title that is only mentioned, or listed in a table of contents, does not count. For each section " +
  "that starts in these pages give its index and the physical_page of that page; leave out the others. " +
  'Answer as JSON: {"sections": [{"index": 4, "physical_page": 17}, ...]} (an empty list when none starts here).';

/** Sections listed per call, so a long TOC does not crowd the pages out of the prompt. */
export const MAX_ENTRIES_PER_LOCATE = 60;

/**
 * Asks where the given entries start within `pages`. Returns entry id → physical page, only for
 * answers that name a listed entry and one of the pages shown (anything else is discarded).
 */
export async function locateEntries(
  entries: Entry[],
  pages: PdfPage[],
  caller: LlmCaller,
  step: string,
): Promise<Map<number, number>> {
  const found = new Map<number, number>();
  if (entries.length === 0 || pages.length === 0) return found;
  const listed = entries.slice(0, MAX_ENTRIES_PER_LOCATE);
  const ids = new Set(listed.map((e) => e.id));
  const shown = new Set(pages.map((p) => p.pageNumber));
  const list = listed
    .map((e) =>
      JSON.stringify({ index: e.id, ...(e.structure ? { structure: e.structure } : {}), title: e.title }),
    )
    .join("\n");
  const first = pages[0]!.pageNumber;
  const last = pages[pages.length - 1]!.pageNumber;
  const answer = await caller.ask(
    step,
    LocateSchema,
    TASK,
    `${asData("toc", list)}\nPages ${first}-${last} of the document:\n${renderPages(pages)}`,
  );
  for (const item of answer?.sections ?? []) {
    const id = Number(item.index);
    const page = Number(item.physical_page);
    if (ids.has(id) && shown.has(page) && !found.has(id)) found.set(id, page);
  }
  return found;
}
