import type { PdfLine } from "../types.js";
import type { FontStyle } from "./fonts.js";

/** The fields of a pdf.js text item this module reads. */
export interface RawTextItem {
  str: string;
  transform: number[];
  width: number;
  height: number;
  fontName: string;
  hasEOL: boolean;
}

interface LineAcc {
  parts: string[];
  x: number;
  y: number;
  end: number;
  size: number;
  chars: number;
  boldChars: number;
  italicChars: number;
  sizeChars: Map<number, number>;
}

const round = (n: number): number => Math.round(n * 2) / 2;

const NOT_SPACE = /\S/;

/**
 * The characters `\s` matches beyond ASCII's tab to carriage return and space: ECMAScript's
 * white space (no-break space, the Zs spaces, the BOM) and its line and paragraph separators.
 */
const WIDE_SPACES = new Set([
  0xa0, 0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007, 0x2008, 0x2009, 0x200a,
  0x2028, 0x2029, 0x202f, 0x205f, 0x3000, 0xfeff,
]);
/** Whether a UTF-16 code unit is one `\s` matches. */
const isSpaceCode = (c: number): boolean =>
  c === 32 || (c >= 9 && c <= 13) || (c > 127 && WIDE_SPACES.has(c));
/** Whether a text ends in a character `\s` matches (as `/\s$/`, without scanning the text). */
const endsInSpace = (s: string): boolean => s.length > 0 && isSpaceCode(s.charCodeAt(s.length - 1));

/** Leader characters: a run of two or more of them (mixed) is hidden, like a run of dots. */
const isLeader = (c: number): boolean => c === 0xb7 || c === 0x2026 || c === 0x5f; // · … _

/** Whether `str[k]` is a dot (`dot`) or another leader character (otherwise). */
const sameMark = (str: string, k: number, dot: boolean): boolean =>
  k < str.length && (dot ? str.charCodeAt(k) === 0x2e : isLeader(str.charCodeAt(k)));

/**
 * How many characters of a text count as visible: all but spaces and leader runs (two or more
 * dots, or two or more of · … _, each one apart from the next by at most a space: Texinfo sets
 * its contents' leaders as ". . . .", in a math italic font that, counted, slants every short
 * entry and not the long ones). Counted in place: most runs hold spaces, and removing the hidden
 * ones with a regex made a copy of nearly every run.
 */
function visibleLength(str: string): number {
  let hidden = 0;
  for (let i = 0; i < str.length; ) {
    const c = str.charCodeAt(i);
    if (isSpaceCode(c)) {
      hidden++;
      i++;
      continue;
    }
    const dot = c === 0x2e;
    if (!dot && !isLeader(c)) {
      i++;
      continue;
    }
    let marks = 1;
    let j = i + 1;
    for (;;) {
      if (sameMark(str, j, dot)) j++;
      else if (str.charCodeAt(j) === 32 && sameMark(str, j + 1, dot)) j += 2;
      else break;
      marks++;
    }
    if (marks >= 2) hidden += j - i;
    i = j;
  }
  return str.length - hidden;
}

/**
 * A line's runs joined as one text: spaces (and no-break spaces) collapsed, none around a tab,
 * none at the ends. Each replacement runs only when the text holds what it replaces: most lines
 * have single spaces and no tab, and would otherwise be copied twice for nothing.
 */
function tidy(joined: string): string {
  let text = joined;
  if (text.includes("  ") || text.includes("\u00a0")) text = text.replace(/[ \u00a0]+/g, " ");
  if (text.includes("\t")) text = text.replace(/ ?\t ?/g, "\t");
  return text.trim();
}

function dominantSize(sizes: Map<number, number>, fallback: number): number {
  let best = fallback;
  let bestCount = -1;
  for (const [size, count] of sizes) {
    if (count > bestCount || (count === bestCount && size > best)) {
      best = size;
      bestCount = count;
    }
  }
  return best;
}

/**
 * Groups pdf.js text items into visual lines (same baseline, moving right), keeping content
 * order so multi-column text stays in reading order. Runs separated by a wide gap are joined
 * with a tab (table cells, "Title .... 12" leaders), narrower gaps with a space.
 */
export function assembleLines(
  items: Iterable<RawTextItem>,
  styleOf: (fontName: string) => FontStyle,
  pageTop: number,
): PdfLine[] {
  const lines: PdfLine[] = [];
  let cur: LineAcc | undefined;
  let prevY = pageTop;
  // pdf.js marks an item "end of line" from its own guess; a next item on the same baseline
  // further right still continues the line (numbered headings, dot leaders, table cells).
  let eol = false;

  const flush = (): void => {
    if (!cur) return;
    const text = tidy(cur.parts.join(""));
    if (text.length > 0 && cur.chars > 0) {
      lines.push({
        text,
        size: dominantSize(cur.sizeChars, cur.size),
        maxSize: cur.size,
        bold: cur.boldChars > cur.chars * 0.6,
        italic: cur.italicChars > cur.chars * 0.6,
        x: cur.x,
        y: cur.y,
        gapBefore: Math.max(0, prevY - cur.y),
      });
      prevY = cur.y;
    }
    cur = undefined;
  };

  for (const item of items) {
    const t = item.transform;
    const size = Math.hypot(t[2] ?? 0, t[3] ?? 0) || Math.hypot(t[0] ?? 0, t[1] ?? 0) || item.height || 1;
    const x = t[4] ?? 0;
    const y = t[5] ?? 0;
    const str = item.str;
    if (str.length > 0 && !NOT_SPACE.test(str)) {
      // Whitespace items carry unreliable positions; they only separate words. One far
      // narrower than a word space is a kern inside a word (TeX output: "Typ es", "Co ersive").
      const kern = item.width > 0 && item.width < 0.1 * size;
      if (cur && !kern && !endsInSpace(cur.parts[cur.parts.length - 1] ?? "")) cur.parts.push(" ");
    } else if (str.length > 0) {
      const sameLine =
        cur !== undefined &&
        Math.abs(y - cur.y) <= (eol ? 0.2 : 0.5) * Math.max(size, cur.size) &&
        x >= cur.end - (eol ? 0.5 : 2) * Math.max(size, cur.size);
      if (!sameLine) flush();
      if (!cur) {
        eol = false;
        cur = { parts: [], x, y, end: x, size, chars: 0, boldChars: 0, italicChars: 0, sizeChars: new Map() };
      } else {
        const gap = x - cur.end;
        const last = cur.parts[cur.parts.length - 1] ?? "";
        const spaced = endsInSpace(last) || /^\s/.test(str);
        if (gap > 1.5 * size) cur.parts.push("\t");
        else if (gap > 0.2 * size && !spaced) cur.parts.push(" ");
      }
      cur.parts.push(str);
      eol = false;
      cur.end = Math.max(cur.end, x + item.width);
      const visible = visibleLength(str);
      if (visible > 0) {
        const style = styleOf(item.fontName);
        cur.chars += visible;
        if (style.bold) cur.boldChars += visible;
        if (style.italic) cur.italicChars += visible;
        const key = round(size);
        cur.sizeChars.set(key, (cur.sizeChars.get(key) ?? 0) + visible);
        // The line's position follows its dominant text, not a superscript that opened it.
        if (size > cur.size) {
          cur.size = size;
          cur.y = y;
        }
      }
    }
    if (item.hasEOL) eol = true;
  }
  flush();
  return hoistTrailingHeads(lines, pageTop);
}

/**
 * Moves running heads that the content stream draws last (some producers write the page
 * header after the body) back to the top: the lines at the end of the stream that stand above
 * the page's first line, passing over footers below everything before them. Lines of a second
 * column are left in place, since the stream does not end with them above the first line.
 * Gaps are recomputed for the new order.
 */
export function hoistTrailingHeads(lines: PdfLine[], pageTop: number): PdfLine[] {
  const first = lines[0];
  if (!first || lines.length < 2) return lines;
  const prefixMin: number[] = [];
  let min = Number.POSITIVE_INFINITY;
  for (const line of lines) {
    prefixMin.push(min);
    min = Math.min(min, line.y);
  }
  const above = (l: PdfLine) => l.y > first.y + 0.5 * Math.max(l.size, first.size);
  let start = lines.length;
  while (start > 1) {
    const l = lines[start - 1] as PdfLine;
    if (!above(l) && !(l.y < (prefixMin[start - 1] as number) - 0.5 * l.size)) break;
    start--;
  }
  const tail = lines.slice(start);
  const heads = tail.filter(above);
  if (heads.length === 0) return lines;
  const ordered = [...heads, ...lines.slice(0, start), ...tail.filter((l) => !above(l))];
  let prevY = pageTop;
  return ordered.map((l) => {
    const line = { ...l, gapBefore: Math.max(0, prevY - l.y) };
    prevY = l.y;
    return line;
  });
}
