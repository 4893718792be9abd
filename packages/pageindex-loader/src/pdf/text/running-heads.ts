/**
 * What stands at the top and bottom of pages rather than in the body: running heads and feet,
 * page numbers. The one place that reads page edges; it answers three questions with three
 * decision rules, because their callers need different answers:
 *
 * - {@link findFurniture}, for the layout path: which lines are never headings nor TOC lines.
 *   Broad on purpose: three lines at the top and two at the bottom, recurring text, any page
 *   number anywhere on the page. A heading missed here is cheaper than a running head taken for
 *   one, but cut out of node text it would lose body lines ("Portability" opening three pages).
 * - {@link edgeBands}, for placing sections: the edge line standing at the same height and size
 *   on many pages, whatever it says. A reference manual's running head names the current topic,
 *   so no rule that compares texts finds it.
 * - {@link textFurniture}, for node text: narrow, judged by each page's neighbours (page-number
 *   arithmetic, recurring text in a margin), so a body line is never cut.
 *
 * The rules keep their own readings of a page number and their own text keys (the layout's keeps
 * "Chapter IV" apart from "Chapter V"; the text's folds any roman number at a line's ends): they
 * were tuned apart, and the trees the loader builds depend on each exactly.
 */
import { parseNumbering } from "../structure/numbering.js";
import type { ParsedPage, PdfLine } from "../types.js";
import { mostCommon } from "./counts.js";

/** Lines at page edges by page number (line indices): running heads, feet and page numbers. */
export type Furniture = ReadonlyMap<number, ReadonlySet<number>>;

// ---------------------------------------------------------------------------------------------
// Shared parsing.

/** A line with its index in the page's content order (which is not visual order). */
interface IndexedLine {
  line: PdfLine;
  index: number;
}

/** {@link linesTopDown} by lines array: the three rules below sort each page's lines four times. */
const topDown = new WeakMap<readonly PdfLine[], readonly IndexedLine[]>();

/** The page's lines from the top of the page down (sorted once per lines array; never modified). */
function linesTopDown(page: ParsedPage): readonly IndexedLine[] {
  let order = topDown.get(page.lines);
  if (!order) {
    order = page.lines.map((line, index) => ({ line, index })).sort((a, b) => b.line.y - a.line.y);
    topDown.set(page.lines, order);
  }
  return order;
}

/** Adds line `index` of page `page` to `out`. */
function addLine(out: Map<number, Set<number>>, page: number, index: number): void {
  const set = out.get(page) ?? new Set<number>();
  set.add(index);
  out.set(page, set);
}

const ROMAN: Readonly<Record<string, number>> = { i: 1, v: 5, x: 10, l: 50, c: 100 };

function romanValue(text: string): number | undefined {
  if (!/^[ivxlc]{1,6}$/i.test(text)) return undefined;
  let total = 0;
  const digits = [...text.toLowerCase()].map((c) => ROMAN[c] as number);
  digits.forEach((d, i) => {
    total += d < (digits[i + 1] ?? 0) ? -d : d;
  });
  return total;
}

// ---------------------------------------------------------------------------------------------
// The layout's furniture: lines that are never headings.

/** A page number as the layout reads it, with "Page 3", "3 of 12" and "3/12". */
const PAGE_NUMBER_LINE = /^(?:page\s*)?(?:\d{1,4}|[ivxlc]{1,6})(?:\s*(?:of|\/)\s*\d{1,4})?$/i;

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

/**
 * A contents entry's leaders running to its page number ("8.6 FreedomBox 23.5 (2023-02-27) . . . 231"):
 * no running head or foot is set so.
 */
const LEADERS_TO_NUMBER = /(?:[.·]\s?){4,}\s*(?:\d{1,4}|[ivxlc]{1,6})$/i;

/** Indices of the `top` top-most and `bottom` bottom-most lines of a page. */
function outerLines(page: ParsedPage, top: number, bottom: number): number[] {
  const order = linesTopDown(page);
  const picked = new Set<number>();
  for (const o of order.slice(0, top)) picked.add(o.index);
  for (const o of order.slice(-bottom)) picked.add(o.index);
  return [...picked];
}

/** A running head keeps its size: a module page's large title "rb" is not its 9 pt head "rb". */
const edgeKey = (line: PdfLine): string => `${furnitureKey(line.text)}|${Math.round(line.size)}`;

/** Most gap, in the line's own sizes, between a line and its inward neighbour for the two to read as one flow of text. */
const FLOW_GAP = 1.5;

/**
 * Edge lines that are not the outermost line on their side and sit on ordinary leading with the
 * line inward of them: the body's first or last lines, however often their text recurs (a man
 * page's "NAME" under the running head on every page a page opens), not a head or foot set apart.
 * A bare page number is passed over as the inward line: set beside a two-line head's second line
 * ("Nautilus-Actions Configuration Tool" over "User's Manual", "29 / 44" at the right), it is
 * part of the head's band, not the body.
 */
function linesInBodyFlow(page: ParsedPage): Set<number> {
  const order = linesTopDown(page);
  const flow = new Set<number>();
  const check = (k: number, step: 1 | -1) => {
    const here = order[k];
    let inward = k + step;
    while (PAGE_NUMBER_LINE.test(order[inward]?.line.text.trim() ?? "")) inward += step;
    const next = order[inward];
    if (here && next && Math.abs(here.line.y - next.line.y) < FLOW_GAP * here.line.size) flow.add(here.index);
  };
  // The edge lines inside the outermost: the second and third from the top, the second from the bottom.
  check(1, 1);
  check(2, 1);
  check(order.length - 2, -1);
  return flow;
}

/** Per key of an edge line, the pages (in order, once each) with an edge line of that key; `edges[p]` are page p's edge lines. */
function pagesByEdgeKey(
  pages: readonly ParsedPage[],
  edges: readonly (readonly number[])[],
  key: (line: PdfLine) => string,
): Map<string, number[]> {
  const seen = new Map<string, number[]>();
  pages.forEach((page, p) => {
    for (const k of new Set((edges[p] ?? []).map((i) => key(page.lines[i] as PdfLine)))) {
      const list = seen.get(k);
      if (list) list.push(page.pageNumber);
      else seen.set(k, [page.pageNumber]);
    }
  });
  return seen;
}

/**
 * Running headers, footers and page numbers: lines at a page edge (three at the top, two at the
 * bottom) whose text (digits folded) and size recurs at the edge of at least three pages, one of
 * them within two pages of this one, and bare page numbers. Returns, per page, the line indices
 * to ignore as headings.
 */
export function findFurniture(pages: ParsedPage[]): Map<number, Set<number>> {
  const edges = pages.map((page) => outerLines(page, 3, 2));
  const seen = pagesByEdgeKey(pages, edges, edgeKey);
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
    const inFlow = linesInBodyFlow(page);
    for (const i of edges[p] as number[]) {
      const text = (page.lines[i] as PdfLine).text;
      // Digits folded, the last entries of contents pages in a row can read as one recurring foot.
      if (
        (!inFlow.has(i) &&
          running(edgeKey(page.lines[i] as PdfLine), text, page.pageNumber) &&
          !LEADERS_TO_NUMBER.test(text.trim())) ||
        PAGE_NUMBER_LINE.test(text.trim())
      )
        set.add(i);
    }
    page.lines.forEach((line, i) => {
      if (PAGE_NUMBER_LINE.test(line.text.trim())) set.add(i);
    });
    if (set.size > 0) out.set(page.pageNumber, set);
  });
  return out;
}

/** A heading's label is set this many times the body size or more (a title's size, not a head's). */
const LABEL_SIZE = 1.3;

/**
 * Lines {@link findFurniture} took for furniture that are headings' labels: set at a title's size
 * (≥ 1.3 × the body), their own words on no other page's edge within six pages, only their digits
 * folded recurring — "Chapter 2" and "Chapter 3" atop short chapters two pages apart. Heads and
 * feet whose words stay or whose numbers change with the page are set near the body's size
 * ("Release Notes for dblatex ⇥ iv" at 10 pt over a 9 pt body). Heading candidates leave these in;
 * the contents reader and node text still read them as furniture.
 */
export function headingLabels(
  pages: readonly ParsedPage[],
  furniture: Furniture,
  bodySize: number,
): Map<number, Set<number>> {
  const exactKey = (line: PdfLine): string => `${line.text.trim()}|${Math.round(line.size)}`;
  const seen = pagesByEdgeKey(
    pages,
    pages.map((page) => outerLines(page, 3, 2)),
    exactKey,
  );
  const out = new Map<number, Set<number>>();
  for (const page of pages) {
    for (const i of furniture.get(page.pageNumber) ?? []) {
      const line = page.lines[i] as PdfLine;
      if (line.size < bodySize * LABEL_SIZE || PAGE_NUMBER_LINE.test(line.text.trim())) continue;
      const again = (seen.get(exactKey(line)) ?? []).some(
        (p) => p !== page.pageNumber && Math.abs(p - page.pageNumber) <= 6,
      );
      if (again) continue;
      const set = out.get(page.pageNumber) ?? new Set<number>();
      set.add(i);
      out.set(page.pageNumber, set);
    }
  }
  return out;
}

// ---------------------------------------------------------------------------------------------
// Edge bands: running heads found by where they stand.

/** Share of text pages whose edge line must stand at one place for that place to be a band. */
const BAND_SHARE = 0.3;
/** A band line stands apart from the body: the gap to the next line is at least this many of its sizes. */
const APART = 1.8;

/** The page's top or bottom line and the gap between it and the line next to it. */
function sideLine(page: ParsedPage, side: "top" | "bottom"): { i: number; gap: number } | undefined {
  const order = linesTopDown(page);
  if (order.length < 2) return undefined;
  const [edge, next] =
    side === "top" ? [order[0], order[1]] : [order[order.length - 1], order[order.length - 2]];
  if (!edge || !next) return undefined;
  return { i: edge.index, gap: Math.abs(edge.line.y - next.line.y) };
}

const placeKey = (line: PdfLine): string => `${Math.round(line.y)}:${Math.round(line.size * 2)}`;

/**
 * Running heads and footers found by where they stand, whatever they say: the top (bottom) line
 * of a page that sits at the same height, in the same size, as on many other pages, set apart
 * from the body. A reference manual's running head names the current topic, which changes every
 * page or two, so text-based furniture detection misses it; left in, it is taken for the next
 * topic's heading and ends up in the previous topic's text.
 */
export function edgeBands(pages: readonly ParsedPage[]): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  const withText = pages.filter((p) => p.lines.length >= 2);
  if (withText.length < 4) return out;
  for (const side of ["top", "bottom"] as const) {
    const counts = new Map<string, number>();
    const edges = withText.map((page) => {
      const edge = sideLine(page, side);
      const line = edge && (page.lines[edge.i] as PdfLine);
      const key = line && edge.gap >= APART * line.size ? placeKey(line) : undefined;
      if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
      return { page, edge, key };
    });
    const need = Math.max(3, withText.length * BAND_SHARE);
    for (const { page, edge, key } of edges) {
      if (!edge || !key || (counts.get(key) ?? 0) < need) continue;
      addLine(out, page.pageNumber, edge.i);
    }
  }
  return out;
}

/** The furniture with the edge bands added (see {@link edgeBands}). */
export function withEdgeBands(pages: readonly ParsedPage[], furniture: Furniture): Furniture {
  const out = new Map<number, ReadonlySet<number>>(furniture);
  for (const [page, lines] of edgeBands(pages))
    out.set(page, new Set([...(furniture.get(page) ?? []), ...lines]));
  return out;
}

// ---------------------------------------------------------------------------------------------
// Text furniture: what node text leaves out.

/** An edge line of a page: one of the two top-most or two bottom-most lines. */
interface EdgeLine {
  page: number;
  index: number;
  line: PdfLine;
  edge: "top" | "bottom";
  /** Its page number, when it carries one at either end or is one. */
  number: number | undefined;
  /** Text with digits folded, for recurring heads. */
  key: string;
  /** Outermost on its edge. */
  outermost: boolean;
  /** Distance to the nearest line further inside the page (points). */
  inwardGap: number;
}

/** A line that is only a page number, as node text reads it (no "3 of 12"). */
const BARE_PAGE_NUMBER = /^(?:page\s+)?(\d{1,4}|[ivxlc]{1,6})$/i;
const LEADING = /^(\d{1,4}|[ivxlc]{1,6})(?:\t|\s+[|·•–—-]?\s*)\S/i;
const TRAILING = /\S(?:\t|\s*[|·•–—-]?\s+)(\d{1,4}|[ivxlc]{1,6})$/i;

/** The page number a line carries: the whole line, or a number at its start or end. */
function carriedNumber(text: string): number[] {
  const out: number[] = [];
  for (const re of [BARE_PAGE_NUMBER, LEADING, TRAILING]) {
    const m = re.exec(text);
    const token = m?.[1];
    if (!token) continue;
    const n = /^\d/.test(token) ? Number(token) : romanValue(token);
    if (n !== undefined) out.push(n);
  }
  return out;
}

const foldKey = (text: string): string =>
  text
    .toLowerCase()
    .replace(/\d+/g, "#")
    .replace(/^[ivxlc]{1,6}(?=\s)|(?<=\s)[ivxlc]{1,6}$/g, "#")
    .replace(/\s+/g, " ")
    .trim();

function edgeLines(page: ParsedPage): EdgeLine[] {
  const order = linesTopDown(page);
  const out: EdgeLine[] = [];
  const take = (k: number, edge: "top" | "bottom", outermost: boolean) => {
    const o = order[k];
    if (!o || out.some((e) => e.index === o.index)) return;
    const inner = order[edge === "top" ? k + 1 : k - 1];
    const numbers = carriedNumber(o.line.text.trim());
    out.push({
      page: page.pageNumber,
      index: o.index,
      line: o.line,
      edge,
      number: numbers[0],
      key: foldKey(o.line.text),
      outermost,
      inwardGap: inner ? Math.abs(o.line.y - inner.line.y) : Number.POSITIVE_INFINITY,
    });
    // A line carrying two candidate numbers ("60\t8 Built-in predicates") is tried with each.
    for (const n of numbers.slice(1)) out.push({ ...(out[out.length - 1] as EdgeLine), number: n });
  };
  // Outermost lines first: on a page of two or three lines (a chapter's last page) the foot is
  // the bottom line, not the top's second one.
  take(0, "top", true);
  take(order.length - 1, "bottom", true);
  take(1, "top", false);
  take(order.length - 2, "bottom", false);
  return out;
}

const sameSpot = (a: EdgeLine, b: EdgeLine): boolean =>
  a.edge === b.edge && Math.abs(a.line.y - b.line.y) <= 2 && Math.abs(a.line.size - b.line.size) <= 0.6;

/** The most common distance between consecutive lines: the body's leading. */
function bodyLeading(pages: readonly ParsedPage[]): number {
  const counts = new Map<number, number>();
  for (const page of pages) {
    for (const line of page.lines) {
      const g = Math.round(line.gapBefore);
      if (g > 0) counts.set(g, (counts.get(g) ?? 0) + 1);
    }
  }
  return mostCommon(counts, 12);
}

/**
 * Running heads, running feet and page numbers, by line index per page: what a node's text
 * should not carry. Three kinds of evidence, each local so a page's heads are judged by its
 * neighbours:
 *
 * - **the page number**: an edge line that is a number, or starts or ends with one, where a
 *   page within three has a line at the same spot (edge, height, size) whose number is off
 *   from its page by the same amount ("58\t8 Built-in predicates" on page 60, "8.4 Term
 *   processing\t59" on page 61). Texinfo's alternating left and right heads, heads carrying the
 *   current section title and front-matter roman numbers all qualify; a heading at the top of a
 *   page has no such neighbour (and is set larger than the head above it elsewhere).
 * - **recurring text**: the outermost line of an edge whose text (digits folded) stands at the
 *   same spot within two pages, at a height where the edge lines stand apart from the text below
 *   them (median gap at least 2.5 body lines): a body line that happens to open or close two
 *   pages ("Portability") sits on the body's own grid and stays.
 * - **a bare page number** as the outermost line of an edge.
 *
 * Linear in the number of pages.
 */
export function findRunningHeads(pages: readonly ParsedPage[]): Map<number, Set<number>> {
  const edges = pages.map(edgeLines);
  const leading = bodyLeading(pages);
  const out = new Map<number, Set<number>>();
  // Bands: edge lines grouped by edge and height; a band whose lines stand apart is a margin.
  const bands = new Map<string, number[]>();
  const bandKey = (e: EdgeLine) => `${e.edge}:${Math.round(e.line.y / 2)}`;
  for (const list of edges) {
    for (const e of list) {
      if (!e.outermost) continue;
      const gaps = bands.get(bandKey(e)) ?? [];
      gaps.push(e.inwardGap);
      bands.set(bandKey(e), gaps);
    }
  }
  // A band's verdict is the same for each of its lines: its gaps are sorted once.
  const margins = new Map<string, boolean>();
  const inMargin = (e: EdgeLine): boolean => {
    const key = bandKey(e);
    let margin = margins.get(key);
    if (margin === undefined) {
      const gaps = [...(bands.get(key) ?? [])].sort((a, b) => a - b);
      const median = gaps[Math.floor(gaps.length / 2)] ?? 0;
      margin = median >= 2.5 * leading;
      margins.set(key, margin);
    }
    return margin;
  };
  edges.forEach((list, p) => {
    for (const e of list) {
      const near = (reach: number, test: (o: EdgeLine, q: number) => boolean): boolean => {
        for (let q = Math.max(0, p - reach); q <= Math.min(edges.length - 1, p + reach); q++) {
          if (q !== p && (edges[q] as EdgeLine[]).some((o) => sameSpot(e, o) && test(o, q))) return true;
        }
        return false;
      };
      const numbered =
        e.number !== undefined &&
        near(3, (o) => o.number !== undefined && o.number - o.page === (e.number as number) - e.page);
      const recurring = e.outermost && e.key.length > 0 && inMargin(e) && near(2, (o) => o.key === e.key);
      const bare = e.outermost && BARE_PAGE_NUMBER.test(e.line.text.trim());
      if (numbered || recurring || bare) addLine(out, e.page, e.index);
    }
  });
  return out;
}

/**
 * The lines node text leaves out: the running heads {@link findRunningHeads} found (read once per
 * document, by the layout context, and passed here), plus the layout's furniture (with any edge
 * bands) where it is the outermost line of an edge or a bare page number. The layout's furniture
 * also counts recurring lines a little inside the page, which keeps them out of headings but
 * would cut body lines ("Portability" opening three pages) out of the text.
 */
export function textFurniture(
  pages: readonly ParsedPage[],
  runningHeads: Furniture,
  layoutFurniture: Furniture,
): Map<number, Set<number>> {
  const out = new Map<number, Set<number>>();
  for (const [page, lines] of runningHeads) out.set(page, new Set(lines));
  for (const [pageNumber, set] of layoutFurniture) {
    const page = pages[pageNumber - 1];
    if (!page || page.lines.length === 0) continue;
    let top = Number.NEGATIVE_INFINITY;
    let bottom = Number.POSITIVE_INFINITY;
    for (const line of page.lines) {
      top = Math.max(top, line.y);
      bottom = Math.min(bottom, line.y);
    }
    for (const i of set) {
      const line = page.lines[i];
      if (!line || !(line.y === top || line.y === bottom || BARE_PAGE_NUMBER.test(line.text.trim())))
        continue;
      addLine(out, pageNumber, i);
    }
  }
  return out;
}
