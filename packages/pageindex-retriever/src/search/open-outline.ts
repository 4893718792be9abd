import {
  childrenOf,
  getNode,
  rootsOf,
  type SkeletonNode,
  subtreeTokenCount,
  type TreeSkeleton,
} from "pageindex-store";
import type { OutlineView } from "../judge/prompts.js";
import type { Judgment, NodeVerdict, OutlineRequest } from "../judge/types.js";
import type { TrailStep } from "../types.js";
import { fitPrompt, type PromptVariant } from "./fit-prompt.js";
import { adjacentGroups, joinGroups, type LevelEntry, levelEntries, type SiblingGroup } from "./groups.js";
import { introOwner } from "./intro.js";
import type { SearchLedger } from "./ledger.js";
import { buildOutline, type Outline, type OutlineEntry, type OutlineOptions } from "./outline.js";
import { deadEndCandidates, lexicalStandIns } from "./stand-ins.js";
import { mergeParts, openedIntro, type SearchState, trailStep, type WorkItem } from "./work.js";

/** Summary lengths tried, longest first, when the whole subtree may fit one prompt. */
const WHOLE_TREE_SUMMARIES: ReadonlyArray<[number, number]> = [
  [300, 300],
  [150, 150],
  [150, 0],
  [0, 0],
];
/** Summary lengths tried for a bounded view: the opened level keeps a summary, deeper titles only. */
const BOUNDED_SUMMARIES: ReadonlyArray<[number, number]> = [
  [150, 0],
  [60, 0],
  [0, 0],
];

interface View {
  view: OutlineView;
  outline: Outline;
}

/** Tokens an outline prompt spends besides the outline (instructions, question, document line). */
function overhead(ctx: SearchLedger, skeleton: TreeSkeleton, item: WorkItem): number {
  const probe: OutlineView = {
    skeleton,
    parent: item.parent,
    outline: "",
    ...(item.group ? { groupId: item.group.id } : {}),
    part: { index: 1, of: 1 },
  };
  const request: OutlineRequest = {
    kind: "outline",
    view: probe,
    offered: [],
    entries: [],
    shown: new Map(),
    secondLook: true,
  };
  return (ctx.judge.promptTokens?.(request, ctx) ?? 0) + 8;
}

/**
 * The outline prompt(s) of one opened level. A search's first opening shows the whole subtree
 * when it fits `maxPromptTokens` (single-shot where the tree fits); otherwise the view looks
 * ahead within `lookaheadTokens`, summaries shortened first. A level whose entries alone exceed
 * `maxPromptTokens` is split into parts judged concurrently (one round trip), never cut.
 */
function outlineViews(
  ctx: SearchLedger,
  skeleton: TreeSkeleton,
  item: WorkItem,
  first: readonly LevelEntry[],
  lookahead: boolean,
): View[] {
  const { fanOut, maxPromptTokens, lookaheadTokens } = ctx.settings;
  const fixed = overhead(ctx, skeleton, item);
  const make = (
    entries: readonly LevelEntry[],
    options: OutlineOptions,
    part?: { index: number; of: number },
  ) => {
    const outline = buildOutline(skeleton, entries, options);
    const view: OutlineView = {
      skeleton,
      parent: item.parent,
      outline: outline.text,
      ...(item.group ? { groupId: item.group.id } : {}),
      ...(part ? { part } : {}),
    };
    return { view, outline };
  };
  const opts = (budget: number, [summaryChars, deepSummaryChars]: [number, number], look: boolean) => ({
    fanOut,
    budget: Math.max(0, budget - fixed),
    summaryChars,
    deepSummaryChars,
    lookahead: look,
  });
  const variants = function* (): Generator<PromptVariant<View>> {
    if (lookahead && item.trail.length === 0 && !item.group) {
      for (const summaries of WHOLE_TREE_SUMMARIES) {
        const whole = make(first, { ...opts(maxPromptTokens, summaries, true), wholeOnly: true });
        // Only the complete subtree counts here: a cut one is a bounded view, tried next.
        const tokens = whole.outline.complete ? whole.outline.tokens + fixed : Number.POSITIVE_INFINITY;
        yield { value: whole, tokens, limit: maxPromptTokens };
      }
    }
    // The opened level must fit the hard limit; looking ahead spends only the softer one (joined
    // groups spend the lookahead of the openings they replace).
    const soft = Math.min(lookaheadTokens * (item.group?.joined ?? 1), maxPromptTokens);
    for (const summaries of BOUNDED_SUMMARIES) {
      const view = make(first, opts(soft, summaries, lookahead));
      yield { value: view, tokens: view.outline.tokens + fixed, limit: soft };
    }
    for (const summaries of BOUNDED_SUMMARIES) {
      const flat = make(first, opts(maxPromptTokens, summaries, false));
      yield { value: flat, tokens: flat.outline.tokens + fixed, limit: maxPromptTokens };
    }
  };
  // Too many entries for one prompt even as bare titles: split the level, keep every entry.
  const split = () => {
    const parts: LevelEntry[][] = [];
    let current: LevelEntry[] = [];
    for (const entry of first) {
      const trial = make([...current, entry], opts(maxPromptTokens, [0, 0], false));
      if (current.length > 0 && trial.outline.tokens + fixed > maxPromptTokens) {
        parts.push(current);
        current = [];
      }
      current.push(entry);
    }
    if (current.length > 0) parts.push(current);
    return parts.map((entries, i) =>
      make(entries, opts(maxPromptTokens, [0, 0], false), { index: i + 1, of: parts.length }),
    );
  };
  const fitted = fitPrompt(variants(), split);
  return fitted.kind === "split" ? fitted.parts : [fitted.value];
}

/** Judges the views of one opening concurrently (one round trip) and merges their verdicts. */
async function judgeViews(ctx: SearchLedger, views: readonly View[], secondLook: boolean) {
  const outcomes = await Promise.all(
    views.map(async ({ view, outline }) => {
      const shown = new Map<string, SkeletonNode>();
      for (const [id, e] of outline.byId)
        if (e.entry.kind === "node" && !introOwner(id)) shown.set(id, e.entry.node);
      const request: OutlineRequest = {
        kind: "outline",
        view,
        offered: [...outline.byId.keys()],
        entries: [...outline.byId.values()].map((e) => e.entry),
        shown,
        secondLook,
      };
      const outcome = await ctx.judge.judgeOutline(request, ctx);
      if (outcome) ctx.recordOutline(request, outcome.judgment);
      return outcome;
    }),
  );
  return mergeParts(outcomes);
}

/** Judged steps from the opened level down to an entry (groups are not steps: never results). */
function stepsTo(
  entry: OutlineEntry,
  verdict: NodeVerdict,
  picked: ReadonlyMap<string, NodeVerdict>,
  judge: TrailStep["judge"],
): TrailStep[] {
  const chain: OutlineEntry[] = [];
  for (let e: OutlineEntry | undefined = entry; e; e = e.parent) chain.unshift(e);
  const steps: TrailStep[] = [];
  for (const e of chain) {
    if (e.entry.kind !== "node") continue;
    const own = picked.get(e.id);
    const v = own ?? { ...verdict, reason: "on the path to the selected section" };
    steps.push(trailStep(e.entry.node, v, judge));
  }
  return steps;
}

/** Whether an entry shown below this one was picked. */
function pickedBelow(entry: OutlineEntry, picked: ReadonlyMap<string, NodeVerdict>): boolean {
  return entry.children.some((c) => picked.has(c.id) || pickedBelow(c, picked));
}

/**
 * Turns the picks of an outline judgment into candidates and further openings: a picked leaf,
 * a small subtree, or a shown section whose shown subsections were all passed over is a result;
 * a picked collapsed section or group is opened in the next round trip.
 */
function applyPicks(
  ctx: SearchLedger,
  item: WorkItem,
  skeleton: TreeSkeleton,
  views: readonly View[],
  judgment: Judgment,
  chain: number,
  state: SearchState,
): { next: WorkItem[]; found: boolean } {
  const byId = new Map<string, OutlineEntry>();
  for (const { outline } of views) for (const [id, e] of outline.byId) byId.set(id, e);
  const picked = new Map<string, NodeVerdict>();
  for (const v of judgment.verdicts) if (v.relevant && byId.has(v.nodeId)) picked.set(v.nodeId, v);
  const { internalNodes, collapseBelowTokens, deadEndMaxTokens } = ctx.settings;
  const next: WorkItem[] = [];
  const open = (
    parent: SkeletonNode | null,
    trail: TrailStep[],
    verdict: NodeVerdict,
    extra: Partial<WorkItem>,
  ) => next.push({ docId: item.docId, parent, trail, priority: verdict.score, chain, ...extra });
  for (const [id, verdict] of picked) {
    const entry = byId.get(id) as OutlineEntry;
    const trail = [...item.trail, ...stepsTo(entry, verdict, picked, judgment.judge)];
    const below = entry.expanded && pickedBelow(entry, picked);
    if (entry.entry.kind === "group") {
      if (below) continue;
      const { group } = entry.entry;
      const parentId = group.nodes[0]?.parentId ?? null;
      const parent = parentId === null ? null : (getNode(skeleton, parentId) ?? null);
      open(parent, trail, verdict, { group, ...(item.answered ? { answered: true } : {}) });
      continue;
    }
    const { node } = entry.entry;
    if (item.parent && introOwner(node.nodeId) === item.parent.nodeId) {
      // The opened section's own introduction answers: the section itself is the result.
      const steps = [...item.trail, trailStep(item.parent, verdict, judgment.judge)];
      state.candidates.push(ctx.candidate(item.docId, item.parent, verdict, judgment.judge, steps));
      continue;
    }
    if (node.childIds.length === 0) {
      state.candidates.push(ctx.candidate(item.docId, node, verdict, judgment.judge, trail));
      continue;
    }
    const self = internalNodes && verdict.self === true;
    if (below) {
      if (self) state.candidates.push(ctx.candidate(item.docId, node, verdict, judgment.judge, trail));
      continue;
    }
    const size = internalNodes ? subtreeTokenCount(skeleton, node.nodeId) : 0;
    if (entry.expanded && internalNodes) {
      // Picked with its subsections in view and none of them: the section as a whole answers.
      const whole = size > 0 && size <= deadEndMaxTokens;
      state.candidates.push(
        ctx.candidate(item.docId, node, verdict, judgment.judge, trail, whole ? { whole } : {}),
      );
      continue;
    }
    if (internalNodes && size > 0 && size <= collapseBelowTokens) {
      state.candidates.push(ctx.candidate(item.docId, node, verdict, judgment.judge, trail, { whole: true }));
      continue;
    }
    if (self) state.candidates.push(ctx.candidate(item.docId, node, verdict, judgment.judge, trail));
    open(node, trail, verdict, { answered: self });
  }
  return { next: joinAdjacentGroups(skeleton, next, ctx.settings.fanOut), found: picked.size > 0 };
}

/**
 * Picked groups that are next to each other (an answer on the page two groups share, or a judge
 * unsure where a run of sections splits) are opened as one, in one prompt, when their members
 * together still fit `fanOut`: one prompt's instructions instead of two.
 */
function joinAdjacentGroups(skeleton: TreeSkeleton, items: WorkItem[], fanOut: number): WorkItem[] {
  const groups = items.filter((i) => i.group !== undefined);
  if (groups.length < 2) return items;
  const out = items.filter((i) => i.group === undefined);
  const order = (i: WorkItem) => (i.group?.nodes[0] ? skeleton.nodes.indexOf(i.group.nodes[0]) : 0);
  groups.sort((a, b) => order(a) - order(b));
  let current = groups[0] as WorkItem;
  for (const item of groups.slice(1)) {
    const a = current.group as SiblingGroup;
    const b = item.group as SiblingGroup;
    if (adjacentGroups(skeleton, a, b) && a.members.length + b.members.length <= fanOut) {
      current = {
        ...current,
        group: joinGroups(a, b),
        priority: Math.max(current.priority, item.priority),
        chain: Math.max(current.chain, item.chain),
      };
      continue;
    }
    out.push(current);
    current = item;
  }
  out.push(current);
  return out;
}

/** When the budget stops a group's opening: its best lexical sections stand for it. */
async function stoppedGroup(ctx: SearchLedger, item: WorkItem, state: SearchState): Promise<void> {
  const skeleton = await ctx.skeleton(item.docId);
  const scores = await ctx.lexical(skeleton, "rank");
  const nodes = (item.group?.nodes ?? [])
    .filter((n) => (scores.subtree.get(n.nodeId) ?? 0) > 0)
    .sort((a, b) => (scores.subtree.get(b.nodeId) ?? 0) - (scores.subtree.get(a.nodeId) ?? 0))
    .slice(0, Math.max(1, Math.min(2, ctx.settings.k)));
  const last = item.trail.at(-1);
  if (nodes.length === 0) {
    if (item.parent && last)
      state.candidates.push(
        ctx.candidate(item.docId, item.parent, last, last.judge, item.trail, { budgetStopped: true }),
      );
    else state.unjudgedRoots.push(item);
    return;
  }
  state.candidates.push(
    ...lexicalStandIns(
      ctx,
      item.docId,
      nodes,
      (n) => scores.subtree.get(n.nodeId) ?? 0,
      last?.score ?? 0.5,
      item.trail,
      () => "in a group the judge chose, ranked lexically (the budget ran out before it was opened)",
      "budgetStopped",
    ),
  );
}

/**
 * Opens one item through outline prompts: its level's entries (grouped when wider than
 * `fanOut`), and with `lookahead` the levels below them as far as the budget allows. Dead ends,
 * budget stops and failed answers behave as in expansion.
 */
export async function openOutline(
  ctx: SearchLedger,
  item: WorkItem,
  state: SearchState,
  lookahead: boolean,
): Promise<WorkItem[]> {
  const key = `${item.docId}:${item.parent?.nodeId ?? ""}:${item.group?.id ?? ""}`;
  if (state.seen.has(key)) return [];
  state.seen.add(key);
  const skeleton = await ctx.skeleton(item.docId);
  const children = item.parent ? childrenOf(skeleton, item.parent) : rootsOf(skeleton);
  const level = item.group
    ? item.group.members
    : levelEntries(skeleton, item.parent, children, ctx.settings.fanOut);
  const intro = openedIntro(ctx, item, level.length);
  const first: LevelEntry[] = intro ? [{ kind: "node", node: intro }, ...level] : level;
  const last = item.trail.at(-1);
  if (first.length === 0) {
    if (item.parent && last)
      state.candidates.push(ctx.candidate(item.docId, item.parent, last, last.judge, item.trail));
    return [];
  }
  const views = outlineViews(ctx, skeleton, item, first, lookahead);
  const outcome = await judgeViews(ctx, views, false);
  if (!outcome) {
    if (item.group) await stoppedGroup(ctx, item, state);
    else if (item.parent && last)
      state.candidates.push(
        ctx.candidate(item.docId, item.parent, last, last.judge, item.trail, { budgetStopped: true }),
      );
    else state.unjudgedRoots.push(item);
    return [];
  }
  let chain = item.chain + outcome.roundTrips;
  ctx.noteChain(chain);
  const firstPass = applyPicks(ctx, item, skeleton, views, outcome.judgment, chain, state);
  const { keepDeadEnds, internalNodes } = ctx.settings;
  if (
    firstPass.found ||
    !item.parent ||
    !last ||
    item.answered ||
    item.seed ||
    !keepDeadEnds ||
    !internalNodes
  )
    return firstPass.next;
  // Dead end: the section (or group) was judged relevant, nothing shown below it was.
  if (ctx.judge.usesModel) {
    const second = await judgeViews(ctx, views, true);
    if (second) {
      chain += second.roundTrips;
      ctx.noteChain(chain);
      const again = applyPicks(ctx, item, skeleton, views, second.judgment, chain, state);
      if (again.found || second.judgment.judge === "llm") return again.next;
    }
  }
  state.candidates.push(
    ...(await deadEndCandidates(ctx, item.docId, item.parent, item.trail, item.group?.nodes)),
  );
  return [];
}
