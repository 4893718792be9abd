import { getNode, pathToRoot, type SkeletonNode, subtreeNodes, subtreeTokenCount } from "pageindex-store";
import { lexicalTop } from "../judge/lexical-judge.js";
import type { Judgment } from "../judge/types.js";
import type { Candidate, TrailStep } from "../types.js";
import type { SearchLedger } from "./ledger.js";
import type { SearchState } from "./work.js";

/**
 * A dead end the model could not resolve (no model, a failed second look, or no step budget
 * left): rather than lose the branch, a section up to `deadEndMaxTokens` is returned
 * whole; a larger one by its best lexical matches inside (no extra model call), or by its own
 * text when nothing in it matches the query. Ranked after what was found directly.
 */
export async function deadEndCandidates(
  ctx: SearchLedger,
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
  const scores = await ctx.lexical(skeleton, ctx.judge.usesModel ? "rank" : "judge");
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
  ctx: SearchLedger,
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
export async function rescueUnjudged(ctx: SearchLedger, state: SearchState): Promise<void> {
  if (state.candidates.length > 0 || state.unjudgedRoots.length === 0) return;
  ctx.warnings.push("step budget allowed no model judgment; returning the best lexical matches");
  state.candidates.push(
    ...(await lexicalTopCandidates(ctx, [...new Set(state.unjudgedRoots.map((i) => i.docId))])),
  );
}

/** The best nodes of some documents by lexical score alone (flat ranking, no navigation). */
export async function lexicalTopCandidates(
  ctx: SearchLedger,
  docIds: readonly string[],
  judge: "lexical" | "lexical-fallback" = "lexical",
): Promise<Candidate[]> {
  return flatCandidates(ctx, { verdicts: await lexicalTop(ctx, docIds, ctx.settings.k), judge });
}

/**
 * Candidates from a judgment of whole tables of contents (verdicts naming their documents, best
 * first): a model's pick carries the path from its root, a lexical one only itself.
 */
export async function flatCandidates(ctx: SearchLedger, judgment: Judgment): Promise<Candidate[]> {
  const out: Candidate[] = [];
  for (const verdict of judgment.verdicts) {
    const docId = verdict.docId as string;
    const skeleton = await ctx.skeleton(docId);
    const node = getNode(skeleton, verdict.nodeId);
    if (!node) continue;
    const { score, reason } = verdict;
    const trail: TrailStep[] =
      judgment.judge === "llm"
        ? pathToRoot(skeleton, node.nodeId).map((n) => ({
            nodeId: n.nodeId,
            title: n.title,
            score,
            reason: n === node ? reason : "on the path to the selected section",
            judge: "llm",
          }))
        : [{ nodeId: node.nodeId, title: node.title, score, reason, judge: judgment.judge }];
    out.push(ctx.candidate(docId, node, { score, reason }, judgment.judge, trail));
  }
  return out;
}
