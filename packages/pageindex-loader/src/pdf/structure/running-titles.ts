import type { ParsedPage, PdfLine } from "../types.js";
import type { Heading, HeadLevel } from "./candidates.js";
import { compareStyle } from "./style.js";
import { compactTitle } from "./titles.js";

/** Parts of a head this long or longer are titles, not folios or dates. */
const MIN_TITLE = 3;

/** The topmost line of a page, when it is a head of two or more tab-separated parts set no larger than the body. */
function headParts(page: ParsedPage, bodySize: number): { line: number; parts: string[] } | undefined {
  let top: { line: number; at: PdfLine } | undefined;
  page.lines.forEach((at, line) => {
    if (!top || at.y > top.at.y) top = { line, at };
  });
  if (!top || top.at.size > bodySize + 0.5) return undefined;
  const parts = top.at.text.split("\t").map((p) => compactTitle(p));
  if (parts.length < 2) return undefined;
  return { line: top.line, parts: parts.filter((p) => p.length >= MIN_TITLE) };
}

/** A head part on this share of the pages or more is the document's own name, not a section's. */
const CONSTANT_SHARE = 0.5;
/** Fewest pages whose heads must repeat the name. */
const MIN_NAMING_PAGES = 3;

/**
 * The document's title set as its first heading, when the running heads repeat it on half the
 * pages or more ("XTerm Control Sequences ⇥ VT100 Mode"): a title, not a section over the rest.
 * The pages counted are those after the next heading as prominent as it, if any: a first chapter
 * the heads name is no longer named once the second chapter opens.
 */
export function headTitle(
  pages: readonly ParsedPage[],
  headings: readonly Heading[],
  bodySize: number,
): Heading | undefined {
  const first = headings[0];
  if (!first) return undefined;
  const title = compactTitle(first.title);
  const peer = headings.slice(1).find((h) => compareStyle(h.style, first.style) <= 0);
  const after = pages.filter((p) => p.pageNumber > (peer ?? first).page);
  const times = after.filter((p) => headParts(p, bodySize)?.parts.includes(title)).length;
  return times >= MIN_NAMING_PAGES && times >= after.length * CONSTANT_SHARE ? first : undefined;
}

/**
 * Each heading a running head settles, as {@link HeadLevel}; empty unless heads name two
 * headings or more, and one or more headings fall inside a named one.
 */
export function headLevels(
  pages: readonly ParsedPage[],
  headings: readonly Heading[],
  bodySize: number,
): Map<Heading, HeadLevel> {
  const out = new Map<Heading, HeadLevel>();
  const titles = headings.map((h) => compactTitle(h.title));
  const own = new Set(headings.map((h) => `${h.page}:${h.line}`));
  // Per page with a naming head: the index of the last heading before the page carrying that name.
  const namedAt: { page: number; heading: number }[] = [];
  let before = 0;
  for (const page of pages) {
    while (before < headings.length && (headings[before] as Heading).page < page.pageNumber) before++;
    const head = headParts(page, bodySize);
    if (!head || own.has(`${page.pageNumber}:${head.line}`)) continue;
    for (let i = before - 1; i >= 0; i--) {
      if (head.parts.includes(titles[i] as string)) {
        namedAt.push({ page: page.pageNumber, heading: i });
        break;
      }
    }
  }
  const named = new Set(namedAt.map((n) => n.heading));
  if (named.size < 2) return out;
  for (const { page, heading } of namedAt) {
    for (let i = heading + 1; i < headings.length && (headings[i] as Heading).page < page; i++) {
      if (!named.has(i)) out.set(headings[i] as Heading, "inside");
    }
  }
  if (out.size === 0) return out;
  for (const i of named) out.set(headings[i] as Heading, "named");
  return out;
}
