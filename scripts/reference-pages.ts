/**
 * Where a dev-set outline is off by a page (issue 26): a bookmark whose destination page does not
 * print its title as a heading, while exactly one neighbouring page does, points at the wrong
 * page — the layout is right to find the heading where it is printed. The reference entry moves
 * to that page. One rule for every producer, decided on what the pages print (the starts
 * evaluation's test of a printed heading, section-starts-score.ts), never on the layout's scores;
 * a title printed on neither neighbour, or on both, stays where the outline put it. An outline
 * whose titles are mostly printed nowhere in the document (file names such as
 * "SLIP_LU_UserGuide-1.cpt") is no reference at all: no tree built from the pages can match it.
 */

import {
  type Furniture,
  textFurniture,
  withEdgeBands,
} from "../packages/pageindex-loader/src/pdf/text/running-heads.js";
import type { ParsedPage } from "../packages/pageindex-loader/src/pdf/types.js";
import { printedOn } from "./section-starts-score.js";
import type { Entry } from "./structure-match.js";

/** Reference entries on the pages that print their titles, and how many moved. */
export interface PrintedReference {
  entries: Entry[];
  moved: number;
  /** Entries whose title no page prints as a heading. */
  unprinted: number;
}

/** Most of an outline's titles are printed nowhere: it cannot serve as a reference. */
export const noReference = (r: PrintedReference): boolean => r.unprinted > r.entries.length / 2;

/** The furniture the starts evaluation skips: running heads, page numbers, the edge bands. */
export function printedFurniture(
  pages: readonly ParsedPage[],
  runningHeads: Furniture,
  layoutFurniture: Furniture,
): Furniture {
  return textFurniture(pages, runningHeads, withEdgeBands(pages, layoutFurniture));
}

/** Each entry whose own page does not print its title moved to the one neighbour that does. */
export function onPrintedPages(
  reference: readonly Entry[],
  pages: readonly ParsedPage[],
  furniture: Furniture,
): PrintedReference {
  const prints = (page: number, title: string): boolean =>
    printedOn(pages[page - 1], furniture.get(page), title);
  let moved = 0;
  let unprinted = 0;
  const entries = reference.map((e) => {
    if (prints(e.page, e.title)) return e;
    const near = [e.page + 1, e.page - 1].filter((p) => prints(p, e.title));
    if (near.length !== 1) {
      if (!pages.some((p) => prints(p.pageNumber, e.title))) unprinted++;
      return e;
    }
    moved++;
    return { ...e, page: near[0] as number };
  });
  return { entries, moved, unprinted };
}
