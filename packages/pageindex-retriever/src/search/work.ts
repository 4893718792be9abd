import type { SkeletonNode } from "pageindex-store";
import type { JudgeOutcome, NodeVerdict } from "../judge/types.js";
import type { Candidate, TrailStep } from "../types.js";
import type { SiblingGroup } from "./groups.js";
import { introCandidate } from "./intro.js";
import type { SearchLedger } from "./ledger.js";

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

/** A search's empty state. */
export function newSearchState(): SearchState {
  return { candidates: [], seen: new Set(), unjudgedRoots: [] };
}

/** How a scheduler opens one work item: judges its children and returns the items to open next. */
export type OpenStep = (ctx: SearchLedger, item: WorkItem, state: SearchState) => Promise<WorkItem[]>;

export function trailStep(node: SkeletonNode, verdict: NodeVerdict, judge: TrailStep["judge"]): TrailStep {
  return { nodeId: node.nodeId, title: node.title, score: verdict.score, reason: verdict.reason, judge };
}

/**
 * The opened section's introduction, offered among its `width` subsections when a model judges,
 * the section has text of its own, it is not already a result, and the prompt has room under
 * `fanOut`.
 */
export function openedIntro(ctx: SearchLedger, item: WorkItem, width: number): SkeletonNode | undefined {
  if (!ctx.judge.usesModel || !item.parent || item.answered || item.group || !ctx.settings.internalNodes)
    return undefined;
  if (width >= ctx.settings.fanOut) return undefined;
  return introCandidate(item.parent);
}

/** The verdicts of the parts of one split judgment (one round trip), merged. */
export function mergeParts(outcomes: ReadonlyArray<JudgeOutcome | undefined>): JudgeOutcome | undefined {
  const done = outcomes.filter((p): p is JudgeOutcome => p !== undefined);
  if (done.length === 0) return undefined;
  const llm = done.some((p) => p.judgment.judge === "llm");
  return {
    judgment: {
      verdicts: done.flatMap((p) => p.judgment.verdicts),
      judge: llm ? "llm" : (done[0] as JudgeOutcome).judgment.judge,
    },
    roundTrips: Math.max(...done.map((p) => p.roundTrips)),
  };
}
