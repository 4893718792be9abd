// The semantic spike's randomized truncated SVD (scripts/library-devset/sparse-svd.ts): against
// ml-matrix's dense SVD of the same sparse matrix, singular values and vectors agree, and the
// vectors satisfy A v = σ u with orthonormal u.
import { Matrix, SingularValueDecomposition } from "ml-matrix";
import { describe, expect, it } from "vitest";
import { sparseRows, truncatedSvd } from "../../scripts/library-devset/sparse-svd.js";
import { rng } from "../../scripts/random.js";

/** A random sparse matrix (about a quarter of the cells set), as per-row maps and dense. */
function randomSparse(
  rows: number,
  cols: number,
  seed: number,
): { maps: Map<number, number>[]; dense: Matrix } {
  const random = rng(seed);
  const dense = Matrix.zeros(rows, cols);
  const maps = Array.from({ length: rows }, (_, r) => {
    const m = new Map<number, number>();
    for (let c = 0; c < cols; c++)
      if (random() < 0.25) {
        const v = random() * 2 - 1;
        m.set(c, v);
        dense.set(r, c, v);
      }
    return m;
  });
  return { maps, dense };
}

describe("truncatedSvd", () => {
  const { maps, dense } = randomSparse(60, 18, 7);
  const k = 5;
  const svd = truncatedSvd(sparseRows(maps, 18), k);
  const reference = new SingularValueDecomposition(dense, { autoTranspose: true });

  it("finds the largest singular values, largest first", () => {
    expect(svd.k).toBe(k);
    svd.sigma.forEach((s, j) => {
      expect(s).toBeCloseTo(reference.diagonal[j] as number, 6);
    });
  });

  it("returns vectors with A v = σ u and orthonormal u", () => {
    for (let j = 0; j < k; j++) {
      const v = Matrix.columnVector(Array.from({ length: 18 }, (_, c) => svd.v[c * k + j] as number));
      const u = Array.from({ length: 60 }, (_, r) => svd.u[r * k + j] as number);
      const av = dense.mmul(v).to1DArray();
      av.forEach((x, r) => {
        expect(x).toBeCloseTo((svd.sigma[j] as number) * (u[r] as number), 6);
      });
      for (let i = 0; i <= j; i++) {
        const dot = u.reduce((s, x, r) => s + x * (svd.u[r * k + i] as number), 0);
        expect(dot).toBeCloseTo(i === j ? 1 : 0, 6);
      }
    }
  });
});
