import type { Heading } from "./candidates.js";
import { compareStyle } from "./style.js";

/** A dotted number's depth and value, when the heading has one. */
const dotted = (h: Heading): { depth: number; value: string } | undefined =>
  h.numbering?.kind === "dotted" && h.numbering.depth !== undefined
    ? { depth: h.numbering.depth, value: h.numbering.value }
    : undefined;

/**
 * The kept headings, with each candidate the heading model dropped put back when the first kept
 * heading numbered inside its number comes next ("2.1" after "2.", before any other number of
 * "2."'s depth or above) and it is set above that heading (larger, or as large and bolder): its
 * sections' numbers name it as their parent. Without it a manual whose chapters the model doubts
 * (PMW's, SDoP's and xfpt's "1. Introduction" at 16 pt over "1.1" at 13 pt; PARI's "1 Work in
 * progress") has its sections at the top. In document order.
 */
export function keepNumberedParents(candidates: readonly Heading[], kept: readonly Heading[]): Heading[] {
  const keptSet = new Set(kept);
  const restored = new Set<Heading>();
  candidates.forEach((h, i) => {
    const own = dotted(h);
    if (!own || keptSet.has(h)) return;
    for (let j = i + 1; j < candidates.length; j++) {
      const next = candidates[j] as Heading;
      const n = dotted(next);
      if (!n) continue;
      if (n.depth <= own.depth) return;
      if (!keptSet.has(next)) continue;
      // The first kept heading numbered below it decides; one a printed contents placed is left
      // to the contents, which lists its parent where it has one (Normaliz's "3. The input file"
      // in a list on page 60 is not chapter 3).
      if (next.tocLevel !== undefined) return;
      if (
        n.depth === own.depth + 1 &&
        n.value.startsWith(`${own.value}.`) &&
        compareStyle(h.style, next.style) < 0
      )
        restored.add(h);
      return;
    }
  });
  if (restored.size === 0) return [...kept];
  const out = candidates.filter((h) => keptSet.has(h) || restored.has(h));
  // The model keeps candidates as they are; were one copied, the kept list stands unchanged.
  return out.length === kept.length + restored.size ? out : [...kept];
}
