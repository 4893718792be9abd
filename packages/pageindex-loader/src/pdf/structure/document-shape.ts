import type { Furniture } from "../text/running-heads.js";
import type { ParsedPage, PdfLine } from "../types.js";
import type { Heading } from "./candidates.js";
import { parseNumbering } from "./numbering.js";
import { compareStyle } from "./style.js";
import { normalizeTitle, stripNumbering } from "./titles.js";
import { MIN_MANUAL_PAGES } from "./tree-shape.js";

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

/** Headings besides the first that a leading title must stand above. */
const MIN_TITLED = 2;
/** The first pages, where a document's title stands (a cover or half-title may come first). */
const TITLE_PAGES = 2;

/**
 * The document's title set as its first heading on a page that also carries text (an abstract,
 * a copyright notice, a contents), which {@link takeTitlePage} leaves: in a manual
 * ({@link MIN_MANUAL_PAGES} pages or more; a paper or a filing's notes keeps its first heading),
 * an unnumbered first heading on its first pages, which the printed contents does not list, set
 * above every other heading (larger, or as large and bolder). Kept, it holds the chapters that
 * follow it and leaves the appendices beside it (GnuCOBOL's manual). Undefined when the first
 * heading is no such title.
 */
export function leadingTitle(headings: readonly Heading[], pageCount: number): Heading | undefined {
  const [first, ...rest] = headings;
  if (!first || pageCount < MIN_MANUAL_PAGES || rest.length < MIN_TITLED) return undefined;
  if (first.page > TITLE_PAGES || first.numbering || first.tocLevel !== undefined) return undefined;
  return rest.every((h) => compareStyle(first.style, h.style) < 0) ? first : undefined;
}

/** "Chapter 3", "PART II", "Appendix B" and nothing else. */
const BARE_KEYWORD_LABEL = /^(?:chapter|part|appendix|book|section)\s+(?:[0-9]{1,3}|[IVXLC]{1,6}|[A-Z])\.?$/i;
/**
 * A chapter's number spelt out and set alone ("ONE", "Twelve", "TWENTYONE" under Sphinx's
 * "CHAPTER", which recurs atop every chapter and reads as furniture): its value, 1 to 99.
 */
const UNITS = [
  "one",
  "two",
  "three",
  "four",
  "five",
  "six",
  "seven",
  "eight",
  "nine",
  "ten",
  "eleven",
  "twelve",
  "thirteen",
  "fourteen",
  "fifteen",
  "sixteen",
  "seventeen",
  "eighteen",
  "nineteen",
];
const TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"];
/** Tens and a unit, joined as LaTeX's fmtcount writes them in Sphinx's openings ("twentyone") or apart. */
const SPELT_TENS = new RegExp(`^(${TENS.join("|")})(?:[ -]?(${UNITS.slice(0, 9).join("|")}))?$`);

function speltNumber(title: string): number | undefined {
  const unit = UNITS.indexOf(title);
  if (unit >= 0) return unit + 1;
  const m = SPELT_TENS.exec(title);
  if (!m) return undefined;
  return (TENS.indexOf(m[1] as string) + 2) * 10 + (m[2] ? UNITS.indexOf(m[2]) + 1 : 0);
}
/** The heading a bare label introduces starts within this many lines of it. */
const LABEL_REACH = 4;

/**
 * The title a label introduces, with the unnumbered line of its look right under it when there is
 * one: a chapter title wrapped over two lines ("Using Stunnel to Encrypt" / "Communications"),
 * which the candidates' join left apart (neither cut mid-phrase nor at the column's edge). Kept
 * apart, the second line would nest under the first, the label's numbering ranking it higher.
 */
function wrappedTitle(title: Heading, after: Heading | undefined): Heading | undefined {
  if (
    !after ||
    after.numbering ||
    after.tocLevel !== undefined ||
    after.page !== title.page ||
    after.line !== (title.endLine ?? title.line) + 1 ||
    compareStyle(after.style, title.style) !== 0 ||
    after.style.bold !== title.style.bold
  )
    return undefined;
  return { ...title, title: `${title.title} ${after.title}`, endLine: after.endLine ?? after.line };
}

/** A bare chapter label ("Chapter 3", "PART II", a number word), carrying its number. */
function asLabel(heading: Heading): Heading | undefined {
  if (heading.tocLevel !== undefined) return undefined;
  const spelt = speltNumber(normalizeTitle(heading.title));
  // A number word stands for its chapter's label: it folds as "Chapter N" would.
  if (spelt !== undefined) return { ...heading, numbering: parseNumbering(`Chapter ${spelt}`) };
  return BARE_KEYWORD_LABEL.test(heading.title.trim()) ? heading : undefined;
}

/** Whether `title` is the heading the bare label `label` introduces, right under it on its page. */
function introduces(label: Heading, title: Heading | undefined): title is Heading {
  // "PART I" over "Item 1." is a group of its own; "Chapter 1" over "Overview" or "1 Overview" is not.
  const sameNumber =
    !title?.numbering || title.numbering.value.toUpperCase() === label.numbering?.value.toUpperCase();
  return (
    sameNumber &&
    title !== undefined &&
    title.page === label.page &&
    title.line > label.line &&
    title.line - (label.endLine ?? label.line) <= LABEL_REACH
  );
}

/**
 * Whether each heading is the title a bare chapter label just above it introduces: a chapter's
 * or a part's own title, however little follows it on the part's page, is no caption.
 */
export function labelledTitles(headings: readonly Heading[]): boolean[] {
  return headings.map((h, k) => {
    const label = k > 0 ? asLabel(headings[k - 1] as Heading) : undefined;
    return label !== undefined && introduces(label, h);
  });
}

/**
 * A bare "Chapter 3" line set over the chapter's title is a label, not a section of its own: it
 * is dropped and its numbering passes to the title it introduces (so the keyword's tier still
 * ranks it), unless that title is numbered itself.
 */
export function foldChapterLabels(headings: readonly Heading[]): Heading[] {
  const list = [...headings];
  const out: Heading[] = [];
  for (let k = 0; k < list.length; k++) {
    const h = asLabel(list[k] as Heading);
    const next = list[k + 1];
    if (h && introduces(h, next)) {
      if (!next.numbering && h.numbering) {
        const wrapped = wrappedTitle(next, list[k + 2]);
        list[k + 1] = { ...(wrapped ?? next), numbering: h.numbering };
        if (wrapped) list.splice(k + 2, 1);
      }
      continue;
    }
    out.push(list[k] as Heading);
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

/** A DocBook running head: the chapter's label and title, then a section's number and title ("CHAPTER 5. BASICS 5.3. FUTURE …"). */
const KEYWORD_HEAD =
  /^(?:chapter|appendix)\s+[\dA-Z]{1,3}\.?\s+\S.*?\s(?:\d{1,3}|[A-Z])(?:\.\d{1,3})+\.?\s+\S/i;

/** How far back a running head's chapter title may have been set as a heading. */
const HEAD_REACH_PAGES = 12;
/** Recent heading titles a running head may quote, and the shortest one worth matching. */
const RECENT_TITLES = 8;
const QUOTED_CHARS = 8;

/**
 * Running heads that repeat the chapter's title with the page number ("42 Lists" atop page 60,
 * under "6 Lists") vary from page to page, so furniture detection misses them: a numbered
 * heading on a page's first line whose title, numbering aside, is a recent heading's title
 * under another number, or that quotes a recent heading's title and adds to it (a DocBook head
 * "CHAPTER 1. OVERVIEW 1.6. SCOPE", also recognised by its shape: chapter label, title, section
 * number, title), is dropped.
 */
export function dropPagedRunningHeads(headings: readonly Heading[]): Heading[] {
  const lastSeen = new Map<string, { page: number; value: string }>();
  const recent: string[] = [];
  return headings.filter((h) => {
    const key = normalizeTitle(stripNumbering(h.title));
    const seen = lastSeen.get(key);
    const value = h.numbering?.value ?? "";
    const top = h.line <= 1 && h.tocLevel === undefined;
    const renumbered =
      h.numbering !== undefined &&
      seen !== undefined &&
      seen.value !== value &&
      h.page - seen.page <= HEAD_REACH_PAGES;
    // "CHAPTER 1. DEFINITIONS AND OVERVIEW 1.6. HOW DOES …": the chapter's title and more.
    const normalized = normalizeTitle(h.title);
    const quoting = recent.some((t) => {
      const at = normalized.indexOf(t);
      // …followed by a section's number ("1 6" once normalised): a plain longer title is not a head.
      return at >= 0 && /\b\d+ \d+\b/.test(normalized.slice(at + t.length));
    });
    const head = top && (renumbered || quoting || KEYWORD_HEAD.test(h.title));
    if (!head && key) {
      lastSeen.set(key, { page: h.page, value });
      if (key.length >= QUOTED_CHARS) {
        recent.push(key);
        if (recent.length > RECENT_TITLES) recent.shift();
      }
    }
    return !head;
  });
}
