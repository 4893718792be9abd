import type { SkeletonNode, TreeSkeleton } from "pageindex-store";

/**
 * A run of consecutive siblings offered to a judge as one entry, so that no prompt lists more
 * than `fanOut` entries under one parent. Groups nest: a level of 10,000 siblings with a fan-out
 * of 24 becomes 18 groups of about 24 groups of about 23 sections, opened one round trip per
 * level of nesting. A group is never returned as a result; its id exists only in prompts.
 */
export interface SiblingGroup {
  /** Prompt id, `<parent id or "root">~<1-based path>`, e.g. `0012~3.7`. */
  id: string;
  /** Its entries: sibling sections (at the bottom) or nested groups, at most `fanOut`. */
  members: LevelEntry[];
  /** The sections it covers, in document order. */
  nodes: SkeletonNode[];
}

/** One entry of a level as offered to a judge: a section or a group of sibling sections. */
export type LevelEntry = { kind: "node"; node: SkeletonNode } | { kind: "group"; group: SiblingGroup };

/** The prompt id of an entry (a node id or a group id). */
export function entryId(entry: LevelEntry): string {
  return entry.kind === "node" ? entry.node.nodeId : entry.group.id;
}

/** Splits `items` into `parts` consecutive runs whose sizes differ by at most one. */
function balancedRuns<T>(items: readonly T[], parts: number): T[][] {
  const runs: T[][] = [];
  const base = Math.floor(items.length / parts);
  const extra = items.length % parts;
  let at = 0;
  for (let i = 0; i < parts; i += 1) {
    const size = base + (i < extra ? 1 : 0);
    runs.push(items.slice(at, at + size));
    at += size;
  }
  return runs;
}

function nest(nodes: readonly SkeletonNode[], fanOut: number, prefix: string): LevelEntry[] {
  if (nodes.length <= fanOut) return nodes.map((node) => ({ kind: "node", node }));
  // Capacity of one member at the next level down: the smallest power of fanOut that, times
  // fanOut, holds every node, so the nesting is as shallow as it can be and balanced.
  let below = fanOut;
  while (below * fanOut < nodes.length) below *= fanOut;
  const runs = balancedRuns(nodes, Math.ceil(nodes.length / below));
  return runs.map((run, i) => {
    const id = `${prefix}${prefix.endsWith("~") ? "" : "."}${i + 1}`;
    return { kind: "group", group: { id, members: nest(run, fanOut, id), nodes: run } };
  });
}

const memo = new WeakMap<TreeSkeleton, Map<string, LevelEntry[]>>();

/**
 * The entries under `parent` (the roots when `null`): the sections themselves when there are at
 * most `fanOut`, otherwise nested balanced groups of consecutive sections. A pure function of the
 * skeleton (built in one pass, kept per skeleton object), so the groups are versioned with the
 * tree without being stored: every process derives the same ids from the same version.
 */
export function levelEntries(
  skeleton: TreeSkeleton,
  parent: SkeletonNode | null,
  children: readonly SkeletonNode[],
  fanOut: number,
): LevelEntry[] {
  let perSkeleton = memo.get(skeleton);
  if (!perSkeleton) {
    perSkeleton = new Map();
    memo.set(skeleton, perSkeleton);
  }
  const key = `${parent?.nodeId ?? ""}|${fanOut}`;
  let entries = perSkeleton.get(key);
  if (!entries) {
    entries = nest(children, Math.max(2, fanOut), `${parent?.nodeId ?? "root"}~`);
    perSkeleton.set(key, entries);
  }
  return entries;
}

/** First and last page (or line) a group covers. */
export function groupRange(group: SiblingGroup): { start?: number; end?: number; unit: "pages" | "lines" } {
  const first = group.nodes[0];
  const last = group.nodes.at(-1);
  if (first?.startPage !== undefined) {
    const end = Math.max(...group.nodes.map((n) => n.endPage ?? n.startPage ?? 0));
    return { start: first.startPage, end, unit: "pages" };
  }
  if (first?.startLine !== undefined) {
    return { start: first.startLine, end: last?.endLine ?? last?.startLine, unit: "lines" };
  }
  return { unit: "pages" };
}
