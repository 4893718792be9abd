import type { SectionEntry } from "../types.js";
import { DOUBTED, type LayoutConfidence } from "./confidence.js";
import { numberingClass, parseNumbering } from "./numbering.js";
import { stripNumbering } from "./titles.js";
import { EVIDENCE_MODEL } from "./tree-evidence-weights.js";

/**
 * What every document carries that says whether a layout tree (outline hidden) is right, each
 * 0..1: the measured facts a small logistic model weighs (scripts/fit-tree-evidence.ts fits the
 * weights on the train half of the split dev set; tree-evidence-weights.ts holds them).
 */
export interface TreeFeatures {
  /**
   * Share of a printed table of contents' entries that match no body heading (0 without a
   * printed TOC: a short document without one is no disagreement).
   */
  tocMismatch: number;
  /** Share of top-level titles that are a bare word ("ONE", "CHAPTER", "Contents"). */
  wordTitles: number;
  /**
   * Share of top-two-level titles that read like a sentence or a list item, not a title; a title
   * the printed contents lists is a title whatever its words ("1.1 Joining the team as a packager").
   */
  listLike: number;
  /**
   * The tree is one wrapper: a single top entry, a top entry like "Version 1.04", or a first one
   * holding sections whose title ends in a version ("Manual v0.32": the title page's).
   */
  wrapper: number;
  /** Share of top-level titles carrying a number ("3", "2.1", "B"). */
  numbered: number;
  /** Headings of one look sit at one depth (the layout confidence's `depth`). */
  depth: number;
  /** Numbered headings nest as their numbers say (the layout confidence's `numbering`). */
  numbering: number;
  /**
   * Share of top-two-level titles (numbering aside) that repeat the title just before them: a
   * chapter's title read again as its first section, a label read twice.
   */
  repeatedTitles: number;
  /** Share of top-two-level titles opening with a symbol ("&optional error"): code, not titles. */
  symbolTitles: number;
  /**
   * Pages per top-two-level node, over 10, clipped to 1: a manual whose sections were missed
   * has a heading every dozen pages or fewer (0 when the page count is not given).
   */
  sparse: number;
  /** Share of heading candidates the per-heading model set aside (0 when it stayed out). */
  dropped: number;
  /**
   * Share of top-two-level titles found more than once among them, anywhere, numbers included: a
   * company name or a label on every page read as a heading.
   */
  recurring: number;
  /**
   * Share of top-two-level nodes whose unnumbered title sits under three sections or more and
   * twice under one of them: a running head or footer (a company name) read as a section on each
   * page, which no author's label does (a chapter's "Exercises" is under each chapter once).
   */
  pageLabels: number;
  /**
   * Share of numbered top-level titles whose number an earlier top-level title already carries
   * ("1. Installation" after "1. About", "2. E" beside "2. EXAMPLE USES"): chapters count on, so a
   * top level that counts again holds each chapter's sections, or titles read twice.
   */
  repeatedNumbers: number;
  /**
   * Share of top-level titles numbered as sections ("1.1", "2.3") of a chapter no earlier
   * top-level title carries: a flat tree where the numbering nests, each chapter's heading
   * missed and its sections read as chapters. Chapters numbered 0 ("0.0.1 Preface", sections
   * set before the first chapter) are no chapter to miss.
   */
  orphanSections: number;
  /**
   * Share of a printed table of contents' entries found as headings, when it lists
   * {@link CONTENTS_ENTRIES} or more (else 0): levels a read contents settles are less often
   * wrong, so headings of one look at two depths say less there.
   */
  contents: number;
}

/** The size of what the tree was built from, for the features that compare it with the tree. */
export interface TreeSource {
  pages: number;
  /** Heading candidates, and how many of them the per-heading model kept. */
  candidates: number;
  kept: number;
}

/** The features in the order the weights use. */
export const FEATURE_NAMES = [
  "tocMismatch",
  "wordTitles",
  "listLike",
  "wrapper",
  "numbered",
  "depth",
  "numbering",
  "repeatedTitles",
  "symbolTitles",
  "sparse",
  "dropped",
  "recurring",
  "pageLabels",
  "repeatedNumbers",
  "orphanSections",
  "contents",
] as const satisfies ReadonlyArray<keyof TreeFeatures>;

/**
 * Fitted logistic weights: a bias, one weight per feature in {@link FEATURE_NAMES} order, and the
 * cut below which the model's probability alone puts a tree under the warning line.
 */
export interface EvidenceModel {
  bias: number;
  weights: readonly number[];
  cut: number;
}

/**
 * Number words and labels that are no title alone ("ONE" over "INTRODUCTION", "CHAPTER").
 * "Index" and "Preface" are not among them: on the train half they are a top-level section of
 * every tree that has them as one word, and doubted 12 trees of which 10 were good.
 */
const BARE_WORD =
  /^(?:one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|chapter|part|appendix|section|contents|lecture)$/i;
/** A wrapper's title: a version or release line. */
const VERSION = /^(?:version|release|revision|v)\s*\.?\s*\d/i;
/** A title page's title read as the first section: a name ending in its version ("Manual v0.32", "DocBook V5.0"). */
const VERSIONED = /\b(?:v|version\s*)\d+(?:\.\d+)+\s*$/i;

/**
 * A title that reads like running text: many words, or a numbered item that goes on as a
 * sentence. Its numbering and dashes are no words, and a question is a FAQ's heading, not prose.
 */
function sentenceLike(title: string): boolean {
  if (/\?\s*$/.test(title)) return false;
  const words = stripNumbering(title)
    .split(/\s+/)
    .filter((w) => /[\p{L}\p{N}]/u.test(w));
  if (words.length >= 10) return true;
  // "2. Manipulating column data is done by e.g.": a list item, lower-case words and an abbreviation.
  if (/\b(?:e\.g|i\.e|etc|cf)\.?$/i.test(title) || /[,;:]$/.test(title)) return true;
  const lower = words.filter((w) => /^\p{Ll}/u.test(w)).length;
  return words.length >= 6 && lower >= words.length * 0.7;
}

const share = (n: number, of: number): number => (of === 0 ? 0 : n / of);

/** A title as compared with others (recurrence, the printed contents): spacing and case folded. */
const titleKey = (t: string): string => t.replace(/\s+/g, " ").trim().toLowerCase();

/**
 * Share of top-two-level nodes whose title is the one just before it in reading order, numbering
 * aside where one of the two has none: a chapter's title again under it, a label twice in a row.
 * ("1.1 Details" after "2.1 Details" are two sections; the same title under two parents,
 * "Observer" in a guide and in a reference, is no doubt.)
 */
function repeatedShare(entries: readonly SectionEntry[]): number {
  // Case counts: a guide's "Observer" chapter and the reference's "observer" module are two.
  const key = (t: string): string => stripNumbering(t).replace(/\s+/g, " ").trim();
  const flat = entries.flatMap((e) => [e, ...e.children]).map((e) => e.title);
  const repeats = (a: string, b: string): boolean =>
    key(a) !== "" &&
    key(a) === key(b) &&
    (parseNumbering(a) === undefined || parseNumbering(b) === undefined);
  const repeated = flat.filter((t, i) => i > 0 && repeats(t, flat[i - 1] as string));
  return share(repeated.length, flat.length);
}

/** A title opening with a symbol ("&optional error", "-x", "(define"): code or a parameter, not a title. */
const SYMBOL_START = /^[^\p{L}\p{N}"'“‘(]/u;

/**
 * Share of titles (spacing and case folded) that occur more than once. Numbering counts: "1.1
 * Details" and "2.1 Details" are two sections of a manual, a company name on every page is not.
 */
function recurringShare(entries: readonly SectionEntry[]): number {
  const perTopic = topicSet(entries);
  // A page rendered twice (a man page under each of its names) repeats its whole subtree: a copy,
  // not a label on every page.
  const outline = (e: SectionEntry): string =>
    `${titleKey(e.title)}\n${e.children.map((c) => titleKey(c.title)).join("\n")}`;
  const copies = new Map<string, number>();
  for (const e of entries)
    if (e.children.length >= 2) copies.set(outline(e), (copies.get(outline(e)) ?? 0) + 1);
  const keys = entries.flatMap((e) => [
    ...((copies.get(outline(e)) ?? 0) > 1 ? [] : [titleKey(e.title)]),
    ...e.children.map((c) => titleKey(c.title)).filter((k) => !perTopic.has(k)),
  ]);
  const counts = new Map<string, number>();
  for (const k of keys) counts.set(k, (counts.get(k) ?? 0) + 1);
  return share(keys.filter((k) => k !== "" && (counts.get(k) ?? 0) > 1).length, keys.length);
}

/** Share of numbered titles whose number (numbering kind and value) an earlier one carries. */
function repeatedNumberShare(titles: readonly string[]): number {
  const seen = new Set<string>();
  let numbered = 0;
  let again = 0;
  for (const t of titles) {
    const n = parseNumbering(t);
    if (!n) continue;
    const key = `${numberingClass(n)} ${n.value.toUpperCase()}`;
    numbered++;
    if (seen.has(key)) again++;
    seen.add(key);
  }
  return share(again, numbered);
}

/**
 * Share of titles numbered as a section ("2.1") whose chapter ("2") no earlier title carries
 * ({@link TreeFeatures.orphanSections}).
 */
function orphanShare(titles: readonly string[]): number {
  const carried = new Set<string>();
  let orphans = 0;
  for (const t of titles) {
    // An appendix's letter reads as no number ("A Grammar"), yet carries its "A.1".
    carried.add((t.trim().split(/\s+/)[0] ?? "").replace(/\.$/, "").toUpperCase());
    const n = parseNumbering(t);
    if (!n) continue;
    const chapter = n.value.split(".").slice(0, -1).join(".");
    if (
      n.kind === "dotted" &&
      chapter !== "" &&
      !/^[0.]+$/.test(chapter) &&
      !carried.has(chapter.toUpperCase())
    )
      orphans++;
    carried.add(n.value.toUpperCase());
  }
  return share(orphans, titles.length);
}

/** A label under this many sections or more, and twice under one, is read off the pages. */
const LABEL_PARENTS = 3;

/**
 * Second-level titles (by {@link titleKey}; those `skip` names left out): under how many
 * top-level entries each sits, and which sit twice or more under one.
 */
function childTitles(
  entries: readonly SectionEntry[],
  skip: (t: string) => boolean = () => false,
): { parents: Map<string, number>; twice: Set<string> } {
  const parents = new Map<string, number>();
  const twice = new Set<string>();
  for (const e of entries) {
    const seen = new Set<string>();
    for (const c of e.children) {
      if (skip(c.title)) continue;
      const k = titleKey(c.title);
      if (seen.has(k)) twice.add(k);
      seen.add(k);
    }
    for (const k of seen) parents.set(k, (parents.get(k) ?? 0) + 1);
  }
  return { parents, twice };
}

/** Share of the top two levels' nodes titled by a label read off the pages ({@link TreeFeatures.pageLabels}). */
function pageLabelShare(entries: readonly SectionEntry[]): number {
  const { parents, twice } = childTitles(entries, (t) => parseNumbering(t) !== undefined);
  const labels = new Set([...twice].filter((k) => k !== "" && (parents.get(k) ?? 0) >= LABEL_PARENTS));
  const flat = entries.flatMap((e) => [e, ...e.children]);
  return share(flat.filter((e) => labels.has(titleKey(e.title))).length, flat.length);
}

/** Fewer top-level entries than this share no set of section heads worth the name. */
const MIN_TOPICS = 2;
/** A set of section heads is this many titles at least (NAME, SYNOPSIS, DESCRIPTION). */
const SET_SIZE = 3;

/**
 * Second-level titles a manual of topics repeats under its topics (a man page's NAME, SYNOPSIS,
 * EXAMPLES under each page's title), never twice under one: the outline's convention, not a label
 * read as a section, so no recurrence. A tree is of topics when {@link SET_SIZE} such titles or
 * more are each under half its top-level entries or more.
 */
function topicSet(entries: readonly SectionEntry[]): Set<string> {
  const out = new Set<string>();
  if (entries.length < MIN_TOPICS) return out;
  const { parents, twice } = childTitles(entries);
  const once = [...parents].filter(([k]) => !twice.has(k));
  // A set, not one label: a company name under every chapter is still a name read as a section.
  if (once.filter(([, n]) => n >= Math.max(MIN_TOPICS, entries.length / 2)).length < SET_SIZE) return out;
  for (const [k] of once) out.add(k);
  return out;
}

/**
 * What a printed table of contents says of the tree: how many entries it has, how many were found
 * in the body, and (optionally) the titles of those found.
 */
export interface TocEvidence {
  entries: number;
  located: number;
  /** The located entries' titles as the tree carries them (their headings' titles). */
  titles?: readonly string[];
}

/** A printed contents this long or longer is one the tree's levels can be read from. */
const CONTENTS_ENTRIES = 5;

/** The features of a layout tree. */
export function treeFeatures(
  entries: readonly SectionEntry[],
  confidence: Pick<LayoutConfidence, "depth" | "numbering">,
  toc: TocEvidence | undefined,
  source?: TreeSource,
): TreeFeatures {
  const top = entries.map((e) => e.title);
  const topTwo = entries.flatMap((e) => [e.title, ...e.children.map((c) => c.title)]);
  // A long or lower-case title the contents prints is the author's title, not a list item read as one.
  const listed = new Set((toc?.titles ?? []).map(titleKey));
  const unlisted = (t: string): boolean => !listed.has(titleKey(t));
  const first = entries[0];
  const single = entries.length === 1 && (first?.children.length ?? 0) > 0;
  const titlePage = first !== undefined && first.children.length > 0 && VERSIONED.test(first.title.trim());
  return {
    tocMismatch: toc && toc.entries > 0 ? 1 - Math.min(1, toc.located / toc.entries) : 0,
    wordTitles: share(top.filter((t) => BARE_WORD.test(t.trim())).length, top.length),
    listLike: share(topTwo.filter((t) => sentenceLike(t) && unlisted(t)).length, topTwo.length),
    wrapper: single || titlePage || top.some((t) => VERSION.test(t.trim())) ? 1 : 0,
    numbered: share(top.filter((t) => parseNumbering(t) !== undefined).length, top.length),
    depth: confidence.depth,
    numbering: confidence.numbering,
    repeatedTitles: repeatedShare(entries),
    symbolTitles: share(topTwo.filter((t) => SYMBOL_START.test(t.trim())).length, topTwo.length),
    sparse: source ? Math.min(1, source.pages / Math.max(1, topTwo.length) / 10) : 0,
    dropped: source && source.candidates > 0 ? 1 - source.kept / source.candidates : 0,
    recurring: recurringShare(entries),
    pageLabels: pageLabelShare(entries),
    repeatedNumbers: repeatedNumberShare(top),
    orphanSections: orphanShare(top),
    contents: toc && toc.entries >= CONTENTS_ENTRIES ? Math.min(1, toc.located / toc.entries) : 0,
  };
}

/** The model's probability that the tree is right, 0..1. */
export function evidenceScore(features: TreeFeatures, model: EvidenceModel = EVIDENCE_MODEL): number {
  let z = model.bias;
  FEATURE_NAMES.forEach((name, i) => {
    z += (model.weights[i] ?? 0) * features[name];
  });
  return 1 / (1 + Math.exp(-z));
}

/** A top level whose numbers repeat this often is in doubt. */
const REPEATED_NUMBERS = 0.2;

/** A top level this much made of sections without their chapter is in doubt. */
const ORPHAN_SECTIONS = 0.5;

/** Why the evidence disagrees, in words, for a warning: the facts that pulled the score down. */
export function evidenceDoubts(features: TreeFeatures): string[] {
  const out: string[] = [];
  if (features.tocMismatch >= 0.5) out.push("most printed contents entries match no heading");
  if (features.wordTitles > 0) out.push('top-level titles that are bare words ("ONE", "CHAPTER")');
  if (features.listLike >= 0.1) out.push("titles that read like list items or sentences");
  if (features.wrapper > 0) out.push('one wrapper node (a title page or a "Version" line) holds the tree');
  // Above what good train trees show (Erlang's guides repeat a chapter's title once: up to 0.14).
  if (features.repeatedTitles >= 0.15)
    out.push("titles that repeat the one before them (a running head or a label read as a section)");
  if (features.pageLabels > 0)
    out.push(
      "a title under several sections and twice under one (a running head or footer read as a section)",
    );
  // No good train or TRAIN_EXTRA tree reaches the line; XMLStarlet's and NRPE's flat trees do.
  if (features.repeatedNumbers >= REPEATED_NUMBERS)
    out.push(
      'top-level numbers that count again ("1. About", then "1. Installation"): sections read as chapters',
    );
  // Train and TRAIN_EXTRA (contents read or not): 8 bad trees from 0.86 up, no good one above 0.23.
  if (features.orphanSections >= ORPHAN_SECTIONS)
    out.push(
      'top-level titles numbered as sections ("1.1", "1.2") with no chapter above them: the chapters\' headings were missed',
    );
  if (features.symbolTitles >= 0.1)
    out.push('titles that open with a symbol ("&optional"): code read as headings');
  return out;
}

/** The features the model weighs that a warning can name, in words. */
const MODEL_DOUBTS: Partial<Record<(typeof FEATURE_NAMES)[number], (f: TreeFeatures) => string>> = {
  dropped: (f) =>
    `the heading model set aside ${Math.round(100 * f.dropped)} % of the heading-like lines (sections may be missing)`,
  sparse: () => "few sections for the document's length (sections may be missing)",
  recurring: () => "titles that recur in the tree (a name or label on many pages read as a section)",
  tocMismatch: () => "printed contents entries that match no heading",
  listLike: () => "titles that read like list items or sentences",
  numbered: () => "few top-level titles carry a number (nothing in the titles confirms their depth)",
  depth: () => "headings of one look sit at different depths",
  contents: (f) =>
    f.contents === 0
      ? "no printed table of contents was read to confirm the levels"
      : "the printed table of contents matches few headings",
};

/** Features that confirm a tree rather than disagree with it: their lack is said after a disagreement. */
const CONFIRMING: ReadonlySet<(typeof FEATURE_NAMES)[number]> = new Set(["contents"]);

/**
 * The words for a tree the model alone puts below its cut: the named features that pulled its
 * score down most against their best value (a weight times how far the feature is from the value
 * that raises the score most, 1 for a positive weight and 0 for a negative one), most first, a
 * missing confirmation ({@link CONFIRMING}) after what disagrees.
 */
function modelDoubts(features: TreeFeatures, model: EvidenceModel): string[] {
  const pulls = FEATURE_NAMES.map((name, i) => {
    const w = model.weights[i] ?? 0;
    return { name, pull: w * (features[name] - (w > 0 ? 1 : 0)) };
  })
    .filter((p) => p.pull < -1e-9 && MODEL_DOUBTS[p.name])
    .sort((a, b) => Number(CONFIRMING.has(a.name)) - Number(CONFIRMING.has(b.name)) || a.pull - b.pull)
    .slice(0, 2);
  const words = pulls.map((p) => (MODEL_DOUBTS[p.name] as (f: TreeFeatures) => string)(features));
  return words.length > 0 ? words : ["its evidence resembles that of wrong trees"];
}

/** What the evidence says of a tree: its score (1 when not in doubt) and why, in words. */
export interface EvidenceVerdict {
  /** The model's probability, at most {@link DOUBTED} when in doubt; 1 when not in doubt. */
  score: number;
  doubts: string[];
}

/**
 * Weighs a tree's evidence as the loader does: a named doubt ({@link evidenceDoubts}) or a model
 * probability below the fitted cut puts the tree just below the warning line or lower, and says
 * why; otherwise the evidence does not lower the tree's confidence (a short manual without a
 * printed TOC is not warned for lack of proof).
 */
export function weighEvidence(
  features: TreeFeatures,
  model: EvidenceModel = EVIDENCE_MODEL,
): EvidenceVerdict {
  const named = evidenceDoubts(features);
  const p = evidenceScore(features, model);
  if (named.length === 0 && p >= model.cut) return { score: 1, doubts: [] };
  return { score: Math.min(p, DOUBTED), doubts: named.length > 0 ? named : modelDoubts(features, model) };
}
