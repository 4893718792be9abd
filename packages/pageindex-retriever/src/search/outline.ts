import {
  childrenOf,
  countTokens,
  formatRange,
  isReadableSummary,
  readableSummary,
  type TreeSkeleton,
} from "pageindex-core";
import { backMatterMark, clip, printedPages } from "../judge/prompts.js";
import { entryId, groupRange, type LevelEntry, levelEntries } from "./groups.js";

/** One entry shown in an outline prompt, with what is shown below it. */
export interface OutlineEntry {
  id: string;
  entry: LevelEntry;
  /** 1 for the entries of the level being opened, 2 for theirs, … */
  depth: number;
  /** The enclosing entry in the outline (`undefined` at depth 1). */
  parent: OutlineEntry | undefined;
  /** Its children (or a group's members) are listed in this outline. */
  expanded: boolean;
  children: OutlineEntry[];
}

/** A table-of-contents view of one opened level, as deep as a token budget allows. */
export interface Outline {
  /** The opened level's entries (depth 1), in document order. */
  top: OutlineEntry[];
  /** Every entry shown, by prompt id. */
  byId: Map<string, OutlineEntry>;
  /** The outline as prompt text, one entry a line, indented by depth. */
  text: string;
  /** Tokens of `text`. */
  tokens: number;
  /** Nothing below the opened level is hidden (no collapsed entry has children). */
  complete: boolean;
}

/** How an outline is rendered and how far it looks ahead. */
export interface OutlineOptions {
  fanOut: number;
  /** Tokens the outline text may use. */
  budget: number;
  /** Summary characters for depth-1 entries (0: titles only). */
  summaryChars: number;
  /** Summary characters for deeper entries. */
  deepSummaryChars: number;
  /** Show deeper levels while they fit (false: the opened level only). */
  lookahead: boolean;
  /** Only a complete outline is of use: stop at the first level that does not fit. */
  wholeOnly?: boolean;
}

const TITLE_CHARS = 120;
const DIGEST_CHARS = 160;

/** The entries one level below an entry: a section's children (grouped) or a group's members. */
export function entriesBelow(skeleton: TreeSkeleton, entry: LevelEntry, fanOut: number): LevelEntry[] {
  if (entry.kind === "group") return entry.group.members;
  if (entry.node.childIds.length === 0) return [];
  return levelEntries(skeleton, entry.node, childrenOf(skeleton, entry.node), fanOut);
}

function hasBelow(entry: LevelEntry): boolean {
  return entry.kind === "group" || entry.node.childIds.length > 0;
}

/**
 * Renders one entry. A section: `[id] title (pp. a-b)`, `[+N subsections]` when they are not
 * listed, then its summary. A group: `[id] group of N sections: "first" … "last" (pp. a-b)`,
 * then, when its members are not listed, a digest of their titles.
 */
function renderEntry(skeleton: TreeSkeleton, item: OutlineEntry, summaryChars: number): string {
  const pad = "  ".repeat(item.depth - 1);
  const { entry } = item;
  if (entry.kind === "node") {
    const { node } = entry;
    const range = formatRange(node);
    const hidden =
      node.childIds.length > 0 && !item.expanded ? ` [+${node.childIds.length} subsections]` : "";
    const lines = [
      `${pad}[${item.id}] ${clip(node.title, TITLE_CHARS)}${range ? ` (${range})${printedPages(skeleton, node)}` : ""}${hidden}${backMatterMark(node)}`,
    ];
    // A branch overview repeats the subsections listed below it: shown only while they are not.
    const own = node.summary ?? node.prefixSummary;
    const overviewOnly = node.childIds.length > 0 && !isReadableSummary(own, node.title);
    const summary = item.expanded && overviewOnly ? undefined : readableSummary(skeleton, node);
    if (summary && summaryChars > 0) lines.push(`${pad}  ${clip(summary, summaryChars)}`);
    return lines.join("\n");
  }
  const { group } = entry;
  const first = group.nodes[0];
  const last = group.nodes.at(-1);
  const r = groupRange(group);
  const range =
    r.start === undefined
      ? ""
      : r.unit === "pages"
        ? ` (${r.start === r.end ? `p. ${r.start}` : `pp. ${r.start}-${r.end}`})`
        : ` (lines ${r.start}-${r.end})`;
  const lines = [
    `${pad}[${item.id}] group of ${group.nodes.length} sections: "${clip(first?.title ?? "", 60)}" … "${clip(last?.title ?? "", 60)}"${range}`,
  ];
  if (!item.expanded && summaryChars > 0) {
    // A digest: titles spread evenly over the group, so its middle is visible too. Dropped
    // where summaries are (deeper levels of a lookahead, a level trimmed to fit).
    const step = Math.max(1, Math.floor(group.nodes.length / 8));
    const sample = group.nodes.filter((_, i) => i % step === 0).map((n) => clip(n.title, 40));
    lines.push(`${pad}  includes: ${clip(sample.join("; "), DIGEST_CHARS)}`);
  }
  return lines.join("\n");
}

function renderAll(skeleton: TreeSkeleton, top: readonly OutlineEntry[], options: OutlineOptions): string {
  const out: string[] = [];
  const visit = (item: OutlineEntry) => {
    out.push(renderEntry(skeleton, item, item.depth === 1 ? options.summaryChars : options.deepSummaryChars));
    if (item.expanded) for (const child of item.children) visit(child);
  };
  for (const item of top) visit(item);
  return out.join("\n");
}

/**
 * Builds the outline of an opened level: its entries, then, breadth first and in document
 * order, the entries below each one whose whole next level still fits the budget (a level that
 * does not fit stays collapsed, and smaller ones after it may still open). The depth-1 entries
 * are always included; a caller whose budget they exceed splits them across calls.
 */
export function buildOutline(
  skeleton: TreeSkeleton,
  first: readonly LevelEntry[],
  options: OutlineOptions,
): Outline {
  const byId = new Map<string, OutlineEntry>();
  const make = (entry: LevelEntry, depth: number, parent: OutlineEntry | undefined): OutlineEntry => {
    const item: OutlineEntry = { id: entryId(entry), entry, depth, parent, expanded: false, children: [] };
    byId.set(item.id, item);
    return item;
  };
  const cost = (item: OutlineEntry) =>
    countTokens(
      renderEntry(skeleton, item, item.depth === 1 ? options.summaryChars : options.deepSummaryChars),
    ) + 1;
  const top = first.map((e) => make(e, 1, undefined));
  let used = top.reduce((sum, item) => sum + cost(item), 0);
  const queue = options.lookahead ? [...top] : [];
  for (let i = 0; i < queue.length; i += 1) {
    const item = queue[i] as OutlineEntry;
    if (!hasBelow(item.entry)) continue;
    const below = entriesBelow(skeleton, item.entry, options.fanOut);
    const children = below.map((e) => ({
      id: entryId(e),
      entry: e,
      depth: item.depth + 1,
      parent: item,
      expanded: false,
      children: [],
    }));
    // A group's digest line and a branch's overview disappear once its members are listed.
    const chars = item.depth === 1 ? options.summaryChars : options.deepSummaryChars;
    const saved =
      countTokens(renderEntry(skeleton, item, chars)) -
      countTokens(renderEntry(skeleton, { ...item, expanded: true }, chars));
    const extra = children.reduce((sum, c) => sum + cost(c), 0) - saved;
    if (used + extra > options.budget) {
      if (options.wholeOnly) break;
      continue;
    }
    used += extra;
    item.expanded = true;
    item.children = children;
    for (const child of children) byId.set(child.id, child);
    queue.push(...children);
  }
  const complete = [...byId.values()].every((item) => item.expanded || !hasBelow(item.entry));
  const text = renderAll(skeleton, top, options);
  return { top, byId, text, tokens: countTokens(text), complete };
}

/** The sections an outline entry stands for: itself, or every section of a group. */
export function entryNodes(entry: LevelEntry) {
  return entry.kind === "node" ? [entry.node] : entry.group.nodes;
}
