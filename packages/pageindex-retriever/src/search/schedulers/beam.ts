import pLimit from "p-limit";
import type { Candidate } from "../../types.js";
import type { SearchLedger } from "../ledger.js";
import { rescueUnjudged } from "../stand-ins.js";
import { newSearchState, type OpenStep, type WorkItem } from "../work.js";

/**
 * Beam search: level by level, all items of a level judged concurrently, then only the best
 * `beamWidth` relevant internal nodes of the level are expanded. Fewer calls than full
 * expansion on bushy trees, at the risk of pruning a right branch.
 */
export async function beamSearch(
  ctx: SearchLedger,
  starts: WorkItem[],
  open: OpenStep,
): Promise<Candidate[]> {
  const state = newSearchState();
  const limit = pLimit(Math.max(1, ctx.settings.concurrency));
  const width = Math.max(1, ctx.settings.beamWidth);
  let level = starts;
  const pruned: WorkItem[] = [];
  while (level.length > 0) {
    const results = await Promise.all(level.map((item) => limit(() => open(ctx, item, state))));
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
