import type { SectionEntry } from "../types.js";
import type { Heading } from "./candidates.js";
import { numberingClass } from "./numbering.js";
import { compareStyle } from "./style.js";

type Relation = "higher" | "same" | "lower";

const invert = (c: -1 | 0 | 1): Relation => (c < 0 ? "higher" : c > 0 ? "lower" : "same");

/**
 * How an open heading `e` relates to a new heading `h`: `higher` (h goes inside e), `same`
 * (siblings) or `lower` (e closes). Evidence, strongest first: printed-TOC levels; keyword
 * tiers (PART ⊃ Item); dotted depth (2 ⊃ 2.1); for two different numbering kinds, the kind
 * already open higher up is the outer one (I. ⊃ A. ⊃ 1.); otherwise size, weight, capitals.
 */
function relation(e: Heading, h: Heading, openClasses: ReadonlySet<string>): Relation {
  const eToc = e.tocLevel !== undefined;
  const hToc = h.tocLevel !== undefined;
  if (eToc && hToc) return invert(Math.sign((e.tocLevel as number) - (h.tocLevel as number)) as -1 | 0 | 1);
  // TOC entries are the backbone: other headings nest under them, never above them.
  if (!eToc && hToc) return "lower";
  const r = ruleRelation(e, h, openClasses);
  return eToc && r === "lower" ? "same" : r;
}

function ruleRelation(e: Heading, h: Heading, openClasses: ReadonlySet<string>): Relation {
  const en = e.numbering;
  const hn = h.numbering;
  const eKey = en?.kind === "keyword" && (en.tier ?? 9) <= 3;
  const hKey = hn?.kind === "keyword" && (hn.tier ?? 9) <= 3;
  if (en?.kind === "keyword" && hn?.kind === "keyword") {
    return invert(Math.sign((en.tier as number) - (hn.tier as number)) as -1 | 0 | 1);
  }
  if (eKey !== hKey) return eKey ? "higher" : "lower";
  if (en?.kind === "dotted" && hn?.kind === "dotted") {
    return invert(Math.sign((en.depth as number) - (hn.depth as number)) as -1 | 0 | 1);
  }
  if (en && hn && numberingClass(en) !== numberingClass(hn)) {
    return openClasses.has(numberingClass(hn)) ? "lower" : "higher";
  }
  const byStyle = compareStyle(e.style, h.style);
  if (byStyle !== 0) return invert(byStyle);
  // Same look: a numbered heading next to an unnumbered one of the same look is a sibling.
  return "same";
}

interface Open {
  heading: Heading;
  entry: SectionEntry;
}

/**
 * Nests headings (in document order) into a tree with a stack of open headings. Linear in
 * the number of headings times the depth.
 */
export function nestHeadings(headings: readonly Heading[]): SectionEntry[] {
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
  for (const h of headings) {
    const entry: SectionEntry = { title: h.title, page: h.page, line: h.line, children: [] };
    while (stack.length > 0) {
      const top = stack[stack.length - 1] as Open;
      const r = relation(top.heading, h, openClasses);
      if (r === "higher") break;
      pop();
      if (r === "same") break;
    }
    const parent = stack[stack.length - 1];
    if (parent) parent.entry.children.push(entry);
    else roots.push(entry);
    stack.push({ heading: h, entry });
    if (h.numbering) {
      const c = numberingClass(h.numbering);
      classCounts.set(c, (classCounts.get(c) ?? 0) + 1);
      openClasses.add(c);
    }
  }
  return roots;
}
