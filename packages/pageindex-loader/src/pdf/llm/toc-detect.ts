import { z } from "zod/v4";
import type { PdfPage } from "../types.js";
import type { LlmCaller } from "./caller.js";
import { chunkPages, renderPages } from "./pages.js";

/** A table of contents found at the start of a document. */
export interface TocInfo {
  /** Physical page numbers of the table-of-contents pages, in order. */
  pages: number[];
  /** Whether its entries carry page numbers. */
  hasPageNumbers: boolean;
  /** The text of those pages, in order. */
  text: string;
}

const DetectSchema = z.object({
  pages: z.array(
    z.object({
      physical_page: z.union([z.number(), z.string()]),
      is_toc: z.boolean(),
      has_page_numbers: z.boolean().nullable().optional(),
    }),
  ),
});

const TASK =
  "Task: table-of-contents detection. For EACH page given, decide whether it is (part of) the document's table of contents: " +
  "a list of section titles, usually with page numbers. Abstracts, summaries, lists of figures or tables, " +
  "indexes and ordinary text are not a table of contents. For a table-of-contents page, also say whether " +
  "its entries carry page numbers. " +
  'Answer as JSON: {"pages": [{"physical_page": 3, "is_toc": true, "has_page_numbers": true}, ...]} with one item per page.';

/** Pages judged in one call: few enough that each gets real attention, cheap in calls. */
const PAGES_PER_CALL = 4;
const TOKENS_PER_CALL = 8000;

/**
 * Finds the table of contents among the first `scanPages` pages: one judgment per page, several
 * pages per call, scanning forward and stopping when the run of TOC pages ends (a TOC that runs
 * past `scanPages` is followed to its end). Undefined when there is none (or the model failed).
 */
export async function detectToc(
  pages: PdfPage[],
  caller: LlmCaller,
  scanPages: number,
): Promise<TocInfo | undefined> {
  const run: PdfPage[] = [];
  const numbered: boolean[] = [];
  let index = 0;
  let ended = false;
  while (!ended && index < pages.length && (index < scanPages || run.length > 0)) {
    caller.checkAborted();
    const limit = run.length > 0 ? pages.length : Math.min(scanPages, pages.length);
    const [batch] = chunkPages(pages.slice(index, limit), TOKENS_PER_CALL, PAGES_PER_CALL);
    if (!batch || batch.length === 0) break;
    index += batch.length;
    const answer = await caller.ask(
      "toc-detect",
      DetectSchema,
      TASK,
      `Judge each of these ${batch.length} page(s):\n${renderPages(batch)}`,
    );
    if (caller.gaveUp) break;
    const verdicts = new Map<number, { toc: boolean; numbered: boolean }>();
    for (const item of answer?.pages ?? []) {
      const n = Number(item.physical_page);
      if (Number.isInteger(n)) verdicts.set(n, { toc: item.is_toc, numbered: item.has_page_numbers ?? true });
    }
    for (const page of batch) {
      const verdict = verdicts.get(page.pageNumber);
      if (verdict?.toc) {
        run.push(page);
        numbered.push(verdict.numbered);
      } else if (run.length > 0) {
        ended = true;
        break;
      }
    }
  }
  if (run.length === 0) return undefined;
  const yes = numbered.filter(Boolean).length;
  return {
    pages: run.map((p) => p.pageNumber),
    hasPageNumbers: yes * 2 >= numbered.length,
    text: run.map((p) => p.text).join("\n"),
  };
}
