import { mostCommon } from "../text/counts.js";
import type { ParsedPage, PdfLine } from "../types.js";
import { approxWidth, type Heading } from "./candidates.js";
import { HEADING_MODEL } from "./heading-evidence-weights.js";
import type { BodyStyle } from "./style.js";
import { normalizeTitle } from "./titles.js";

/**
 * What one heading candidate carries that says whether it is a section heading, each a number
 * every document has (no producer names): a small logistic model weighs them
 * (scripts/fit-heading-evidence.ts fits the weights on the train half of the split dev set).
 */
export interface HeadingFeatures {
  /** Font size over the body size, minus 1 (0 = body size), clipped to 0..2. */
  sizeRatio: number;
  /** Bold where body text is not. */
  bold: number;
  italic: number;
  /** Opens with numbering ("2.1", "B.", "IV"). */
  numbered: number;
  /** Dotted numbering's depth over 3 ("2" → 1/3, "2.1.3" → 1). */
  numberDepth: number;
  /** Located in the printed table of contents. */
  inToc: number;
  /**
   * Not listed in the printed table of contents, times the share of candidates of the same look
   * that it lists (a look the contents never lists, like sub-sections under a short contents, is
   * no doubt).
   */
  missingFromToc: number;
  /** Words, over 10, clipped to 1. */
  words: number;
  /** Share of words starting in lower case (running text rather than a title). */
  lowerWords: number;
  /** Ends with a sentence's punctuation or a colon. */
  endsLikeSentence: number;
  /** A bare word that is no title alone ("ONE", "CHAPTER", "Contents", "Short Contents"). */
  bareWord: number;
  /** Space above over the body leading, minus 1, clipped to 0..4 (0 for a page's first line). */
  spaceAbove: number;
  /** Vertical position: 0 at the page top, 1 at the bottom. */
  pageDepth: number;
  /** Indentation past the page's usual left margin, in body sizes, clipped to 0..4. */
  indent: number;
  /** The same title appears more than once among the candidates (a running head or a label). */
  repeated: number;
  /** Share of pages holding a candidate of this look (a look on most pages is furniture or body). */
  stylePages: number;
  /** Marked as a label repeated under entries ("Arguments", "Returns"). */
  label: number;
}

/** The features in the order the weights use. */
export const HEADING_FEATURE_NAMES = [
  "sizeRatio",
  "bold",
  "italic",
  "numbered",
  "numberDepth",
  "inToc",
  "missingFromToc",
  "words",
  "lowerWords",
  "endsLikeSentence",
  "bareWord",
  "spaceAbove",
  "pageDepth",
  "indent",
  "repeated",
  "stylePages",
  "label",
] as const satisfies ReadonlyArray<keyof HeadingFeatures>;

/** Fitted logistic weights: a bias, one weight per feature in {@link HEADING_FEATURE_NAMES} order, and the cut. */
export interface HeadingModel {
  bias: number;
  weights: readonly number[];
  /** Candidates scoring below this are dropped. */
  threshold: number;
  /**
   * How much of a candidate's score is its look's mean score (0..1): headings of one look are
   * headings together, so one odd line of a heading look is not dropped alone.
   */
  lookWeight: number;
}

const BARE_WORD =
  /^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|chapter|part|appendix|section|index|lecture|(?:short |table of )?contents)$/i;

const clip = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const flag = (b: boolean): number => (b ? 1 : 0);
const styleKey = (h: Heading): string => `${h.style.size}|${h.style.bold}|${h.style.italic}|${h.style.caps}`;

/** What the features need to know about the whole document. */
export interface HeadingContext {
  pages: readonly ParsedPage[];
  body: BodyStyle;
  /** Whether a printed table of contents was found and placed (its headings carry `tocLevel`). */
  hasToc: boolean;
}

/** The usual left margin of each page: the most common left edge of its lines, by characters. */
export function pageMargins(pages: readonly ParsedPage[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const page of pages) {
    const xs = new Map<number, number>();
    for (const l of page.lines) xs.set(Math.round(l.x), (xs.get(Math.round(l.x)) ?? 0) + l.text.length);
    out.set(page.pageNumber, mostCommon(xs, 0));
  }
  return out;
}

/** How far `approxWidth` may miss a line's printed width, as a share of it (Sphinx's capitals: ≤ 7.5 %). */
const RIGHT_ERROR = 0.08;
const spreadOf = (xs: readonly number[]): number => Math.max(...xs) - Math.min(...xs);
/** The middle value (the upper of two): the numbers sorted, the one at half their count. */
const middleOf = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[xs.length >> 1] as number;

/**
 * Candidates set flush right, look by look: those of one look, on two pages or more, whose left
 * edges lie more than two body sizes apart while their right ends (left edge plus estimated width)
 * agree within one body size; or, the look's lines at the page margin set aside, whose right ends
 * agree within the estimate's error and spread less than half as far as their left edges —
 * display titles ranged right ("ONE" / "INTRODUCTION" under Sphinx's "CHAPTER", a Japanese book's
 * chapter titles). Their left edge is no indentation: the title's length sets it.
 */
function flushRight(
  headings: readonly Heading[],
  lineOf: (h: Heading) => PdfLine | undefined,
  bodySize: number,
  marginOf: (h: Heading) => number | undefined,
): Set<Heading> {
  const byLook = new Map<string, { h: Heading; x: number; right: number }[]>();
  for (const h of headings) {
    const line = lineOf(h);
    if (!line) continue;
    const list = byLook.get(styleKey(h)) ?? [];
    list.push({ h, x: line.x, right: line.x + approxWidth(line) });
    byLook.set(styleKey(h), list);
  }
  const out = new Set<Heading>();
  for (const list of byLook.values()) {
    // On one page they are a title page's lines (subtitle, author) ranged right, not titles.
    if (new Set(list.map((l) => l.h.page)).size < 2) continue;
    if (spreadOf(list.map((l) => l.x)) <= 2 * bodySize) continue;
    const median = middleOf(list.map((l) => l.right));
    if (list.every((l) => Math.abs(l.right - median) <= bodySize)) {
      for (const l of list) out.add(l.h);
      continue;
    }
    // Lines at the page's margin are no indentation whatever they are (GtkAda's licence sections,
    // "19.1 PREAMBLE", in its chapter titles' capitals); the indented ones may be ranged right,
    // their estimated widths erring in proportion to the text (AdaCore's and why3's long capital
    // titles, "STORAGE POOLS: CONTROLLING MEMORY MANAGEMENT", end up to 8 % of their width off).
    const inset = list.filter((l) => l.x - (marginOf(l.h) ?? l.x) > bodySize);
    const left = inset.length > 0 ? spreadOf(inset.map((l) => l.x)) : 0;
    if (left <= 2 * bodySize || new Set(inset.map((l) => l.h.page)).size < 2) continue;
    const ends = inset.map((l) => l.right);
    const mid = middleOf(ends);
    const agree = inset.every((l) => Math.abs(l.right - mid) <= bodySize + RIGHT_ERROR * (l.right - l.x));
    // Centred titles' right ends spread as far as their left edges; ranged right, they barely move.
    if (agree && spreadOf(ends) < 0.5 * left) for (const l of inset) out.add(l.h);
  }
  return out;
}

/** The features of every heading in a document's candidate list, in order. */
export function headingFeatures(headings: readonly Heading[], ctx: HeadingContext): HeadingFeatures[] {
  const byNumber = new Map(ctx.pages.map((p) => [p.pageNumber, p]));
  const margins = pageMargins(ctx.pages);
  const ranged = flushRight(
    headings,
    (h) => byNumber.get(h.page)?.lines[h.line],
    ctx.body.size,
    (h) => margins.get(h.page),
  );
  const titleCounts = new Map<string, number>();
  const stylePages = new Map<string, Set<number>>();
  const styleCounts = new Map<string, { all: number; listed: number }>();
  for (const h of headings) {
    const c = styleCounts.get(styleKey(h)) ?? { all: 0, listed: 0 };
    c.all += 1;
    if (h.tocLevel !== undefined) c.listed += 1;
    styleCounts.set(styleKey(h), c);
    const t = normalizeTitle(h.title);
    titleCounts.set(t, (titleCounts.get(t) ?? 0) + 1);
    const set = stylePages.get(styleKey(h)) ?? new Set<number>();
    set.add(h.page);
    stylePages.set(styleKey(h), set);
  }
  const pageCount = Math.max(1, ctx.pages.length);
  return headings.map((h) => {
    const page = byNumber.get(h.page);
    const line = page?.lines[h.line] as PdfLine | undefined;
    const words = h.title.split(/\s+/).filter(Boolean);
    const lower = words.filter((w) => /^\p{Ll}/u.test(w)).length;
    const n = h.numbering;
    const height = page?.height ?? 0;
    const top = page?.top ?? 0;
    return {
      sizeRatio: clip(h.style.size / ctx.body.size - 1, 0, 2),
      bold: flag(h.style.bold && !ctx.body.bold),
      italic: flag(h.style.italic),
      numbered: flag(n !== undefined),
      numberDepth: n?.kind === "dotted" ? Math.min(1, (n.depth ?? 1) / 3) : 0,
      inToc: flag(h.tocLevel !== undefined),
      missingFromToc:
        ctx.hasToc && h.tocLevel === undefined
          ? (styleCounts.get(styleKey(h))?.listed ?? 0) / (styleCounts.get(styleKey(h))?.all ?? 1)
          : 0,
      words: Math.min(1, words.length / 10),
      lowerWords: words.length === 0 ? 0 : lower / words.length,
      endsLikeSentence: flag(/[.!?:;,]$/.test(h.title.trim())),
      bareWord: flag(BARE_WORD.test(h.title.trim())),
      spaceAbove:
        line && h.line > 0 && line.gapBefore > 0
          ? clip(line.gapBefore / Math.max(1, ctx.body.leading) - 1, 0, 4)
          : 0,
      pageDepth: line && height > 0 ? clip((top - line.y) / height, 0, 1) : 0,
      indent:
        line && !ranged.has(h) ? clip((line.x - (margins.get(h.page) ?? line.x)) / ctx.body.size, 0, 4) : 0,
      repeated: flag((titleCounts.get(normalizeTitle(h.title)) ?? 0) > 1),
      stylePages: (stylePages.get(styleKey(h))?.size ?? 0) / pageCount,
      label: flag(h.label === true),
    };
  });
}

/** A feature row as numbers in {@link HEADING_FEATURE_NAMES} order. */
export function featureVector(f: HeadingFeatures): number[] {
  return HEADING_FEATURE_NAMES.map((n) => f[n]);
}

/** The model's probability that a candidate is a section heading, 0..1. */
export function headingScore(f: HeadingFeatures, model: HeadingModel = HEADING_MODEL): number {
  let z = model.bias;
  HEADING_FEATURE_NAMES.forEach((name, i) => {
    z += (model.weights[i] ?? 0) * f[name];
  });
  return 1 / (1 + Math.exp(-z));
}

/**
 * Fewer candidates than this and the model stays out: it was fitted on manuals of dozens to
 * hundreds of headings, and its document-wide features (how many pages a look covers, repeats,
 * what the contents lists of a look) say little about a handful.
 */
export const MIN_CANDIDATES = 30;

/**
 * Keeps the candidates the model takes for headings. A short document ({@link MIN_CANDIDATES}),
 * or one whose candidates the model would nearly all drop, keeps them all.
 */
export function keepLikelyHeadings(
  headings: readonly Heading[],
  ctx: HeadingContext,
  model: HeadingModel = HEADING_MODEL,
): Heading[] {
  if (headings.length < MIN_CANDIDATES) return [...headings];
  return keepByScores(
    headings,
    headingFeatures(headings, ctx).map((f) => headingScore(f, model)),
    model,
  );
}

/**
 * {@link keepLikelyHeadings} from each candidate's model score, already computed (the fitting
 * scripts score one document under many models).
 */
export function keepByScores(
  headings: readonly Heading[],
  scores: readonly number[],
  model: Pick<HeadingModel, "threshold" | "lookWeight">,
): Heading[] {
  if (headings.length < MIN_CANDIDATES) return [...headings];
  const looks = new Map<string, { sum: number; n: number }>();
  headings.forEach((h, i) => {
    const l = looks.get(styleKey(h)) ?? { sum: 0, n: 0 };
    l.sum += scores[i] as number;
    l.n += 1;
    looks.set(styleKey(h), l);
  });
  const blended = (h: Heading, i: number): number => {
    const l = looks.get(styleKey(h)) as { sum: number; n: number };
    return (1 - model.lookWeight) * (scores[i] as number) + model.lookWeight * (l.sum / l.n);
  };
  const kept = headings.filter((h, i) => blended(h, i) >= model.threshold);
  return kept.length >= 2 ? kept : [...headings];
}
