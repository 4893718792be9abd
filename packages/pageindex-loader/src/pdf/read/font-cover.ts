/** A page's fonts, as its text content names them, and what its operator list is guessed to cost. */
export interface PageFonts {
  pageNumber: number;
  fontIds: readonly string[];
  /** Text items on the page: a page's operator list costs about as much as its content is long. */
  cost: number;
}

/** A page's operator list costs this much over its text items whatever its length (its setup). */
const FIXED_COST = 20;

/**
 * Pages whose operator lists together name every font in `wanted`, chosen greedily: the page
 * teaching the most wanted fonts per cost first, the earlier page on a tie. Learning a font from
 * its first page instead (one operator list per page that brings a new font) read 1.3–10× the
 * text on the dev-set manuals that this choice reads; fonts no page holds are left out.
 */
export function coverFonts(pages: readonly PageFonts[], wanted: ReadonlySet<string>): number[] {
  const left = new Set(wanted);
  const chosen: number[] = [];
  while (left.size > 0) {
    let best: PageFonts | undefined;
    let bestValue = 0;
    for (const page of pages) {
      let gain = 0;
      for (const id of page.fontIds) if (left.has(id)) gain++;
      const value = gain / (page.cost + FIXED_COST);
      if (value > bestValue) {
        best = page;
        bestValue = value;
      }
    }
    if (!best) break;
    chosen.push(best.pageNumber);
    for (const id of best.fontIds) left.delete(id);
  }
  return chosen.sort((a, b) => a - b);
}
