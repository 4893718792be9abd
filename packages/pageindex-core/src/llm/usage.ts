import type { LlmUsage } from "../model/types.js";

/** Counts for one step or the total. */
export type UsageCounts = Omit<LlmUsage, "byStep">;

const zero = (): UsageCounts => ({ calls: 0, promptTokens: 0, completionTokens: 0, failures: 0 });

/**
 * Accumulates LLM calls and tokens by step ("summary", "toc-detect", "judge", …), so a build or a
 * query can report what it cost. Cheap to create; pass one down to every call of one job.
 */
export class UsageTracker {
  private readonly steps = new Map<string, UsageCounts>();

  /** Adds counts to a step. `calls` defaults to 1. */
  record(step: string, counts: Partial<UsageCounts>): void {
    const current = this.steps.get(step) ?? zero();
    current.calls += counts.calls ?? 1;
    current.promptTokens += counts.promptTokens ?? 0;
    current.completionTokens += counts.completionTokens ?? 0;
    current.failures += counts.failures ?? 0;
    this.steps.set(step, current);
  }

  /** Adds everything another tracker (or a saved usage) recorded. */
  merge(other: UsageTracker | LlmUsage): void {
    const steps = other instanceof UsageTracker ? other.steps : new Map(Object.entries(other.byStep ?? {}));
    for (const [step, counts] of steps) this.record(step, counts);
  }

  /** Total over all steps. */
  get total(): UsageCounts {
    const total = zero();
    for (const counts of this.steps.values()) {
      total.calls += counts.calls;
      total.promptTokens += counts.promptTokens;
      total.completionTokens += counts.completionTokens;
      total.failures += counts.failures;
    }
    return total;
  }

  /** Counts of one step (zeros when the step never ran). */
  step(step: string): UsageCounts {
    return { ...(this.steps.get(step) ?? zero()) };
  }

  /** Totals plus the per-step breakdown, in the tree model's {@link LlmUsage} shape. */
  toJSON(): LlmUsage {
    return { ...this.total, byStep: Object.fromEntries([...this.steps].map(([k, v]) => [k, { ...v }])) };
  }
}
