import type { OutlineEntry, SectionEntry } from "../types.js";
import { cleanTitle } from "./titles.js";

/** The outline turned into entries, and whether it is good enough to be the structure. */
export interface OutlineResult {
  entries: SectionEntry[];
  usable: boolean;
  /** Why it is not usable. */
  reason?: string;
  /** Bookmarks in the outline. */
  total: number;
  /** Bookmarks dropped: no destination in the document, or no title. */
  dropped: number;
}

/** Share of bookmarks that may point nowhere before the whole outline is distrusted. */
const MAX_UNRESOLVED = 0.25;

/**
 * Converts the bookmarks to entries: titles cleaned, entries without a title or without a
 * destination inside the document dropped (their children move up). The outline is not
 * usable when it is too thin (fewer than two entries on two distinct pages) or when more
 * than a quarter of it points outside the document.
 */
export function outlineStructure(outline: OutlineEntry[]): OutlineResult {
  let total = 0;
  let dropped = 0;
  const pages = new Set<number>();
  const convert = (items: OutlineEntry[]): SectionEntry[] => {
    const out: SectionEntry[] = [];
    for (const item of items) {
      total++;
      const children = convert(item.children);
      const title = cleanTitle(item.title);
      if (item.page === undefined || !title) {
        dropped++;
        out.push(...children);
        continue;
      }
      pages.add(item.page);
      const entry: SectionEntry = { title, page: item.page, children };
      if (item.y !== undefined) entry.y = item.y;
      out.push(entry);
    }
    return out;
  };
  const entries = convert(outline);
  const result: OutlineResult = { entries, usable: true, total, dropped };
  if (total === 0) return { ...result, usable: false, reason: "the PDF has no outline" };
  if (dropped > total * MAX_UNRESOLVED) {
    return {
      ...result,
      usable: false,
      reason: `${dropped} of ${total} bookmarks point outside the document or have no title`,
    };
  }
  if (total - dropped < 2 || pages.size < 2) {
    return {
      ...result,
      usable: false,
      reason: `the outline is too thin (${total - dropped} bookmark(s) on ${pages.size} page(s))`,
    };
  }
  return result;
}
