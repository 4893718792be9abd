// The layout fits' cross-validation (issue 26): folds hold out one package each and never score a
// row fitted on in the same fold; the L2 logistic fit (scripts/logistic-l2.ts) finds the weights
// that generated a labelled set, shrinks them as its penalty grows, and honours row weights.
import { describe, expect, it } from "vitest";
import { groupFolds, heldOutGain, mean, numberList } from "../../scripts/grouped-cv.js";
import { fitLogistic, logisticProbability } from "../../scripts/logistic-l2.js";
import { rng } from "../../scripts/random.js";

interface Row {
  pkg: string;
  extra: boolean;
}

describe("grouped folds", () => {
  const rows: Row[] = [
    { pkg: "a", extra: false },
    { pkg: "a", extra: true },
    { pkg: "b", extra: false },
    { pkg: "c", extra: true },
    { pkg: "b", extra: false },
  ];

  it("holds out one package per fold and fits on every other package", () => {
    const folds = groupFolds(rows, (r) => r.pkg);
    expect(folds.map((f) => f.held)).toEqual(["a", "b", "c"]);
    for (const fold of folds) {
      expect(fold.score.every((r) => r.pkg === fold.held)).toBe(true);
      expect(fold.fit.some((r) => r.pkg === fold.held)).toBe(false);
      expect(fold.fit.length + fold.score.length).toBe(rows.length);
    }
  });

  it("fits on rows it does not score, and makes no fold for a package with nothing to score", () => {
    const folds = groupFolds(
      rows,
      (r) => r.pkg,
      (r) => !r.extra,
    );
    expect(folds.map((f) => f.held)).toEqual(["a", "b"]);
    const a = folds[0];
    expect(a?.score).toEqual([rows[0]]);
    // Package c's extra row is fitted on in both folds, scored in none.
    expect(folds.every((f) => f.fit.includes(rows[3] as Row))).toBe(true);
  });

  it("reads a list of penalties and refuses a bad one by name", () => {
    expect(numberList(undefined, [0.1])).toEqual([0.1]);
    expect(numberList("0.001, 0.01", [])).toEqual([0.001, 0.01]);
    expect(() => numberList("0.1,x", [])).toThrow(/"0.1,x"/);
    expect(() => numberList("-1", [])).toThrow(/non-negative/);
    expect(mean([])).toBe(0);
    expect(mean([1, 2, 3])).toBe(2);
  });
});

describe("held-out gain of a rule", () => {
  interface Doc {
    producer: string;
    gain: number;
  }
  const producer = (d: Doc) => d.producer;
  const gain = (d: Doc) => d.gain;

  it("gives nothing to a rule only its own producer needs, and hurts none with it", () => {
    // The rule lifts one producer's PDFs a lot and costs every other producer a little: in
    // sample it wins on average, out of sample each other producer's fold cuts it.
    const docs: Doc[] = [
      { producer: "Word", gain: 0.6 },
      { producer: "Word", gain: 0.5 },
      { producer: "LaTeX", gain: -0.05 },
      { producer: "Texinfo", gain: -0.05 },
      { producer: "Sphinx", gain: 0 },
    ];
    expect(mean(docs.map(gain))).toBeGreaterThan(0);
    const cv = heldOutGain(docs, producer, gain);
    expect(cv.helped).toEqual(["Word"]);
    expect(cv.hurt).toEqual(["LaTeX", "Texinfo"]);
    // Held out, Word sees the others lose from the rule: cut, so Word's gain is not credited.
    expect(cv.kept).not.toContain("Word");
    expect(cv.gain).toBeLessThanOrEqual(0);
  });

  it("keeps the gain of a rule that helps several producers", () => {
    const docs: Doc[] = [
      { producer: "Word", gain: 0.2 },
      { producer: "LaTeX", gain: 0.1 },
      { producer: "Texinfo", gain: 0.1 },
      { producer: "Sphinx", gain: -0.02 },
    ];
    const cv = heldOutGain(docs, producer, gain);
    expect(cv.kept).toEqual(["Word", "LaTeX", "Texinfo", "Sphinx"]);
    expect(cv.gain).toBeCloseTo(mean(docs.map(gain)), 9);
  });
});

describe("L2 logistic fit", () => {
  /** Rows drawn from a known model: y = 1 with probability sigmoid(-1 + 2·x0 - 3·x1). */
  function sample(n: number, seed: number): { x: number[][]; y: number[] } {
    const random = rng(seed);
    const x: number[][] = [];
    const y: number[] = [];
    for (let i = 0; i < n; i++) {
      const row = [random() * 2 - 1, random() * 2 - 1];
      const p = 1 / (1 + Math.exp(-(-1 + 2 * (row[0] as number) - 3 * (row[1] as number))));
      x.push(row);
      y.push(random() < p ? 1 : 0);
    }
    return { x, y };
  }

  it("recovers the weights that generated the labels", () => {
    const { x, y } = sample(4000, 7);
    const fit = fitLogistic(x, y, { l2: 0 });
    expect(fit.bias).toBeCloseTo(-1, 0);
    expect(fit.weights[0]).toBeCloseTo(2, 0);
    expect(fit.weights[1]).toBeCloseTo(-3, 0);
    expect(logisticProbability(fit, [1, -1])).toBeGreaterThan(0.95);
  });

  it("shrinks the weights as the penalty grows, never the bias alone", () => {
    const { x, y } = sample(1000, 11);
    const size = (l2: number) => {
      const f = fitLogistic(x, y, { l2 });
      return Math.hypot(...f.weights);
    };
    expect(size(0.1)).toBeLessThan(size(0.001));
    expect(size(10)).toBeLessThan(0.2);
  });

  it("stays finite on separable rows and weighs rows as told", () => {
    const x = [[0], [1], [2], [3]];
    const separable = fitLogistic(x, [0, 0, 1, 1], { l2: 0 });
    expect(Number.isFinite(separable.weights[0])).toBe(true);
    expect(logisticProbability(separable, [3])).toBeGreaterThan(0.9);
    // Two rows alike but for their label: the heavier one wins.
    const tie = fitLogistic([[1], [1]], [1, 0], { l2: 1, rowWeights: [3, 1] });
    expect(logisticProbability(tie, [1])).toBeCloseTo(0.75, 2);
  });

  it("names a mismatch of rows and labels", () => {
    expect(() => fitLogistic([[1]], [1, 0], { l2: 0 })).toThrow(/1 rows and 2 labels/);
  });
});
