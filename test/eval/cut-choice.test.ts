// The heading model's cut search (scripts/heading-fit.ts, issue 26): `best` takes the grid cell
// with the best mean F1 over the fitted PDFs, `flat` the cell whose worst neighbour is best, so a
// peak that a few PDFs make loses to a plateau; ties keep the first cell. `blur` takes the best
// neighbourhood mean, `margin` keeps a default look share unless another beats it by a margin.
import { describe, expect, it } from "vitest";
import { CUT_GRID, chooseCut, chooseCutFromMeans } from "../../scripts/heading-fit.js";

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
