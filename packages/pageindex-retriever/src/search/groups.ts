import { getNode, type SkeletonNode, type TreeSkeleton } from "pageindex-core";

/**
 * A run of consecutive siblings offered to a judge as one entry, so that no prompt lists more
 * than `fanOut` entries under one parent. Groups nest: a level of 10,000 siblings with a fan-out
 * of 24 becomes 24 groups of about 18 groups of about 23 sections, opened one round trip per
 * level of nesting. A group is never returned as a result; its id exists only in prompts.
 */
export interface SiblingGroup {
  /** Prompt id, `<parent id or "root">~<1-based path>`, e.g. `0012~3.7`. */
  id: string;
  /** Its entries: sibling sections (at the bottom) or nested groups, at most `fanOut`. */
  members: LevelEntry[];
  /** The sections it covers, in document order. */
  nodes: SkeletonNode[];
  /** How many adjacent groups were joined into this one to be opened together (1 when absent). */
  joined?: number;
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

/** Whether a run may start at `nodes[i]` without sharing a page (or line) with the run before. */
function cleanBreak(nodes: readonly SkeletonNode[], i: number): boolean {
  const prev = nodes[i - 1];
  const next = nodes[i];
  if (!prev || !next) return true;
  if (next.startPage !== undefined) return next.startPage > (prev.endPage ?? prev.startPage ?? 0);
  if (next.startLine !== undefined) return next.startLine > (prev.endLine ?? prev.startLine ?? 0);
  return true;
}

/**
 * {@link balancedRuns}, with each cut moved (by at most a quarter of a run, and never past
 * `capacity` members a run) to the nearest place where no page is shared across it, so a page
 * belongs to one group only and a question whose answer is on it follows one path.
 */
function pageCleanRuns<T extends SkeletonNode>(items: readonly T[], parts: number, capacity: number): T[][] {
  const ideal = balancedRuns(items, parts);
  const reach = Math.max(1, Math.floor(items.length / parts / 4));
  const runs: T[][] = [];
  let start = 0;
  let idealCut = 0;
  for (let r = 0; r < parts - 1; r += 1) {
    idealCut += (ideal[r] as T[]).length;
    const left = parts - r - 1;
    const ok = (c: number) =>
      c > start && c - start <= capacity && c < items.length && items.length - c <= capacity * left;
    let cut = ok(idealCut) ? idealCut : Math.min(items.length - left, Math.max(start + 1, idealCut));
    for (let d = 0; d <= reach; d += 1) {
      const found = [idealCut - d, idealCut + d].find((c) => ok(c) && cleanBreak(items, c));
      if (found !== undefined) {
        cut = found;
        break;
      }
    }
    runs.push(items.slice(start, cut));
    start = cut;
  }
  runs.push(items.slice(start));
  return runs;
}

function nest(nodes: readonly SkeletonNode[], fanOut: number, prefix: string): LevelEntry[] {
  if (nodes.length <= fanOut) return nodes.map((node) => ({ kind: "node", node }));
  // As many groups as the fan-out allows, of at least fanOut members each: the first opening
  // narrows the most, and what is left below a group is small enough for a lookahead to show
  // (940 siblings: 24 groups of about 39, not 2 groups of 470 that each take another prompt).
  const parts = Math.min(fanOut, Math.ceil(nodes.length / fanOut));
  const size = Math.ceil(nodes.length / parts);
  // A run may grow to a clean page break, not past what its own nesting holds at the same depth.
  const capacity = size <= fanOut ? fanOut : fanOut * Math.ceil(size / fanOut);
  const runs = pageCleanRuns(nodes, parts, capacity);
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

/**
 * Whether group `b` starts right after group `a` among the same parent's sections (and sits at
 * the same depth of nesting), so the two can be opened as one.
 */
export function adjacentGroups(skeleton: TreeSkeleton, a: SiblingGroup, b: SiblingGroup): boolean {
  const last = a.nodes.at(-1);
  const first = b.nodes[0];
  if (!last || !first || last.parentId !== first.parentId) return false;
  const depth = (id: string) => id.split(".").length;
  if (depth(a.id) !== depth(b.id)) return false;
  const siblings =
    last.parentId === null ? skeleton.rootIds : (getNode(skeleton, last.parentId)?.childIds ?? []);
  return siblings.indexOf(first.nodeId) === siblings.indexOf(last.nodeId) + 1;
}

/** Two adjacent groups as one (`0012~3+4`): their members and sections, in order. */
export function joinGroups(a: SiblingGroup, b: SiblingGroup): SiblingGroup {
  const tail = b.id.slice(b.id.indexOf("~") + 1);
  return {
    id: `${a.id}+${tail}`,
    members: [...a.members, ...b.members],
    nodes: [...a.nodes, ...b.nodes],
    joined: (a.joined ?? 1) + (b.joined ?? 1),
  };
}
