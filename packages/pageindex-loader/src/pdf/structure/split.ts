import { countDocumentTokens } from "../../common/token-count.js";
import type { ParsedPage, PdfPosition, SectionEntry } from "../types.js";
import { pageRangeEntries } from "./flat.js";
import { type LayoutContext, layoutWithin } from "./layout.js";
import { flatten, locateEntries, type TextSlicer } from "./sections.js";
import { titleSimilarity } from "./titles.js";

/** A node is split when its own text is over both budgets. */
export interface SplitBudget {
  /** Default 10. */
  maxPages: number;
  /** Default 20,000. */
  maxTokens: number;
}

/**
 * Finds sub-sections of one section's page range with a model; returns nested entries (may be
 * empty). The section's title tells the model what it is reading.
 */
export type LlmSplitter = (pages: ParsedPage[], sectionTitle: string) => Promise<SectionEntry[]>;

/** What splitting did. */
export interface SplitReport {
  /** Sections split, by the method that split them. */
  byLayout: number;
  byLlm: number;
  byPages: number;
}

const MAX_ROUNDS = 4;
/** Progress is reported every this many sections examined. */
const STEP_EVERY = 50;

const after = (p: PdfPosition, q: PdfPosition): boolean =>
  p.page > q.page || (p.page === q.page && p.line > q.line);

/** Keeps sub-entries strictly inside (start, end) and drops one repeating the parent's title at its start. */
function inside(
  entries: SectionEntry[],
  parent: SectionEntry,
  start: PdfPosition,
  end: PdfPosition | undefined,
) {
  const keep = (e: SectionEntry): SectionEntry[] => {
    const pos = { page: e.page, line: e.line ?? 0 };
    const children = e.children.flatMap(keep);
    const ok =
      after(pos, start) &&
      (!end || after(end, pos)) &&
      !(e.page === parent.page && titleSimilarity(e.title, parent.title) >= 0.8);
    if (!ok) return children;
    return [{ ...e, children }];
  };
  return entries.flatMap(keep);
}

/**
 * Splits sections whose own text is over the budget (more than `maxPages` pages and more
 * than `maxTokens` tokens): first with headings found in their pages, then with the model
 * when a splitter is given, else into page ranges, so no leaf stays oversized. New
 * sub-sections become the first children; rounds repeat (bounded) for sub-sections still over
 * the budget. Mutates `entries`. `onStep` hears (sections examined, sections) as the work goes on.
 */
export async function splitLargeSections(
  entries: SectionEntry[],
  ctx: LayoutContext,
  slicer: TextSlicer,
  budget: SplitBudget,
  llm?: LlmSplitter,
  onStep?: (done: number, total: number) => Promise<void>,
): Promise<SplitReport> {
  const report: SplitReport = { byLayout: 0, byLlm: 0, byPages: 0 };
  const tried = new Set<SectionEntry>();
  for (let round = 0; round < MAX_ROUNDS; round++) {
    const flat = flatten(entries);
    let changed = false;
    for (let i = 0; i < flat.length; i++) {
      if (onStep && i % STEP_EVERY === 0) await onStep(i, flat.length);
      const e = flat[i] as SectionEntry;
      if (tried.has(e)) continue;
      const start = { page: e.page, line: e.line ?? 0 };
      const n = flat[i + 1];
      const end = n ? { page: n.page, line: n.line ?? 0 } : undefined;
      const lastPage = slicer.endBefore(end, e.page);
      const pages = lastPage - e.page + 1;
      if (pages <= budget.maxPages) continue;
      // Page token counts bound the text's tokens from above; count exactly only when they exceed the budget.
      let estimate = 0;
      for (let p = e.page; p <= lastPage; p++) estimate += ctx.pages[p - 1]?.tokenCount ?? 0;
      if (estimate <= budget.maxTokens || countDocumentTokens(slicer.slice(start, end)) <= budget.maxTokens)
        continue;
      tried.add(e);

      let sub = inside(layoutWithin(ctx, start, end ?? { page: lastPage + 1, line: 0 }), e, start, end);
      let how: keyof SplitReport = "byLayout";
      if (sub.length === 0 && llm) {
        const found = await llm(ctx.pages.slice(e.page - 1, lastPage) as ParsedPage[], e.title);
        locateEntries(found, ctx.pages, ctx.furniture);
        sub = inside(found, e, start, end);
        how = "byLlm";
      }
      if (sub.length === 0) {
        // Page ranges after the first block of pages; the first block stays the section's own text.
        const from = e.page + budget.maxPages;
        if (from <= lastPage) {
          sub = pageRangeEntries(ctx.pages, from, lastPage, {
            maxPages: budget.maxPages,
            maxTokens: budget.maxTokens,
          });
        }
        how = "byPages";
      }
      if (sub.length === 0) continue;
      e.children = [...sub, ...e.children];
      report[how]++;
      changed = true;
    }
    if (!changed) break;
  }
  return report;
}
