import type { LlmCaller } from "./caller.js";
import { cloneEntries, type Entry, mostCommon } from "./entries.js";
import { locateEntries, MAX_ENTRIES_PER_LOCATE } from "./locate.js";
import { structureWithoutToc } from "./no-toc.js";
import { groupPages } from "./pages.js";
import type { TocInfo } from "./toc-detect.js";
import { type CheckContext, type CheckedEntries, verifyAndFix } from "./verify.js";

/** The three modes, most trusted first; each falls back to the next. */
export type LlmMode = "toc-with-pages" | "toc-without-pages" | "no-toc";

/** What every mode needs. */
export interface ModeContext extends CheckContext {
  caller: LlmCaller;
  groupTokens: number;
}

/** Groups of pages read for the offset before giving up on it. */
const OFFSET_GROUPS = 3;

const notAccepted = (): CheckedEntries => ({ accepted: false, accuracy: 0, entries: [] });

/**
 * TOC with page numbers: locate a few entries in the pages after the TOC, take the most common
 * printed→physical difference as the offset, apply it to every entry, then verify.
 */
export async function tocWithPages(
  tocEntries: Entry[],
  toc: TocInfo,
  ctx: ModeContext,
): Promise<CheckedEntries> {
  const entries = cloneEntries(tocEntries);
  const lastToc = toc.pages[toc.pages.length - 1] ?? 0;
  const after = ctx.pages.pages.filter((p) => p.pageNumber > lastToc);
  const numbered = entries.filter((e) => e.printedPage !== undefined);
  if (numbered.length === 0 || after.length === 0) return notAccepted();

  // The first entries start soonest after the TOC; a group where none starts is likely front
  // matter, so the next group is tried.
  const located = new Map<number, number>();
  const sample = numbered.slice(0, MAX_ENTRIES_PER_LOCATE);
  for (const group of groupPages(after, ctx.groupTokens).slice(0, OFFSET_GROUPS)) {
    const found = await locateEntries(sample, group, ctx.caller, "toc-offset");
    for (const [id, page] of found) located.set(id, page);
    if (located.size > 0 || ctx.caller.gaveUp) break;
  }
  const diffs = numbered.filter((e) => located.has(e.id)).map((e) => located.get(e.id)! - e.printedPage!);
  const offset = mostCommon(diffs);
  if (offset === undefined) {
    ctx.warnings.push(
      "toc-with-pages: no table-of-contents entry could be located to compute the page offset",
    );
    return notAccepted();
  }
  for (const e of entries) {
    // A located entry's page is direct evidence; the rest follow the printed number.
    const direct = located.get(e.id);
    if (direct !== undefined && direct - (e.printedPage ?? 0) === offset) e.page = direct;
    else if (e.printedPage !== undefined) e.page = e.printedPage + offset;
  }
  return verifyAndFix(entries, ctx, "toc-with-pages", false);
}

/**
 * TOC without usable page numbers: walk the pages after the TOC in groups and ask which of the
 * next entries start in each group, then verify.
 */
export async function tocWithoutPages(
  tocEntries: Entry[],
  toc: TocInfo,
  ctx: ModeContext,
): Promise<CheckedEntries> {
  const entries = cloneEntries(tocEntries);
  const lastToc = toc.pages[toc.pages.length - 1] ?? 0;
  const after = ctx.pages.pages.filter((p) => p.pageNumber > lastToc);
  let next = 0;
  let floor = 0;
  for (const group of groupPages(after, ctx.groupTokens)) {
    ctx.caller.checkAborted();
    if (next >= entries.length || ctx.caller.gaveUp) break;
    const pending = entries.slice(next, next + MAX_ENTRIES_PER_LOCATE);
    const found = await locateEntries(pending, group, ctx.caller, "toc-locate");
    for (const e of pending) {
      const page = found.get(e.id);
      if (page === undefined || page < floor) continue;
      e.page = page;
      floor = page;
      next = e.id + 1;
    }
  }
  return verifyAndFix(entries, ctx, "toc-without-pages", true);
}

/** No TOC: the model reads the pages group by group and builds the hierarchy; then verify. */
export async function noToc(ctx: ModeContext, sectionTitle?: string): Promise<CheckedEntries> {
  const entries = await structureWithoutToc(
    ctx.pages.pages,
    ctx.caller,
    ctx.groupTokens,
    ctx.warnings,
    sectionTitle,
  );
  if (entries.length === 0) return notAccepted();
  return verifyAndFix(entries, ctx, "no-toc", false);
}
