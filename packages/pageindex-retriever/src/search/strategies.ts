import type { Candidate, SearchStrategy } from "../types.js";
import type { SearchLedger } from "./ledger.js";
import { openNode } from "./open-node.js";
import { beamSearch } from "./schedulers/beam.js";
import { bestFirstSearch } from "./schedulers/best-first.js";
import { singleShotSearch } from "./schedulers/single-shot.js";
import type { StartPlan } from "./start-plan.js";

/** A search strategy: schedules which nodes to open (through {@link openNode}) from the start points. */
export type Scheduler = (ctx: SearchLedger, plan: StartPlan) => Promise<Candidate[]>;

/** Best-first expansion, one sibling prompt per opened node. */
const expand: Scheduler = (ctx, plan) => bestFirstSearch(ctx, plan.starts, openNode.siblings);

/**
 * The strategies by name: a new strategy is one entry here (and its name in `SearchStrategy`).
 * Each only schedules; judging is the judge's, opening a node is {@link openNode}'s.
 */
export const STRATEGIES: Record<SearchStrategy, Scheduler> = {
  // With a judge that reads prompts: outline prompts looking ahead (the whole table of contents
  // where it fits); a lexical judge has no prompt to bound, so `auto` is `expand`.
  auto: (ctx, plan) =>
    ctx.judge.usesModel ? bestFirstSearch(ctx, plan.starts, openNode.outline) : expand(ctx, plan),
  expand,
  beam: (ctx, plan) => beamSearch(ctx, plan.starts, openNode.siblings),
  "single-shot": (ctx, plan) =>
    singleShotSearch(ctx, plan.starts, plan.chain, (c, starts) => expand(c, { ...plan, starts })),
};

/** Whether a name is a strategy of {@link STRATEGIES}. */
export function isStrategy(name: string): name is SearchStrategy {
  return Object.hasOwn(STRATEGIES, name);
}
