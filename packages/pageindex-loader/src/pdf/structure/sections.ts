import type { NodeDraft } from "pageindex-store";
import { countDocumentTokens } from "../../common/token-count.js";
import { joinPageLines } from "../text/dehyphenate.js";
import type { ParsedPage, PdfLine, PdfPosition, SectionEntry } from "../types.js";
import { compactTitle, titleSimilarity } from "./titles.js";

/** Title given to the text before the first section. */
export const PREFACE_TITLE = "Preface";

/**
 * The line where a title stands on a page: the best title match (nearest the destination's
 * top when one is known), else the first line at or below that top, else the top of the page.
 */
export function locateTitle(page: ParsedPage, title: string, y?: number): number {
  const lines = page.lines;
  let best = -1;
  let bestScore = 0;
  let bestDist = Number.POSITIVE_INFINITY;
  const target = compactTitle(title);
  lines.forEach((line, i) => {
    let score = titleSimilarity(title, line.text);
    if (score < 0.8) {
      const next = lines[i + 1];
      const here = compactTitle(line.text);
      if (next && here.length >= target.length * 0.4 && target.startsWith(here)) {
        if (compactTitle(`${line.text} ${next.text}`).startsWith(target)) score = 0.85;
      }
    }
    if (score < 0.8) return;
    const dist = y === undefined ? 0 : Math.abs(line.y + line.size - y);
    if (score > bestScore + 0.05 || (score >= bestScore - 0.05 && dist < bestDist)) {
      best = i;
      bestScore = score;
      bestDist = dist;
    }
  });
  if (best >= 0) return best;
  if (y !== undefined) {
    let pick = -1;
    let pickY = Number.NEGATIVE_INFINITY;
    lines.forEach((line, i) => {
      if (line.y <= y + 1 && line.y > pickY) {
        pick = i;
        pickY = line.y;
      }
    });
    if (pick >= 0) return pick;
  }
  return 0;
}

/** Sets `line` on every entry that lacks one. */
export function locateEntries(entries: SectionEntry[], pages: readonly ParsedPage[]): void {
  for (const e of entries) {
    if (e.line === undefined) {
      const page = pages[e.page - 1];
      e.line = page ? locateTitle(page, e.title, e.y) : 0;
    }
    locateEntries(e.children, pages);
  }
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
    private readonly furniture: ReadonlyMap<number, ReadonlySet<number>> = new Map(),
  ) {}

  /** Text from `from` (inclusive) to `to` (exclusive; end of document when undefined). */
  slice(from: PdfPosition, to: PdfPosition | undefined): string {
    const parts: string[] = [];
    const last = to ? to.page : this.pages.length;
    for (let p = from.page; p <= last; p++) {
      const page = this.pages[p - 1];
      if (!page) continue;
      const skip = this.furniture.get(p);
      const start = p === from.page ? from.line : 0;
      const end = to && p === to.page ? to.line : page.lines.length;
      const lines: string[] = [];
      for (let i = start; i < end; i++) if (!skip?.has(i)) lines.push((page.lines[i] as PdfLine).text);
      if (lines.length > 0) parts.push(joinPageLines(lines, this.pages));
    }
    return parts.join("\n\n");
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
    const text = slicer.slice(start, end);
    return {
      title: e.title,
      text,
      tokenCount: countDocumentTokens(text),
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
      const text = slicer.slice({ page: 1, line: 0 }, firstPos);
      if (text.trim().length > 0) {
        drafts.unshift({
          title: PREFACE_TITLE,
          text,
          tokenCount: countDocumentTokens(text),
          startPage: 1,
          ownEndPage: slicer.endBefore(firstPos, 1),
        });
      }
    }
  }
  return drafts;
}
