import pLimit from "p-limit";
import type { Candidate } from "../../types.js";
import type { SearchLedger } from "../ledger.js";
import { rescueUnjudged } from "../stand-ins.js";
import { newSearchState, type OpenStep, type SearchState, type WorkItem } from "../work.js";

/**
 * Best-first top-down expansion: every relevant internal node's children are judged (all
 * siblings in one call), independent calls run concurrently under `concurrency`, and the most
 * promising pending branch is expanded first so a step budget is spent where it matters. `open`
 * is how one item is opened (sibling prompts, or outline prompts looking ahead).
 */
export async function bestFirstSearch(
  ctx: SearchLedger,
  starts: WorkItem[],
  open: OpenStep,
): Promise<Candidate[]> {
  const state = newSearchState();
  const limit = pLimit(Math.max(1, ctx.settings.concurrency));
  const pending: WorkItem[] = [];
  const tasks: Promise<void>[] = [];
  const weak: WorkItem[] = [];
  const weakScore = ctx.judge.usesModel ? ctx.settings.weakBranchScore : 0;
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
      if (next) for (const child of await open(ctx, next, state)) schedule(child);
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
function keepWeak(ctx: SearchLedger, items: readonly WorkItem[], state: SearchState): void {
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
