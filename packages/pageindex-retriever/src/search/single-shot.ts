import { pathToRoot, renderToc, type TreeSkeleton } from "pageindex-core";
import { PromptTooLargeError } from "../errors.js";
import { singleShotPrompt } from "../judge/prompts.js";
import { modelReason, normaliseScore } from "../judge/schema.js";
import type { Candidate, TrailStep } from "../types.js";
import type { SearchContext } from "./context.js";
import { promptTokens, resolveId } from "./context.js";
import { expandSearch, lexicalTop, type WorkItem } from "./tree-search.js";

/**
 * PageIndex's tutorial method: the whole table of contents (with summaries) of the chosen
 * documents in one prompt, one call. When it would not fit `maxPromptTokens` it falls back to
 * expansion (or throws {@link PromptTooLargeError} with `onPromptTooLarge: "error"`).
 */
export async function singleShotSearch(
  ctx: SearchContext,
  starts: WorkItem[],
  chain: number,
): Promise<Candidate[]> {
  const docIds = [...new Set(starts.map((s) => s.docId))];
  if (!ctx.model) return lexicalTop(ctx, docIds);
  const docs: Array<{ key: string; skeleton: TreeSkeleton; toc: string }> = [];
  for (const [i, docId] of docIds.entries()) {
    const skeleton = await ctx.skeleton(docId);
    docs.push({
      key: String(i + 1),
      skeleton,
      toc: renderToc(skeleton, { summaries: true, summaryChars: 300 }),
    });
  }
  const messages = singleShotPrompt(ctx.query, docs, ctx.settings.k, ctx.settings.expertKnowledge);
  const tokens = promptTokens(messages);
  if (tokens > ctx.settings.maxPromptTokens) {
    if (ctx.settings.onPromptTooLarge === "error")
      throw new PromptTooLargeError(tokens, ctx.settings.maxPromptTokens);
    ctx.warnings.push(
      `single-shot prompt (${tokens} tokens) over maxPromptTokens=${ctx.settings.maxPromptTokens}; expanded instead`,
    );
    return expandSearch(ctx, starts);
  }
  if (!ctx.takeStep(tokens)) {
    ctx.warnings.push("step budget allowed no model call; returning the best lexical matches");
    return lexicalTop(ctx, docIds);
  }
  ctx.counters.nodesJudged += docs.reduce((sum, d) => sum + d.skeleton.nodes.length, 0);
  const answer = await ctx.select(messages, "single-shot");
  ctx.noteChain(chain + answer.attempts);
  if (answer.overflow && ctx.settings.onPromptTooLarge !== "error") {
    // Our estimate fit but the model's window did not (another tokenizer, a smaller window than
    // declared): expansion asks with one branch's children at a time.
    ctx.warnings.push(
      `single-shot prompt (${tokens} tokens) was over the model's context window; expanded instead`,
    );
    const waited = chain + answer.attempts;
    return expandSearch(
      ctx,
      starts.map((s) => ({ ...s, chain: Math.max(s.chain, waited) })),
    );
  }
  const out: Candidate[] = [];
  const unknown: string[] = [];
  const byKey = new Map(docs.map((d) => [d.key, d.skeleton]));
  (answer.value?.relevant ?? []).forEach((item, rank) => {
    const id = String(item.id).trim();
    // "2:0003" style ids, an explicit doc key, or a bare id when there is one document.
    const [keyPart, idPart] = id.includes(":") ? (id.split(":", 2) as [string, string]) : [undefined, id];
    const key = item.doc !== undefined ? String(item.doc) : keyPart;
    const candidates =
      key !== undefined
        ? [byKey.get(key)]
        : docs.length === 1
          ? [docs[0]?.skeleton]
          : docs.map((d) => d.skeleton);
    const matches = candidates
      .filter((s): s is TreeSkeleton => s !== undefined)
      .map((s) => ({ skeleton: s, nodeId: resolveId(idPart, new Set(s.nodes.map((n) => n.nodeId))) }))
      .filter((m): m is { skeleton: TreeSkeleton; nodeId: string } => m.nodeId !== undefined);
    const match = matches.length === 1 ? matches[0] : undefined;
    if (!match) {
      unknown.push(id);
      return;
    }
    const path = pathToRoot(match.skeleton, match.nodeId);
    const node = path.at(-1);
    if (!node) return;
    const score = normaliseScore(item.score, rank);
    const reason = modelReason(item.reason, "selected by the model from the table of contents");
    const trail: TrailStep[] = path.map((n) => ({
      nodeId: n.nodeId,
      title: n.title,
      score,
      reason: n === node ? reason : "on the path to the selected section",
      judge: "llm",
    }));
    out.push(ctx.candidate(match.skeleton.docId, node, { score, reason }, "llm", trail));
  });
  if (unknown.length > 0)
    ctx.warnings.push(`single-shot: dropped ids not offered (${unknown.slice(0, 5).join(", ")})`);
  if (answer.value && (out.length > 0 || unknown.length === 0)) {
    for (const d of docs) {
      for (const n of d.skeleton.nodes) {
        const chosen = out.find((c) => c.docId === d.skeleton.docId && c.node.nodeId === n.nodeId);
        ctx.visited.push({
          docId: d.skeleton.docId,
          nodeId: n.nodeId,
          title: n.title,
          relevant: chosen !== undefined,
          score: chosen?.score ?? 0,
          judge: "llm",
        });
      }
    }
    return out;
  }
  ctx.counters.fallbacks += 1;
  ctx.warnings.push(`single-shot answer unusable, ranked lexically: ${answer.error ?? "only unknown ids"}`);
  return lexicalTop(ctx, docIds, "lexical-fallback");
}
