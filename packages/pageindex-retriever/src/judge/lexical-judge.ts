import type { SkeletonNode } from "pageindex-core";
import type { LexicalScores } from "../lexical/node-index.js";
import { entryId, type LevelEntry } from "../search/groups.js";
import type { Judgment, NodeVerdict } from "./types.js";

/**
 * Judges sibling candidates with BM25 scores instead of a model. A candidate is relevant when
 * its branch (itself or a descendant) scores at least `threshold` of the best node across the
 * searched documents; an internal node answers "by itself" when its own fields score at least
 * as well as anything below it.
 */
export function lexicalJudgment(
  scores: LexicalScores,
  normaliser: number,
  candidates: readonly SkeletonNode[],
  threshold: number,
  judge: "lexical" | "lexical-fallback",
): Judgment {
  const scale = normaliser > 0 ? normaliser : 1;
  const verdicts = candidates.map((node): NodeVerdict => {
    const branch = scores.subtree.get(node.nodeId) ?? 0;
    const own = scores.own.get(node.nodeId) ?? 0;
    const score = Math.min(1, branch / scale);
    const relevant = branch > 0 && score >= threshold;
    const verdict: NodeVerdict = { nodeId: node.nodeId, relevant, score, reason: "no query terms" };
    if (branch > 0) {
      const bestId = scores.bestIn.get(node.nodeId) ?? node.nodeId;
      const terms = scores.matched(bestId).slice(0, 6).join(", ");
      verdict.reason =
        bestId === node.nodeId
          ? `lexical match on ${terms || "query terms"}`
          : `lexical match deeper in this section on ${terms || "query terms"}`;
    }
    if (node.childIds.length > 0 && own > 0 && own / scale >= threshold && own >= branch) verdict.self = true;
    return verdict;
  });
  return { verdicts, judge };
}

/**
 * {@link lexicalJudgment} over the entries of a grouped level: a group scores as its best
 * section's branch; verdicts carry the entries' prompt ids.
 */
export function lexicalEntryJudgment(
  scores: LexicalScores,
  normaliser: number,
  entries: readonly LevelEntry[],
  threshold: number,
  judge: "lexical" | "lexical-fallback",
): Judgment {
  const nodes = entries.filter((e) => e.kind === "node").map((e) => e.node);
  const byNode = new Map(
    lexicalJudgment(scores, normaliser, nodes, threshold, judge).verdicts.map((v) => [v.nodeId, v]),
  );
  const scale = normaliser > 0 ? normaliser : 1;
  const verdicts = entries.map((entry): NodeVerdict => {
    if (entry.kind === "node") return byNode.get(entry.node.nodeId) as NodeVerdict;
    let best: SkeletonNode | undefined;
    let branch = 0;
    for (const node of entry.group.nodes) {
      const s = scores.subtree.get(node.nodeId) ?? 0;
      if (s > branch) [best, branch] = [node, s];
    }
    const score = Math.min(1, branch / scale);
    const terms = best ? scores.matched(scores.bestIn.get(best.nodeId) ?? best.nodeId).slice(0, 6) : [];
    return {
      nodeId: entryId(entry),
      relevant: branch > 0 && score >= threshold,
      score,
      reason:
        branch > 0 ? `lexical match in this group on ${terms.join(", ") || "query terms"}` : "no query terms",
    };
  });
  return { verdicts, judge };
}
