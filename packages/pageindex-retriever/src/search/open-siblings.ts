import { childrenOf, rootsOf, subtreeTokenCount, type TreeSkeleton } from "pageindex-store";
import type { JudgeOutcome, JudgeRequest, Judgment } from "../judge/types.js";
import { fitPrompt, type PromptVariant } from "./fit-prompt.js";
import { introOwner } from "./intro.js";
import type { SearchLedger } from "./ledger.js";
import { openOutline } from "./open-outline.js";
import { deadEndCandidates } from "./stand-ins.js";
import { mergeParts, openedIntro, type SearchState, trailStep, type WorkItem } from "./work.js";

/** Summary lengths tried, longest first (`undefined`: the prompt's default), when a sibling prompt is over budget. */
const SIBLING_SUMMARIES: ReadonlyArray<number | undefined> = [undefined, 200, 0];

/** A sibling prompt with shorter and shorter summaries. */
function* siblingVariants(ctx: SearchLedger, request: JudgeRequest): Generator<PromptVariant<JudgeRequest>> {
  for (const summaryChars of SIBLING_SUMMARIES) {
    const value = summaryChars === undefined ? request : { ...request, summaryChars };
    yield { value, tokens: ctx.judge.promptTokens?.(value, ctx) ?? 0, limit: ctx.settings.maxPromptTokens };
  }
}

/**
 * Asks the judge which candidates can hold the answer, its prompt fitted to `maxPromptTokens`
 * (shorter summaries, then the candidates split across calls of the same round trip: never
 * dropped), and records the verdicts in the ledger. `undefined` when the budget is spent.
 */
export async function judgeSiblings(
  ctx: SearchLedger,
  request: JudgeRequest,
): Promise<JudgeOutcome | undefined> {
  let fitted = request;
  if (ctx.judge.usesModel) {
    const fit = fitPrompt(siblingVariants(ctx, request), () => halves(request.candidates));
    if (fit.kind === "split")
      return mergeParts(
        await Promise.all(fit.parts.map((candidates) => judgeSiblings(ctx, { ...request, candidates }))),
      );
    fitted = fit.value;
  }
  const outcome = await ctx.judge.judgeSiblings(fitted, ctx);
  if (!outcome) return undefined;
  ctx.counters.nodesJudged += fitted.candidates.length;
  ctx.record(fitted, outcome.judgment);
  return outcome;
}

/** Two halves of a list of more than one item (`undefined` for one: nothing to split). */
function halves<T>(items: readonly T[]): T[][] | undefined {
  if (items.length <= 1) return undefined;
  const half = Math.ceil(items.length / 2);
  return [items.slice(0, half), items.slice(half)];
}

/**
 * Judges one item's children and returns the relevant internal children to expand next;
 * relevant leaves (and internal nodes that answer by themselves) become candidates. A dead end
 * (a relevant section none of whose children is) gets a second look from the model, then the
 * fallback of {@link deadEndCandidates}.
 */
export async function openSiblings(
  ctx: SearchLedger,
  item: WorkItem,
  state: SearchState,
): Promise<WorkItem[]> {
  // A level wider than the fan-out is offered through groups (no lookahead: one level a prompt).
  if (item.group && ctx.judge.usesModel) return openOutline(ctx, item, state, false);
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
  if (ctx.judge.usesModel && children.length > ctx.settings.fanOut)
    return openOutline(ctx, item, state, false);
  const intro = openedIntro(ctx, item, children.length);
  const request: JudgeRequest = {
    query: ctx.query,
    skeleton,
    parent: item.parent,
    candidates: intro ? [intro, ...children] : children,
  };
  const outcome = await judgeSiblings(ctx, request);
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
  if (ctx.judge.usesModel) {
    const second = await judgeSiblings(ctx, { ...request, secondLook: true });
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
  ctx: SearchLedger,
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
