import type { SectionEntry } from "../types.js";
import type { Heading } from "./candidates.js";
import { numberingClass } from "./numbering.js";
import { compareStyle } from "./style.js";

/** How an open heading relates to the next one: `higher` (the next goes inside it), `same` (siblings) or `lower` (it closes). */
export type Relation = "higher" | "same" | "lower";

/** What the stack knows when it asks how an open heading relates to the next one. */
export interface RelationState {
  /** Numbering classes of the open headings. */
  openClasses: ReadonlySet<string>;
  /** Whether a heading of this numbering class comes after the one being placed. */
  series: (numberingClass: string) => boolean;
  /** The TOC level of the next heading the printed TOC placed, after the one being placed. */
  nextTocLevel: number | undefined;
  /** Whether the open heading is the one placed just before (the top of the stack, nothing between). */
  previous: boolean;
  /**
   * Whether the next heading is set in a look the printed contents lists (almost) no heading of, while
   * {@link UNLISTED_RUN} or more headings share it: a level below the contents' own.
   */
  unlistedLook?: boolean;
}

/** Decides how an open heading `open` relates to the next heading `next`. */
export type RelationOf = (open: Heading, next: Heading, state: RelationState) => Relation;

const invert = (c: -1 | 0 | 1): Relation => (c < 0 ? "higher" : c > 0 ? "lower" : "same");

/**
 * How an open heading `e` relates to a new heading `h`: `higher` (h goes inside e), `same`
 * (siblings) or `lower` (e closes). Evidence, strongest first: printed-TOC levels; keyword
 * tiers (PART ⊃ Item); dotted depth (2 ⊃ 2.1); for two different numbering kinds, the kind
 * already open higher up is the outer one (I. ⊃ A. ⊃ 1.); otherwise size, weight, capitals.
 */
function relation(
  e: Heading,
  h: Heading,
  openClasses: ReadonlySet<string>,
  series: SeriesGoesOn,
  nextTocLevel: number | undefined,
  unlistedLook: boolean,
): Relation {
  // Repeated labels ("Arguments", "Returns") sit under the entry before them, side by side.
  if (e.label !== h.label) return h.label ? "higher" : "lower";
  if (e.label) return "same";
  const eToc = e.tocLevel !== undefined;
  const hToc = h.tocLevel !== undefined;
  if (eToc && hToc) return invert(Math.sign((e.tocLevel as number) - (h.tocLevel as number)) as -1 | 0 | 1);
  // TOC entries are the backbone: other headings nest under them, never above them.
  if (!eToc && hToc) return "lower";
  // The TOC's next entry is a child of e ("Prefaces" set large between "Part I" and its "1
  // Introduction"): what comes between is inside e too.
  if (eToc && nextTocLevel !== undefined && nextTocLevel > (e.tocLevel as number)) return "higher";
  // A heading of a look the contents never lists is below every level it lists, however large
  // it is set (Ikarus's "port-mode ⇥ procedure" entries at 16.5 pt under "3.1 Parameters" at 15).
  if (eToc && !hToc && unlistedLook) return "higher";
  const r = lookRelation(e, h, openClasses, series);
  // A numbered heading set as the contents' entries are but not listed there sits inside the entry
  // before it (a preface's sections numbered 1 to 4, a licence's clauses): the contents lists every
  // numbered heading of its levels. Not one numbered in the entry's own series ("13" after "12": the
  // contents reader may have missed a page's entries), nor an unnumbered one (an "Index" the
  // contents leaves out is still a chapter's sibling).
  if (eToc && r === "same" && h.numbering && !inOneSeries(e, h)) return "higher";
  return eToc && r === "lower" ? "same" : r;
}

type SeriesGoesOn = RelationState["series"];

/** Both numbered in one numbering (dotted numbers of one depth, or one keyword's, one list's). */
function inOneSeries(a: Heading, b: Heading): boolean {
  const an = a.numbering;
  const bn = b.numbering;
  if (!an || !bn || numberingClass(an) !== numberingClass(bn)) return false;
  return an.kind !== "dotted" || an.depth === bn.depth;
}

/** Size and weight alike (capitals and italics are a title's own spelling). */
const sameLook = (a: Heading, b: Heading): boolean =>
  compareStyle({ ...a.style, caps: false, italic: false }, { ...b.style, caps: false, italic: false }) === 0;

/** The rules of this module as a {@link RelationOf}: printed-TOC levels, keywords, numbering, then look. */
export const ruleRelation: RelationOf = (open, next, state) =>
  relation(open, next, state.openClasses, state.series, state.nextTocLevel, state.unlistedLook === true);

function lookRelation(
  e: Heading,
  h: Heading,
  openClasses: ReadonlySet<string>,
  series: SeriesGoesOn,
): Relation {
  const en = e.numbering;
  const hn = h.numbering;
  const eKey = en?.kind === "keyword" && (en.tier ?? 9) <= 3;
  const hKey = hn?.kind === "keyword" && (hn.tier ?? 9) <= 3;
  if (en?.kind === "keyword" && hn?.kind === "keyword") {
    return invert(Math.sign((en.tier as number) - (hn.tier as number)) as -1 | 0 | 1);
  }
  // A keyword series that has ended ("Appendix B", the last one) holds no unnumbered heading of
  // its own look after it: "Index", set as the appendices are, is their sibling.
  if (eKey && !hn && !series(numberingClass(en)) && sameLook(e, h)) return "same";
  if (eKey !== hKey) return eKey ? "higher" : "lower";
  if (en?.kind === "dotted" && hn?.kind === "dotted") {
    return invert(Math.sign((en.depth as number) - (hn.depth as number)) as -1 | 0 | 1);
  }
  if (en && hn && numberingClass(en) !== numberingClass(hn)) {
    return openClasses.has(numberingClass(hn)) ? "lower" : "higher";
  }
  // With only one of them numbered, or both in one numbering ("III CIDER" beside "IV
  // Miscellaneous"), capitals are the title's own spelling ("GNU GENERAL PUBLIC LICENSE" beside
  // "2 Arrays" in one font), not a rank: size and weight decide.
  const sameSeries = en !== undefined && hn !== undefined && numberingClass(en) === numberingClass(hn);
  const byStyle =
    !en !== !hn || sameSeries
      ? compareStyle({ ...e.style, caps: false, italic: false }, { ...h.style, caps: false, italic: false })
      : compareStyle(e.style, h.style);
  if (byStyle !== 0) return invert(byStyle);
  // Alike in look, unnumbered: a running head naming one of them, and still naming it on a page
  // after the other, puts the other inside it (sections and subsections set alike); a heading a
  // head names closes whatever no head names.
  if (!en && !hn && h.headLevel === "named" && e.headLevel !== "named") return "lower";
  if (!en && !hn && e.headLevel === "named" && h.headLevel === "inside") return "higher";
  // Same look, only one numbered: inside a numbered series ("Note 1 –", its sub-headings,
  // "Note 2 –") the unnumbered heading belongs to the numbered one; after the series has
  // ended ("Acknowledgments" after the last numbered section) it is a sibling.
  if (en && !hn && series(numberingClass(en))) return "higher";
  // …and the next member of that series closes it ("Note 13" after Note 12's sub-headings).
  if (!en && hn && openClasses.has(numberingClass(hn))) return "lower";
  return "same";
}

/**
 * What the stack needs to know ahead about a heading sequence: the index of each numbering
 * class's last heading, and for each heading the TOC level of the next one the TOC placed.
 */
export function sequenceFacts(headings: readonly Heading[]): {
  lastOfClass: Map<string, number>;
  nextToc: (number | undefined)[];
} {
  const lastOfClass = new Map<string, number>();
  headings.forEach((h, i) => {
    if (h.numbering) lastOfClass.set(numberingClass(h.numbering), i);
  });
  const nextToc = new Array<number | undefined>(headings.length);
  let upcoming: number | undefined;
  for (let i = headings.length - 1; i >= 0; i--) {
    nextToc[i] = upcoming;
    upcoming = headings[i]?.tocLevel ?? upcoming;
  }
  return { lastOfClass, nextToc };
}

/** Fewest unlisted headings of one look that make it a level below the contents'. */
export const UNLISTED_RUN = 3;
/**
 * Most listed headings of such a look, per unlisted one: a contents entry placed by chance on a
 * line of that look (two of Ikarus's 56 entry lines) does not make the look a listed level.
 */
const STRAY_LISTED = 0.1;

/** A heading's size and weight, as one key (half-point sizes). */
const lookKey = (h: Heading): string => `${Math.round(h.style.size * 2)}${h.style.bold ? "b" : ""}`;

/**
 * Per heading, whether its look is one the printed contents lists (almost) no heading of while
 * {@link UNLISTED_RUN} or more headings share it (all false without a placed contents).
 */
export function unlistedLooks(headings: readonly Heading[]): boolean[] {
  const listed = new Map<string, number>();
  const unlisted = new Map<string, number>();
  for (const h of headings) {
    const counts = h.tocLevel !== undefined ? listed : unlisted;
    counts.set(lookKey(h), (counts.get(lookKey(h)) ?? 0) + 1);
  }
  return headings.map((h) => {
    const out = unlisted.get(lookKey(h)) ?? 0;
    return listed.size > 0 && out >= UNLISTED_RUN && (listed.get(lookKey(h)) ?? 0) <= out * STRAY_LISTED;
  });
}

/** Indentation this close is the same margin. */
export const SAME_MARGIN = 4;

/**
 * Whether `h` sits at or left of `open`'s margin while `open`'s children are indented past it;
 * or, unnumbered, at its children's margin in `open`'s weight and not theirs: a contents sets an
 * unnumbered chapter's title ("Index", "References") where the numbered chapters' titles start,
 * past their numbers, which is where their sections' numbers start (LaTeX's and dblatex's
 * contents: "16 General information" bold, "16.1 Authors" roman, "Index" bold at 16.1's margin).
 */
function outdented(open: Open, h: Heading, indent: (h: Heading) => number): boolean {
  const own = indent(open.heading);
  const child = open.firstChild as Heading;
  if (indent(child) <= own + SAME_MARGIN) return false;
  if (indent(h) <= own + SAME_MARGIN) return true;
  return (
    open.heading.numbering !== undefined &&
    Math.abs(indent(h) - indent(child)) <= SAME_MARGIN &&
    h.style.bold === open.heading.style.bold &&
    child.style.bold !== h.style.bold
  );
}

interface Open {
  heading: Heading;
  entry: SectionEntry;
  /** Set when the heading nests under a numbered one only because that series goes on after it. */
  seriesOf?: string;
  /** The first heading placed inside it. */
  firstChild?: Heading;
}

/** Options for {@link nestHeadings}. */
export interface NestOptions {
  /**
   * An unnumbered heading inside a numbered series of the same look nests under the numbered
   * one (default true). Off for a printed TOC, where the same indentation means siblings.
   */
  seriesParents?: boolean;
  /**
   * Each heading's indentation, for a printed TOC: once an entry's children are indented further
   * than it, a later unnumbered line indented no further than the entry is not inside it ("Index"
   * at the chapters' margin after "3.3", even though the chapters are bold and it is not).
   */
  indent?: (h: Heading) => number;
  /** How an open heading relates to the next one (default: the rules of this module). */
  relation?: RelationOf;
}

/**
 * Nests headings (in document order) into a tree with a stack of open headings. Linear in
 * the number of headings times the depth.
 */
export function nestHeadings(headings: readonly Heading[], options: NestOptions = {}): SectionEntry[] {
  const roots: SectionEntry[] = [];
  const stack: Open[] = [];
  const classCounts = new Map<string, number>();
  const openClasses = new Set<string>();
  const pop = (): void => {
    const top = stack.pop();
    const n = top?.heading.numbering;
    if (!n) return;
    const c = numberingClass(n);
    const left = (classCounts.get(c) ?? 1) - 1;
    classCounts.set(c, left);
    if (left <= 0) openClasses.delete(c);
  };
  const { lastOfClass, nextToc } = sequenceFacts(headings);
  const unlisted = unlistedLooks(headings);
  headings.forEach((h, i) => {
    const series: SeriesGoesOn = (c) => options.seriesParents !== false && (lastOfClass.get(c) ?? -1) > i;
    const entry: SectionEntry = { title: h.title, page: h.page, line: h.line, children: [] };
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as Open;
      // Past the series' last member, its unnumbered followers are no longer inside it.
      if (!h.numbering && top.seriesOf !== undefined && !series(top.seriesOf)) {
        pop();
        continue;
      }
      // Numbered lines go by their numbers (a TOC page's margin may shift from page to page).
      if (options.indent && !h.numbering && top.firstChild && outdented(top, h, options.indent)) {
        pop();
        continue;
      }
      const r = (options.relation ?? ruleRelation)(top.heading, h, {
        openClasses,
        series,
        nextTocLevel: nextToc[i],
        previous: top.heading === headings[i - 1],
        unlistedLook: unlisted[i] === true,
      });
      if (r === "higher") break;
      pop();
      if (r === "same") break;
    }
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.entry.children.push(entry);
      parent.firstChild ??= h;
    } else roots.push(entry);
    const open: Open = { heading: h, entry };
    const pn = parent?.heading.numbering;
    if (parent && pn && !h.numbering && compareStyle(parent.heading.style, h.style) === 0) {
      open.seriesOf = numberingClass(pn);
    }
    stack.push(open);
    if (h.numbering) {
      const c = numberingClass(h.numbering);
      classCounts.set(c, (classCounts.get(c) ?? 0) + 1);
      openClasses.add(c);
    }
  });
  return roots;
}
