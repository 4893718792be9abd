import type { ParsedPage, PdfLine } from "../types.js";
import type { Heading } from "./candidates.js";
import type { StyleSig } from "./style.js";

/** A lone letter, an alphabetical index's group head ("A", "B."). */
const LETTER_HEAD = /^\p{Lu}\.?$/u;
/** This many letter heads after a candidate, in alphabetical order, make it a group head too. */
const LETTERS_NEEDED = 3;
/** How far (points) a group head's left edge may sit from its first letter's (one column), or its baseline (columns side by side). */
const ALIGN_TOLERANCE = 3;
/** Pages after the candidate's own searched for them (an index groups a page or two apart). */
const PAGES_AHEAD = 2;

/** Set as the heading is, case aside (a lone capital reads as caps, "Symbols" does not). */
const sameLook = (line: PdfLine, style: StyleSig): boolean =>
  Math.abs(line.size - style.size) < 0.9 && line.bold === style.bold && line.italic === style.italic;

/**
 * Whether the next {@link LETTERS_NEEDED} lines set in the heading's look are lone letters in
 * alphabetical order, the first in the heading's column or level with it atop the next: then the heading opens an index's groups
 * ("Symbols" over "A", "B", "C") and is no section. The index's own title, set as its letters are
 * but centred or apart, stays. The letters themselves never become candidates (too few letters to read as a
 * title), so their group's first head is the one the rule has to catch.
 */
function opensLetterGroups(h: Heading, pages: readonly ParsedPage[]): boolean {
  const letters: number[] = [];
  const head = (pages[h.page - 1] as ParsedPage).lines[h.line];
  if (!head) return false;
  const aligned = (line: PdfLine): boolean =>
    Math.abs(line.x - head.x) <= ALIGN_TOLERANCE || Math.abs(line.y - head.y) <= ALIGN_TOLERANCE;
  // Heading pages are 1-based.
  const last = Math.min(pages.length, h.page + PAGES_AHEAD);
  for (let p = h.page; p <= last; p++) {
    const lines = (pages[p - 1] as ParsedPage).lines;
    for (let i = p === h.page ? (h.endLine ?? h.line) + 1 : 0; i < lines.length; i++) {
      const line = lines[i];
      if (!line || !sameLook(line, h.style)) continue;
      const text = line.text.trim();
      if (!LETTER_HEAD.test(text)) return false;
      const code = text.charCodeAt(0);
      if (letters.length === 0 ? !aligned(line) : code <= (letters[letters.length - 1] as number))
        return false;
      letters.push(code);
      if (letters.length >= LETTERS_NEEDED) return true;
    }
  }
  return false;
}

/**
 * Drops an index's first group head: an unnumbered candidate followed, in its own look, by lone
 * letters in alphabetical order ("Symbols", "Numerics" over "A", "B", "C"). Linear in the lines
 * read ahead of each candidate, which stop at the first line of the candidate's look.
 */
export function dropIndexGroupHeads(headings: readonly Heading[], pages: readonly ParsedPage[]): Heading[] {
  return headings.filter((h) => h.numbering !== undefined || !opensLetterGroups(h, pages));
}
