// ml-logistic-regression ships no types: the part scripts/fit-heading-evidence.ts uses.
declare module "ml-logistic-regression" {
  import type { Matrix } from "ml-matrix";

  /** One-vs-all logistic regression trained by gradient ascent (no intercept: add a column of ones). */
  export default class LogisticRegression {
    constructor(options?: { numSteps?: number; learningRate?: number });
    /** One classifier per class; classifier `i` scores "not class i". */
    classifiers: Array<{ weights: Matrix }>;
    train(features: Matrix, target: Matrix): void;
    predict(features: Matrix): number[];
  }
}
