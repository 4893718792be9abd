import type { NodeDraft, TextPosition } from "pageindex-core";
import { countDocumentTokens } from "../../common/token-count.js";
import { joinPageLines } from "../text/dehyphenate.js";
import type { Furniture } from "../text/running-heads.js";
import type { ParsedPage, PdfLine, PdfPosition, SectionEntry } from "../types.js";
import {
  destinationAtPageTop,
  locateHeading,
  matchAmong,
  nearDestination,
  printedOnPage,
} from "./heading-position.js";
import { mergeRepeatedBookmarks, repeatsHeading } from "./repeated-bookmarks.js";

/** Title given to the text before the first section. */
export const PREFACE_TITLE = "Preface";

/**
 * Sets `line` on every entry that lacks one: where its heading stands (see {@link locateHeading}),
 * else the first line of its page that is not a running head. Entries on one page are looked for
 * in order, so two sections whose headings read alike ("list()" for list/0 and list/1) take
 * successive lines.
 */
export function locateEntries(
  entries: SectionEntry[],
  pages: readonly ParsedPage[],
  furniture?: Furniture,
): void {
  let prev: (PdfPosition & { title: string }) | undefined;
  const trusted = destinationsAgree(entries, pages, furniture);
  const repeated = new Set<SectionEntry>();
  const flat = flatten(entries);
  flat.forEach((e, k) => {
    const page = pages[e.page - 1];
    if (
      e.line === undefined &&
      e.y !== undefined &&
      page &&
      prev?.page === e.page &&
      repeatsHeading(page, prev, e.title, e.y, furniture?.get(e.page))
    ) {
      // A second bookmark for the heading just located: one section (merged below).
      e.line = prev.line;
      repeated.add(e);
    }
    if (
      e.line === undefined &&
      e.y !== undefined &&
      page &&
      e.page > 1 &&
      destinationAtPageTop(page, e.y, furniture?.get(e.page))
    ) {
      // A heading set at the foot of the page before its destination's page (its anchor went
      // to the next page with the text after it, so the destination is that page's top): the
      // title is not printed on its own page. A destination further down keeps its page.
      const before = footHeading(pages[e.page - 2], e, prev, furniture);
      if (before !== undefined && !printedOnPage(page, e.title, furniture?.get(e.page))) {
        e.page -= 1;
        e.line = before;
      }
    }
    if (e.line === undefined) {
      const after = prev && prev.page === e.page ? prev.line : -1;
      const skip = furniture?.get(e.page);
      const next = flat[k + 1];
      const until = next?.page === e.page && trusted ? next.y : undefined;
      e.line = page
        ? (locateHeading(page, e.title, {
            ...(e.y !== undefined && trusted ? { y: e.y } : {}),
            ...(skip ? { skip } : {}),
            ...(until !== undefined ? { until } : {}),
            after,
          }) ?? firstBodyLine(page, skip))
        : 0;
    }
    prev = { page: e.page, line: e.line, title: e.title };
  });
  mergeRepeatedBookmarks(entries, repeated);
}

/** How many of a page's last body lines may hold a heading whose text starts on the next page. */
const FOOT_LINES = 3;

/** The line among the last body lines of `page` (after `prev`) that reads as the entry's title. */
function footHeading(
  page: ParsedPage | undefined,
  e: SectionEntry,
  prev: PdfPosition | undefined,
  furniture: Furniture | undefined,
): number | undefined {
  if (!page) return undefined;
  const skip = furniture?.get(page.pageNumber);
  const body = page.lines.map((_, i) => i).filter((i) => !skip?.has(i));
  const after = prev && prev.page === page.pageNumber ? prev.line : -1;
  const foot = new Set(body.slice(-FOOT_LINES).filter((i) => i > after));
  if (foot.size === 0) return undefined;
  return matchAmong(page, e.title, (i) => foot.has(i));
}

/** Fewer destinations than this with their title printed on their page: too few to judge them. */
const FEW_DESTINATIONS = 8;
/** Share of those whose title stands at the destination for the destinations to be trusted. */
const DESTINATIONS_AGREE = 0.5;

/**
 * Whether the document's destinations can be trusted: among bookmarks whose title is printed on
 * their page and whose destination gives a y within the text, at least half find it there. A
 * document whose destinations all land elsewhere (one y for every bookmark, an anchor's position
 * on the previous page) has its headings found by their titles instead.
 */
function destinationsAgree(
  entries: SectionEntry[],
  pages: readonly ParsedPage[],
  furniture: Furniture | undefined,
): boolean {
  let printed = 0;
  let agreeing = 0;
  for (const e of flatten(entries)) {
    const page = pages[e.page - 1];
    if (e.line !== undefined || e.y === undefined || !page) continue;
    const skip = furniture?.get(e.page);
    const near = nearDestination(page, e.title, e.y, skip ? { skip } : {});
    if (near !== undefined) agreeing++;
    else if (!printedOnPage(page, e.title, skip)) continue;
    printed++;
  }
  return printed < FEW_DESTINATIONS || agreeing >= printed * DESTINATIONS_AGREE;
}

/** The page's first line that is not furniture (0 when there is none). */
function firstBodyLine(page: ParsedPage, skip: ReadonlySet<number> | undefined): number {
  for (let i = 0; i < page.lines.length; i++) if (!skip?.has(i)) return i;
  return 0;
}

/**
 * The furniture the text is cut without: every line where a section starts is kept, even when
 * furniture detection took it for a running head (a module's title under a running head of the
 * same name), so each section's text begins with its heading and nothing is lost.
 */
export function bodyFurniture(furniture: Furniture, entries: SectionEntry[]): Furniture {
  const out = new Map<number, ReadonlySet<number>>(furniture);
  for (const e of flatten(entries)) {
    const lines = out.get(e.page);
    if (e.line === undefined || !lines?.has(e.line)) continue;
    const kept = new Set(lines);
    kept.delete(e.line);
    out.set(e.page, kept);
  }
  return out;
}

const before = (a: PdfPosition, b: PdfPosition): boolean =>
  a.page < b.page || (a.page === b.page && a.line < b.line);

/** Entries in pre-order with their depth and parent link. */
export function flatten(entries: SectionEntry[]): SectionEntry[] {
  const out: SectionEntry[] = [];
  const visit = (list: SectionEntry[]) => {
    for (const e of list) {
      out.push(e);
      visit(e.children);
    }
  };
  visit(entries);
  return out;
}

/**
 * Makes heading positions non-decreasing in document order (a bookmark pointing back before
 * its predecessor is moved to it), so every node's text is a contiguous slice. Returns how
 * many entries moved.
 */
export function orderPositions(entries: SectionEntry[]): number {
  let moved = 0;
  let prev: PdfPosition | undefined;
  for (const e of flatten(entries)) {
    const pos = { page: e.page, line: e.line ?? 0 };
    if (prev && before(pos, prev)) {
      e.page = prev.page;
      e.line = prev.line;
      moved++;
    }
    prev = { page: e.page, line: e.line ?? 0 };
  }
  return moved;
}

/** Reads the text between two positions, page by page; running headers and footers are kept out. */
export class TextSlicer {
  constructor(
    private readonly pages: readonly ParsedPage[],
    private readonly furniture: Furniture = new Map(),
  ) {}

  /** Text from `from` (inclusive) to `to` (exclusive; end of document when undefined). */
  slice(from: PdfPosition, to: PdfPosition | undefined): string {
    return this.span(from, to).text;
  }

  /** The text from `from` to `to` (as {@link slice}) and the position of its last line (none when empty). */
  span(from: PdfPosition, to: PdfPosition | undefined): { text: string; last?: PdfPosition } {
    const parts: string[] = [];
    let last: PdfPosition | undefined;
    const lastPage = to ? to.page : this.pages.length;
    for (let p = from.page; p <= lastPage; p++) {
      const page = this.pages[p - 1];
      if (!page) continue;
      const skip = this.furniture.get(p);
      const start = p === from.page ? from.line : 0;
      const end = to && p === to.page ? to.line : page.lines.length;
      const lines: string[] = [];
      for (let i = start; i < end; i++) {
        if (skip?.has(i)) continue;
        lines.push((page.lines[i] as PdfLine).text);
        last = { page: p, line: i };
      }
      if (lines.length > 0) parts.push(joinPageLines(lines, this.pages));
    }
    return { text: parts.join("\n\n"), ...(last ? { last } : {}) };
  }

  /** True when nothing but running headers/footers stands before `line` on its page. */
  startsPage(pos: PdfPosition): boolean {
    const skip = this.furniture.get(pos.page);
    for (let i = 0; i < pos.line; i++) if (!skip?.has(i)) return false;
    return true;
  }

  /** Last page of a text that ends just before `next`. */
  endBefore(next: PdfPosition | undefined, start: number): number {
    if (!next) return this.pages.length;
    return Math.max(start, this.startsPage(next) ? next.page - 1 : next.page);
  }
}

/** A node's own text from `start` to `end`, its token count and where it lies (1-based lines). */
function ownText(
  slicer: TextSlicer,
  start: PdfPosition,
  end: PdfPosition | undefined,
): { text: string; tokenCount: number; position: TextPosition } {
  const { text, last = start } = slicer.span(start, end);
  return {
    text,
    tokenCount: countDocumentTokens(text),
    position: { page: start.page, line: start.line + 1, endPage: last.page, endLine: last.line + 1 },
  };
}

/** Options for {@link entriesToDrafts}. */
export interface DraftOptions {
  /** Add a "Preface" node for text before the first section. Default true. */
  preface?: boolean;
}

/**
 * Turns located, ordered entries into nested drafts: each node's own text runs from its
 * heading to the next heading in document order (so two sections sharing a page split it at
 * the heading line), `ownEndPage` is where that text ends, and `createTree` unions the ranges.
 */
export function entriesToDrafts(
  entries: SectionEntry[],
  slicer: TextSlicer,
  options: DraftOptions = {},
): NodeDraft[] {
  const flat = flatten(entries);
  const next = new Map<SectionEntry, PdfPosition | undefined>();
  flat.forEach((e, i) => {
    const n = flat[i + 1];
    next.set(e, n ? { page: n.page, line: n.line ?? 0 } : undefined);
  });
  const toDraft = (e: SectionEntry): NodeDraft => {
    const start = { page: e.page, line: e.line ?? 0 };
    const end = next.get(e);
    return {
      title: e.title,
      ...ownText(slicer, start, end),
      startPage: e.page,
      ownEndPage: slicer.endBefore(end, e.page),
      children: e.children.map(toDraft),
    };
  };
  const drafts = entries.map(toDraft);
  const first = flat[0];
  if ((options.preface ?? true) && first) {
    const firstPos = { page: first.page, line: first.line ?? 0 };
    if (before({ page: 1, line: 0 }, firstPos)) {
      const own = ownText(slicer, { page: 1, line: 0 }, firstPos);
      if (own.text.trim().length > 0) {
        drafts.unshift({
          title: PREFACE_TITLE,
          ...own,
          startPage: 1,
          ownEndPage: slicer.endBefore(firstPos, 1),
        });
      }
    }
  }
  return drafts;
}
