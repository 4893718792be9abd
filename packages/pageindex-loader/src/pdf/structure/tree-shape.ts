import type { SectionEntry } from "../types.js";
import { parseNumbering } from "./numbering.js";
import { ALL_RULES_ON, type RulesOff } from "./shape-rules.js";

/** A lone top node holds the document when it has at least this many children. */
const MIN_WRAPPED = 2;
/**
 * A document this long whose every heading sits under one is a manual under its title; a shorter
 * one (a paper, a memo, a filing's notes) keeps its first heading over the rest.
 */
export const MIN_MANUAL_PAGES = 10;

/**
 * A shape no section hierarchy has, whatever made the PDF, undone after nesting: in a document of
 * {@link MIN_MANUAL_PAGES} pages or more, a single unnumbered top node over everything else is the
 * document's title set as a heading (a title on a page with text, or after a cover page; the
 * title-page rule misses both): its children are the top level. The tree's root is the document
 * already. (Under producer-grouped CV on train it raised Word, LibreOffice, htmldoc and mPDF
 * trees and lowered none: scripts/ablate-shape-rules.ts.)
 *
 * The order of the nodes (and so each section's text) is unchanged; only depths change. Returns
 * the new top level and the title that was unwrapped, if any. `off` switches the rule off
 * ("loneTitle": shape-rules.ts) for its measurement.
 */
export function undoWrappers(
  entries: readonly SectionEntry[],
  pageCount: number,
  off: RulesOff = ALL_RULES_ON,
): { entries: SectionEntry[]; title?: string } {
  const only = entries[0];
  if (
    !off.has("loneTitle") &&
    pageCount >= MIN_MANUAL_PAGES &&
    entries.length === 1 &&
    only &&
    only.children.length >= MIN_WRAPPED &&
    !parseNumbering(only.title)
  ) {
    return { entries: only.children, title: only.title };
  }
  return { entries: [...entries] };
}
