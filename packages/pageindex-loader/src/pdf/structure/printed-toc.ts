import { mostCommon } from "../text/counts.js";
import type { Furniture } from "../text/running-heads.js";
import type { ParsedPage, PdfLine } from "../types.js";
import type { Heading } from "./candidates.js";
import { type ContentsRow, contentsRows } from "./contents-rows.js";
import { nestHeadings, type RelationOf, ruleRelation, SAME_MARGIN } from "./hierarchy.js";
import { LineIndex } from "./line-index.js";
import { type Numbering, numberingClass, parseNumbering } from "./numbering.js";
import { isCaps, styleOf } from "./style.js";
import { cleanTitle, compactTitle, namedAfterNumber, normalizeTitle } from "./titles.js";

/** One line of a printed table of contents. */
export interface TocEntry {
  title: string;
  /** Printed page number as written ("12", "iv"), when the line has one. */
  printed?: string;
  /** Level in the printed TOC (1 = top), from indentation, weight and numbering. */
  level: number;
}

/** A printed TOC found in the first pages, with its entries placed on physical pages. */
export interface PrintedToc {
  /** Physical pages the TOC occupies. */
  pages: number[];
  /** Pages of a shorter contents before it (chapters only), which it replaced: no sections either. */
  shortPages?: number[];
  entries: TocEntry[];
  /** Physical minus printed page number, when the TOC has page numbers and some titles were found. */
  offset?: number;
  /**
   * First position after the TOC's last line, or after the lists of tables and figures that
   * follow it (a section may start lower on that page).
   */
  end: { page: number; line: number };
  /** Pages of those lists (captions, not sections), when the TOC is followed by any. */
  listPages?: number[];
  /** Entries found in the body, as headings carrying their TOC level. */
  headings: Heading[];
}

/** The titles a contents page carries, in the languages met. */
const CONTENTS_WORDS = "table of contents|contents|table des matières|inhalt|目次";
const TOC_TITLE = new RegExp(`^(${CONTENTS_WORDS}|index|index to .{1,60})$`, "i");
/** A contents page's own title; "Index" is left out here (an index at the back is a section). */
const CONTENTS_TITLE = new RegExp(`^(${CONTENTS_WORDS})$`, "i");
/** The title of a contents that names itself short (Texinfo's "Short Contents"): chapters only. */
const SHORT_CONTENTS_TITLE = /^(?:short|summary|brief) contents$/i;
/** Lines from a page's top within which a contents or index title makes it a titled page. */
const TITLED_TOP = 8;
/** Whether one of a page's first {@link TITLED_TOP} lines is a title `title` matches. */
const titledBy = (page: ParsedPage, title: RegExp): boolean =>
  page.lines.slice(0, TITLED_TOP).some((l) => title.test(normalizeTitle(l.text)));
/** A column header at the end of a TOC line ("PART I<tab>Page"). */
const HEADER_END = /\t\s*(page|pages|page no\.?)\s*$/i;
/**
 * What comes before a year rather than a page number: a date ("… December 31, 2022") or a
 * separator bar ("Annual Report | 2023", a running head's edition).
 */
const DATE_END =
  /(,|[|/]|\b(january|february|march|april|may|june|july|august|september|october|november|december)(\s+\d{1,2})?,?)$/i;
/** A page number after a space, or after leaders with or without one ("Overview.........5"). */
const ARABIC_END = /^(.*?\S)(?:\s*(?:\.{2,}|…+|·{2,}|_{2,})\s*|\s+)(\d{1,4})$/;
const ROMAN_END = /^(.*?\S)\s*(?:\.{2,}|…+|·{2,}|\t)\s*([ivxlc]{1,6})$/i;
/** Lists that follow a table of contents and name captions, not sections. */
const LIST_OF =
  /^(list of (tables|figures|examples|listings|illustrations|procedures|equations|exhibits)|図目次|表目次)$/;
/** The bare name of such a list, as a page's title ("Tables" after the contents). */
const LIST_TITLE = /^(tables|figures|examples|listings|illustrations|procedures|equations|exhibits)$/;
const HEADER_WORDS = /^(page|pages|page no\.?|page number)$/i;
/** Share of an untitled TOC's numbered entries whose titles must be found on the pages their numbers give. */
const UNTITLED_AGREEMENT = 0.5;
const BARE_KEYWORD = /^(part|item|chapter|note|section|article|schedule|appendix)$/i;

interface TocLine {
  title: string;
  printed?: string;
  x: number;
  line: PdfLine;
  page: number;
  index: number;
}

/**
 * A table row ("aes_128_ctr<tab>16<tab>16<tab>1"): two or more number cells after the first
 * cell with words. A TOC line has one page number (its own numbering may stand in a cell before
 * the title).
 */
function tableRow(text: string): boolean {
  const cells = text.split("\t").map((c) => c.trim());
  const named = cells.findIndex((c) => /\p{L}/u.test(c));
  return named >= 0 && cells.slice(named + 1).filter((c) => /^[#\d][\d.,#-]*$/.test(c)).length >= 2;
}

function splitTocLine(text: string): { title: string; printed?: string } {
  const t = text.replace(HEADER_END, "").trim();
  const m = ARABIC_END.exec(t) ?? ROMAN_END.exec(t);
  if (m) {
    const title = cleanTitle((m[1] as string).replace(/\t/g, " "));
    const printed = m[2] as string;
    const year = /^(19|20)\d\d$/.test(printed) && DATE_END.test(title);
    if (!BARE_KEYWORD.test(title) && !year) return { title, printed };
  }
  return { title: cleanTitle(t.replace(/\t/g, " ")) };
}

/** A page number before or after a running head's words ("4 CONTENTS", "Contents\tiii"). */
const HEAD_NUMBER = /^(?:\d{1,4}|[ivxlc]{1,6})\s+(?=\S)|(?<=\S)\s+(?:\d{1,4}|[ivxlc]{1,6})$/i;

/** The contents' own title beside a page number ("4 CONTENTS"): a running head on their later pages. */
function contentsHead(text: string): boolean {
  return HEAD_NUMBER.test(text) && CONTENTS_TITLE.test(normalizeTitle(text.replace(HEAD_NUMBER, "")));
}

/** Lines from a page's top where its contents title is looked for first. */
const TITLE_TOP = 12;

/**
 * A contents title set apart (bold, or larger than most of its page's lines) below a page's
 * first lines, or -1: the contents sharing its page with what comes before it — a title block
 * (a DocBook article's title, dates and authors), a licence, a report's abstract. What is above
 * it is no entry, and the page is titled as a contents page all the same.
 */
function lowContentsTitle(page: ParsedPage, from: number): number {
  const usual = modalSize(page.lines.map((l) => l.size));
  const at = page.lines
    .slice(from)
    .findIndex(
      (l) => CONTENTS_TITLE.test(normalizeTitle(l.text)) && (l.bold || l.size > usual + LARGER_STEP),
    );
  return at < 0 ? -1 : from + at;
}

/**
 * Where a page's contents title is, or -1: the last title-like line near the top ("Table of
 * Contents" may be a running header above the real title, "Index to the Form 10-K", and the cover
 * lines under it), else one set apart lower down ({@link lowContentsTitle}).
 */
function contentsTitleAt(page: ParsedPage): number {
  const top = page.lines.slice(0, TITLE_TOP).findLastIndex((l) => TOC_TITLE.test(normalizeTitle(l.text)));
  return top >= 0 ? top : lowContentsTitle(page, TITLE_TOP);
}

/** A page titled as a contents (or an index) near its top, or by a contents title set apart lower down. */
const titledPage = (page: ParsedPage): boolean =>
  titledBy(page, TOC_TITLE) || lowContentsTitle(page, TITLED_TOP) >= 0;

/**
 * The entry lines of a TOC page: after its "Contents" title (lines above it, such as the
 * company name, are not entries) and up to the first line that reads like body text, or an
 * entry repeating an earlier one without a page number (the first heading of the document
 * proper, on the same page). With `like` (a contents without page numbers going on), only rows in
 * its looks are entries.
 */
function tocLinesOf(page: ParsedPage, furniture: ReadonlySet<number> | undefined, like?: Looks): TocLine[] {
  const out: TocLine[] = [];
  let unlike = 0;
  const titleAt = contentsTitleAt(page);
  const seen = new Set<string>();
  const rows = contentsRows(page, furniture);
  const firstRow = rows[0]?.index;
  const lastRow = rows[rows.length - 1]?.index;
  for (const { line, index: i } of rows) {
    if (i <= titleAt) continue;
    const text = line.text.trim();
    // A continuing page's first or last row naming the contents beside a number is its running head.
    const edge = i === firstRow || i === lastRow;
    if (HEADER_WORDS.test(text) || tableRow(text) || (titleAt < 0 && edge && contentsHead(text))) continue;
    // Continuing a contents without page numbers, its entries are lines of its looks; the first
    // other line ends it (a running head not taken for one may come first).
    if (like && !like.has(line)) {
      if (out.length > 0 || ++unlike > LOOK_SLACK) break;
      continue;
    }
    // "List of Tables" after the contents lists captions, not sections.
    if (LIST_OF.test(normalizeTitle(text))) break;
    const split = splitTocLine(text);
    if (!/\p{L}{2}/u.test(split.title) && !namedAfterNumber(split.title)) continue;
    // A first row ending in a colon, without a page number, captions the list ("R topics
    // documented:", "Contents:"): joined to the entry under it, it would hold every other one.
    if (out.length === 0 && split.printed === undefined && /:$/.test(text)) continue;
    const n = split.title.split(" ").length;
    const wrapping = out.length > 0 && out[out.length - 1]?.printed === undefined;
    // A long line after an entry still waiting for its page number is that entry's wrap; a
    // numbered long line is an entry that wraps.
    const bodyLike =
      split.printed === undefined &&
      !wrapping &&
      parseNumbering(split.title) === undefined &&
      (n > 15 || (/[.;,]$/.test(split.title) && n > 8));
    const key = compactTitle(split.title);
    // A repeat with its page number is another entry of that name ("Detailed Description"
    // under every class of a reference manual); without one it is the body's first heading,
    // unless it wraps an entry still waiting for its page number (GNU Prolog's "Full AC: …"
    // entries wrap onto lines that differ from the "Partial AC: …" ones only in symbols).
    if (bodyLike || (seen.has(key) && split.printed === undefined && !wrapping)) {
      if (out.length > 0) break;
      continue;
    }
    seen.add(key);
    out.push({ ...split, x: line.x, line, page: page.pageNumber, index: i });
  }
  return out;
}

/** Lines other than a contents' looks skipped at a continuing page's top before it is not one. */
const LOOK_SLACK = 2;
/** Entries a continuing page of a contents without page numbers must hold, and the share of them numbered. */
const UNNUMBERED_RUN = { entries: 5, numbered: 0.5 };

/** The looks of a contents' entries (font sizes and left edges): its rows on the next page share them. */
class Looks {
  private readonly sizes: number[];
  private readonly xs: number[];

  constructor(lines: readonly TocLine[]) {
    this.sizes = [...new Set(lines.map((l) => Math.round(l.line.size * 10) / 10))];
    this.xs = [...new Set(lines.map((l) => Math.round(l.x)))];
  }

  has(line: PdfLine): boolean {
    return (
      this.sizes.some((s) => Math.abs(s - line.size) <= 0.3) && this.xs.some((x) => Math.abs(x - line.x) <= 3)
    );
  }
}

/** A contents' lines mostly without page numbers (SWIG's, wkhtmltopdf's). */
const unnumbered = (lines: readonly TocLine[]): boolean =>
  lines.filter((l) => l.printed !== undefined).length < lines.length * 0.3;

/**
 * The page's entry lines when it reads as a contents page, else undefined. `like` (the looks of
 * the previous page's entries, when that page had no page numbers) lets a page of entries in
 * those looks, mostly numbered, continue it.
 */
function tocPageLines(
  page: ParsedPage,
  furniture: ReadonlySet<number> | undefined,
  continuing: boolean,
  like?: Looks,
): TocLine[] | undefined {
  const lines = tocLinesOf(page, furniture);
  if (looksLikeTocPage(page, lines, continuing)) return lines;
  if (continuing && contentsTail(page, lines, furniture)) return lines;
  if (!like) return undefined;
  const alike = tocLinesOf(page, furniture, like);
  const numbered = alike.filter((l) => parseNumbering(l.title) !== undefined).length;
  return alike.length >= UNNUMBERED_RUN.entries && numbered >= alike.length * UNNUMBERED_RUN.numbered
    ? alike
    : undefined;
}

/** Page-numbered entries a contents' last page must hold when they are all it holds. */
const TAIL_ENTRIES = 2;

/**
 * A contents' last page may hold only its last few entries ("4.17 Footnotes ..... 17", "4.18
 * Indexes ..... 18" and the page's number): too few to read as a contents page by themselves, but
 * every line of the page is an entry with its page number, rising, as no page of body text is.
 */
function contentsTail(
  page: ParsedPage,
  lines: readonly TocLine[],
  furniture: ReadonlySet<number> | undefined,
): boolean {
  const content = page.lines.filter((_, i) => !furniture?.has(i)).length;
  const nums = lines
    .filter((l) => l.printed !== undefined && /^\d+$/.test(l.printed))
    .map((l) => Number(l.printed));
  const rising = nums.every((n, i) => i === 0 || n >= (nums[i - 1] as number));
  return nums.length >= TAIL_ENTRIES && nums.length === content && rising;
}

function looksLikeTocPage(page: ParsedPage, lines: readonly TocLine[], continuing: boolean): boolean {
  const titled = titledPage(page);
  if (lines.length === 0) return false;
  const numbered = lines.filter((l) => l.printed !== undefined && /^\d+$/.test(l.printed));
  const nums = numbered.map((l) => Number(l.printed));
  let rising = 0;
  for (let i = 1; i < nums.length; i++) if ((nums[i] as number) >= (nums[i - 1] as number)) rising++;
  const monotone = nums.length < 2 || rising >= (nums.length - 1) * 0.7;
  if (titled && numbered.length >= 2 && monotone) return true;
  if (titled && lines.filter((l) => parseNumbering(l.title) !== undefined).length >= 3) return true;
  const share = numbered.length / lines.length;
  return monotone && numbered.length >= (continuing ? 3 : 6) && share >= (continuing ? 0.3 : 0.5);
}

/** Font sizes this far apart (points) are different sizes, not rounding. */
const LARGER_STEP = 0.9;

/** The most common font size (to a tenth of a point). */
function modalSize(sizes: readonly number[]): number {
  const counts = new Map<number, number>();
  for (const s of sizes) counts.set(Math.round(s * 10), (counts.get(Math.round(s * 10)) ?? 0) + 1);
  let best = 0;
  let most = 0;
  for (const [s, n] of counts) if (n > most) [best, most] = [s, n];
  return best / 10;
}

/** How many size steps a contents line is set above the usual size (its proxy size's thousands). */
const sizeRank = (h: Heading): number => Math.floor(h.style.size / 1000);

/**
 * The rules' relation, except that on one page a numbered entry set left of an open entry of
 * the same dotted depth is outside it: SystemTap's chapters "1. Introduction" at the preface's
 * margin after the preface's indented "2. We Need Feedback!". Only on one page, as a TOC's
 * margin may shift from page to page.
 */
function outdentedNumbers(raw: readonly TocLine[]): RelationOf {
  return (open, next, state) => {
    const a = raw[open.line] as TocLine;
    const b = raw[next.line] as TocLine;
    const on = open.numbering;
    const nn = next.numbering;
    const sameDepth = on?.kind === "dotted" && nn?.kind === "dotted" && on.depth === nn.depth;
    if (sameDepth && a.page === b.page && b.x < a.x - SAME_MARGIN) return "lower";
    // A line set larger than the contents' usual size outranks one set at it, whatever their
    // numbering: a book's "I The calculus…" part line after its "1 Introduction" chapter is no
    // child of it because a roman numeral is new there.
    const newKind = on !== undefined && nn !== undefined && numberingClass(on) !== numberingClass(nn);
    if (newKind && sizeRank(next) > sizeRank(open)) return "lower";
    // …and one set just as the open line, at its margin on its page, is its sibling: the
    // appendices' "A." after the last chapter's "12." (a new numbering kind is not by itself a
    // level down).
    const sameSpot =
      a.page === b.page &&
      Math.abs(a.x - b.x) <= SAME_MARGIN &&
      sizeRank(next) === sizeRank(open) &&
      open.style.bold === next.style.bold;
    if (newKind && sameSpot) return "same";
    return ruleRelation(open, next, state);
  };
}

/** Fewest lines that start at one left edge for it to be a page's margin (not a figure's label). */
const MARGIN_LINES = 3;

/** A page's margin: the leftmost edge {@link MARGIN_LINES} lines or more start at (none on a page of few lines). */
function pageMargin(page: ParsedPage): number | undefined {
  const counts = new Map<number, number>();
  for (const l of page.lines) counts.set(Math.round(l.x), (counts.get(Math.round(l.x)) ?? 0) + 1);
  let margin: number | undefined;
  for (const [x, n] of counts) if (n >= MARGIN_LINES && (margin === undefined || x < margin)) margin = x;
  return margin;
}

/** Share of a side's pages whose margin must be that side's usual one. */
const SIDE_SHARE = 0.5;

/**
 * How far right the even pages' margin stands from the odd pages' (0 in a one-sided document): a
 * two-sided book shifts its whole text block on every other page, its contents pages too. Each
 * side needs one margin on most of its pages, and the two must differ.
 */
function evenPageShift(pages: readonly ParsedPage[]): number {
  const sides = [new Map<number, number>(), new Map<number, number>()];
  const totals = [0, 0];
  for (const page of pages) {
    const m = pageMargin(page);
    const side = page.pageNumber % 2;
    if (m === undefined) continue;
    sides[side]?.set(m, (sides[side]?.get(m) ?? 0) + 1);
    totals[side] = (totals[side] ?? 0) + 1;
  }
  const usual = (side: number): number | undefined => {
    const counts = sides[side] as Map<number, number>;
    const m = mostCommon(counts, Number.NaN);
    return (counts.get(m) ?? 0) >= SIDE_SHARE * (totals[side] ?? 0) ? m : undefined;
  };
  const even = usual(0);
  const odd = usual(1);
  if (even === undefined || odd === undefined || Math.abs(even - odd) <= SAME_MARGIN) return 0;
  return even - odd;
}

/**
 * The contents lines with the even pages' left edges moved onto the odd pages' margin: indentation
 * ranks the entries, and a two-sided book's contents sets its chapters on an even page where its
 * subsections stand on an odd one (LaTeXML's manual: 160.7 against 106.9 points).
 */
function onOddPageMargins(lines: TocLine[], pages: readonly ParsedPage[]): TocLine[] {
  const shift = evenPageShift(pages);
  return shift === 0 ? lines : lines.map((l) => (l.page % 2 === 0 ? { ...l, x: l.x - shift } : l));
}

/** Joins wrapped TOC lines: a line without a page number continues into a more indented or lower-case next line. */
function joinWrapped(lines: TocLine[]): TocLine[] {
  const out: TocLine[] = [];
  let pending: TocLine | undefined;
  for (const l of lines) {
    if (pending) {
      const continues =
        l.x > pending.x + 4 ||
        /^\p{Ll}/u.test(l.title) ||
        /\b(and|of|or|the|to|for|in|on|with)$|[,&-]$/i.test(pending.title);
      if (continues && parseNumbering(l.title) === undefined) {
        out.push({ ...l, title: `${pending.title} ${l.title}`, x: pending.x, line: pending.line });
        pending = undefined;
        continue;
      }
      out.push(pending);
      pending = undefined;
    }
    if (l.printed === undefined) pending = l;
    else out.push(l);
  }
  if (pending) out.push(pending);
  return out;
}

/** A position on a page. */
interface At {
  page: number;
  line: number;
}

/**
 * The lists of tables, figures or examples right after the contents (from `from` on): their
 * titled runs of numbered caption lines, over as many pages as they run. Where they end, and
 * their pages; undefined when no list follows. Their lines name captions, not sections.
 */
function listsAfter(
  pages: readonly ParsedPage[],
  from: At,
  furniture: Furniture | undefined,
): { end: At; pages: number[] } | undefined {
  const listPages: number[] = [];
  let end: At | undefined;
  let listed = 0;
  let open = false;
  for (let n = from.page; n <= pages.length; n++) {
    const rows = contentsRows(pages[n - 1] as ParsedPage, furniture?.get(n)).filter(
      (r) => n !== from.page || r.index >= from.line,
    );
    let last = -1;
    let stopped = false;
    for (const [k, row] of rows.entries()) {
      const text = normalizeTitle(row.line.text);
      if (LIST_OF.test(text) || LIST_TITLE.test(text)) {
        open = true;
        last = row.index;
        continue;
      }
      const numbered = splitTocLine(row.line.text).printed !== undefined;
      // A caption wrapped over two lines has its number on the second.
      const wraps =
        !numbered &&
        rows[k + 1] !== undefined &&
        splitTocLine((rows[k + 1] as ContentsRow).line.text).printed !== undefined;
      if (!open || !(numbered || wraps)) {
        stopped = true;
        break;
      }
      if (numbered) listed++;
      last = row.index;
    }
    // The contents may fill their last page: the lists then start on the next.
    if (last < 0 && rows.length === 0 && n === from.page) continue;
    if (last < 0) break;
    listPages.push(n);
    end = { page: n, line: last + 1 };
    if (stopped) break;
  }
  return end && listed >= 2 ? { end, pages: listPages } : undefined;
}

/** Options for {@link findPrintedToc}. */
export interface FindTocOptions {
  /** How many first pages to look in. */
  scanPages: number;
  furniture?: Furniture;
  /** Page labels, one per physical page: when they agree with where titles are found, they map printed numbers exactly. */
  pageLabels?: readonly string[];
}

/** Whether a line is set apart on its page: bold, or a size step above most of the page's lines. */
function standsOut(page: ParsedPage, line: number): boolean {
  const l = page.lines[line];
  return l !== undefined && (l.bold || l.size >= modalSize(page.lines.map((x) => x.size)) + LARGER_STEP);
}

/**
 * Where an entry placed by its page number alone starts: the largest line in the page's upper
 * half, running heads aside (a title the body prints differently, "Part I" over "EusLisp
 * Basics" for the entry "I EusLisp Basics"). Its first line would be a page number or a running
 * head, whose look says nothing of a heading's.
 */
function prominentLine(page: ParsedPage, furniture: ReadonlySet<number> | undefined): number {
  let best = 0;
  let size = 0;
  page.lines.forEach((l, i) => {
    if (furniture?.has(i) || l.y < page.top - page.height / 2) return;
    if (l.size > size) {
      best = i;
      size = l.size;
    }
  });
  return best;
}

/** Physical page (1-based) of each page label, first occurrence; labels that are only the physical numbers say nothing. */
function labelPages(labels: readonly string[] | undefined): Map<string, number> | undefined {
  if (!labels || labels.every((l, i) => l === String(i + 1))) return undefined;
  const map = new Map<string, number>();
  labels.forEach((l, i) => {
    const key = l.trim().toLowerCase();
    if (key && !map.has(key)) map.set(key, i + 1);
  });
  return map;
}

/**
 * Pages after `after` that hold a second copy of the contents (Texinfo prints one at the back
 * too): a page titled "Contents" that reads like a TOC page, and the TOC-like pages that follow
 * it. Their lines are not sections. Linear: only titled pages are read as TOC pages.
 */
export function findContentsCopies(
  pages: readonly ParsedPage[],
  after: number,
  furniture?: Furniture,
): number[] {
  const out: number[] = [];
  for (let n = after + 1; n <= pages.length; n++) {
    const page = pages[n - 1] as ParsedPage;
    const continuing = out.length > 0 && out[out.length - 1] === n - 1;
    const titled = titledBy(page, CONTENTS_TITLE);
    if ((titled || continuing) && tocPageLines(page, furniture?.get(n), continuing)) out.push(n);
  }
  return out;
}

/** How many pages may separate a short contents from the full one after it (a blank verso). */
const CONTENTS_GAP = 3;

/** A run of contents pages and the entry lines read on each. */
interface TocRun {
  pages: number[];
  lines: TocLine[][];
}

/** The run of TOC-like pages starting at `from` (empty when that page is none). */
function tocRun(pages: readonly ParsedPage[], from: number, options: FindTocOptions): TocRun {
  const run: TocRun = { pages: [], lines: [] };
  const short = from <= pages.length && titledBy(pages[from - 1] as ParsedPage, SHORT_CONTENTS_TITLE);
  // Once started a TOC runs on past the scanned pages (a 700-page manual's contents fill pages 5 to 30).
  for (let n = from; n <= pages.length; n++) {
    const page = pages[n - 1] as ParsedPage;
    const prev = run.lines[run.lines.length - 1];
    const continuing = prev !== undefined;
    // A short contents ends where the full one opens under its own title on the next page
    // (Texinfo's "Short Contents" then "Table of Contents"): read as one run, the chapters were
    // listed twice and the short list's margins set the levels.
    if (continuing && short && titledBy(page, CONTENTS_TITLE)) break;
    // A page opening with a list of tables or figures ends the contents (entries above a list
    // lower on the page are still read: tocLinesOf stops at it).
    const listed = (l: PdfLine) =>
      LIST_OF.test(normalizeTitle(l.text)) || LIST_TITLE.test(normalizeTitle(l.text));
    if (continuing && page.lines.slice(0, 3).some(listed)) break;
    const like = prev && unnumbered(prev) ? new Looks(prev) : undefined;
    const furniture = options.furniture?.get(n);
    const lines = tocPageLines(page, furniture, continuing, like);
    if (!lines) break;
    run.pages.push(n);
    run.lines.push(lines);
    // A contents without page numbers that stops above its page's last line ends on that page.
    const lastRow = page.lines.findLastIndex((_, i) => !furniture?.has(i));
    if (like && (lines[lines.length - 1]?.index ?? lastRow) < lastRow) break;
  }
  return run;
}

/**
 * The pages of the printed table of contents: the first run of TOC-like pages starting within
 * the scanned pages, or a fuller contents right after it. A short contents (chapters only) is
 * often followed by the full one (Texinfo's "Short Contents" then "Table of Contents"): a run
 * titled as contents that starts within {@link CONTENTS_GAP} pages of the first and lists more
 * entries replaces it.
 */
function contentsRun(
  pages: readonly ParsedPage[],
  options: FindTocOptions,
): TocRun & { shortPages?: number[] } {
  const entryCount = (run: TocRun): number => run.lines.reduce((n, l) => n + l.length, 0);
  let best: TocRun = { pages: [], lines: [] };
  for (let n = 1; n <= Math.min(options.scanPages, pages.length); n++) {
    const run = tocRun(pages, n, options);
    if (run.pages.length > 0) {
      best = run;
      break;
    }
  }
  const last = best.pages[best.pages.length - 1] as number;
  for (let n = last + 1; n <= Math.min(last + CONTENTS_GAP, pages.length); n++) {
    const page = pages[n - 1] as ParsedPage;
    if (!titledBy(page, CONTENTS_TITLE)) continue;
    const run = tocRun(pages, n, options);
    if (run.pages.length > 0 && entryCount(run) > entryCount(best)) return { ...run, shortPages: best.pages };
    break;
  }
  return best;
}

/**
 * Finds a printed table of contents in the first pages, reads its entries (title, printed
 * page, level) and places them: the printed→physical offset is the most common difference
 * between where a title really appears and its printed number; each entry then takes the
 * best match near its expected page. Entries without numbers are searched in order.
 */
export function findPrintedToc(
  pages: readonly ParsedPage[],
  options: FindTocOptions,
): PrintedToc | undefined {
  const run = contentsRun(pages, options);
  const tocPages = run.pages;
  if (tocPages.length === 0) return undefined;

  const raw = onOddPageMargins(joinWrapped(run.lines.flat()), pages);
  if (raw.length < 2) return undefined;

  // Levels: an entry with a page number set larger than the TOC's usual size is higher
  // (Doxygen's and LaTeX's part lines; a caption without a page number, such as Sphinx's group
  // titles, is not), then indentation stands in for size; weight, capitals and numbering as for
  // headings.
  const minX = Math.min(...raw.map((l) => l.x));
  const usual = modalSize(raw.map((l) => l.line.size));
  const proxies: Heading[] = raw.map((l, i) => {
    const s = styleOf(l.line);
    const larger = l.printed === undefined ? 0 : Math.max(0, Math.floor((l.line.size - usual) / LARGER_STEP));
    const h: Heading = {
      title: l.title,
      page: 1,
      line: i,
      style: {
        // A larger line ranks by its size alone: part lines are often set off the margin.
        size: larger > 0 ? larger * 1000 + 100 : 100 - Math.round((l.x - minX) / 8),
        bold: s.bold,
        italic: s.italic,
        caps: isCaps(l.title),
      },
      strength: "strong",
    };
    const n = parseNumbering(l.title);
    if (n) h.numbering = n;
    return h;
  });
  const levels = new Array<number>(raw.length).fill(1);
  const walk = (entries: ReturnType<typeof nestHeadings>, depth: number): void => {
    for (const e of entries) {
      levels[e.line as number] = depth;
      walk(e.children, depth + 1);
    }
  };
  walk(
    nestHeadings(proxies, {
      seriesParents: false,
      indent: (h) => (raw[h.line] as TocLine).x,
      relation: outdentedNumbers(raw),
    }),
    1,
  );
  const entries: TocEntry[] = raw.map((l, i) => ({
    title: l.title,
    ...(l.printed !== undefined ? { printed: l.printed } : {}),
    level: levels[i] as number,
  }));

  const lastTocPage = tocPages[tocPages.length - 1] as number;
  const lastLine = raw.filter((l) => l.page === lastTocPage).reduce((m, l) => Math.max(m, l.index), -1);
  const lists = listsAfter(pages, { page: lastTocPage, line: lastLine + 1 }, options.furniture);
  const end = lists?.end ?? { page: lastTocPage, line: lastLine + 1 };
  const index = new LineIndex(pages, end, options.furniture);
  const found = entries.map((e) => index.find(e.title));

  const votes = new Map<number, number>();
  entries.forEach((e, i) => {
    if (e.printed === undefined || !/^\d+$/.test(e.printed)) return;
    const diffs = new Set((found[i] ?? []).map((f) => f.page - Number(e.printed)));
    for (const d of diffs) votes.set(d, (votes.get(d) ?? 0) + 1);
  });
  let offset: number | undefined;
  let bestVotes = 0;
  for (const [d, n] of votes) {
    if (n > bestVotes || (n === bestVotes && offset !== undefined && Math.abs(d) < Math.abs(offset))) {
      offset = d;
      bestVotes = n;
    }
  }
  // Without a "Contents" title, numbered lines are a TOC only when their numbers are the pages
  // where their titles are found, at least half the time: a table of sizes or codes is not.
  const titled = tocPages.some((p) => titledPage(pages[p - 1] as ParsedPage));
  const numberedCount = entries.filter((e) => e.printed !== undefined && /^\d+$/.test(e.printed)).length;
  if (!titled && bestVotes < numberedCount * UNTITLED_AGREEMENT) return undefined;
  // Page labels name the printed number of every page, roman front matter included; they are
  // used when titles are found where they say at least as often as under the common offset.
  const labels = labelPages(options.pageLabels);
  const labelled = (e: TocEntry): number | undefined =>
    e.printed === undefined ? undefined : labels?.get(e.printed.toLowerCase());
  let labelVotes = 0;
  entries.forEach((e, i) => {
    const at = labelled(e);
    if (at !== undefined && (found[i] ?? []).some((f) => f.page === at)) labelVotes++;
  });
  const useLabels = labels !== undefined && labelVotes >= bestVotes;
  /** Where an entry's printed number points, by labels or by the offset. */
  const expectedPage = (e: TocEntry): number | undefined => {
    if (useLabels) return labelled(e);
    if (e.printed === undefined || !/^\d+$/.test(e.printed) || offset === undefined) return undefined;
    return Number(e.printed) + offset;
  };

  // A page number that lands outside the document is not a page (a year, a misread footer):
  // such an entry is not placed at all, by number or by title.
  const outside = entries.map((e) => {
    if (e.printed === undefined) return false;
    if (useLabels) return /^\d+$/.test(e.printed) && labelled(e) === undefined;
    const at = Number(e.printed) + (offset ?? 0);
    return /^\d+$/.test(e.printed) && (at > pages.length || at < 1);
  });

  // Entries with a page number first; entries without one (group headers such as "PART I",
  // or a TOC without numbers) are then searched between their placed neighbours.
  const blind = new Array<boolean>(entries.length).fill(false);
  const placed: Array<{ page: number; line?: number } | undefined> = entries.map((e, i) => {
    const expected = expectedPage(e);
    if (expected === undefined) return undefined;
    const near = (found[i] ?? [])
      .filter((m) => Math.abs(m.page - expected) <= 2)
      .sort((a, b) => Math.abs(a.page - expected) - Math.abs(b.page - expected) || b.score - a.score)[0];
    if (near) return near;
    if (expected < 1 || expected > pages.length) return undefined;
    // Placed by its number alone while its title stands elsewhere: a stale contents (pages added
    // after it was made) points past the section; the title between its placed neighbours wins.
    if ((found[i] ?? []).length > 0) blind[i] = true;
    return {
      page: expected,
      line: prominentLine(pages[expected - 1] as ParsedPage, options.furniture?.get(expected)),
    };
  });
  const lineText = (m: At): string => (pages[m.page - 1] as ParsedPage).lines[m.line]?.text ?? "";
  let prev: { page: number; line: number } = { page: end.page, line: end.line - 1 };
  entries.forEach((_, i) => {
    const here = placed[i];
    if (outside[i]) return;
    if (here && !blind[i]) {
      prev = { page: here.page, line: here.line ?? 0 };
      return;
    }
    let nextPlaced: { page: number; line: number } | undefined;
    for (let k = i + 1; k < entries.length; k++) {
      const p = placed[k];
      if (p && !blind[k]) {
        nextPlaced = { page: p.page, line: p.line ?? 0 };
        break;
      }
    }
    const after = (p: { page: number; line: number }) =>
      p.page > prev.page || (p.page === prev.page && p.line > prev.line);
    const notAfter = (p: { page: number; line: number }) =>
      !nextPlaced || p.page < nextPlaced.page || (p.page === nextPlaced.page && p.line <= nextPlaced.line);
    // One placed by its number alone moves only to a line set apart on its page (not to a
    // chapter's own list of its entries, CLSQL's, in the body's size).
    const between = (found[i] ?? []).filter(
      (m) => after(m) && notAfter(m) && (!blind[i] || standsOut(pages[m.page - 1] as ParsedPage, m.line)),
    );
    // A numbered entry starts at a line carrying its number: a line with its bare title before
    // that is a chapter's own list of its sections (SWIG's), not the section.
    const number = parseNumbering((entries[i] as TocEntry).title)?.value;
    const numbered =
      number === undefined ? [] : between.filter((m) => parseNumbering(lineText(m))?.value === number);
    // …and only to a line that carries its own number too (a similar title elsewhere, "Release
    // Notes for Version 1.8", is no stale contents' section).
    const choices = numbered.length > 0 || (blind[i] && number !== undefined) ? numbered : between;
    const pick = choices.sort((a, b) => a.page - b.page || a.line - b.line)[0];
    // A group header or numbered entry ("Item 6. Reserved") not found in the body starts where
    // the next entry starts; a line that is neither (a subtitle of the TOC page, a date) is not
    // placed at all.
    const entry = entries[i] as TocEntry;
    const keep = entry.level < (entries[i + 1]?.level ?? 0) || parseNumbering(entry.title) !== undefined;
    const chosen =
      pick ?? here ?? (nextPlaced && (offset !== undefined || useLabels) && keep ? nextPlaced : undefined);
    if (chosen) {
      placed[i] = chosen;
      prev = { page: chosen.page, line: chosen.line ?? 0 };
    }
  });

  const headings: Heading[] = [];
  entries.forEach((e, i) => {
    const pick = placed[i];
    if (!pick) return;
    const page = pages[pick.page - 1] as ParsedPage;
    const lineIdx = pick.line ?? 0;
    const line = page.lines[lineIdx];
    const h: Heading = {
      title: e.title,
      page: pick.page,
      line: lineIdx,
      style: line ? styleOf(line) : { size: 0, bold: false, italic: false, caps: false },
      strength: "strong",
      tocLevel: e.level,
    };
    const n: Numbering | undefined = parseNumbering(e.title);
    if (n) h.numbering = n;
    headings.push(h);
  });
  headings.sort((a, b) => a.page - b.page || a.line - b.line);

  return {
    pages: tocPages,
    ...(run.shortPages ? { shortPages: run.shortPages } : {}),
    ...(lists ? { listPages: lists.pages } : {}),
    end,
    entries,
    ...(offset !== undefined ? { offset } : {}),
    headings,
  };
}
