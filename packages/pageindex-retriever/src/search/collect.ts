import { Document } from "@langchain/core/documents";
import {
  nodeDocumentId,
  pathToRoot,
  StoreCorruptionError,
  subtreeNodes,
  subtreeTokenCount,
} from "pageindex-store";
import { nodeMetadata } from "pageindex-store/internals";
import { truncateToTokens } from "../token-budget.js";
import type { Candidate, PageIndexDocumentMetadata, SearchStrategy } from "../types.js";
import type { SearchLedger } from "./ledger.js";

/** Options of {@link collectDocuments}. */
export interface CollectOptions {
  k: number;
  minScore: number;
  /** Total tokens of returned content; unlimited when undefined. */
  maxContentTokens: number | undefined;
  strategy: SearchStrategy;
}

/** Best candidate per node; nodes inside a subtree returned whole are dropped (no duplicate text). */
export function rankCandidates(
  candidates: readonly Candidate[],
  ancestorsOf?: (c: Candidate) => string[],
): Candidate[] {
  const best = new Map<string, Candidate>();
  for (const c of candidates) {
    const key = `${c.docId}:${c.node.nodeId}`;
    const prev = best.get(key);
    if (!prev || c.score > prev.score) best.set(key, prev?.whole ? { ...c, whole: true } : c);
    else if (c.whole) prev.whole = true;
  }
  const ranked = [...best.values()].sort(
    (a, b) =>
      // Content before back matter the question did not ask for (an index lists every term).
      Number(a.backMatter ?? false) - Number(b.backMatter ?? false) ||
      // What a judge picked directly comes before what a dead end stands for, whatever the scores.
      Number(a.deadEnd ?? false) - Number(b.deadEnd ?? false) ||
      b.score - a.score ||
      Number(a.budgetStopped ?? false) - Number(b.budgetStopped ?? false) ||
      b.node.level - a.node.level ||
      a.order - b.order,
  );
  // A node inside a subtree that is returned whole would repeat its text.
  const whole = new Set(ranked.filter((c) => c.whole).map((c) => `${c.docId}:${c.node.nodeId}`));
  const kept = ranked.filter(
    (c) =>
      !(ancestorsOf?.(c) ?? c.trail.slice(0, -1).map((t) => t.nodeId)).some((a) =>
        whole.has(`${c.docId}:${a}`),
      ),
  );
  return kept;
}

function contentTokens(ctx: SearchLedger, c: Candidate): number {
  const skeleton = ctx.skeletons.get(c.docId);
  return c.whole && skeleton ? subtreeTokenCount(skeleton, c.node.nodeId) : c.node.tokenCount;
}

/**
 * Ranks candidates, applies `minScore`, `k` and the content token budget, then fetches the
 * texts of the chosen nodes only (grouped per document) and builds one Document per node.
 */
export async function collectDocuments(
  ctx: SearchLedger,
  candidates: readonly Candidate[],
  options: CollectOptions,
): Promise<Document<PageIndexDocumentMetadata>[]> {
  const ancestorsOf = (c: Candidate) => {
    const skeleton = ctx.skeletons.get(c.docId);
    return skeleton
      ? pathToRoot(skeleton, c.node.nodeId)
          .slice(0, -1)
          .map((n) => n.nodeId)
      : [];
  };
  const ranked = rankCandidates(candidates, ancestorsOf).filter((c) => c.score >= options.minScore);
  const chosen: Array<{ c: Candidate; truncateTo?: number }> = [];
  let used = 0;
  for (const c of ranked) {
    if (chosen.length >= options.k) break;
    const tokens = contentTokens(ctx, c);
    if (options.maxContentTokens === undefined || used + tokens <= options.maxContentTokens) {
      chosen.push({ c });
      used += tokens;
    }
  }
  if (chosen.length === 0 && ranked[0] && options.maxContentTokens !== undefined) {
    // Nothing fits whole: the best section, cut to the budget, beats an empty answer.
    chosen.push({ c: ranked[0], truncateTo: options.maxContentTokens });
  }

  const idsByDoc = new Map<string, Set<string>>();
  for (const { c } of chosen) {
    const skeleton = await ctx.skeleton(c.docId);
    const ids = idsByDoc.get(c.docId) ?? new Set<string>();
    const nodes = c.whole ? subtreeNodes(skeleton, c.node.nodeId) : [c.node];
    for (const n of nodes) ids.add(n.nodeId);
    idsByDoc.set(c.docId, ids);
  }
  const texts = new Map<string, Map<string, string>>();
  const unreadable = new Set<Candidate>();
  await Promise.all(
    [...idsByDoc].map(async ([docId, ids]) => {
      try {
        texts.set(docId, await ctx.reader.getNodeTexts(docId, [...ids]));
        ctx.counters.textsFetched += ids.size;
      } catch (error) {
        if (!(error instanceof StoreCorruptionError)) throw error;
        const own = chosen.filter(({ c }) => c.docId === docId).map(({ c }) => c);
        texts.set(docId, await readEachSection(ctx, own, unreadable));
      }
    }),
  );

  // A section whose text cannot be read is left out (see readEachSection).
  for (let i = chosen.length - 1; i >= 0; i -= 1) {
    if (unreadable.has((chosen[i] as { c: Candidate }).c)) chosen.splice(i, 1);
  }
  return chosen.map(({ c, truncateTo }, i) => {
    const skeleton = ctx.skeletons.get(c.docId);
    if (!skeleton) throw new Error(`internal: skeleton of ${c.docId} not loaded`);
    const docTexts = texts.get(c.docId) ?? new Map<string, string>();
    const nodes = c.whole ? subtreeNodes(skeleton, c.node.nodeId) : [c.node];
    let content = nodes
      .map((n) => docTexts.get(n.nodeId) ?? "")
      .filter((t) => t.trim().length > 0)
      .join("\n\n");
    const metadata: PageIndexDocumentMetadata = {
      ...nodeMetadata(skeleton, c.node),
      score: c.score,
      reason: c.reason,
      judge: c.judge,
      trail: c.trail,
      visited: c.trail.map((t) => t.nodeId),
      strategy: options.strategy,
      rank: i + 1,
    };
    if (c.whole) metadata.includesDescendants = true;
    if (c.budgetStopped) metadata.budgetStopped = true;
    if (c.deadEnd) metadata.deadEnd = true;
    if (truncateTo !== undefined) {
      const cut = truncateToTokens(content, truncateTo);
      if (cut.length < content.length) metadata.truncated = true;
      content = cut;
    }
    return new Document<PageIndexDocumentMetadata>({
      id: nodeDocumentId(c.docId, c.node.nodeId),
      pageContent: content,
      metadata,
    });
  });
}

/**
 * After a corrupt text chunk failed a document's read: each chosen section read on its own, so
 * those in readable chunks are still returned; the others are left out with a warning in lastRun.
 */
async function readEachSection(
  ctx: SearchLedger,
  candidates: readonly Candidate[],
  unreadable: Set<Candidate>,
): Promise<Map<string, string>> {
  const texts = new Map<string, string>();
  for (const c of candidates) {
    const skeleton = await ctx.skeleton(c.docId);
    const ids = (c.whole ? subtreeNodes(skeleton, c.node.nodeId) : [c.node]).map((n) => n.nodeId);
    try {
      for (const [id, text] of await ctx.reader.getNodeTexts(c.docId, ids)) texts.set(id, text);
      ctx.counters.textsFetched += ids.length;
    } catch (error) {
      if (!(error instanceof StoreCorruptionError)) throw error;
      unreadable.add(c);
      ctx.warnings.push(
        `left out section ${c.node.nodeId} of "${c.docId}": its text cannot be read (${error.message})`,
      );
    }
  }
  return texts;
}
