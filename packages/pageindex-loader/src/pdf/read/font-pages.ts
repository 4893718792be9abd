/** What {@link fontPages} knows of a page: the fonts its text uses and how much text it draws. */
export interface FontUse {
  fontIds: readonly string[];
  /** Text items on the page: building its operator list costs about this much more than an empty page's. */
  items: number;
}

/**
 * The fixed cost of one operator list, in text items: a page, its resources and a round trip
 * to pdf.js's worker are paid however little the page draws.
 */
const PAGE_COST = 20;

/**
 * The pages whose operator lists name every font the document's text uses, chosen to cost
 * little: a font's name is the same on every page, so it is learnt on the lightest page that
 * draws it, not on the first one. Greedy weighted set cover (each step takes the page with the
 * lowest cost per font still unnamed; ties to the earlier page), within a factor ln(fonts) of
 * the cheapest choice. Returns page indexes in reading order.
 */
export function fontPages(pages: readonly (FontUse | undefined)[]): number[] {
  const pagesOf = new Map<string, number[]>();
  const unnamed: number[] = pages.map((page, i) => {
    const ids = new Set(page?.fontIds);
    for (const id of ids) {
      const list = pagesOf.get(id);
      if (list) list.push(i);
      else pagesOf.set(id, [i]);
    }
    return ids.size;
  });
  const named = new Set<string>();
  const chosen: number[] = [];
  while (named.size < pagesOf.size) {
    let best = -1;
    let bestCost = Number.POSITIVE_INFINITY;
    for (let i = 0; i < pages.length; i++) {
      const fonts = unnamed[i] as number;
      if (fonts === 0) continue;
      const cost = (PAGE_COST + (pages[i] as FontUse).items) / fonts;
      if (cost < bestCost) {
        best = i;
        bestCost = cost;
      }
    }
    chosen.push(best);
    for (const id of (pages[best] as FontUse).fontIds) {
      if (named.has(id)) continue;
      named.add(id);
      for (const i of pagesOf.get(id) ?? []) unnamed[i] = (unnamed[i] as number) - 1;
    }
  }
  return chosen.sort((a, b) => a - b);
}
