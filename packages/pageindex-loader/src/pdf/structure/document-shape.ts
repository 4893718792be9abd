import type { Furniture } from "../text/running-heads.js";
import type { ParsedPage, PdfLine } from "../types.js";
import type { Heading } from "./candidates.js";
import { normalizeTitle } from "./titles.js";

/** A title page holds at most this many lines (title, subtitle, authors, edition, publisher). */
const TITLE_PAGE_LINES = 25;
/** Documents shorter than this have no title page of their own (a memo, a paper's first page). */
const MIN_PAGES = 5;
/** A body-size line this long is running prose. */
const PROSE_WORDS = 10;
/** A paragraph has at least this many such lines. */
const PROSE_LINES = 2;
/** Most lines of the document title taken from the title page. */
const TITLE_LINES = 3;

/** The title page's title and the heading candidates that were only title-page lines. */
export interface TitlePage {
  title?: string;
  headings: Heading[];
}

/**
 * A sparse first page of a longer document, without prose or numbered headings, is its title page: its lines (title, subtitle,
 * authors, edition) are not sections, and its largest text is the document's title (a
 * description, not a root node over everything). Candidates the printed TOC placed there stay.
 */
export function takeTitlePage(
  pages: readonly ParsedPage[],
  headings: readonly Heading[],
  furniture: Furniture,
  bodySize: number,
): TitlePage {
  const first = pages[0];
  if (!first || pages.length < MIN_PAGES) return { headings: [...headings] };
  const skip = furniture.get(1);
  const lines = first.lines.filter((_, i) => !skip?.has(i));
  if (lines.length === 0 || lines.length > TITLE_PAGE_LINES) return { headings: [...headings] };
  // A page with running prose (a paragraph: two long body lines; one is an address or a
  // publisher's line) or with numbered headings is content, not a title page.
  const prose =
    lines.filter((l) => Math.abs(l.size - bodySize) < 0.5 && l.text.split(/\s+/).length >= PROSE_WORDS)
      .length >= PROSE_LINES;
  if (prose || headings.some((h) => h.page === 1 && h.numbering)) return { headings: [...headings] };
  const biggest = Math.max(...lines.map((l) => l.size));
  const titleLines: PdfLine[] = [];
  for (const l of lines) {
    if (Math.abs(l.size - biggest) < 0.5 && titleLines.length < TITLE_LINES) titleLines.push(l);
    else if (titleLines.length > 0) break;
  }
  const title = titleLines
    .map((l) => l.text.replace(/\t/g, " ").trim())
    .join(" ")
    .trim();
  return {
    ...(title ? { title } : {}),
    headings: headings.filter((h) => h.page !== 1 || h.tocLevel !== undefined),
  };
}

/** "Chapter 3", "PART II", "Appendix B" and nothing else. */
const BARE_KEYWORD_LABEL = /^(?:chapter|part|appendix|book|section)\s+(?:[0-9]{1,3}|[IVXLC]{1,6}|[A-Z])\.?$/i;
/** The heading a bare label introduces starts within this many lines of it. */
const LABEL_REACH = 4;

/**
 * A bare "Chapter 3" line set over the chapter's title is a label, not a section of its own: it
 * is dropped and its numbering passes to the title it introduces (so the keyword's tier still
 * ranks it), unless that title is numbered itself.
 */
export function foldChapterLabels(headings: readonly Heading[]): Heading[] {
  const list = [...headings];
  const out: Heading[] = [];
  for (let k = 0; k < list.length; k++) {
    const h = list[k] as Heading;
    const next = list[k + 1];
    const label = BARE_KEYWORD_LABEL.test(h.title.trim()) && h.tocLevel === undefined;
    // "PART I" over "Item 1." is a group of its own; "Chapter 1" over "Overview" or "1 Overview" is not.
    const sameNumber =
      !next?.numbering || next.numbering.value.toUpperCase() === h.numbering?.value.toUpperCase();
    if (
      label &&
      sameNumber &&
      next &&
      next.page === h.page &&
      next.line > h.line &&
      next.line - (h.endLine ?? h.line) <= LABEL_REACH
    ) {
      if (!next.numbering && h.numbering) list[k + 1] = { ...next, numbering: h.numbering };
      continue;
    }
    out.push(h);
  }
  return out;
}

/** A title seen this many times is a repeated label of entries ("Arguments", "Returns", "Examples"). */
const REPEATS = 4;

/**
 * Marks unnumbered headings whose title recurs across the document as labels: they stay under
 * the entry they belong to and never rise to the top levels.
 */
export function markRepeatedLabels(headings: readonly Heading[]): Heading[] {
  const counts = new Map<string, number>();
  for (const h of headings) {
    const key = normalizeTitle(h.title);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return headings.map((h) =>
    !h.numbering && h.tocLevel === undefined && (counts.get(normalizeTitle(h.title)) ?? 0) >= REPEATS
      ? { ...h, label: true }
      : h,
  );
}
