/**
 * How the structure evaluations compare a built tree with a reference (an outline, a PageIndex
 * tree): one-to-one greedy matching of (title, start page), optionally of the level too.
 */

import type { TreeDocument } from "pageindex-core";
import { stripNumbering, titleSimilarity } from "../packages/pageindex-loader/src/pdf/structure/titles.js";

/** One section of a reference or of a built tree. */
export interface Entry {
  title: string;
  page: number;
  level: number;
}

/** Titles at least this alike are the same heading. */
export const SIMILARITY = 0.7;

/** Numbering stripped, then a bare leading letter or number label ("F Litigation", "3 Results"). */
const bare = (t: string): string => stripNumbering(t).replace(/^(?:[A-Z]|\d{1,3})\s+(?=\p{L})/u, "");

/** Title similarity with and without leading numbering, 0..1. */
export function similar(a: string, b: string): number {
  return Math.max(
    titleSimilarity(a, b),
    titleSimilarity(stripNumbering(a), stripNumbering(b)),
    titleSimilarity(bare(a), bare(b)),
  );
}

/** A tree's nodes that have a start page, with their depth (1 = top). */
export function treeEntries(tree: TreeDocument): Entry[] {
  return tree.nodes
    .filter((n) => n.startPage !== undefined)
    .map((n) => ({ title: n.title, page: n.startPage as number, level: n.level }));
}

/**
 * One-to-one greedy matching in reference order, best similarity first; returns matched
 * reference indices. `tolerance` pages of slack on the start page; `sameLevel` also requires
 * equal depth (a heading found at the wrong depth is then an error).
 */
export function match(
  reference: readonly Entry[],
  predicted: readonly Entry[],
  tolerance: number,
  sameLevel = false,
): Set<number> {
  // Predicted entries by page, so each reference entry looks only at its own pages.
  const byPage = new Map<number, number[]>();
  predicted.forEach((p, pi) => {
    const list = byPage.get(p.page) ?? [];
    list.push(pi);
    byPage.set(p.page, list);
  });
  const used = new Set<number>();
  const matched = new Set<number>();
  reference.forEach((r, ri) => {
    let best = -1;
    let bestScore = SIMILARITY;
    for (let page = r.page - tolerance; page <= r.page + tolerance; page++) {
      for (const pi of byPage.get(page) ?? []) {
        const p = predicted[pi] as Entry;
        if (used.has(pi) || (sameLevel && p.level !== r.level)) continue;
        const s = similar(r.title, p.title);
        if (s >= bestScore) {
          best = pi;
          bestScore = s;
        }
      }
    }
    if (best >= 0) {
      used.add(best);
      matched.add(ri);
    }
  });
  return matched;
}
