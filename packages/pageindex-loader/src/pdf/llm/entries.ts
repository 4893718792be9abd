/**
 * The flat section list every LLM mode produces before nesting: one {@link Entry} per section,
 * in document order, plus the small pure helpers that clean and check it.
 */

/** One section found by a mode, before nesting. */
export interface Entry {
  /** Position in the mode's list; the id shown to the model. */
  id: number;
  /** Dotted structure code ("1", "1.2", "1.2.3"), when known. */
  structure?: string;
  title: string;
  /** Page number printed in the table of contents (not yet a physical page). */
  printedPage?: number;
  /** Physical page (1-based) where the section starts, once known. */
  page?: number;
  /** `true` once a check confirmed the title starts on `page`; `false` when a check denied it. */
  verified?: boolean;
  /** Whether the section starts at the top of its page (from the verification). */
  appearStart?: boolean;
}

import { stripLeaders } from "../structure/titles.js";

const MAX_TITLE_CHARS = 300;

/**
 * Cleans a title a model returned: collapses whitespace, drops dot leaders and a trailing page
 * number ("Risk factors ....... 12"), and caps the length. Empty when nothing is left.
 */
export function cleanTitle(raw: unknown): string {
  if (typeof raw !== "string") return "";
  const title = stripLeaders(raw.replace(/\s+/g, " ").trim()).trim();
  return title.length > MAX_TITLE_CHARS ? `${title.slice(0, MAX_TITLE_CHARS - 1)}…` : title;
}

/** A key for comparing titles: lower case, letters and digits only. */
export function titleKey(title: string): string {
  return title
    .toLowerCase()
    .normalize("NFKD")
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Normalises a structure code: "1.2." → "1.2"; anything not dotted segments → undefined. */
export function cleanStructure(raw: unknown): string | undefined {
  if (raw === null || raw === undefined) return undefined;
  const text = String(raw).trim().replace(/\.+$/, "");
  return /^[A-Za-z0-9]{1,6}(?:\.[A-Za-z0-9]{1,6}){0,7}$/.test(text) ? text : undefined;
}

/** A page number a model returned (number or numeric string) → a positive integer, else undefined. */
export function toPageNumber(raw: unknown): number | undefined {
  const value = typeof raw === "string" && /^\s*\d+\s*$/.test(raw) ? Number(raw) : raw;
  return typeof value === "number" && Number.isInteger(value) && value >= 0 ? value : undefined;
}

/**
 * Indices (into `pages`) of a longest non-decreasing subsequence. Entries outside it are the
 * fewest whose pages must be wrong for the list to run forward through the document.
 */
export function longestNonDecreasing(pages: number[]): Set<number> {
  // Patience sorting with predecessor links: O(n log n).
  const tails: number[] = [];
  const prev: number[] = new Array(pages.length).fill(-1);
  for (let i = 0; i < pages.length; i += 1) {
    const value = pages[i]!;
    let lo = 0;
    let hi = tails.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (pages[tails[mid]!]! <= value) lo = mid + 1;
      else hi = mid;
    }
    if (lo > 0) prev[i] = tails[lo - 1]!;
    tails[lo] = i;
  }
  const keep = new Set<number>();
  let k = tails.length > 0 ? tails[tails.length - 1]! : -1;
  while (k >= 0) {
    keep.add(k);
    k = prev[k]!;
  }
  return keep;
}

/** Copies entries so a later mode can change them without touching an earlier attempt. */
export function cloneEntries(entries: Entry[], keep: (e: Entry) => Partial<Entry> = () => ({})): Entry[] {
  return entries.map((e, id) => ({
    id,
    title: e.title,
    ...(e.structure !== undefined ? { structure: e.structure } : {}),
    ...(e.printedPage !== undefined ? { printedPage: e.printedPage } : {}),
    ...keep(e),
  }));
}

/** The most common value (ties: the one seen first). */
export function mostCommon(values: number[]): number | undefined {
  const counts = new Map<number, number>();
  let best: number | undefined;
  let bestCount = 0;
  for (const v of values) {
    const c = (counts.get(v) ?? 0) + 1;
    counts.set(v, c);
    if (c > bestCount) {
      best = v;
      bestCount = c;
    }
  }
  return best;
}
