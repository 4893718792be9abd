/**
 * Logistic regression with an L2 penalty on the weights (not the bias) and per-row weights, fitted
 * by Newton's method (iteratively reweighted least squares) with ml-matrix solving each step.
 * ml-logistic-regression has no penalty, so its only brake was stopping gradient ascent early;
 * the penalty's strength is what grouped cross-validation (grouped-cv.ts) chooses. Shared by the
 * fitting scripts of the layout path.
 */
import { CholeskyDecomposition, Matrix } from "ml-matrix";

/** A fitted model: the bias and one weight per feature column. */
export interface LogisticFit {
  bias: number;
  weights: number[];
}

/** How to fit. */
export interface LogisticOptions {
  /** Penalty on the squared weights, per row of (total) weight: the loss is mean log loss + l2/2 · |w|². */
  l2: number;
  /** Each row's weight (default 1 each), e.g. to give two classes equal total weight. */
  rowWeights?: readonly number[];
  /** Newton steps at most (default 50). */
  maxSteps?: number;
}

const sigmoid = (z: number): number => 1 / (1 + Math.exp(-z));

/** The model's probability for one feature row. */
export function logisticProbability(fit: LogisticFit, row: readonly number[]): number {
  let z = fit.bias;
  row.forEach((v, i) => {
    z += (fit.weights[i] ?? 0) * v;
  });
  return sigmoid(z);
}

/**
 * Fits labels `y` (0 or 1) from feature rows `x`. A tiny floor on the penalty keeps a separable
 * set finite; the bias is never penalised.
 */
export function fitLogistic(
  x: readonly (readonly number[])[],
  y: readonly number[],
  options: LogisticOptions,
): LogisticFit {
  const n = x.length;
  if (n === 0 || n !== y.length) throw new Error(`fitLogistic: ${n} rows and ${y.length} labels`);
  const d = (x[0] as readonly number[]).length + 1;
  const rw = options.rowWeights ?? x.map(() => 1);
  const total = rw.reduce((s, v) => s + v, 0);
  const l2 = Math.max(options.l2, 1e-6);
  const beta = new Array<number>(d).fill(0);
  for (let step = 0; step < (options.maxSteps ?? 50); step++) {
    const grad = new Array<number>(d).fill(0);
    // Accumulated in plain arrays (Matrix get/set per entry was most of a fit's time).
    const hess = Array.from({ length: d }, () => new Float64Array(d));
    for (let i = 0; i < n; i++) {
      const row = x[i] as readonly number[];
      let z = beta[0] as number;
      for (let k = 1; k < d; k++) z += (beta[k] as number) * (row[k - 1] as number);
      const p = sigmoid(z);
      const w = (rw[i] as number) / total;
      const err = (p - (y[i] as number)) * w;
      const curve = p * (1 - p) * w;
      for (let a = 0; a < d; a++) {
        const va = a === 0 ? 1 : (row[a - 1] as number);
        grad[a] = (grad[a] as number) + err * va;
        if (va === 0) continue;
        const ha = hess[a] as Float64Array;
        for (let b = a; b < d; b++) {
          const vb = b === 0 ? 1 : (row[b - 1] as number);
          if (vb !== 0) ha[b] = (ha[b] as number) + curve * va * vb;
        }
      }
    }
    for (let a = 1; a < d; a++) {
      grad[a] = (grad[a] as number) + l2 * (beta[a] as number);
      const ha = hess[a] as Float64Array;
      ha[a] = (ha[a] as number) + l2;
    }
    const h0 = hess[0] as Float64Array;
    h0[0] = (h0[0] as number) + 1e-9;
    for (let a = 0; a < d; a++)
      for (let b = 0; b < a; b++) (hess[a] as Float64Array)[b] = (hess[b] as Float64Array)[a] as number;
    const matrix = new Matrix(hess.map((r) => Array.from(r)));
    const delta = new CholeskyDecomposition(matrix).solve(Matrix.columnVector(grad)).to1DArray();
    let moved = 0;
    for (let a = 0; a < d; a++) {
      beta[a] = (beta[a] as number) - (delta[a] as number);
      moved = Math.max(moved, Math.abs(delta[a] as number));
    }
    if (moved < 1e-7) break;
  }
  return { bias: beta[0] as number, weights: beta.slice(1) };
}
