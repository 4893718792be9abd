import type { SectionEntry } from "../types.js";

/** Whether layout headings are structure enough to skip the model, and why not. */
export interface LayoutVerdict {
  ok: boolean;
  /** Why the layout falls short (undefined when it is enough). */
  shortfall?: string;
}

/** At least one section start per this many pages on average. */
const PAGES_PER_HEADING = 20;
/** Longest run of pages without a section start: this many pages, or a third of the document if larger. */
const MAX_GAP_PAGES = 10;

function startPages(entries: readonly SectionEntry[], out: number[] = []): number[] {
  for (const e of entries) {
    out.push(e.page);
    startPages(e.children, out);
  }
  return out;
}

/**
 * Judges layout headings when a model could do better: two headings on page 1 of a 300-page
 * file are not a structure. Enough means at least two headings, one section start per 20
 * pages on average, and no stretch longer than max(10 pages, a third of the document) (front
 * matter and the tail after the last heading included) where no section starts.
 */
export function judgeLayout(entries: readonly SectionEntry[], pageCount: number): LayoutVerdict {
  const starts = [...new Set(startPages(entries))].sort((a, b) => a - b);
  if (starts.length < 2) return { ok: false, shortfall: `${starts.length} section start(s)` };
  if (starts.length * PAGES_PER_HEADING < pageCount) {
    return {
      ok: false,
      shortfall: `sections start on ${starts.length} pages of ${pageCount}, fewer than one per ${PAGES_PER_HEADING}`,
    };
  }
  const bounds = [0, ...starts, pageCount + 1];
  let gap = 0;
  let from = 1;
  for (let i = 1; i < bounds.length; i++) {
    const run = (bounds[i] as number) - (bounds[i - 1] as number) - 1;
    if (run > gap) {
      gap = run;
      from = (bounds[i - 1] as number) + 1;
    }
  }
  const limit = Math.max(MAX_GAP_PAGES, Math.ceil(pageCount / 3));
  if (gap > limit) {
    return { ok: false, shortfall: `no section starts on pages ${from}–${from + gap - 1} (${gap} pages)` };
  }
  return { ok: true };
}
