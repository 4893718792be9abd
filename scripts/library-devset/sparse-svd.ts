/**
 * A truncated SVD of a sparse matrix (Halko, Martinsson and Tropp's randomized range finder with
 * power iterations) on typed arrays, for the semantic spike over the library's text
 * (scripts/analyze-library-semantic.ts). Only l × l problems go to `ml-matrix` (its symmetric
 * eigendecomposition): a dense SVD of a sections × vocabulary matrix would not fit.
 */
import { EigenvalueDecomposition, Matrix } from "ml-matrix";
import { rng } from "../random.js";

/** A sparse matrix, compressed rows: row r's entries are `cols`/`values` from `rowStart[r]` to `rowStart[r + 1]`. */
export interface SparseRows {
  rows: number;
  cols: number;
  rowStart: Int32Array;
  colIndex: Int32Array;
  values: Float32Array;
}

/** Builds compressed rows from per-row maps of column → value. */
export function sparseRows(rows: ReadonlyArray<ReadonlyMap<number, number>>, cols: number): SparseRows {
  const rowStart = new Int32Array(rows.length + 1);
  rows.forEach((r, i) => {
    rowStart[i + 1] = (rowStart[i] as number) + r.size;
  });
  const nnz = rowStart[rows.length] as number;
  const colIndex = new Int32Array(nnz);
  const values = new Float32Array(nnz);
  rows.forEach((r, i) => {
    let at = rowStart[i] as number;
    for (const [c, v] of [...r].sort((a, b) => a[0] - b[0])) {
      colIndex[at] = c;
      values[at++] = v;
    }
  });
  return { rows: rows.length, cols, rowStart, colIndex, values };
}

/** A · X (X: A.cols × l) or, `transposed`, Aᵀ · X (X: A.rows × l); dense, row-major. */
function times(a: SparseRows, x: Float64Array, l: number, transposed = false): Float64Array {
  const out = new Float64Array((transposed ? a.cols : a.rows) * l);
  for (let r = 0; r < a.rows; r++)
    for (let e = a.rowStart[r] as number; e < (a.rowStart[r + 1] as number); e++) {
      const v = a.values[e] as number;
      const c = a.colIndex[e] as number;
      const [to, from] = transposed ? [c * l, r * l] : [r * l, c * l];
      for (let j = 0; j < l; j++) out[to + j] = (out[to + j] as number) + v * (x[from + j] as number);
    }
  return out;
}

/** Yᵀ Y's eigenvectors and eigenvalues, largest first (Y: n × l, row-major). */
function gramEigen(y: Float64Array, l: number): { vectors: Matrix; values: number[] } {
  const g = Matrix.zeros(l, l);
  const n = y.length / l;
  for (let i = 0; i < n; i++)
    for (let a = 0; a < l; a++) {
      const ya = y[i * l + a] as number;
      if (ya === 0) continue;
      for (let b = a; b < l; b++) g.set(a, b, g.get(a, b) + ya * (y[i * l + b] as number));
    }
  for (let a = 0; a < l; a++) for (let b = 0; b < a; b++) g.set(a, b, g.get(b, a));
  const evd = new EigenvalueDecomposition(g, { assumeSymmetric: true });
  const order = evd.realEigenvalues.map((v, i) => [v, i] as const).sort((p, q) => q[0] - p[0]);
  const vectors = Matrix.zeros(l, l);
  order.forEach(([, from], to) => {
    for (let a = 0; a < l; a++) vectors.set(a, to, evd.eigenvectorMatrix.get(a, from));
  });
  return { vectors, values: order.map(([v]) => Math.max(0, v)) };
}

/** Y · W · diag(scale) (Y: n × l, W: l × l), keeping the first `keep` columns. */
function project(
  y: Float64Array,
  l: number,
  w: Matrix,
  scale: readonly number[],
  keep: number,
): Float64Array {
  const n = y.length / l;
  const out = new Float64Array(n * keep);
  for (let i = 0; i < n; i++)
    for (let a = 0; a < l; a++) {
      const ya = y[i * l + a] as number;
      if (ya === 0) continue;
      for (let j = 0; j < keep; j++)
        out[i * keep + j] = (out[i * keep + j] as number) + ya * w.get(a, j) * (scale[j] as number);
    }
  return out;
}

/** Orthonormal columns spanning Y's (Y Y's Gram eigenvectors, scaled; tiny directions dropped as zero). */
function orthonormal(y: Float64Array, l: number): Float64Array {
  const { vectors, values } = gramEigen(y, l);
  const top = values[0] ?? 0;
  return project(
    y,
    l,
    vectors,
    values.map((v) => (v > top * 1e-12 ? 1 / Math.sqrt(v) : 0)),
    l,
  );
}

/** The rank-k truncated SVD A ≈ U diag(sigma) Vᵀ: U rows × k and V cols × k, row-major. */
export interface TruncatedSvd {
  k: number;
  sigma: number[];
  u: Float64Array;
  v: Float64Array;
}

/** Randomized truncated SVD of `a` (oversampling 20, `powerIterations` 3 by default, seeded). */
export function truncatedSvd(a: SparseRows, k: number, powerIterations = 3, seed = 14): TruncatedSvd {
  const l = Math.min(k + 20, a.rows, a.cols);
  const random = rng(seed);
  // Gaussian test matrix by Box–Muller.
  const omega = new Float64Array(a.cols * l).map(
    () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random()),
  );
  let q = orthonormal(times(a, omega, l), l);
  for (let i = 0; i < powerIterations; i++)
    q = orthonormal(times(a, orthonormal(times(a, q, l, true), l), l), l);
  // B = Qᵀ A (l × cols); with Z = Aᵀ Q = Bᵀ, B Bᵀ = Zᵀ Z = W Λ Wᵀ: U = Q W, V = Z W Σ⁻¹.
  const z = times(a, q, l, true);
  const { vectors, values } = gramEigen(z, l);
  const keep = Math.min(k, l);
  const sigma = values.slice(0, keep).map(Math.sqrt);
  return {
    k: keep,
    sigma,
    u: project(q, l, vectors, new Array(keep).fill(1), keep),
    v: project(
      z,
      l,
      vectors,
      sigma.map((s) => (s > 0 ? 1 / s : 0)),
      keep,
    ),
  };
}
