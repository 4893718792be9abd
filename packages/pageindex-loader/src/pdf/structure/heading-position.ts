import { continuesBrokenWord } from "../text/dehyphenate.js";
import type { ParsedPage, PdfLine } from "../types.js";
import { compactTitle, stripNumbering, titleSimilarity } from "./titles.js";

/** Similarity a line needs to be taken for a title. */
const MATCH = 0.8;
/** Below an outline destination's top, how far (points) its heading may stand and still be matched by text. */
const BELOW_TOP = 48;
/** Above an outline destination's top, how far (in the line's size) its heading may stand. */
const ABOVE_TOP = 2;
/** Similarity of a heading found above its destination's top: the title itself. */
const EXACT = 0.95;
/** Share of a title a line must hold to be its first half when the title wraps onto the next line. */
const WRAP_SHARE = 0.4;

/** Where to look for a heading on its page. */
export interface LocateOptions {
  /** The outline destination's top (PDF user space), when known. */
  y?: number;
  /** Lines that are never headings (running heads, footers, page numbers). */
  skip?: ReadonlySet<number>;
  /** Only lines after this one (a previous section's heading on the same page). */
  after?: number;
  /** The next outline destination's top on the same page: a heading below `y` stands above it. */
  until?: number;
}

/** A list item ("•<tab>Setting the iLO Username and Password", a section's list of its topics): never a heading. */
const BULLET = /^\s*[•◦▪‣●]\s/;

/** A function reference as reference manuals bookmark it: `name/arity` (Erlang, Prolog). */
export const FUNCTION_REF = /^([A-Za-z_][\w.:$-]*)\/(\d+)$/;

/**
 * The number of arguments of the call a line starts with after `name` (`name(A, B) -> …` has 2),
 * or `undefined` when the argument list does not close on the line (a call wrapped onto the next).
 */
export function callArity(line: string, name: string): number | undefined {
  const open = line.indexOf("(", line.indexOf(name) + name.length - 1);
  if (open < 0) return undefined;
  let depth = 0;
  let commas = 0;
  let empty = true;
  for (let i = open + 1; i < line.length; i++) {
    const c = line[i] as string;
    if (c === "(" || c === "[" || c === "{") depth++;
    else if (c === "]" || c === "}") depth--;
    else if (c === ")") {
      if (depth === 0) return empty ? 0 : commas + 1;
      depth--;
    } else if (c === "," && depth === 0) commas++;
    if (!/\s/.test(c)) empty = false;
  }
  return undefined;
}

/**
 * How a line that starts with a call reads as a `name/arity` bookmark: a function's heading is its
 * call, `name(…) -> …`, one with the bookmark's arity best (so it outscores a line that merely
 * names the function), never a type definition `name() = …`. Undefined for other titles and lines,
 * which are scored as any title ("HTTP/2" is still found as printed).
 */
function callScore(title: string, text: string): number | undefined {
  const ref = FUNCTION_REF.exec(title);
  if (!ref) return undefined;
  const name = ref[1] as string;
  if (!text.replace(/\s+/g, "").startsWith(`${name}(`)) return undefined;
  if (/\)\s*=/.test(text)) return 0;
  const arity = callArity(text, name);
  return arity === Number(ref[2]) ? 0.97 : arity === undefined ? 0.95 : 0.82;
}

/**
 * A line that calls the title — `as.function(x, ...)` under the topic "as.function" — is a usage
 * line, never its heading: the call-line reading is for `name/arity` bookmarks only (and for
 * titles that are calls themselves, "foo()").
 */
function callsTitle(title: string, text: string): boolean {
  if (/[()]/.test(title)) return false;
  const name = title.replace(/\s+/g, "");
  return name.length > 0 && text.replace(/\s+/g, "").startsWith(`${name}(`);
}

/** Score of a heading read from its line's first run, when something stands far to its right. */
const FIRST_RUN = 0.9;

/**
 * How well a line reads as the title, 0..1: with and without numbering on either side ("1.2 SASL
 * Error Logging" for "SASL Error Logging"), across a wrap onto the next line, and from the
 * line's first run when the heading has something set far to its right (a reference manual's
 * "as.function<tab>Convert Object to Function"), a little below the title alone.
 */
export function headingScore(title: string, lines: readonly PdfLine[], i: number): number {
  const text = (lines[i] as PdfLine).text;
  if (BULLET.test(text)) return 0;
  const call = callScore(title, text);
  if (call !== undefined) return call;
  if (callsTitle(title, text)) return 0;
  const bare = stripNumbering(title);
  const alike = (t: string) => Math.max(titleSimilarity(title, t), titleSimilarity(bare, stripNumbering(t)));
  let score = alike(text);
  const tab = text.indexOf("\t");
  if (score < FIRST_RUN && tab > 0) score = Math.max(score, Math.min(FIRST_RUN, alike(text.slice(0, tab))));
  const next = lines[i + 1];
  if (score < MATCH && next) {
    const here = compactTitle(stripNumbering(text));
    const joined = compactTitle(stripNumbering(`${text} ${next.text}`));
    for (const t of [compactTitle(title), compactTitle(bare)]) {
      if (t.length > 0 && here.length >= t.length * WRAP_SHARE && t.startsWith(here) && joined.startsWith(t))
        score = Math.max(score, 0.85);
    }
  }
  return score;
}

/** Whether a line stands where a heading at a destination's top `y` may: just below it. */
const belowTop = (line: PdfLine, y: number): boolean =>
  line.y <= y + line.maxSize * 0.5 && line.y >= y - BELOW_TOP;

/** Top of the page's text: the highest line's top (baseline plus its size). */
function textTop(lines: readonly PdfLine[], skip: ReadonlySet<number> | undefined): number {
  let top = Number.NEGATIVE_INFINITY;
  lines.forEach((l, i) => {
    if (!skip?.has(i)) top = Math.max(top, l.y + l.maxSize);
  });
  return top;
}

/** The highest line that is not skipped (-1 when there is none). */
function topLine(lines: readonly PdfLine[], skip: ReadonlySet<number> | undefined): number {
  return lineBelow(lines, Number.POSITIVE_INFINITY, skip);
}

/**
 * Whether an outline destination's top `y` names its page rather than a line on it: it lies
 * above the page's text, or the first line below it is the page's first body line.
 */
export function destinationAtPageTop(page: ParsedPage, y: number, skip?: ReadonlySet<number>): boolean {
  const first = lineBelow(page.lines, y, skip);
  return y >= textTop(page.lines, skip) - 1 || first < 0 || first === topLine(page.lines, skip);
}

/** The highest line (not skipped) whose baseline is at or below `y`: where a destination's top lands. */
function lineBelow(lines: readonly PdfLine[], y: number, skip: ReadonlySet<number> | undefined): number {
  let pick = -1;
  let pickY = Number.NEGATIVE_INFINITY;
  lines.forEach((line, i) => {
    if (!skip?.has(i) && line.y <= y + 1 && line.y > pickY) {
      pick = i;
      pickY = line.y;
    }
  });
  return pick;
}

/**
 * The line where the word `line` starts with begins: `line` itself, or, when it continues a word
 * broken by a hyphen at the end of the body line before it (a destination pointing into a
 * paragraph, as an index anchor set after a hyphenated word does), that earlier line. A section
 * cut there would leave "exam-" at the end of one text and "ples" at the start of the next.
 */
function wordStart(lines: readonly PdfLine[], line: number, skip: ReadonlySet<number> | undefined): number {
  let start = line;
  for (let i = line - 1; i >= 0; i--) {
    if (skip?.has(i)) continue;
    if (!continuesBrokenWord((lines[i] as PdfLine).text, (lines[start] as PdfLine).text)) break;
    start = i;
  }
  return start;
}

/**
 * The line where a section's heading stands on its page, or undefined when nothing there reads
 * as its title. With an outline destination's top that lies within the page's text, the
 * destination decides: the line matching the title just below that top (a running head or a
 * mention elsewhere on the page cannot win), else the first line below it, moved up to the start
 * of a word broken onto it (a section never starts mid-word). A destination among lines taken
 * for furniture takes the matching one just below it; one that names its page, for a title only
 * the running head prints, starts at the page's top. Without one (a model's section, a
 * destination at the page top), the best match outside running heads, the first of equals, after
 * `after` when a previous section stands on the same page.
 */
export function locateHeading(
  page: ParsedPage,
  title: string,
  options: LocateOptions = {},
): number | undefined {
  const { y, skip, after = -1 } = options;
  const lines = page.lines;
  if (y !== undefined && y < textTop(lines, skip) - 1) {
    const best = nearDestination(page, title, y, options);
    if (best !== undefined) return best;
    // Nothing near the destination reads as the title, but the page prints it elsewhere. The
    // destination still bounds where: the heading is taken above it (an anchor set after its
    // heading: a LaTeX heading wrapped or restyled, an "INDEX" title over its columns, old
    // pdfTeX's Texinfo anchors at the page's foot), never from a mention below it, unless the
    // destination is the page's first line (it names the page, as a title page's bookmark does).
    const atTop = destinationAtPageTop(page, y, skip);
    if (atTop && after < 0 && onlyRunningHeadNames(lines, title, skip)) return pageTop(lines, title, skip);
    const printed = bestMatch(
      lines,
      title,
      after,
      (i) => !skip?.has(i) && (atTop || (lines[i] as PdfLine).y > y),
    );
    if (printed !== undefined) return printed;
    const first = lineBelow(lines, y, skip);
    const below = first >= 0 ? belowWindow(lines, title, y, first, options) : undefined;
    if (below !== undefined) return below;
    if (first >= 0) return wordStart(lines, first, skip);
  }
  if (y !== undefined && skip && y < textTop(lines, undefined) - 1) {
    // The destination lies among lines taken for furniture: headings repeated at page tops (a
    // changelog's "8.12.1 Highlights" under each release) are read as running heads. The
    // heading is the matching one just below the destination, as near any destination, never a
    // later namesake in the text; the page's edge lines stay out.
    const heading = inner(lines, skip);
    const near = bestMatch(lines, title, after, (i) => heading(i) && belowTop(lines[i] as PdfLine, y), true);
    if (near !== undefined) return near;
  }
  if (y !== undefined && after < 0 && onlyRunningHeadNames(lines, title, skip))
    return pageTop(lines, title, skip);
  return (
    bestMatch(lines, title, after, (i) => !skip?.has(i)) ?? bestMatch(lines, title, after, inner(lines, skip))
  );
}

/**
 * A destination set further above its heading than the window below it (XEP's grow with the
 * distance from the page top: 27 pt near the top, 74 pt two thirds down): the line reading as the
 * title itself below the destination, above the next destination on the page (`until`), and set
 * apart from the line `at` the destination (larger, or bold where it is not). A mention in the
 * text further down, set like the text, is not the heading.
 */
function belowWindow(
  lines: readonly PdfLine[],
  title: string,
  y: number,
  at: number,
  { skip, after = -1, until }: LocateOptions,
): number | undefined {
  const top = lines[at] as PdfLine;
  const allowed = (i: number): boolean => {
    const line = lines[i] as PdfLine;
    const apart = line.maxSize > top.maxSize + 0.5 || (line.bold && !top.bold);
    return apart && !skip?.has(i) && line.y < y && (until === undefined || line.y > until);
  };
  return bestMatch(lines, title, after, allowed, true, EXACT);
}

/**
 * Where a section starts whose destination names its page (above the text, or below all of it)
 * and whose title only the running head prints (a man page's "FNMATCH(3am) … FNMATCH(3am)"):
 * the page's first body line, or a heading above it taken for furniture; a line further down
 * reading like the title is a mention ("fnmatch(3)." under SEE ALSO), not its heading.
 */
function pageTop(
  lines: readonly PdfLine[],
  title: string,
  skip: ReadonlySet<number> | undefined,
): number | undefined {
  const heading = inner(lines, skip);
  const furniture = new Set(
    [...(skip ?? [])].filter((i) => !(heading(i) && headingScore(title, lines, i) >= MATCH)),
  );
  const top = topLine(lines, furniture);
  return top < 0 ? undefined : top;
}

/**
 * Whether the page's top line is a running head (in `skip`) that reads as the title while no body
 * line prints the title itself: a reference manual's topic heading mid-page under a running head
 * naming it ("bravo" over "bravo") is still found by its title.
 */
function onlyRunningHeadNames(
  lines: readonly PdfLine[],
  title: string,
  skip: ReadonlySet<number> | undefined,
): boolean {
  let top = -1;
  lines.forEach((l, i) => {
    if (top < 0 || l.y > (lines[top] as PdfLine).y) top = i;
  });
  return (
    top >= 0 &&
    skip?.has(top) === true &&
    headingScore(title, lines, top) >= MATCH &&
    bestMatch(lines, title, -1, (i) => !skip.has(i), false, EXACT) === undefined
  );
}

/**
 * The line reading as the title at an outline destination's top `y`: the matching line nearest
 * below the top (furniture counts there: a heading repeating the running head above it is taken
 * for furniture, but the destination says it is the heading), else one just above it that reads
 * exactly as the title (some producers put the top at the line after the heading). Undefined
 * when nothing there reads as the title, or when `y` is above the page's text.
 */
export function nearDestination(
  page: ParsedPage,
  title: string,
  y: number,
  options: Pick<LocateOptions, "skip" | "after"> = {},
): number | undefined {
  const { skip, after = -1 } = options;
  const lines = page.lines;
  if (y >= textTop(lines, skip) - 1) return undefined;
  return (
    bestMatch(lines, title, -1, (i) => belowTop(lines[i] as PdfLine, y), true) ??
    bestMatch(
      lines,
      title,
      after,
      (i) => {
        const line = lines[i] as PdfLine;
        // Above the top only, and no running head: a line far below it (a mention further down
        // the page) is not, nor is the previous section's heading.
        return line.y > y + line.maxSize * 0.5 && line.y <= y + line.maxSize * ABOVE_TOP && !skip?.has(i);
      },
      false,
      EXACT,
    )
  );
}

/** The best line reading as the title among the page's lines that `allowed` lets through. */
export function matchAmong(
  page: ParsedPage,
  title: string,
  allowed: (i: number) => boolean,
): number | undefined {
  return bestMatch(page.lines, title, -1, allowed);
}

/** Whether the title reads as some line of the page outside `skip` (anywhere on it). */
export function printedOnPage(page: ParsedPage, title: string, skip?: ReadonlySet<number>): boolean {
  return bestMatch(page.lines, title, -1, (i) => !skip?.has(i)) !== undefined;
}

/**
 * The best line matching the title (at least `bar`) among those `allowed` after `after`: the
 * first of equals, or with `highest` the matching line nearest the page's top (near a
 * destination, the one nearest it), whatever the scores.
 */
function bestMatch(
  lines: readonly PdfLine[],
  title: string,
  after: number,
  allowed: (i: number) => boolean,
  highest = false,
  bar = MATCH,
): number | undefined {
  let best: number | undefined;
  let bestScore = 0;
  for (let i = after + 1; i < lines.length; i++) {
    if (!allowed(i)) continue;
    const score = headingScore(title, lines, i);
    if (score < bar) continue;
    // Near a destination, position decides: the matching line nearest its top, whatever its score.
    const higher = best === undefined || (lines[i] as PdfLine).y > (lines[best] as PdfLine).y;
    if (highest ? higher : score > bestScore + 0.05) {
      best = i;
      bestScore = score;
    }
  }
  return best;
}

/**
 * Furniture lines other than the page's top and bottom line: a heading that repeats the running
 * head just above it is taken for furniture, while the running head itself is the edge line.
 */
function inner(lines: readonly PdfLine[], skip: ReadonlySet<number> | undefined): (i: number) => boolean {
  if (!skip || lines.length === 0) return () => false;
  let top = 0;
  let bottom = 0;
  lines.forEach((l, i) => {
    if (l.y > (lines[top] as PdfLine).y) top = i;
    if (l.y < (lines[bottom] as PdfLine).y) bottom = i;
  });
  return (i) => skip.has(i) && i !== top && i !== bottom;
}
