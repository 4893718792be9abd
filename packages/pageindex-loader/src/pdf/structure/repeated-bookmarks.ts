import type { ParsedPage, PdfLine, SectionEntry } from "../types.js";
import { FUNCTION_REF, headingScore } from "./heading-position.js";
import { compactTitle } from "./titles.js";

/** Similarity a line needs to read as a bookmark's title (as `locateHeading` asks). */
const MATCH = 0.8;

/**
 * Whether a bookmark repeats the heading the previous bookmark stands at: both titles read as that
 * heading, the repeat's not as the next body line, and its destination lies between the body lines above and
 * below the heading.
 * LaTeX sources that follow a `\section` with an `\addcontentsline` of the same title (bacula's
 * manuals) write two bookmarks for one heading, the second pointing just under it; located alone,
 * the second would start at the paragraph after the heading and leave the heading to an empty
 * first section.
 */
export function repeatsHeading(
  page: ParsedPage,
  previous: { title: string; line: number },
  title: string,
  y: number,
  skip: ReadonlySet<number> | undefined,
): boolean {
  // Two functions of one name ("monitor_scope/0", "monitor_scope/1") are two sections, whatever
  // line the first was placed at (a call of another arity still reads as either, a little lower).
  if (title !== previous.title && FUNCTION_REF.test(title) && FUNCTION_REF.test(previous.title)) return false;
  const lines = page.lines;
  const heading = previous.line;
  const head = lines[heading];
  // Both bookmarks read as the heading: a bookmark placed on its page's first line for want of
  // its title there ("KILL(1)", printed in the running head only) repeats nothing.
  if (
    !head ||
    headingScore(title, lines, heading) < MATCH ||
    headingScore(previous.title, lines, heading) < MATCH
  )
    return false;
  // The body lines next to the heading, above and below it (a wrapped heading's second line is
  // part of it): the destination must lie between them.
  const own = compactTitle(title);
  let above: PdfLine | undefined;
  let next = -1;
  lines.forEach((l, i) => {
    if (skip?.has(i) || i === heading) return;
    if (l.y > head.y) {
      if (!above || l.y < above.y) above = l;
    } else if (l.y < head.y && !(i === heading + 1 && continuesHeading(l, head, own))) {
      if (next < 0 || l.y > (lines[next] as PdfLine).y) next = i;
    }
  });
  if (above && y >= above.y) return false;
  if (next < 0) return true;
  // A next line reading as the title is the bookmark's own heading ("1.1 Introduction" under the
  // chapter "Introduction", "list(A) ->" under "list() ->"), whatever the destination says.
  return y > (lines[next] as PdfLine).y && headingScore(title, lines, next) < MATCH;
}

/**
 * Merges bookmarks that stand at the same heading as the bookmark before them (marked by
 * {@link repeatsHeading}) into it: one heading is one section. The repeat's children take its
 * place (under its parent when it was the first child, else under the bookmark it repeats, which
 * then has no children of its own). Returns how many were merged.
 */
export function mergeRepeatedBookmarks(entries: SectionEntry[], repeated: ReadonlySet<SectionEntry>): number {
  if (repeated.size === 0) return 0;
  let merged = 0;
  let prev: SectionEntry | undefined;
  const visit = (list: SectionEntry[]) => {
    for (let k = 0; k < list.length; k++) {
      const e = list[k] as SectionEntry;
      if (prev && repeated.has(e) && samePosition(prev, e)) {
        merged++;
        list.splice(k, 1);
        if (prev.children === list) list.splice(k, 0, ...e.children);
        else {
          // The bookmark before a repeat that is not its parent has no children (pre-order).
          const host: SectionEntry = prev;
          host.children.push(...e.children);
          visit(host.children);
        }
        k--;
        continue;
      }
      prev = e;
      visit(e.children);
    }
  };
  visit(entries);
  return merged;
}

/** A heading's wrapped remainder: set in its size, a piece of the title ("mon" of "Dae-\nmon"). */
function continuesHeading(line: PdfLine, head: PdfLine, title: string): boolean {
  const text = compactTitle(line.text);
  return Math.abs(line.maxSize - head.maxSize) < 0.5 && text.length > 0 && title.includes(text);
}

const samePosition = (a: SectionEntry, b: SectionEntry): boolean => a.page === b.page && a.line === b.line;
