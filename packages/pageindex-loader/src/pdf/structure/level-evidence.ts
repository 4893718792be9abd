import type { PdfLine } from "../types.js";
import type { Heading } from "./candidates.js";
import { type HeadingContext, pageMargins } from "./heading-evidence.js";
import { type Relation, type RelationOf, type RelationState, ruleRelation } from "./hierarchy.js";
import { LEVEL_MODEL } from "./level-evidence-weights.js";
import { type Numbering, numberingClass, romanOrdinal } from "./numbering.js";
import { compareStyle } from "./style.js";

/**
 * What a pair of headings carries about their relative depth — an open heading `e` and the next
 * heading `h` — each a difference every document has (no producer names). A small model
 * (scripts/fit-level-evidence.ts, fitted on the train half of the split dev set) weighs them
 * into "h goes inside e", "siblings" or "e closes".
 */
export interface LevelFeatures {
  /** e's size minus h's, over the body size, clipped to -1..1 (positive: h is smaller). */
  sizeDiff: number;
  /** h is visibly smaller (0.9 pt or more). */
  smaller: number;
  /** h is visibly larger. */
  larger: number;
  /** e bold and h not (1), h bold and e not (-1). */
  boldDiff: number;
  /** e in capitals and h not (1), or the other way (-1). */
  capsDiff: number;
  /** h italic and e not (1), or the other way (-1). */
  italicDiff: number;
  /** Both listed in the printed table of contents, h at a deeper level. */
  tocDeeper: number;
  /** Both listed at one level. */
  tocSame: number;
  /** Both listed, h at a higher level. */
  tocShallower: number;
  /** Only e is listed. */
  onlyOpenToc: number;
  /** Only h is listed. */
  onlyNextToc: number;
  /** The TOC's next listed entry sits below e (what comes between is inside e). */
  tocChildFollows: number;
  /** Both carry dotted numbers, h's with more parts (2 → 2.1). */
  dottedDeeper: number;
  /** Both dotted with as many parts. */
  dottedSame: number;
  /** Both dotted, h's with fewer parts. */
  dottedShallower: number;
  /** h's keyword tier minus e's (Part 0, Chapter 1, …), clipped to -2..2, when both have one. */
  tierDiff: number;
  /** Only e opens with a strong keyword (Part, Chapter, Item). */
  onlyOpenKeyword: number;
  /** Only h opens with a strong keyword. */
  onlyNextKeyword: number;
  /** Both numbered in one class. */
  sameClass: number;
  /** Both numbered in different classes. */
  otherClass: number;
  /** h's numbering class is already open further up (it closes what is below). */
  nextClassOpen: number;
  /** Only e is numbered. */
  onlyOpenNumbered: number;
  /** Only h is numbered. */
  onlyNextNumbered: number;
  /** e is numbered, h is not, and e's series goes on after h. */
  seriesGoesOn: number;
  /** h's number follows e's (2.3 after 2.2, C after B). */
  successor: number;
  /** h's number opens a list (1, 2.1, A, I). */
  opensList: number;
  /** h's indentation minus e's, in body sizes, clipped to -2..2. */
  indentDiff: number;
  /** e is the heading placed just before h. */
  previous: number;
  /** e and h look alike (size, weight, capitals, slant). */
  sameLook: number;
}

/** The features in the order the weights use. */
export const LEVEL_FEATURE_NAMES = [
  "sizeDiff",
  "smaller",
  "larger",
  "boldDiff",
  "capsDiff",
  "italicDiff",
  "tocDeeper",
  "tocSame",
  "tocShallower",
  "onlyOpenToc",
  "onlyNextToc",
  "tocChildFollows",
  "dottedDeeper",
  "dottedSame",
  "dottedShallower",
  "tierDiff",
  "onlyOpenKeyword",
  "onlyNextKeyword",
  "sameClass",
  "otherClass",
  "nextClassOpen",
  "onlyOpenNumbered",
  "onlyNextNumbered",
  "seriesGoesOn",
  "successor",
  "opensList",
  "indentDiff",
  "previous",
  "sameLook",
] as const satisfies ReadonlyArray<keyof LevelFeatures>;

/** The three answers, in the order of {@link LevelModel}'s rows. */
export const RELATIONS: readonly Relation[] = ["higher", "same", "lower"];

/** Fitted one-vs-rest logistic weights: per relation in {@link RELATIONS} order, a bias and one weight per feature. */
export interface LevelModel {
  bias: readonly number[];
  weights: readonly (readonly number[])[];
  /**
   * The rules (hierarchy.ts) answer unless the model's likeliest relation is at least this
   * probable and says otherwise (1: rules only; 0: the model alone).
   */
  overrule: number;
}

const clip = (v: number, lo: number, hi: number): number => Math.min(hi, Math.max(lo, v));
const diff = (a: boolean, b: boolean): number => (a === b ? 0 : a ? 1 : -1);
const isKeyword = (n: Numbering | undefined): boolean => n?.kind === "keyword" && (n.tier ?? 9) <= 3;

/** A numbering's position in its list and the prefix it shares with siblings ("2.3" → 3 under "2"). */
function position(n: Numbering): { prefix: string; at: number } | undefined {
  if (n.kind === "dotted" || n.kind === "keyword") {
    const parts = n.value.split(".");
    const last = parts.pop() as string;
    const at = /^\d+$/.test(last)
      ? Number(last)
      : /^[A-Z]$/i.test(last)
        ? last.toUpperCase().charCodeAt(0) - 64
        : romanOrdinal(last);
    return { prefix: parts.join("."), at };
  }
  if (n.kind === "roman") return { prefix: "", at: romanOrdinal(n.value) };
  if (n.kind === "alpha" || n.kind === "alpha-lower") {
    return { prefix: "", at: n.value.toUpperCase().charCodeAt(0) - 64 };
  }
  const v = n.value;
  return {
    prefix: "",
    at: /^\d+$/.test(v)
      ? Number(v)
      : /^[a-z]$/i.test(v)
        ? v.toUpperCase().charCodeAt(0) - 64
        : romanOrdinal(v),
  };
}

/** Where each heading's first line starts past its page's usual margin, in body sizes. */
export function headingIndents(headings: readonly Heading[], ctx: HeadingContext): Map<Heading, number> {
  const byNumber = new Map(ctx.pages.map((p) => [p.pageNumber, p]));
  const margins = pageMargins(ctx.pages);
  const out = new Map<Heading, number>();
  for (const h of headings) {
    const line = byNumber.get(h.page)?.lines[h.line] as PdfLine | undefined;
    out.set(h, line ? (line.x - (margins.get(h.page) ?? line.x)) / ctx.body.size : 0);
  }
  return out;
}

/** The features of an open heading `e` and the next heading `h`. */
export function levelFeatures(
  e: Heading,
  h: Heading,
  state: RelationState,
  bodySize: number,
  indents: ReadonlyMap<Heading, number>,
): LevelFeatures {
  const en = e.numbering;
  const hn = h.numbering;
  const eToc = e.tocLevel !== undefined;
  const hToc = h.tocLevel !== undefined;
  const step = Math.abs(e.style.size - h.style.size) >= 0.9 ? Math.sign(e.style.size - h.style.size) : 0;
  const toc = eToc && hToc ? Math.sign((h.tocLevel as number) - (e.tocLevel as number)) : undefined;
  const dotted =
    en?.kind === "dotted" && hn?.kind === "dotted" ? Math.sign((hn.depth ?? 1) - (en.depth ?? 1)) : undefined;
  const sameClass = en !== undefined && hn !== undefined && numberingClass(en) === numberingClass(hn);
  const ep = en ? position(en) : undefined;
  const hp = hn ? position(hn) : undefined;
  return {
    sizeDiff: clip((e.style.size - h.style.size) / bodySize, -1, 1),
    smaller: step > 0 ? 1 : 0,
    larger: step < 0 ? 1 : 0,
    boldDiff: diff(e.style.bold, h.style.bold),
    capsDiff: diff(e.style.caps, h.style.caps),
    italicDiff: diff(h.style.italic, e.style.italic),
    tocDeeper: toc === 1 ? 1 : 0,
    tocSame: toc === 0 ? 1 : 0,
    tocShallower: toc === -1 ? 1 : 0,
    onlyOpenToc: eToc && !hToc ? 1 : 0,
    onlyNextToc: hToc && !eToc ? 1 : 0,
    tocChildFollows:
      eToc && !hToc && state.nextTocLevel !== undefined && state.nextTocLevel > (e.tocLevel as number)
        ? 1
        : 0,
    dottedDeeper: dotted === 1 ? 1 : 0,
    dottedSame: dotted === 0 ? 1 : 0,
    dottedShallower: dotted === -1 ? 1 : 0,
    tierDiff:
      en?.kind === "keyword" && hn?.kind === "keyword" ? clip((hn.tier ?? 9) - (en.tier ?? 9), -2, 2) : 0,
    onlyOpenKeyword: isKeyword(en) && !isKeyword(hn) ? 1 : 0,
    onlyNextKeyword: isKeyword(hn) && !isKeyword(en) ? 1 : 0,
    sameClass: sameClass ? 1 : 0,
    otherClass: en && hn && !sameClass ? 1 : 0,
    nextClassOpen: hn && !sameClass && state.openClasses.has(numberingClass(hn)) ? 1 : 0,
    onlyOpenNumbered: en && !hn ? 1 : 0,
    onlyNextNumbered: hn && !en ? 1 : 0,
    seriesGoesOn: en && !hn && state.series(numberingClass(en)) ? 1 : 0,
    successor: sameClass && ep && hp && ep.prefix === hp.prefix && hp.at === ep.at + 1 ? 1 : 0,
    opensList: hp && hp.at <= 1 ? 1 : 0,
    indentDiff: clip((indents.get(h) ?? 0) - (indents.get(e) ?? 0), -2, 2),
    previous: state.previous ? 1 : 0,
    sameLook: compareStyle(e.style, h.style) === 0 ? 1 : 0,
  };
}

/** A feature row as numbers in {@link LEVEL_FEATURE_NAMES} order. */
export function levelVector(f: LevelFeatures): number[] {
  return LEVEL_FEATURE_NAMES.map((n) => f[n]);
}

/** Each relation's one-vs-rest probability, in {@link RELATIONS} order. */
export function relationScores(f: LevelFeatures, model: LevelModel = LEVEL_MODEL): number[] {
  const x = levelVector(f);
  return RELATIONS.map((_, k) => {
    const w = model.weights[k] ?? [];
    const z = x.reduce((s, v, i) => s + v * (w[i] ?? 0), model.bias[k] ?? 0);
    return 1 / (1 + Math.exp(-z));
  });
}

/**
 * The relation the level model finds likeliest between an open heading and the next one, for
 * {@link nestHeadings}' stack. Repeated labels ("Arguments", "Returns") stay under the entry
 * before them whatever their look: they were marked so by the document's own repetition.
 */
export function levelRelation(
  headings: readonly Heading[],
  ctx: HeadingContext,
  model: LevelModel = LEVEL_MODEL,
): RelationOf {
  const indents = headingIndents(headings, ctx);
  return (e, h, state) => {
    if (e.label !== h.label) return h.label ? "higher" : "lower";
    if (e.label) return "same";
    const rules = ruleRelation(e, h, state);
    const scores = relationScores(levelFeatures(e, h, state, ctx.body.size, indents), model);
    let best = 0;
    scores.forEach((s, k) => {
      if (s > (scores[best] as number)) best = k;
    });
    return (scores[best] as number) >= model.overrule ? (RELATIONS[best] as Relation) : rules;
  };
}
