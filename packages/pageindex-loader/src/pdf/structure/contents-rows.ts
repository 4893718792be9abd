import type { ParsedPage, PdfLine } from "../types.js";

/** One row of a contents page: a line, with a page number set apart on its baseline joined to it. */
export interface ContentsRow {
  line: PdfLine;
  /** Index of the row's last line on its page (the row's end, for where the contents stop). */
  index: number;
}

/**
 * A piece of a line holding no words: a page number, alone or after leaders (". . . . 49", "133",
 * "iv"). Some producers draw it as its own text run, which the reader keeps as its own line on
 * the entry's baseline, before or after the entry's title.
 */
const NUMBER_PIECE = /^(?:[.·…_]\s*)*(\d{1,4}|[ivxlc]{1,6})$/i;

/** Baselines this close (over the font size) are one row. */
const SAME_BASELINE = 0.3;

/**
 * Whether a number piece stands right of a title on its baseline (a number left of it is the
 * entry's own numbering).
 */
const numberOf = (piece: PdfLine, title: PdfLine): boolean =>
  piece.x > title.x && Math.abs(piece.y - title.y) <= SAME_BASELINE * Math.max(piece.size, title.size);

/**
 * The page's lines as contents rows: a number piece ({@link NUMBER_PIECE}) on the baseline of a
 * neighbouring line with words, right of it, is that line's page number, joined after it with a
 * tab (ReportLab draws each entry's leaders and number before its title). Only a number piece
 * joins: two titles on one baseline are two columns, not one entry. A running head or footer stands on its own
 * baseline, so `furniture` lines stay out unless they are a number piece beside an entry (a
 * chapter row's number, taken for a page number by its place). Linear in the page's lines.
 */
export function contentsRows(page: ParsedPage, furniture: ReadonlySet<number> | undefined): ContentsRow[] {
  const lines = page.lines;
  const piece = (i: number): boolean => NUMBER_PIECE.test((lines[i] as PdfLine).text.trim());
  const worded = (i: number): boolean =>
    i >= 0 &&
    i < lines.length &&
    !furniture?.has(i) &&
    !piece(i) &&
    /\p{L}/u.test((lines[i] as PdfLine).text);
  const out: ContentsRow[] = [];
  const joined = new Set<number>();
  for (let i = 0; i < lines.length; i++) {
    if (joined.has(i)) continue;
    const line = lines[i] as PdfLine;
    if (piece(i)) {
      // Drawn before its title: the next line, on the same baseline, takes it.
      const next = lines[i + 1];
      if (next && worded(i + 1) && numberOf(line, next)) {
        out.push({ line: { ...next, text: `${next.text}\t${line.text.trim()}` }, index: i + 1 });
        joined.add(i + 1);
        continue;
      }
    } else if (worded(i)) {
      const next = lines[i + 1];
      if (next && piece(i + 1) && numberOf(next, line)) {
        out.push({ line: { ...line, text: `${line.text}\t${next.text.trim()}` }, index: i + 1 });
        joined.add(i + 1);
        continue;
      }
    }
    if (!furniture?.has(i)) out.push({ line, index: i });
  }
  return out;
}
