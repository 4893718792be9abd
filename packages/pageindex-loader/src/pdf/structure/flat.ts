import type { ParsedPage, SectionEntry } from "../types.js";

/** Options for {@link pageRangeEntries}. */
export interface PageRangeOptions {
  /** Most pages in one node. */
  maxPages: number;
  /** Most tokens in one node (a single page over it stays one node). */
  maxTokens: number;
  /** Above this many range nodes, they are grouped under parent ranges, for top-down search. */
  maxSiblings?: number;
}

/** Title of a node standing for a run of pages: "Page 7" or "Pages 12–20". */
export const rangeTitle = (from: number, to: number): string =>
  from === to ? `Page ${from}` : `Pages ${from}–${to}`;

/**
 * A structure made of page ranges, for documents (or sections) with no detectable headings:
 * consecutive pages grouped by page and token budget, grouped again when there are many.
 */
export function pageRangeEntries(
  pages: readonly ParsedPage[],
  from: number,
  to: number,
  options: PageRangeOptions,
): SectionEntry[] {
  const chunks: Array<{ from: number; to: number }> = [];
  let start = from;
  let tokens = 0;
  for (let p = from; p <= to; p++) {
    const t = pages[p - 1]?.tokenCount ?? 0;
    if (p > start && (p - start >= options.maxPages || tokens + t > options.maxTokens)) {
      chunks.push({ from: start, to: p - 1 });
      start = p;
      tokens = 0;
    }
    tokens += t;
  }
  if (start <= to) chunks.push({ from: start, to });
  let entries: Array<SectionEntry & { to: number }> = chunks.map((c) => ({
    title: rangeTitle(c.from, c.to),
    page: c.from,
    line: 0,
    children: [],
    to: c.to,
  }));
  const maxSiblings = options.maxSiblings ?? 20;
  while (entries.length > maxSiblings) {
    const grouped: Array<SectionEntry & { to: number }> = [];
    for (let i = 0; i < entries.length; i += maxSiblings) {
      const group = entries.slice(i, i + maxSiblings);
      const first = group[0] as SectionEntry & { to: number };
      const lastTo = (group[group.length - 1] as { to: number }).to;
      // The group node shares its first child's position: it has no text of its own.
      grouped.push({
        title: rangeTitle(first.page, lastTo),
        page: first.page,
        line: 0,
        children: group,
        to: lastTo,
      });
    }
    entries = grouped;
  }
  const strip = (e: SectionEntry & { to?: number }): SectionEntry => ({
    title: e.title,
    page: e.page,
    line: e.line ?? 0,
    children: e.children.map(strip),
  });
  return entries.map(strip);
}
