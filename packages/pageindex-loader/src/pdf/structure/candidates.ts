import type { Furniture } from "../text/running-heads.js";
import type { ParsedPage, PdfLine } from "../types.js";
import { inNumberedRun } from "./list-items.js";
import { isStrongKeyword, type Numbering, parseNumbering } from "./numbering.js";
import { type BodyStyle, compareStyle, SIZE_STEP, type StyleSig, styleOf } from "./style.js";
import { cleanTitle, namedAfterNumber, normalizeTitle } from "./titles.js";

/**
 * What running-titles.ts reads: where a running head names the section open at the top of its page ("XTerm Control Sequences ⇥
 * VT100 Mode"), the head tells levels that looks cannot: `named` headings are the ones heads name,
 * and a heading between a named one and a later page whose head still names it is `inside` it.
 * A heading no head settles (set on the page where the head's section changes) is left out.
 */
export type HeadLevel = "named" | "inside";

/** A line (or a few wrapped lines) that looks like a heading. */
export interface Heading {
  title: string;
  page: number;
  /** Index of the heading's first line on its page. */
  line: number;
  style: StyleSig;
  numbering?: Numbering;
  /** `strong`: styled apart from body text or a PART/Item/Chapter keyword; `weak`: only hints (caps, numbering, spacing). */
  strength: "strong" | "weak";
  /** Level in a printed table of contents that lists this heading (1 = top). */
  tocLevel?: number;
  /** Index of the heading's last line on its page (wrapped headings span several). */
  endLine?: number;
  /** A label repeated through the document ("Arguments", "Returns"): it stays under its entry. */
  label?: boolean;
  /** What the running heads say of its level (running-titles.ts), where they settle it. */
  headLevel?: HeadLevel;
}

/** Options for {@link findHeadings}. */
export interface FindHeadingsOptions {
  body: BodyStyle;
  /** Pages to ignore (the printed table of contents). */
  skipPages?: ReadonlySet<number>;
  /** Per page, line indices that are running headers/footers. */
  furniture?: Furniture;
  /** Ignore lines before this position (the end of a printed TOC) on its page. */
  skipBefore?: { page: number; line: number };
  /** Only pages in this range (inclusive). */
  fromPage?: number;
  toPage?: number;
}

const MAX_WORDS = 20;
/** A line this many times the body size, of at most PROMINENT_WORDS words, is a title even in lower case. */
const PROMINENT_SIZE = 1.3;
const PROMINENT_WORDS = 3;
const MAX_CHARS = 160;
const TABLE_ROW = /\t\s*[-$(]?\s*[\d,.]+\s*%?\)?\s*$/;
/** Captions of figures, tables, boxes and charts, and source/note lines under them. */
const CAPTION =
  /^(?:(?:figure|fig\.|table|box|chart|graph|exhibit|map|plate|illustration|panel)\s+[A-Z]?\d+(?:[.\-–]\d+)*[a-z]?(?=$|[\s.:—–-])|(?:sources?|notes?)\s*:)/i;
/** A running head repeated over a box or section that spans pages: "Box 6.1—continued", "(cont'd)". */
const CONTINUED = /[\s(—–-](?:continued|cont['’]d|cont\.)\)?\.?$/i;

/** Cells of a table row: runs set far apart on one line (the leading numbering's tab is not a cell break). */
function cellCount(raw: string): number {
  const t = raw.trim();
  const tab = t.indexOf("\t");
  const rest = tab >= 0 && tab <= 15 && parseNumbering(t) !== undefined ? t.slice(tab + 1) : t;
  return rest.split("\t").filter((c) => c.trim().length > 0).length;
}

function words(text: string): number {
  return text.split(/\s+/).filter(Boolean).length;
}

/** Text checks every heading must pass, whatever its style. */
function headingLikeText(
  raw: string,
  title: string,
  numbered: boolean,
  styled: boolean,
  prominent: boolean,
): boolean {
  if (title.length === 0 || title.length > MAX_CHARS) return false;
  const letters = title.replace(/[^\p{L}]/gu, "").length;
  // A styled, numbered title naming a model, version or date ("5.2 K65") is no table's figures.
  const named = numbered && styled && namedAfterNumber(title);
  if (letters < (named ? 1 : 2)) return false;
  if (!named && letters < title.replace(/\s/g, "").length * 0.5) return false;
  // A lower-case start is a sentence going on, unless a styled line names an identifier
  // (a reference manual's "vector_init", "std::sort()") or a few words set well above the
  // body size name one (a module page's "rb", "systools").
  if (
    /^[\p{Ll}•▪◦●■□◆♦✓✔➢►*–—-]/u.test(title) &&
    !(styled && isIdentifierEntry(title)) &&
    !(prominent && /^\p{Ll}/u.test(title) && words(title) <= PROMINENT_WORDS)
  )
    return false;
  // "(In millions, except per share data)": a parenthetical note, not a heading.
  if (/^\(.*\)$/.test(title) && !numbered) return false;
  if (TABLE_ROW.test(raw)) return false;
  // Three or more cells on a line: a table row or chart labels, not a heading.
  if (cellCount(raw) >= 3) return false;
  if (CAPTION.test(title) || CONTINUED.test(title) || COLUMN_HEADER.test(title) || BYLINE.test(title))
    return false;
  const n = words(title);
  if (n > MAX_WORDS) return false;
  if (/[,;]$/.test(title)) return false;
  // "Key Points:" set in bold on its own line heads a list; an unstyled line ending in ":" introduces one.
  if (!numbered && /:$/.test(title) && !(styled && n <= 6)) return false;
  if (!numbered && /[.!?]$/.test(title) && n > 8) return false;
  return true;
}

/** An identifier opening a line: snake_case, dotted, scoped or hyphenated, or a call "name()". */
const IDENTIFIER = /^[\p{Ll}_][\p{L}\d_$]*(?:(?:\.|::|->|-)[\p{L}\d_$]+)*(?:\(\))?(?=$|\s)/u;

/**
 * A reference entry's name: one identifier, alone or before a short gloss; plain words are not.
 * A program's name counts: a digit inside it ("w1retap"), or hyphens joining its parts when it
 * stands alone ("cd-hit-dup"; a Lisp definition line "string-prefix-p prefix string" lists its
 * arguments after the name).
 */
function isIdentifierEntry(title: string): boolean {
  const m = IDENTIFIER.exec(title);
  if (!m) return false;
  const name = m[0];
  return /[_.:()>]|\p{Lu}|\p{L}\d/u.test(name) || (name === title && /\p{L}-\p{L}/u.test(name));
}

/**
 * Title-page furniture of papers: affiliation marks on author and institution lines, e-mail
 * addresses. A mark before a number is a legal section or paragraph sign ("§ 12 Scope"), not one.
 */
export const BYLINE = /[†‡§¶](?!\s*\d)|[\p{L}\d}._-]@[\p{L}\d-]+\.\p{L}/u;
/** A table's column header standing alone ("Page" over the page numbers of an index). */
const COLUMN_HEADER = /^(page|pages|page no\.?|page number)$/i;
/** A line ending in a word that cannot end a title: the title goes on on the next line. */
const DANGLING = /\b(and|of|or|the|to|for|in|on|with|a|an|by|from|at)$|[,&/-]$/i;

/** Kana, CJK ideographs, Hangul and full-width forms: set a full em wide. */
const FULL_WIDTH =
  /[\u1100-\u115f\u2e80-\ua4cf\uac00-\ud7a3\uf900-\ufaff\ufe30-\ufe4f\uff00-\uff60\uffe0-\uffe6]/;

/**
 * Rough printed width of a line in points: capitals and digits are wider than lower case, CJK
 * characters a full em, a tab is a wide gap.
 */
export function approxWidth(line: PdfLine): number {
  let units = 0;
  for (const c of line.text) {
    const code = c.charCodeAt(0);
    const wide = (code >= 65 && code <= 90) || (code >= 48 && code <= 57);
    units += c === "\t" ? 2 : c === " " ? 0.28 : wide ? 0.65 : code >= 0x1100 && FULL_WIDTH.test(c) ? 1 : 0.5;
  }
  return units * line.size;
}

function startsOwnHeading(line: PdfLine): boolean {
  return parseNumbering(line.text) !== undefined;
}

/**
 * Finds heading candidates from page content: lines set apart from body text by size or
 * weight, lines opening with strong numbering keywords (PART II, Item 7, Chapter IV) after
 * a paragraph gap, and, as weak candidates, short capitalised or numbered lines after a gap.
 * Wrapped headings (same style, tight leading) are joined. Linear in the number of lines.
 */
export function findHeadings(pages: readonly ParsedPage[], options: FindHeadingsOptions): Heading[] {
  const { body } = options;
  const out: Heading[] = [];
  /** Keyword headings seen, by title: the heading kept for each. */
  const seenKeyword = new Map<string, Heading>();
  for (const page of pages) {
    if (options.fromPage !== undefined && page.pageNumber < options.fromPage) continue;
    if (options.toPage !== undefined && page.pageNumber > options.toPage) continue;
    if (options.skipPages?.has(page.pageNumber)) continue;
    const furniture = options.furniture?.get(page.pageNumber);
    const lines = page.lines;
    const skipBefore = options.skipBefore;
    const firstLine = skipBefore && skipBefore.page === page.pageNumber ? skipBefore.line : 0;
    let widest = 0;
    for (const l of lines) widest = Math.max(widest, approxWidth(l));
    for (let i = firstLine; i < lines.length; i++) {
      if (furniture?.has(i)) continue;
      const line = lines[i] as PdfLine;
      const style = styleOf(line);
      const bigger = style.size >= body.size + SIZE_STEP;
      const notSmaller = line.maxSize >= body.size - 0.5;
      const styled = notSmaller && (bigger || (line.bold && !body.bold));
      const numbering = parseNumbering(line.text);
      const gapped = line.gapBefore === 0 || line.gapBefore >= body.leading * 1.25 || i === 0;
      // Body text, the bulk of the lines, can take no strength below: an unstyled line needs a
      // gap before it and, unless a keyword numbers it, capitals or a number.
      if (!styled && (!gapped || (numbering === undefined && !style.caps))) continue;

      // Join wrapped heading lines of the same look.
      let raw = line.text;
      let j = i;
      while (j + 1 < lines.length && j - i < 2) {
        const next = lines[j + 1] as PdfLine;
        if (furniture?.has(j + 1)) break;
        if (compareStyle(styleOf(next), style) !== 0 || next.bold !== line.bold) break;
        if (next.gapBefore <= 0 || next.gapBefore > Math.max(line.size * 1.6, body.leading * 1.15)) break;
        if (/[.:]$/.test(raw.trim()) || startsOwnHeading(next)) break;
        // A styled line joins the next only when it was cut by the column edge (it runs nearly
        // the page's full width) or mid-phrase; a short complete line over another is a stack of
        // headings ("Notes to the Financial Statements" over "Segment Data").
        // A numbered heading's second line hangs under its text, right of the number
        // ("2 Programming with ML" / "   Modules").
        const hanging = numbering !== undefined && j === i && next.x > line.x + 4;
        const cut = DANGLING.test(raw.trim()) || /^\p{Ll}/u.test(next.text.trim()) || hanging;
        if (!cut && !(styled && approxWidth(lines[j] as PdfLine) >= widest * 0.7)) break;
        // A word hyphenated across the break ("Match-" / "ing") is one word again.
        const trimmed = raw.trimEnd();
        raw =
          /\p{L}-$/u.test(trimmed) && /^\p{Ll}/u.test(next.text.trim())
            ? `${trimmed.slice(0, -1)}${next.text.trim()}`
            : `${raw} ${next.text}`;
        j += 1;
      }
      const numbered = numbering !== undefined;
      const text = cleanTitle(raw.replace(/\t/g, " "));
      // …standing alone: not a piece of a heading wrapped over lines of its size ("to", "age?")
      // nor of a logo drawn over and over.
      const alone = (k: number) => Math.abs((lines[k]?.size ?? 0) - line.size) > 0.5;
      const prominent = j === i && style.size >= body.size * PROMINENT_SIZE && alone(i - 1) && alone(i + 1);
      if (!headingLikeText(raw, text, numbered, styled, prominent)) continue;
      const title = text.replace(/\s*:$/, "");

      let strength: Heading["strength"] | undefined;
      if (styled) strength = "strong";
      else if (isStrongKeyword(numbering) && gapped && words(title) <= 15) strength = "strong";
      else if (
        gapped &&
        notSmaller &&
        words(title) <= 10 &&
        (style.caps || numbered) &&
        !/[.]$/.test(title)
      ) {
        strength = "weak";
      }
      if (!strength) continue;
      // A numbered line at the text's weight whose series goes on line by line is a list's item
      // or a listing's line (the local look, not the body's: a manual whose listings are most of
      // its lines takes its prose for larger than the body).
      if (numbering && (!line.bold || body.bold) && inNumberedRun(lines, i, j, numbering)) continue;

      const heading: Heading = { title, page: page.pageNumber, line: i, endLine: j, style, strength };
      if (numbering) heading.numbering = numbering;
      if (numbering?.kind === "keyword") {
        // A PART/Item heading appears once; later copies are cross-references or running heads,
        // set no larger than it. A later copy set larger is the heading, and the first was its
        // entry on a contents page the contents reader did not take for one.
        const key = normalizeTitle(title);
        const seen = seenKeyword.get(key);
        if (seen && style.size <= seen.style.size + 0.5) continue;
        if (seen) out.splice(out.indexOf(seen), 1);
        seenKeyword.set(key, heading);
      }
      out.push(heading);
      i = j;
    }
  }
  return out;
}
