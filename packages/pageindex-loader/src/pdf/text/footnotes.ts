import type { ParsedPage } from "../types.js";
import { mostCommon } from "./counts.js";

/** A footnote's first line: a number or mark, then its text ("9 How to…", "1Subvector…", "* Note"). */
const FOOTNOTE_START = /^(?:\d{1,3}|[*†‡§¶])\s?\S/u;
const BARE_NUMBER = /^(?:\d{1,4}|[ivxlc]{1,6})$/i;

/** The size most characters of the document are set in. */
function bodySize(pages: readonly ParsedPage[]): number {
  const chars = new Map<number, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      const key = Math.round(line.size * 2) / 2;
      chars.set(key, (chars.get(key) ?? 0) + line.text.length);
    }
  }
  return mostCommon(chars, 0);
}

/**
 * The first lines of footnotes, by their text: on each page, the block of lines that closes the
 * page's content (a page number after it aside), set at least a point smaller than the body,
 * below every body line, and opening with a number or mark. Node text sets each one apart as
 * its own paragraph, so a footnote at a page's foot does not read as part of the sentence that
 * runs on to the next page.
 */
export function footnoteStarts(pages: readonly ParsedPage[]): Set<string> {
  const body = bodySize(pages);
  const out = new Set<string>();
  for (const page of pages) {
    const lines = page.lines;
    let end = lines.length;
    while (end > 0 && BARE_NUMBER.test((lines[end - 1]?.text ?? "").trim())) end--;
    let start = end;
    while (start > 0 && (lines[start - 1]?.size ?? body) <= body - 1) start--;
    if (start === end || start === 0) continue;
    const lowestBody = Math.min(...lines.slice(0, start).map((l) => l.y));
    const block = lines.slice(start, end);
    if (!FOOTNOTE_START.test(block[0]?.text ?? "") || block.some((l) => l.y >= lowestBody)) continue;
    for (const line of block) if (FOOTNOTE_START.test(line.text)) out.add(line.text);
  }
  return out;
}

const cache = new WeakMap<readonly ParsedPage[], Set<string>>();

/** {@link footnoteStarts} of a document, found once per pages array. */
export function footnotesOf(pages: readonly ParsedPage[]): Set<string> {
  let found = cache.get(pages);
  if (!found) {
    found = footnoteStarts(pages);
    cache.set(pages, found);
  }
  return found;
}
