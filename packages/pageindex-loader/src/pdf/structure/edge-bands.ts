import type { ParsedPage, PdfLine } from "../types.js";
import type { Furniture } from "./sections.js";

/** Share of text pages whose edge line must stand at one place for that place to be a band. */
const BAND_SHARE = 0.3;
/** A band line stands apart from the body: the gap to the next line is at least this many of its sizes. */
const APART = 1.8;

/** The page's top or bottom line and the gap between it and the line next to it. */
function edgeLine(page: ParsedPage, side: "top" | "bottom"): { i: number; gap: number } | undefined {
  const order = page.lines.map((l, i) => ({ y: l.y, i })).sort((a, b) => b.y - a.y);
  if (order.length < 2) return undefined;
  const [edge, next] =
    side === "top" ? [order[0], order[1]] : [order[order.length - 1], order[order.length - 2]];
  if (!edge || !next) return undefined;
  return { i: edge.i, gap: Math.abs(edge.y - next.y) };
}

const bandKey = (line: PdfLine): string => `${Math.round(line.y)}:${Math.round(line.size * 2)}`;

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
      const edge = edgeLine(page, side);
      const line = edge && (page.lines[edge.i] as PdfLine);
      const key = line && edge.gap >= APART * line.size ? bandKey(line) : undefined;
      if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
      return { page, edge, key };
    });
    const need = Math.max(3, withText.length * BAND_SHARE);
    for (const { page, edge, key } of edges) {
      if (!edge || !key || (counts.get(key) ?? 0) < need) continue;
      const set = out.get(page.pageNumber) ?? new Set<number>();
      set.add(edge.i);
      out.set(page.pageNumber, set);
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
