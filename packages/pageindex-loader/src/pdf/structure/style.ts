import type { ParsedPage, PdfLine } from "../types.js";
import { parseNumbering } from "./numbering.js";

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
  let size = 10;
  let best = -1;
  for (const [s, n] of sizeChars) {
    if (n > best) {
      best = n;
      size = s;
    }
  }
  for (const page of pages) {
    for (const line of page.lines) {
      if (round(line.size) !== size || line.gapBefore <= 0 || line.gapBefore > size * 4) continue;
      const g = Math.round(line.gapBefore);
      gaps.set(g, (gaps.get(g) ?? 0) + 1);
    }
  }
  let leading = size * 1.2;
  best = -1;
  for (const [g, n] of gaps) {
    if (n > best) {
      best = n;
      leading = g;
    }
  }
  return { size, bold: (boldChars.get(size) ?? 0) > (sizeChars.get(size) ?? 0) * 0.5, leading };
}

/** True when a line's letters are all upper case (and there are a few). */
export function isCaps(text: string): boolean {
  const letters = text.replace(/[^\p{L}]/gu, "");
  return letters.length >= 3 && letters === letters.toUpperCase() && letters !== letters.toLowerCase();
}

export function styleOf(line: PdfLine): StyleSig {
  return { size: round(line.size), bold: line.bold, italic: line.italic, caps: isCaps(line.text) };
}

/** -1 when `a` looks like a higher-level heading than `b`, 1 when lower, 0 when alike. */
export function compareStyle(a: StyleSig, b: StyleSig): -1 | 0 | 1 {
  if (Math.abs(a.size - b.size) >= 0.9) return a.size > b.size ? -1 : 1;
  if (a.bold !== b.bold) return a.bold ? -1 : 1;
  if (a.caps !== b.caps) return a.caps ? -1 : 1;
  if (a.italic !== b.italic) return a.italic ? 1 : -1;
  return 0;
}

const PAGE_NUMBER = /^(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

const LEADING_ROMAN = /^[ivxlc]{1,6}(?=\s)/;
const TRAILING_ROMAN = /[ivxlc]{1,6}$/;
const SEPARATOR_END = /[|•·–—-]$/;

/**
 * Folds a roman page number opening a running head ("ii\tAnnual Report | 2023") or closing one
 * after a tab or separator ("Annual Report | iv") to "#". No `(?<=[|-]\s*)` lookbehind: tried
 * at every position, it rescans a long blank run each time (minutes for a line of 1 MB).
 */
function foldEdgeRomans(text: string): string {
  const t = text.replace(LEADING_ROMAN, "#");
  const end = TRAILING_ROMAN.exec(t);
  if (!end) return t;
  const before = t.slice(0, end.index);
  return before.endsWith("\t") || SEPARATOR_END.test(before.trimEnd()) ? `${before}#` : t;
}

/**
 * Normalised furniture key: digits folded so "Page 3" and "Page 4" match, and an edge roman
 * page number too, so the front matter's "ii | Report" matches the body's "12 | Report". Not
 * in "PART II" or "Chapter IV": there the numeral tells headings apart.
 */
function furnitureKey(text: string): string {
  const t = text.toLowerCase().trim();
  const folded = parseNumbering(t)?.kind === "keyword" ? t : foldEdgeRomans(t);
  return folded.replace(/\d+/g, "#").replace(/\s+/g, " ");
}

/** Indices of the lines nearest a page's top and bottom edge (content order is not visual order). */
function edgeLines(page: ParsedPage, top: number, bottom: number): number[] {
  const order = page.lines.map((l, i) => ({ y: l.y, i })).sort((a, b) => b.y - a.y);
  const picked = new Set<number>();
  for (const o of order.slice(0, top)) picked.add(o.i);
  for (const o of order.slice(-bottom)) picked.add(o.i);
  return [...picked];
}

/** A running head keeps its size: a module page's large title "rb" is not its 9 pt head "rb". */
const edgeKey = (line: PdfLine): string => `${furnitureKey(line.text)}|${Math.round(line.size)}`;

/**
 * Running headers, footers and page numbers: lines at a page edge (three at the top, two at the
 * bottom) whose text (digits folded) and size
 * recurs at the edge of at least three pages, one of them within two pages of this one, and
 * bare page numbers. Returns, per page, the
 * line indices to ignore as headings.
 */
export function findFurniture(pages: ParsedPage[]): Map<number, Set<number>> {
  const seen = new Map<string, number[]>();
  const edges = pages.map((page) => {
    const idx = edgeLines(page, 3, 2);
    const keys = new Set<string>();
    for (const i of idx) keys.add(edgeKey(page.lines[i] as PdfLine));
    for (const k of keys) {
      const list = seen.get(k);
      if (list) list.push(page.pageNumber);
      else seen.set(k, [page.pageNumber]);
    }
    return idx;
  });
  // A running head recurs on nearby pages (within two); "Chapter 3" and "Chapter 4" at the top
  // of pages far apart are headings, not furniture. A head on a quarter of all pages or more
  // (a left-page head skipped on chapter openings) may be further apart, unless it is numbered
  // like a heading.
  const common = Math.max(5, pages.length / 4);
  const running = (key: string, text: string, pageNumber: number): boolean => {
    const list = seen.get(key);
    if (!list || list.length < 3) return false;
    const reach = list.length >= common && parseNumbering(text)?.kind !== "keyword" ? 6 : 2;
    return list.some((p) => p !== pageNumber && Math.abs(p - pageNumber) <= reach);
  };
  const out = new Map<number, Set<number>>();
  pages.forEach((page, p) => {
    const set = new Set<number>();
    for (const i of edges[p] as number[]) {
      const text = (page.lines[i] as PdfLine).text;
      if (running(edgeKey(page.lines[i] as PdfLine), text, page.pageNumber) || PAGE_NUMBER.test(text.trim()))
        set.add(i);
    }
    page.lines.forEach((line, i) => {
      if (PAGE_NUMBER.test(line.text.trim())) set.add(i);
    });
    if (set.size > 0) out.set(page.pageNumber, set);
  });
  return out;
}
