import type { ParsedPage, PdfLine } from "../types.js";
import { mostCommon } from "./counts.js";

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

const BARE = /^(?:page\s+)?(\d{1,4}|[ivxlc]{1,6})$/i;
const LEADING = /^(\d{1,4}|[ivxlc]{1,6})(?:\t|\s+[|·•–—-]?\s*)\S/i;
const TRAILING = /\S(?:\t|\s*[|·•–—-]?\s+)(\d{1,4}|[ivxlc]{1,6})$/i;

/** The page number a line carries: the whole line, or a number at its start or end. */
function carriedNumber(text: string): number[] {
  const out: number[] = [];
  for (const re of [BARE, LEADING, TRAILING]) {
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
  const order = page.lines.map((line, index) => ({ line, index })).sort((a, b) => b.line.y - a.line.y);
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
  take(0, "top", true);
  take(1, "top", false);
  take(order.length - 1, "bottom", true);
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
 * should not carry. Two kinds of evidence, each local so a page's heads are judged by its
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
 *
 * - **a bare page number** as the outermost line of an edge.
 *
 * Linear in the number of pages.
 */
export function findRunningHeads(pages: readonly ParsedPage[]): Map<number, Set<number>> {
  const edges = pages.map(edgeLines);
  const leading = bodyLeading(pages);
  const out = new Map<number, Set<number>>();
  const mark = (e: EdgeLine) => {
    const set = out.get(e.page) ?? new Set<number>();
    set.add(e.index);
    out.set(e.page, set);
  };
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
  const inMargin = (e: EdgeLine): boolean => {
    const gaps = [...(bands.get(bandKey(e)) ?? [])].sort((a, b) => a - b);
    const median = gaps[Math.floor(gaps.length / 2)] ?? 0;
    return median >= 2.5 * leading;
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
      const bare = e.outermost && BARE.test(e.line.text.trim());
      if (numbered || recurring || bare) mark(e);
    }
  });
  return out;
}

/**
 * The lines node text leaves out: {@link findRunningHeads}, plus the layout's furniture where it
 * is the outermost line of an edge or a bare page number. The layout's furniture also counts
 * recurring lines a little inside the page, which keeps them out of headings but would cut body
 * lines ("Portability" opening three pages) out of the text.
 */
export function textFurniture(
  pages: readonly ParsedPage[],
  layoutFurniture: ReadonlyMap<number, ReadonlySet<number>>,
): Map<number, Set<number>> {
  const out = findRunningHeads(pages);
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
      if (!line || !(line.y === top || line.y === bottom || BARE.test(line.text.trim()))) continue;
      const marked = out.get(pageNumber) ?? new Set<number>();
      marked.add(i);
      out.set(pageNumber, marked);
    }
  }
  return out;
}
