import pLimit from "p-limit";
import {
  childrenOf,
  rootsOf,
  type SkeletonNode,
  subtreeNodes,
  subtreeTokenCount,
  type TreeSkeleton,
} from "pageindex-core";
import type { JudgeRequest, Judgment, NodeVerdict } from "../judge/types.js";
import type { Candidate, TrailStep } from "../types.js";
import { processOpening } from "./bounded-search.js";
import type { SearchContext } from "./context.js";
import type { SiblingGroup } from "./groups.js";
import { introCandidate, introOwner } from "./intro.js";

/** One pending expansion: judge the children of `parent` (or the document's roots). */
export interface WorkItem {
  docId: string;
  /** `null`: the document's root nodes are judged. */
  parent: SkeletonNode | null;
  /** Judged nodes leading here. */
  trail: TrailStep[];
  /** The parent's relevance; higher is expanded first. */
  priority: number;
  /** Model calls this item had to wait for (round trips so far). */
  chain: number;
  /** The parent is already a result (its own text answers), so it is no dead end. */
  answered?: boolean;
  /** The parent is a first-stage hit, not a judged section: if the judge rejects its children, so be it. */
  seed?: boolean;
  /** Only this group of the parent's children (or roots) is opened (a level wider than `fanOut`). */
  group?: SiblingGroup;
}

/** Shared state of one tree search. */
export interface SearchState {
  candidates: Candidate[];
  /** Expanded parents, so overlapping start points do not judge a node set twice. */
  seen: Set<string>;
  /** Root items the budget never allowed to judge. */
  unjudgedRoots: WorkItem[];
}

export function trailStep(node: SkeletonNode, verdict: NodeVerdict, judge: TrailStep["judge"]): TrailStep {
  return { nodeId: node.nodeId, title: node.title, score: verdict.score, reason: verdict.reason, judge };
}

/**
 * The opened section's introduction, offered among its `width` subsections when a model judges,
 * the section has text of its own, it is not already a result, and the prompt has room under
 * `fanOut`.
 */
export function openedIntro(ctx: SearchContext, item: WorkItem, width: number): SkeletonNode | undefined {
  if (!ctx.model || !item.parent || item.answered || item.group || !ctx.settings.internalNodes)
    return undefined;
  if (width >= ctx.settings.fanOut) return undefined;
  return introCandidate(item.parent);
}

/**
 * Judges one item's children and returns the relevant internal children to expand next;
 * relevant leaves (and internal nodes that answer by themselves) become candidates. A dead end
 * (a relevant section none of whose children is) gets a second look from the model, then the
 * fallback of {@link deadEndCandidates}.
 */
async function processItem(ctx: SearchContext, item: WorkItem, state: SearchState): Promise<WorkItem[]> {
  // A level wider than the fan-out is offered through groups (no lookahead: one level a prompt).
  if (item.group && ctx.model) return processOpening(ctx, item, state, false);
  const key = `${item.docId}:${item.parent?.nodeId ?? ""}`;
  if (state.seen.has(key)) return [];
  state.seen.add(key);
  const skeleton = await ctx.skeleton(item.docId);
  const children = item.parent ? childrenOf(skeleton, item.parent) : rootsOf(skeleton);
  const last = item.trail.at(-1);
  if (children.length === 0) {
    if (item.parent && last)
      state.candidates.push(ctx.candidate(item.docId, item.parent, last, last.judge, item.trail));
    return [];
  }
  if (ctx.model && children.length > ctx.settings.fanOut) return processOpening(ctx, item, state, false);
  const intro = openedIntro(ctx, item, children.length);
  const request: JudgeRequest = {
    query: ctx.query,
    skeleton,
    parent: item.parent,
    candidates: intro ? [intro, ...children] : children,
  };
  const outcome = await ctx.judge(request);
  if (!outcome) {
    // Budget spent: the best we know about this branch is the branch itself.
    if (item.parent && last) {
      state.candidates.push(
        ctx.candidate(item.docId, item.parent, last, last.judge, item.trail, { budgetStopped: true }),
      );
    } else state.unjudgedRoots.push(item);
    return [];
  }
  let chain = item.chain + outcome.roundTrips;
  ctx.noteChain(chain);
  const first = applyVerdicts(ctx, item, skeleton, outcome.judgment, chain, state);
  const { keepDeadEnds, internalNodes } = ctx.settings;
  if (first.found || !item.parent || !last || item.answered || item.seed || !keepDeadEnds || !internalNodes)
    return first.next;

  // Dead end: the section was judged relevant, none of its subsections was.
  if (ctx.model) {
    const second = await ctx.judge({ ...request, secondLook: true });
    if (second) {
      chain += second.roundTrips;
      ctx.noteChain(chain);
      const again = applyVerdicts(ctx, item, skeleton, second.judgment, chain, state);
      // An empty model answer withdraws the section: trust it. A failed call does not.
      if (again.found || second.judgment.judge === "llm") return again.next;
    }
  }
  state.candidates.push(...(await deadEndCandidates(ctx, item.docId, item.parent, item.trail)));
  return [];
}

/** Turns one judgment of an item's children into candidates and items to expand. */
function applyVerdicts(
  ctx: SearchContext,
  item: WorkItem,
  skeleton: TreeSkeleton,
  judgment: Judgment,
  chain: number,
  state: SearchState,
): { next: WorkItem[]; found: boolean } {
  const children = item.parent ? childrenOf(skeleton, item.parent) : rootsOf(skeleton);
  const byId = new Map(children.map((c) => [c.nodeId, c]));
  const next: WorkItem[] = [];
  let found = false;
  for (const verdict of judgment.verdicts) {
    if (verdict.relevant && item.parent && introOwner(verdict.nodeId) === item.parent.nodeId) {
      // The opened section's own introduction answers: the section itself is the result.
      found = true;
      const trail = [...item.trail, trailStep(item.parent, verdict, judgment.judge)];
      state.candidates.push(ctx.candidate(item.docId, item.parent, verdict, judgment.judge, trail));
      continue;
    }
    const node = byId.get(verdict.nodeId);
    if (!node || !verdict.relevant) continue;
    found = true;
    const trail = [...item.trail, trailStep(node, verdict, judgment.judge)];
    if (node.childIds.length === 0) {
      state.candidates.push(ctx.candidate(item.docId, node, verdict, judgment.judge, trail));
      continue;
    }
    const { internalNodes, collapseBelowTokens } = ctx.settings;
    const size = internalNodes ? subtreeTokenCount(skeleton, node.nodeId) : 0;
    // A text-less subtree (e.g. an imported skeleton) is not "small": there is nothing to read.
    if (internalNodes && size > 0 && size <= collapseBelowTokens) {
      state.candidates.push(ctx.candidate(item.docId, node, verdict, judgment.judge, trail, { whole: true }));
      continue;
    }
    const answered = internalNodes && verdict.self === true;
    if (answered) state.candidates.push(ctx.candidate(item.docId, node, verdict, judgment.judge, trail));
    next.push({ docId: item.docId, parent: node, trail, priority: verdict.score, chain, answered });
  }
  return { next, found };
}

/**
 * A dead end the model could not resolve (no model, a failed second look, or no step budget
 * left): rather than lose the branch, a section up to `deadEndMaxTokens` is returned
 * whole; a larger one by its best lexical matches inside (no extra model call), or by its own
 * text when nothing in it matches the query. Ranked after what was found directly.
 */
export async function deadEndCandidates(
  ctx: SearchContext,
  docId: string,
  parent: SkeletonNode,
  trail: TrailStep[],
  within?: readonly SkeletonNode[],
): Promise<Candidate[]> {
  const last = trail.at(-1) as TrailStep;
  const skeleton = await ctx.skeleton(docId);
  const size = subtreeTokenCount(skeleton, parent.nodeId);
  if (!within && size <= ctx.settings.deadEndMaxTokens) {
    return [ctx.candidate(docId, parent, last, last.judge, trail, { whole: true, deadEnd: true })];
  }
  // With a model this ranking must not read the document's texts (the model did the judging).
  const scores = await ctx.lexical(skeleton, ctx.model ? "rank" : "judge");
  // `within`: only the sections of one group of the parent's children were judged.
  const region = within
    ? within.flatMap((n) => subtreeNodes(skeleton, n.nodeId))
    : subtreeNodes(skeleton, parent.nodeId);
  const inside = region
    .filter((n) => n.nodeId !== parent.nodeId && (scores.own.get(n.nodeId) ?? 0) > 0)
    .sort((a, b) => (scores.own.get(b.nodeId) ?? 0) - (scores.own.get(a.nodeId) ?? 0))
    .slice(0, Math.max(1, Math.min(2, ctx.settings.k)));
  if (inside.length === 0) return [ctx.candidate(docId, parent, last, last.judge, trail, { deadEnd: true })];
  return lexicalStandIns(
    ctx,
    docId,
    inside,
    (n) => scores.own.get(n.nodeId) ?? 0,
    last.score,
    trail,
    (n) =>
      `inside "${parent.title}" (judged relevant; no subsection was): lexical match on ${scores.matched(n.nodeId).slice(0, 6).join(", ")}`,
    "deadEnd",
  );
}

/**
 * Sections ranked lexically standing in for a branch the model chose but could not finish
 * judging: scored below the branch's own score, in proportion to their lexical match.
 */
export function lexicalStandIns(
  ctx: SearchContext,
  docId: string,
  nodes: readonly SkeletonNode[],
  lexicalScore: (node: SkeletonNode) => number,
  branchScore: number,
  trail: TrailStep[],
  reasonFor: (node: SkeletonNode) => string,
  flag: "deadEnd" | "budgetStopped",
): Candidate[] {
  const best = (nodes[0] ? lexicalScore(nodes[0]) : 0) || 1;
  return nodes.map((node) => {
    const score = branchScore * 0.9 * (lexicalScore(node) / best);
    const reason = reasonFor(node);
    const step: TrailStep = {
      nodeId: node.nodeId,
      title: node.title,
      score,
      reason,
      judge: "lexical-fallback",
    };
    return ctx.candidate(docId, node, { score, reason }, "lexical-fallback", [...trail, step], {
      [flag]: true,
    });
  });
}

/** When the budget allowed no judgment at all, the lexical judge still finds something. */
export async function rescueUnjudged(ctx: SearchContext, state: SearchState): Promise<void> {
  if (state.candidates.length > 0 || state.unjudgedRoots.length === 0) return;
  ctx.warnings.push("step budget allowed no model judgment; returning the best lexical matches");
  state.candidates.push(...(await lexicalTop(ctx, [...new Set(state.unjudgedRoots.map((i) => i.docId))])));
}

/**
 * Best-first top-down expansion: every relevant internal node's children are judged (all
 * siblings in one call), independent calls run concurrently under `concurrency`, and the most
 * promising pending branch is expanded first so a step budget is spent where it matters.
 */
export async function expandSearch(
  ctx: SearchContext,
  starts: WorkItem[],
  process: (ctx: SearchContext, item: WorkItem, state: SearchState) => Promise<WorkItem[]> = processItem,
): Promise<Candidate[]> {
  const state: SearchState = { candidates: [], seen: new Set(), unjudgedRoots: [] };
  const limit = pLimit(Math.max(1, ctx.settings.concurrency));
  const pending: WorkItem[] = [];
  const tasks: Promise<void>[] = [];
  const weak: WorkItem[] = [];
  const weakScore = ctx.model ? ctx.settings.weakBranchScore : 0;
  const schedule = (item: WorkItem, force = false) => {
    if (!force && item.trail.length > 0 && item.priority <= weakScore) {
      weak.push(item);
      return;
    }
    pending.push(item);
    const task = limit(async () => {
      // Pick the best pending item when a slot frees up, not the one that was queued first.
      let best = 0;
      for (let i = 1; i < pending.length; i += 1) {
        if ((pending[i] as WorkItem).priority > (pending[best] as WorkItem).priority) best = i;
      }
      const [next] = pending.splice(best, 1);
      if (next) for (const child of await process(ctx, next, state)) schedule(child);
    });
    // Awaited one by one below: a task failing while an earlier one is awaited must not be an
    // unhandled rejection (it would crash the process); the query rejects with the first error.
    task.catch(() => undefined);
    tasks.push(task);
  };
  for (const start of starts) schedule(start);
  let done = 0;
  for (;;) {
    for (; done < tasks.length; done += 1) await tasks[done];
    // Weak picks, best first, only while fewer than k stronger sections were found.
    weak.sort((a, b) => b.priority - a.priority);
    const next = weak.shift();
    if (!next) break;
    const strong = state.candidates.filter((c) => c.score > weakScore && !c.deadEnd).length;
    if (strong >= ctx.settings.k) {
      weak.unshift(next);
      keepWeak(ctx, weak, state);
      break;
    }
    schedule(next, true);
  }
  await rescueUnjudged(ctx, state);
  return state.candidates;
}

/** Weak picks left unopened stay results themselves, ranked by their (low) scores. */
function keepWeak(ctx: SearchContext, items: readonly WorkItem[], state: SearchState): void {
  for (const item of items) {
    const last = item.trail.at(-1);
    // A weak group stands for many sections: nothing to return for it as a whole.
    if (!item.parent || !last || item.group) continue;
    const reason = `${last.reason} (a weak pick, not opened: stronger sections were found)`;
    state.candidates.push(
      ctx.candidate(item.docId, item.parent, { ...last, reason }, last.judge, item.trail),
    );
  }
}

/**
 * Beam search: level by level, all items of a level judged concurrently, then only the best
 * `beamWidth` relevant internal nodes of the level are expanded. Fewer calls than full
 * expansion on bushy trees, at the risk of pruning a right branch.
 */
export async function beamSearch(ctx: SearchContext, starts: WorkItem[]): Promise<Candidate[]> {
  const state: SearchState = { candidates: [], seen: new Set(), unjudgedRoots: [] };
  const limit = pLimit(Math.max(1, ctx.settings.concurrency));
  const width = Math.max(1, ctx.settings.beamWidth);
  let level = starts;
  const pruned: WorkItem[] = [];
  while (level.length > 0) {
    const results = await Promise.all(level.map((item) => limit(() => processItem(ctx, item, state))));
    const ranked = results.flat().sort((a, b) => b.priority - a.priority);
    level = ranked.slice(0, width);
    pruned.push(...ranked.slice(width));
  }
  if (state.candidates.length === 0 && pruned.length > 0) {
    // Nothing reached a leaf: the best pruned branches are still better than nothing.
    for (const item of pruned.slice(0, ctx.settings.k)) {
      const last = item.trail.at(-1);
      if (item.parent && last)
        state.candidates.push(ctx.candidate(item.docId, item.parent, last, last.judge, item.trail));
    }
  }
  await rescueUnjudged(ctx, state);
  return state.candidates;
}

/** The best nodes of some documents by lexical score alone (flat ranking, no navigation). */
export async function lexicalTop(
  ctx: SearchContext,
  docIds: readonly string[],
  judge: "lexical" | "lexical-fallback" = "lexical",
): Promise<Candidate[]> {
  const normaliser = (await ctx.lexicalNormaliser()) || 1;
  const scored: Array<{ docId: string; node: SkeletonNode; score: number; terms: string[] }> = [];
  for (const docId of docIds) {
    const skeleton = await ctx.skeleton(docId);
    const scores = await ctx.lexical(skeleton);
    for (const node of skeleton.nodes) {
      const own = scores.own.get(node.nodeId) ?? 0;
      if (own > 0)
        scored.push({
          docId,
          node,
          score: Math.min(1, own / normaliser),
          terms: scores.matched(node.nodeId),
        });
    }
  }
  scored.sort((a, b) => b.score - a.score);
  return scored
    .slice(0, Math.max(ctx.settings.k * 2, ctx.settings.k))
    .map(({ docId, node, score, terms }) => {
      const reason = `lexical match on ${terms.slice(0, 6).join(", ") || "query terms"}`;
      const step: TrailStep = { nodeId: node.nodeId, title: node.title, score, reason, judge };
      return ctx.candidate(docId, node, { score, reason }, judge, [step]);
    });
}
