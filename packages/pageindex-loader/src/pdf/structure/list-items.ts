import type { PdfLine } from "../types.js";
import { letterOrdinal, type Numbering, parseNumbering, romanOrdinal } from "./numbering.js";

/**
 * How many lines either side of a numbered line its series' neighbours are looked for: a list
 * item wrapped over two or three lines, or a sub-list under it, still has the next item this near.
 */
const LIST_REACH = 4;

/** A bare line number ("13" alone on an empty listing line), which parseNumbering reads as no numbering. */
const BARE_NUMBER = /^(\d{1,4})[.)]?$/;

/** Where a numbering sits in its series: the series (kind and prefix, "2.3" → "dotted:2") and the position (3). */
function seriesOf(n: Numbering): { series: string; at: number } | undefined {
  if (n.kind === "keyword") return undefined;
  if (n.kind === "roman") return { series: "roman", at: romanOrdinal(n.value) };
  if (n.kind === "alpha" || n.kind === "alpha-lower") return { series: n.kind, at: letterOrdinal(n.value) };
  const parts = n.value.split(".");
  const last = Number(parts.pop());
  if (!Number.isInteger(last)) return undefined;
  return { series: `${n.kind}:${parts.join(".")}`, at: last };
}

function lineSeries(line: PdfLine): { series: string; at: number } | undefined {
  const text = line.text.trim();
  const n = parseNumbering(text);
  if (n) return seriesOf(n);
  const bare = BARE_NUMBER.exec(text);
  return bare ? { series: "dotted:", at: Number(bare[1]) } : undefined;
}

/**
 * Whether the numbered line at `first`..`last` of a page is an item of a list or a listing's line
 * number rather than a heading: a line of the same series opens within a few lines before or
 * after it, every line up to it set at this one's size and weight, numbered on by no more than
 * the lines between ("1." to "6." of an enumeration on consecutive lines; "12 cd .." in a
 * numbered listing whose lines 11 and 13 are empty). Headings of one series are set apart by
 * their sections' text, so their numbers go on far more slowly than the lines do, and a section's
 * text set apart from them lies between. Keyword numbering ("Chapter 2") never counts.
 */
export function inNumberedRun(
  lines: readonly PdfLine[],
  first: number,
  last: number,
  numbering: Numbering,
): boolean {
  const own = seriesOf(numbering);
  const line = lines[first];
  if (!own || !line) return false;
  const setLike = (k: number) => {
    const other = lines[k];
    return other !== undefined && Math.abs(other.size - line.size) <= 0.5 && other.bold === line.bold;
  };
  const steps = (k: number, distance: number, sign: 1 | -1): boolean => {
    const other = lines[k];
    const s = other && lineSeries(other);
    if (!s || s.series !== own.series) return false;
    const step = (s.at - own.at) * sign;
    return step >= 1 && step <= distance;
  };
  // Each side: the nearest line of the series within reach, every line up to it set like this one.
  for (const sign of [-1, 1] as const) {
    for (let d = 1; d <= LIST_REACH; d++) {
      const k = sign < 0 ? first - d : last + d;
      if (k < 0 || k >= lines.length || !setLike(k)) break;
      if (steps(k, d, sign)) return true;
    }
  }
  return false;
}
