import type { ParsedPage, SectionEntry } from "../types.js";
import type { Heading } from "./candidates.js";
import { numberingClass, parseNumbering, romanOrdinal } from "./numbering.js";

/** How far a layout tree can be trusted, each part 0..1 (1 = no doubt). */
export interface LayoutConfidence {
  /** The weakest of the parts below. */
  score: number;
  /** Headings whose titles read like titles (no code or formula characters, brackets balanced). */
  titles: number;
  /** Headings placed at the level most headings of their look (and numbering kind) have. */
  depth: number;
  /** Dotted numbers nested as they say ("2.1" under "2"); 1 when there are none. */
  numbering: number;
  /** Body lines read as single runs of text, not several columns or table cells merged into one line. */
  readable: number;
  /**
   * How likely the tree is right by the evidence every document carries (printed contents,
   * numbering, titles, wrappers), as the fitted model weighs it (see tree-evidence.ts), at most
   * {@link DOUBTED} once the evidence names a doubt; 1 when not weighed (no doubt named).
   */
  evidence?: number;
  /** What in that evidence disagrees with the tree, in words. */
  doubts?: string[];
}

/** Below this score the tree carries a warning, and `auto` with a model prefers the LLM path. */
export const LOW_CONFIDENCE = 0.5;

/** The highest score of a tree whose evidence names a doubt: just below the warning line. */
export const DOUBTED = 0.49;

const CODE_CHARS = /[=*;{}<>|\\~^]/;

function titleLike(title: string): boolean {
  if (CODE_CHARS.test(title)) return false;
  let depth = 0;
  for (const c of title) {
    if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    if (depth < 0) return false;
  }
  if (depth !== 0) return false;
  // Digits are neither: a numbering, a version or a date ("18.1.100 Verilator 3.805 2010-11-02")
  // is a title's, and a row of numbers has no letters at all.
  const visible = title.replace(/[\s\p{Nd}]/gu, "");
  const letters = visible.replace(/[^\p{L}]/gu, "").length;
  return letters > 0 && letters >= visible.length * 0.5;
}

const share = (n: number, of: number): number => (of === 0 ? 1 : n / of);

/** The look a heading shares with its peers: style, and numbering kind and depth. */
function lookOf(h: Heading): string {
  const n = h.numbering;
  const numbering = n ? `${numberingClass(n)}${n.depth ?? ""}` : "";
  return `${h.style.size}|${h.style.bold}|${h.style.caps}|${h.style.italic}|${numbering}`;
}

/**
 * Scores a layout tree. Linear in the headings and lines: one walk of the tree, one pass over
 * the pages' lines.
 */
export function layoutConfidence(
  entries: readonly SectionEntry[],
  headings: readonly Heading[],
  pages: readonly ParsedPage[],
  bodySize: number,
): LayoutConfidence {
  const byPosition = new Map<string, Heading>();
  for (const h of headings) byPosition.set(`${h.page}:${h.line}`, h);
  const placed: Array<{ heading: Heading; level: number }> = [];
  // A "2.1" is checked only when the dotted heading last seen one level up is a "2": exhibit
  // numbers ("10.1") and lists under other numbering stand alone.
  const lastAt = new Map<number, string>();
  let dotted = 0;
  let agreeing = 0;
  const walk = (list: readonly SectionEntry[], level: number, ancestors: readonly string[]) => {
    for (const e of list) {
      const h = byPosition.get(`${e.page}:${e.line ?? 0}`);
      if (h) placed.push({ heading: h, level });
      const n = h?.numbering ?? parseNumbering(e.title);
      const own = n?.kind === "dotted" ? n.value.split(".").slice(0, -1).join(".") : "";
      if (n?.kind === "dotted") lastAt.set(n.depth ?? 1, n.value);
      if (own && lastAt.get((n?.depth ?? 1) - 1) === own) {
        dotted++;
        // "2.1" under "2 Scope", or under "Article 2" (maybe with "Definitions" between): an
        // ancestor carries the prefix as its number.
        if (ancestors.includes(own.toUpperCase())) agreeing++;
      }
      // "ARTICLE II" numbers its "2.1" too.
      const values = !n
        ? []
        : /^[IVXLC]+$/i.test(n.value)
          ? [n.value.toUpperCase(), String(romanOrdinal(n.value))]
          : [n.value.toUpperCase()];
      walk(e.children, level + 1, [...ancestors, ...values]);
    }
  };
  walk(entries, 1, []);

  const levelsByLook = new Map<string, Map<number, number>>();
  for (const { heading, level } of placed) {
    const look = lookOf(heading);
    const levels = levelsByLook.get(look) ?? new Map<number, number>();
    levels.set(level, (levels.get(level) ?? 0) + 1);
    levelsByLook.set(look, levels);
  }
  let modal = 0;
  for (const levels of levelsByLook.values()) modal += Math.max(...levels.values());

  let bodyLines = 0;
  let merged = 0;
  for (const page of pages) {
    for (const line of page.lines) {
      if (Math.abs(line.size - bodySize) >= 0.5) continue;
      bodyLines++;
      if (line.text.includes("\t")) merged++;
    }
  }

  const titles = share(placed.filter((p) => titleLike(p.heading.title)).length, placed.length);
  const depth = share(modal, placed.length);
  const numbering = share(agreeing, dotted);
  const readable = bodyLines === 0 ? 1 : 1 - merged / bodyLines;
  return { score: Math.min(titles, depth, numbering, readable), titles, depth, numbering, readable };
}

const WHY: Record<Exclude<keyof LayoutConfidence, "score" | "doubts">, string> = {
  titles: "many heading titles read like code or formulas",
  depth: "headings of one look sit at different depths",
  numbering: "numbered headings are not nested as their numbers say",
  readable: "lines merge several columns or table cells (a reference card, a form, a table-heavy page)",
  evidence: "the document's evidence disagrees with the tree",
};

/**
 * "0.27 (lines merge several columns …)": the score and why it is low, for warnings and records:
 * the weakest part, and every other part below the warning line, weakest first (a tree warned for
 * merged lines whose evidence also names a doubt says both: either alone would have warned it).
 */
export function describeConfidence(c: LayoutConfidence): string {
  const parts = (Object.keys(WHY) as Array<keyof typeof WHY>)
    .filter((k) => c[k] === c.score || (c[k] ?? 1) < LOW_CONFIDENCE)
    .sort((a, b) => (c[a] ?? 1) - (c[b] ?? 1));
  const why = parts.map((k) =>
    k === "evidence" && c.doubts && c.doubts.length > 0 ? `${WHY[k]}: ${c.doubts.join(", ")}` : WHY[k],
  );
  return `${c.score.toFixed(2)} (${why.join("; ")})`;
}
