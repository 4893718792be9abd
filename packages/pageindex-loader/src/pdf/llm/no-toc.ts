import { asData, unescapeData } from "pageindex-core";
import { z } from "zod/v4";
import type { PdfPage } from "../types.js";
import type { LlmCaller } from "./caller.js";
import { cleanStructure, cleanTitle, type Entry, titleKey } from "./entries.js";
import { groupPages, renderPages } from "./pages.js";

const StructureSchema = z.object({
  sections: z.array(
    z.object({
      structure: z.union([z.string(), z.number()]).nullable().optional(),
      title: z.string(),
      physical_page: z.union([z.number(), z.string()]),
    }),
  ),
});

const FIRST_TASK =
  "Task: structure extraction. Read the given pages and list the sections (chapters, sections, subsections) whose " +
  'headings START in them, in order. structure is the dotted hierarchy code ("1", "1.2", "1.2.3"): the document\'s own ' +
  "numbering when it has one, otherwise derived from the heading hierarchy. title is the heading as printed. " +
  "physical_page is the physical_page attribute of the page where the heading appears. Only real headings: not running " +
  "headers, figure captions or table rows. " +
  'Answer as JSON: {"sections": [{"structure": "1", "title": "Introduction", "physical_page": 1}, ...]}.';

const NEXT_TASK =
  "Task: structure continuation. <toc> holds the last sections found so far in the document. Read the given pages (which " +
  "continue the document) and list the sections whose headings START in them and are not already listed, in order, " +
  'continuing the hierarchy and its structure codes ("1", "1.2", "1.2.3"). title is the heading as printed; ' +
  "physical_page is the physical_page attribute of the page where the heading appears. Only real headings: not running " +
  "headers, figure captions or table rows. " +
  'Answer as JSON: {"sections": [{"structure": "2.1", "title": "Market overview", "physical_page": 14}, ...]} ' +
  "(an empty list when no section starts here).";

/** Entries of the structure so far shown with each later group. */
const CONTEXT_ENTRIES = 20;

/**
 * PageIndex's no-TOC mode: walk the pages in groups of about `groupTokens` (one page overlap) and
 * let the model list the sections starting in each, extending the hierarchy found so far. Pages
 * are checked against the group; repeats from the overlap are dropped; a failed group is skipped
 * with a warning (its sections are missing, the rest is kept).
 */
export async function structureWithoutToc(
  pages: PdfPage[],
  caller: LlmCaller,
  groupTokens: number,
  warnings: string[],
  sectionTitle?: string,
): Promise<Entry[]> {
  const entries: Entry[] = [];
  const groups = groupPages(pages, groupTokens);
  for (const group of groups) {
    caller.checkAborted();
    if (caller.gaveUp) break;
    const shown = new Set(group.map((p) => p.pageNumber));
    const tail = entries.slice(-CONTEXT_ENTRIES);
    // When re-indexing one large section, say so: the model should list its subsections.
    const scope = sectionTitle
      ? `These pages belong to one section of a larger document, titled: ${asData("toc", sectionTitle)}\nList its subsections (and the section's own heading if it appears).\n`
      : "";
    const data =
      scope +
      (tail.length > 0
        ? `${asData("toc", tail.map((e) => JSON.stringify({ structure: e.structure ?? null, title: e.title, physical_page: e.page })).join("\n"))}\n${renderPages(group)}`
        : renderPages(group));
    const answer = await caller.ask(
      "no-toc-structure",
      StructureSchema,
      tail.length > 0 ? NEXT_TASK : FIRST_TASK,
      data,
    );
    const first = group[0]!.pageNumber;
    const last = group[group.length - 1]!.pageNumber;
    if (!answer) {
      warnings.push(
        `pages ${first}-${last}: the model gave no usable structure; sections starting there are missing`,
      );
      continue;
    }
    let rejected = 0;
    for (const item of answer.sections) {
      // The model read the title from escaped data and may copy an entity back ("&lt;").
      const title = cleanTitle(unescapeData(item.title));
      const page = Number(item.physical_page);
      const floor = entries[entries.length - 1]?.page ?? 0;
      if (!title || !shown.has(page) || page < floor) {
        if (title) rejected += 1;
        continue;
      }
      // The overlap page is shown twice: the same heading on the same page is one section.
      const key = titleKey(title);
      if (
        entries.some(
          (e) => e.page !== undefined && e.page >= first && e.page === page && titleKey(e.title) === key,
        )
      )
        continue;
      const structure = cleanStructure(item.structure);
      entries.push({ id: entries.length, title, page, ...(structure !== undefined ? { structure } : {}) });
    }
    if (rejected > 0) {
      warnings.push(
        `pages ${first}-${last}: ${rejected} section(s) dropped (page outside the group or out of order)`,
      );
    }
  }
  return entries;
}
