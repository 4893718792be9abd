import type { Heading } from "./candidates.js";

/** Fewer numbered lines than this are not a run worth reading as one (a stray "1." list item). */
const MIN_RUN = 3;

/** The leading integer of a plain number ("0", "17"); undefined for "2.1" or letters. */
const plainValue = (h: Heading): number | undefined =>
  h.numbering?.kind === "dotted" && h.numbering.depth === 1 && /^\d+$/.test(h.numbering.value)
    ? Number(h.numbering.value)
    : undefined;

/**
 * Sets aside the numbered runs that start afresh after the printed contents' own numbered series
 * has ended, none of them listed there: a licence appendix's clauses ("0. Definitions." …
 * "17. Interpretation …", "0. PREAMBLE" … "11. RELICENSING") set as the chapters or sections are.
 * The contents lists every numbered heading of its levels (chapters 1–5, sections 1.1 …), so a
 * second count of that numbering, from 0 or 1 again, past its last listed member, that the
 * contents does not list is the body of the entry it sits in, not chapters beside it; so are that
 * entry's other unlisted heads up to the next listed heading (the GPL's "Preamble" and "How to
 * Apply These Terms", set as its chapters are: the contents shows none of the entry's inside). A run
 * before the listed series (a preface's sections 1–4) is left to the nesting rules; so is every
 * heading when the contents placed none of the run's numbering.
 */
export function dropRestartedRuns(headings: readonly Heading[]): Heading[] {
  // Where the contents' listed plain numbers (chapters 1, 2 …) end, and how far it counted.
  let lastListed = -1;
  let highest = -1;
  headings.forEach((h, i) => {
    const v = plainValue(h);
    if (h.tocLevel === undefined || v === undefined) return;
    lastListed = i;
    highest = Math.max(highest, v);
  });
  if (lastListed < 0) return [...headings];
  const drop = new Set<number>();
  let i = lastListed + 1;
  while (i < headings.length) {
    const start = plainValue(headings[i] as Heading);
    if (headings[i]?.tocLevel !== undefined || start === undefined || start > 1 || start >= highest) {
      i++;
      continue;
    }
    // The run: unlisted plain numbers of one look counting on by one (other headings may sit between).
    const first = headings[i] as Heading;
    const run = [i];
    let next = start + 1;
    for (let j = i + 1; j < headings.length; j++) {
      const h = headings[j] as Heading;
      if (h.tocLevel !== undefined) break;
      const v = plainValue(h);
      if (v === undefined) continue;
      if (v !== next || h.style.size !== first.style.size || h.style.bold !== first.style.bold) break;
      run.push(j);
      next++;
    }
    const end = run.at(-1) as number;
    if (run.length >= MIN_RUN) {
      // The entry it sits in is body text throughout: its other unlisted heads ("Preamble",
      // "How to Apply These Terms") up to the next listed heading go with the clauses.
      let from = i;
      while (from > 0 && headings[from - 1]?.tocLevel === undefined) from--;
      let to = end + 1;
      while (to < headings.length && headings[to]?.tocLevel === undefined) to++;
      for (let k = from; k < to; k++) drop.add(k);
    }
    i = end + 1;
  }
  return headings.filter((_, k) => !drop.has(k));
}
