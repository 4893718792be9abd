import { mostCommon } from "../text/counts.js";
import type { ParsedPage, PdfLine } from "../types.js";

/** The look of a heading line, compared to rank headings that carry no numbering. */
export interface StyleSig {
  size: number;
  bold: boolean;
  italic: boolean;
  caps: boolean;
}

/** What body text looks like in this document. */
export interface BodyStyle {
  size: number;
  bold: boolean;
  /** Typical distance between consecutive body lines (points). */
  leading: number;
}

const round = (n: number): number => Math.round(n * 2) / 2;

/** Body text = the font size carrying the most characters; leading = the most common line gap at that size. */
export function bodyStyle(pages: readonly ParsedPage[]): BodyStyle {
  const sizeChars = new Map<number, number>();
  const boldChars = new Map<number, number>();
  const gaps = new Map<number, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      const key = round(line.size);
      sizeChars.set(key, (sizeChars.get(key) ?? 0) + line.text.length);
      if (line.bold) boldChars.set(key, (boldChars.get(key) ?? 0) + line.text.length);
    }
  }
  const size = mostCommon(sizeChars, 10);
  for (const page of pages) {
    for (const line of page.lines) {
      if (round(line.size) !== size || line.gapBefore <= 0 || line.gapBefore > size * 4) continue;
      const g = Math.round(line.gapBefore);
      gaps.set(g, (gaps.get(g) ?? 0) + 1);
    }
  }
  const leading = mostCommon(gaps, size * 1.2);
  return { size, bold: (boldChars.get(size) ?? 0) > (sizeChars.get(size) ?? 0) * 0.5, leading };
}

/** A lone ASCII word of four letters or fewer ("SSH", "API"). */
const ACRONYM = /^\s*[A-Z]{1,4}\s*$/;

/**
 * True when a line's letters are all upper case (and there are a few). A lone ASCII word of four
 * letters or fewer ("SSH", "API") is an acronym: its capitals are its spelling, not a style (an
 * application's "SSH" page is no rank above its modules' "ssh", "ssh_file" pages set alike).
 */
export function isCaps(text: string): boolean {
  // ASCII text is decided in one scan, most lines at their first lower-case letter.
  let upper = 0;
  let ascii = true;
  for (let i = 0; i < text.length && ascii; i++) {
    const c = text.charCodeAt(i);
    if (c >= 97 && c <= 122) return false;
    if (c >= 65 && c <= 90) upper++;
    else if (c > 127) ascii = false;
  }
  if (ascii) return upper >= 3 && !ACRONYM.test(text);
  const letters = text.replace(/[^\p{L}]/gu, "");
  return letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

export function styleOf(line: PdfLine): StyleSig {
  return { size: round(line.size), bold: line.bold, italic: line.italic, caps: isCaps(line.text) };
}

/** Sizes this far apart (points) are two looks; a line this much above the body's is set larger. */
export const SIZE_STEP = 0.9;

/** -1 when `a` looks like a higher-level heading than `b`, 1 when lower, 0 when alike. */
export function compareStyle(a: StyleSig, b: StyleSig): -1 | 0 | 1 {
  if (Math.abs(a.size - b.size) >= SIZE_STEP) return a.size > b.size ? -1 : 1;
  if (a.bold !== b.bold) return a.bold ? -1 : 1;
  if (a.caps !== b.caps) return a.caps ? -1 : 1;
  if (a.italic !== b.italic) return a.italic ? 1 : -1;
  return 0;
}

/** The layout's furniture lives with the other page-edge rules (../text/running-heads.ts); still reachable here for the layout tests. */
export { findFurniture } from "../text/running-heads.js";
