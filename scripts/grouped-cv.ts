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
