// The heading model's cut search (scripts/heading-fit.ts, issue 26): `best` takes the grid cell
// with the best mean F1 over the fitted PDFs, `flat` the cell whose worst neighbour is best, so a
// peak that a few PDFs make loses to a plateau; ties keep the first cell. `blur` takes the best
// neighbourhood mean, `margin` keeps a default look share unless another beats it by a margin;
// `global` sums the grids of fits that each leave one producer out, shared between CV folds.
import { describe, expect, it } from "vitest";
import {
  CUT_GRID,
  chooseCut,
  chooseCutFromMeans,
  GlobalCutSearch,
  HEADING_FIT,
  type HeadingDoc,
} from "../../scripts/heading-fit.js";

/** A grid of per-PDF F1s (3 PDFs per cell) whose mean is `means[look][cut]`. */
const gridOf = (means: number[][]): number[][][] => means.map((row) => row.map((m) => [m, m, m]));

describe("chooseCut", () => {
  // 3 look shares × 7 cuts: a lone peak (0.95) at look 0, cut 1 in a valley; a plateau of 0.9 at cuts 4-6.
  const means = [
    [0.5, 0.95, 0.5, 0.6, 0.9, 0.9, 0.9],
    [0.5, 0.5, 0.5, 0.6, 0.9, 0.91, 0.9],
    [0.5, 0.5, 0.5, 0.6, 0.9, 0.9, 0.9],
  ];

  it("best takes the peak, flat the plateau's middle", () => {
    expect(chooseCut(gridOf(means), { kind: "best" })).toMatchObject({ look: 0, cut: 1 });
    const flat = chooseCut(gridOf(means), { kind: "flat", radius: 1 });
    expect(flat).toMatchObject({ look: 0, cut: 5 });
    expect(flat.fitF1).toBeCloseTo(0.9);
  });

  it("a wider radius reaches past a narrow plateau", () => {
    // Two cuts either way: only cut 6's neighbourhood (cuts 4-6) stays off the 0.6 column.
    const r2 = chooseCut(gridOf(means), { kind: "flat", radius: 2 });
    expect(r2.cut).toBe(6);
    expect(r2.look).toBe(0);
  });

  it("ties keep the first cell, and the grid starts at 'keep every candidate'", () => {
    expect(
      chooseCut(
        gridOf([
          [0.7, 0.7],
          [0.7, 0.7],
        ]),
        { kind: "best" },
      ),
    ).toMatchObject({ look: 0, cut: 0 });
    expect(CUT_GRID[0]?.[0]).toEqual({ threshold: 0, lookWeight: 0 });
    expect(new Set(CUT_GRID.map((row) => row.length)).size).toBe(1);
  });

  it("blur takes the best neighbourhood mean, not the lone peak", () => {
    // The peak's neighbourhood averages 0.59; at the grid's corner (0, 6) the four cells around
    // average 0.9025, just above the plateau's middle (0.901, nine cells).
    const blur = chooseCut(gridOf(means), { kind: "blur", radius: 1 });
    expect(blur).toMatchObject({ look: 0, cut: 6 });
  });

  it("margin keeps the default look share's best cut through a near-tie, and leaves it past the margin", () => {
    // Look 2's best (0.9) is 0.01 below look 1's 0.91 and 0.05 below the peak at look 0.
    expect(chooseCutFromMeans(means, { kind: "margin", look: 2, points: 0.02 })).toMatchObject({
      look: 0,
      cut: 1,
    });
    const near = [
      [0.5, 0.91, 0.5],
      [0.5, 0.5, 0.9],
    ];
    expect(chooseCutFromMeans(near, { kind: "margin", look: 1, points: 0.02 })).toMatchObject({
      look: 1,
      cut: 2,
    });
    expect(chooseCutFromMeans(near, { kind: "margin", look: 1, points: 0.005 })).toMatchObject({
      look: 0,
      cut: 1,
    });
  });
});

describe("GlobalCutSearch", () => {
  // Three producers' PDFs; a fake grid (1 look share × 2 cuts) per fit, keyed by the producers fitted on.
  const doc = (producer: string) => ({ producer }) as unknown as HeadingDoc;
  const pool = [doc("A"), doc("A"), doc("B"), doc("C")];
  const grid = [
    [
      { threshold: 0.3, lookWeight: 0 },
      { threshold: 0.5, lookWeight: 0 },
    ],
  ];
  const fitted = (docs: readonly HeadingDoc[]) => [...new Set(docs.map((d) => d.producer))].sort().join("");
  // Without A (fit on B, C) cut 0.3 wins by a little; the other two fits prefer 0.5 by more.
  const grids: Record<string, number[][]> = {
    BC: [[0.92, 0.9]],
    AC: [[0.8, 0.9]],
    AB: [[0.8, 0.9]],
    A: [[0.9, 0.1]],
    B: [[0.9, 0.1]],
    C: [[0.9, 0.1]],
  };

  it("takes the best cell of the inner fits' grids summed, not of one fit's", () => {
    const calls: string[] = [];
    const search = new GlobalCutSearch(pool, HEADING_FIT, grid, (docs) => {
      calls.push(fitted(docs));
      return grids[fitted(docs)] as number[][];
    });
    expect(search.cell(pool)).toEqual({ threshold: 0.5, lookWeight: 0 });
    expect(calls.sort()).toEqual(["AB", "AC", "BC"]);
  });

  it("shares inner fits between the folds of a producer CV", () => {
    const calls: string[] = [];
    const search = new GlobalCutSearch(pool, HEADING_FIT, grid, (docs) => {
      calls.push(fitted(docs));
      return grids[fitted(docs)] as number[][];
    });
    // Each fold leaves one producer out; its inner folds leave a second: three pairs, each fitted once.
    for (const held of ["A", "B", "C"]) search.cell(pool.filter((d) => d.producer !== held));
    expect(calls.sort()).toEqual(["A", "B", "C"]);
    // Fold A's inner grids are those fitted on B and on C alone: 0.3 wins there.
    expect(search.cell(pool.filter((d) => d.producer !== "A"))).toEqual({ threshold: 0.3, lookWeight: 0 });
  });

  it("refuses a PDF outside its pool", () => {
    const search = new GlobalCutSearch(pool, HEADING_FIT, grid, () => [[0, 0]]);
    expect(() => search.cell([doc("A"), doc("B")])).toThrow(/outside its pool/);
  });
});
