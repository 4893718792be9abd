import type { Heading } from "./candidates.js";
import { compactTitle } from "./titles.js";

/** The front matter a title is repeated in: the title page and the pages just after it. */
const FRONT_PAGES = 3;

/**
 * Sets aside the document's title printed again after its title page (a DocBook book's verso
 * page, "massXpert User Manual: Modelling and …" under the title page's "massXpert User Manual")
 * and before the first heading the printed contents lists: the title again, not a section.
 */
export function dropTitleAgain(headings: readonly Heading[], title: string | undefined): Heading[] {
  const key = title ? compactTitle(title) : "";
  // A one-word title ("Introduction") could open a real section: only a title of some length.
  if (key.length < 12) return [...headings];
  const firstListed = headings.find((h) => h.tocLevel !== undefined)?.page ?? Number.POSITIVE_INFINITY;
  return headings.filter(
    (h) =>
      !(
        h.tocLevel === undefined &&
        h.page <= FRONT_PAGES &&
        h.page < firstListed &&
        compactTitle(h.title).startsWith(key)
      ),
  );
}
