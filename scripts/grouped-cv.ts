/**
 * Grouped cross-validation for the layout path's fitted parts (issue 26): leave one package out.
 * Each fold fits on every other package's PDFs and scores the held-out package's, so no PDF is
 * scored by a model that saw its own package (PDFs of one package share a producer's habits, the
 * way train and validation do not). The mean over held-out PDFs is the out-of-sample estimate the
 * fitting scripts choose by; validation is never in it.
 */

/** One fold: the package held out, the rows fitted on and the rows scored. */
export interface Fold<T> {
  held: string;
  fit: T[];
  score: T[];
}

/**
 * One fold per group (`groupOf`, e.g. the Debian package), in first-seen order. Rows for which
 * `scored` is false (extra fitting rows) are fitted on in every other fold but never scored.
 */
export function groupFolds<T>(
  rows: readonly T[],
  groupOf: (row: T) => string,
  scored: (row: T) => boolean = () => true,
): Fold<T>[] {
  const groups = [...new Set(rows.filter(scored).map(groupOf))];
  return groups.map((held) => ({
    held,
    fit: rows.filter((r) => groupOf(r) !== held),
    score: rows.filter((r) => groupOf(r) === held && scored(r)),
  }));
}

/** The mean of a list (0 for none). */
export const mean = (list: readonly number[]): number =>
  list.length === 0 ? 0 : list.reduce((s, v) => s + v, 0) / list.length;

/** A list of numbers from a comma-separated option ("0.001,0.01,0.1"). */
export function numberList(option: string | undefined, fallback: readonly number[]): number[] {
  if (option === undefined) return [...fallback];
  const list = option.split(",").map((s) => Number(s.trim()));
  const bad = list.find((v) => !Number.isFinite(v) || v < 0);
  if (bad !== undefined || list.length === 0) {
    throw new Error(`expected comma-separated non-negative numbers, got "${option}"`);
  }
  return list;
}

/** What {@link heldOutGain} found for one switch (a rule kept against cut). */
export interface HeldOutGain {
  /** Mean gain per scored row when each group gets the choice the other groups made. */
  gain: number;
  /** The groups whose held-out choice was to keep the switch on. */
  kept: string[];
  /** Groups whose own rows gain from the switch, and those that lose. */
  helped: string[];
  hurt: string[];
}

/**
 * Whether a switch earns its place out of sample: for each group held out (a producer), keep it on
 * only when the other groups' rows gain from it on average, and credit the held-out group's rows
 * with that choice's gain (0 when cut). A rule only its own producer needs is cut in that
 * producer's fold, so it gains nothing; a rule that helps several producers keeps its gain.
 */
export function heldOutGain<T>(
  rows: readonly T[],
  groupOf: (row: T) => string,
  gainOf: (row: T) => number,
): HeldOutGain {
  const kept: string[] = [];
  const gains: number[] = [];
  const helped: string[] = [];
  const hurt: string[] = [];
  for (const fold of groupFolds(rows, groupOf)) {
    const own = mean(fold.score.map(gainOf));
    if (own > 1e-9) helped.push(fold.held);
    if (own < -1e-9) hurt.push(fold.held);
    const keep = mean(fold.fit.map(gainOf)) > 1e-9;
    if (keep) kept.push(fold.held);
    for (const r of fold.score) gains.push(keep ? gainOf(r) : 0);
  }
  return { gain: mean(gains), kept, helped, hurt };
}
