import { asData } from "pageindex-core";
import type { PdfPage } from "../types.js";

/** A page as the model sees it: its text inside a tag naming its physical page. */
export function renderPage(page: PdfPage): string {
  return asData("page", page.text, { physical_page: page.pageNumber });
}

/** Several pages, in order, ready to go in a prompt. */
export function renderPages(pages: PdfPage[]): string {
  return pages.map(renderPage).join("\n");
}

/**
 * Splits pages into groups of at most `maxTokens` (a single larger page is a group of its own),
 * each group starting with the last page of the previous one (`overlap` pages), so a section
 * that starts at a group boundary is seen with its context.
 */
export function groupPages(pages: PdfPage[], maxTokens: number, overlap = 1): PdfPage[][] {
  const groups: PdfPage[][] = [];
  let start = 0;
  while (start < pages.length) {
    let end = start;
    let tokens = 0;
    while (end < pages.length && (end === start || tokens + pages[end]!.tokenCount <= maxTokens)) {
      tokens += pages[end]!.tokenCount;
      end += 1;
    }
    groups.push(pages.slice(start, end));
    if (end >= pages.length) break;
    // Always move forward, even when the group is a single page.
    start = Math.max(start + 1, end - overlap);
  }
  return groups;
}

/** Consecutive, non-overlapping runs of at most `maxPages` pages and `maxTokens` tokens. */
export function chunkPages(pages: PdfPage[], maxTokens: number, maxPages: number): PdfPage[][] {
  const chunks: PdfPage[][] = [];
  let current: PdfPage[] = [];
  let tokens = 0;
  for (const page of pages) {
    if (current.length > 0 && (current.length >= maxPages || tokens + page.tokenCount > maxTokens)) {
      chunks.push(current);
      current = [];
      tokens = 0;
    }
    current.push(page);
    tokens += page.tokenCount;
  }
  if (current.length > 0) chunks.push(current);
  return chunks;
}

/** Pages by physical number, for quick lookup and range checks. */
export class PageSet {
  private readonly byNumber = new Map<number, PdfPage>();
  readonly first: number;
  readonly last: number;

  constructor(readonly pages: PdfPage[]) {
    for (const p of pages) this.byNumber.set(p.pageNumber, p);
    this.first = pages[0]?.pageNumber ?? 1;
    this.last = pages[pages.length - 1]?.pageNumber ?? 0;
  }

  get(n: number): PdfPage | undefined {
    return this.byNumber.get(n);
  }

  has(n: number): boolean {
    return this.byNumber.has(n);
  }

  /** Pages `from..to` (inclusive) that exist. */
  range(from: number, to: number): PdfPage[] {
    return this.pages.filter((p) => p.pageNumber >= from && p.pageNumber <= to);
  }
}
