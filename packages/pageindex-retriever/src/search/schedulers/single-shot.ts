import { renderToc, type TreeSkeleton } from "pageindex-store";
import { PromptTooLargeError, UnusableJudgmentError } from "../../errors.js";
import type { JudgeOutcome, TableOfContentsRequest } from "../../judge/types.js";
import type { Candidate } from "../../types.js";
import { fitPrompt } from "../fit-prompt.js";
import type { SearchLedger } from "../ledger.js";
import { flatCandidates, lexicalTopCandidates } from "../stand-ins.js";
import type { WorkItem } from "../work.js";

/** How the search goes on when the whole table of contents does not fit a prompt. */
export type Expand = (ctx: SearchLedger, starts: WorkItem[]) => Promise<Candidate[]>;

/**
 * PageIndex's tutorial method: the whole table of contents (with summaries) of the chosen
 * documents in one prompt, one call. When it would not fit `maxPromptTokens` (or the model's
 * window) it falls back to `expand` (or throws {@link PromptTooLargeError} with
 * `onPromptTooLarge: "error"`).
 */
export async function singleShotSearch(
  ctx: SearchLedger,
  starts: WorkItem[],
  chain: number,
  expand: Expand,
): Promise<Candidate[]> {
  const docIds = [...new Set(starts.map((s) => s.docId))];
  const docs: Array<{ key: string; skeleton: TreeSkeleton; toc: string }> = [];
  for (const [i, docId] of docIds.entries()) {
    const skeleton = await ctx.skeleton(docId);
    docs.push({
      key: String(i + 1),
      skeleton,
      toc: ctx.judge.usesModel ? renderToc(skeleton, { summaries: true, summaryChars: 300 }) : "",
    });
  }
  const { onPromptTooLarge, maxPromptTokens, k } = ctx.settings;
  const request: TableOfContentsRequest = {
    kind: "table-of-contents",
    documents: docs,
    k,
    overflow: onPromptTooLarge === "error" ? "fallback" : "caller",
  };
  if (!ctx.judge.usesModel) {
    // A judge without a prompt ranks the sections at once: nothing to fit, no budget to spend.
    const outcome = await ctx.judge.judgeOutline(request, ctx);
    return outcome ? flatCandidates(ctx, outcome.judgment) : [];
  }
  const fit = fitPrompt([
    { value: request, tokens: ctx.judge.promptTokens?.(request, ctx) ?? 0, limit: maxPromptTokens },
  ]);
  if (fit.kind === "over") {
    if (onPromptTooLarge === "error") throw new PromptTooLargeError(fit.tokens, maxPromptTokens);
    ctx.warnings.push(
      `single-shot prompt (${fit.tokens} tokens) over maxPromptTokens=${maxPromptTokens}; expanded instead`,
    );
    return expand(ctx, starts);
  }
  const nodes = docs.reduce((sum, d) => sum + d.skeleton.nodes.length, 0);
  let outcome: JudgeOutcome | undefined;
  try {
    outcome = await ctx.judge.judgeOutline(request, ctx);
  } catch (error) {
    if (!(error instanceof UnusableJudgmentError && error.overflow)) throw error;
    // Our estimate fit but the model's window did not (another tokenizer, a smaller window than
    // declared): expansion asks with one branch's children at a time.
    ctx.counters.nodesJudged += nodes;
    const waited = chain + error.attempts;
    ctx.noteChain(waited);
    ctx.warnings.push(
      `single-shot prompt (${ctx.judge.promptTokens?.(request, ctx) ?? 0} tokens) was over the model's context window; expanded instead`,
    );
    return expand(
      ctx,
      starts.map((s) => ({ ...s, chain: Math.max(s.chain, waited) })),
    );
  }
  if (!outcome) {
    ctx.warnings.push("step budget allowed no model call; returning the best lexical matches");
    return lexicalTopCandidates(ctx, docIds);
  }
  ctx.counters.nodesJudged += nodes;
  ctx.noteChain(chain + outcome.roundTrips);
  const out = await flatCandidates(ctx, outcome.judgment);
  if (outcome.judgment.judge === "llm") {
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
  }
  return out;
}
