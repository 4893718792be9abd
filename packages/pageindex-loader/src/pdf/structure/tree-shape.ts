import type { SectionEntry } from "../types.js";
import { parseNumbering } from "./numbering.js";
import { ALL_RULES_ON, type RulesOff } from "./shape-rules.js";

/**
 * Front-matter lists: a heading that introduces a list of entries, never a part of the text.
 * Nesting by look puts the chapters under one when it is set larger than they are (a Word
 * document's "Tables" list over its chapters).
 */
export const FRONT_LIST =
  /^(?:(?:table of )?contents|tables|figures|illustrations|examples|(?:list|index) of (?:tables|figures|illustrations|examples|listings))$/i;

/** A lone top node holds the document when it has at least this many children. */
const MIN_WRAPPED = 2;
/**
 * A document this long whose every heading sits under one is a manual under its title; a shorter
 * one (a paper, a memo, a filing's notes) keeps its first heading over the rest.
 */
const MIN_PAGES = 10;

/**
 * Shapes no section hierarchy has, whatever made the PDF, undone after nesting:
 * - a front-matter list ("Contents", "Tables", "List of Figures") holds nothing: what was nested
 *   under it follows it as its siblings;
 * - in a document of {@link MIN_PAGES} pages or more, a single unnumbered top node over
 *   everything else is the document's title set as a heading (a title on a page with text, or
 *   after a cover page; the title-page rule misses both): its children are the top level. The
 *   tree's root is the document already.
 *
 * The order of the nodes (and so each section's text) is unchanged; only depths change. Returns
 * the new top level and the title that was unwrapped, if any. `off` switches rules off
 * ("frontLists", "loneTitle": shape-rules.ts) for their measurement.
 */
export function undoWrappers(
  entries: readonly SectionEntry[],
  pageCount: number,
  off: RulesOff = ALL_RULES_ON,
): { entries: SectionEntry[]; title?: string } {
  const lifted = off.has("frontLists") ? [...entries] : liftFrontLists(entries);
  const only = lifted[0];
  if (
    !off.has("loneTitle") &&
    pageCount >= MIN_PAGES &&
    lifted.length === 1 &&
    only &&
    only.children.length >= MIN_WRAPPED &&
    !parseNumbering(only.title)
  ) {
    return { entries: only.children, title: only.title };
  }
  return { entries: lifted };
}

function liftFrontLists(list: readonly SectionEntry[]): SectionEntry[] {
  const out: SectionEntry[] = [];
  for (const e of list) {
    const children = liftFrontLists(e.children);
    if (FRONT_LIST.test(e.title.trim()) && children.length > 0) {
      out.push({ ...e, children: [] }, ...children);
    } else {
      out.push({ ...e, children });
    }
  }
  return out;
}
