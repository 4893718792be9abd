/**
 * Fits the layout tree's evidence model (packages/pageindex-loader/src/pdf/structure/
 * tree-evidence.ts): a logistic regression from a tree's features to "level-aware F1 ≥ 0.8",
 * on the TRAIN half's rows and the extra train-package PDFs only (written by
 * `scripts/eval-devset-layout.ts --extra --features FILE`),
 * L2-regularised, classes weighted to equal total weight (few trees are bad: unweighted, no
 * score would fall below the warning line), by full-batch gradient descent. Writes the weights to tree-evidence-weights.ts
 * and prints how the fitted score separates good from bad trees on both halves.
 *
 * Run: npx tsx scripts/eval-devset-layout.ts --half train --extra --features /tmp/rows.json && npx tsx scripts/fit-tree-evidence.ts /tmp/rows.json
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { DOUBTED } from "../packages/pageindex-loader/src/pdf/structure/confidence.js";
import {
  type EvidenceModel,
  evidenceDoubts,
  evidenceScore,
  FEATURE_NAMES,
} from "../packages/pageindex-loader/src/pdf/structure/tree-evidence.js";
import type { LayoutRow } from "./eval-devset-layout.js";

/** A tree this good (level-aware F1) is one the model should trust. */
const GOOD_F1 = 0.8;
const L2 = 0.01;
const STEPS = 20_000;
const RATE = 0.5;

const file = process.argv[2];
if (!file) throw new Error("usage: fit-tree-evidence.ts rows.json");
const rows = JSON.parse(readFileSync(file, "utf8")) as LayoutRow[];
// The train half and the extra train-package PDFs (eval-devset-layout.ts --extra): never validation.
const train = rows.filter((r) => r.half === "train" || r.half === "train-extra");
const x = (r: LayoutRow): number[] => FEATURE_NAMES.map((n) => r.features[n]);
const y = (r: LayoutRow): number => (r.f1 >= GOOD_F1 ? 1 : 0);

const positives = train.filter((r) => y(r) === 1).length;
/** Each class weighs as much in total as the other. */
const weightOf = (r: LayoutRow): number =>
  y(r) === 1 ? train.length / (2 * positives) : train.length / (2 * (train.length - positives));
let bias = 0;
const w = FEATURE_NAMES.map(() => 0);
for (let step = 0; step < STEPS; step++) {
  let gb = 0;
  const gw = w.map(() => 0);
  for (const r of train) {
    const xs = x(r);
    const p = 1 / (1 + Math.exp(-(bias + xs.reduce((s, v, i) => s + v * (w[i] as number), 0))));
    const err = (p - y(r)) * weightOf(r);
    gb += err;
    xs.forEach((v, i) => {
      gw[i] = (gw[i] as number) + err * v;
    });
  }
  bias -= (RATE * gb) / train.length;
  w.forEach((v, i) => {
    w[i] = v - RATE * ((gw[i] as number) / train.length + L2 * v);
  });
}
const model: EvidenceModel = { bias: Number(bias.toFixed(4)), weights: w.map((v) => Number(v.toFixed(4))) };

const target = join(
  import.meta.dirname,
  "../packages/pageindex-loader/src/pdf/structure/tree-evidence-weights.ts",
);
writeFileSync(
  target,
  `/**
 * Fitted by scripts/fit-tree-evidence.ts on the train half of the split dev set and more PDFs of
 * its packages (${train.length} PDFs; target: level-aware F1 ≥ ${GOOD_F1}). Weights in FEATURE_NAMES
 * order: ${FEATURE_NAMES.join(", ")}.
 */
// The shape of \`EvidenceModel\` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[] } = ${JSON.stringify(model)};
`,
);
// Formatted as the linter wants it.
execFileSync("npx", ["biome", "format", "--write", target], { stdio: "ignore" });
console.log(`weights written to ${target}`);
console.log(FEATURE_NAMES.map((n, i) => `${n}: ${model.weights[i]}`).join(", "), `bias: ${model.bias}`);
for (const half of ["train", "train-extra", "validation"]) {
  const list = rows.filter((r) => r.half === half);
  // As the loader weighs it (layout.ts): a named doubt puts the tree below the line, at most DOUBTED.
  const scored = list.map((r) => ({
    r,
    p: evidenceDoubts(r.features).length > 0 ? Math.min(evidenceScore(r.features, model), DOUBTED) : 1,
  }));
  const good = scored.filter((s) => y(s.r) === 1);
  const bad = scored.filter((s) => y(s.r) === 0);
  let pairs = 0;
  let ordered = 0;
  for (const g of good) {
    for (const b of bad) {
      pairs++;
      ordered += g.p > b.p ? 1 : g.p === b.p ? 0.5 : 0;
    }
  }
  console.log(
    `${half}: ${list.length} PDFs, ${bad.length} with F1 < ${GOOD_F1}; warned (below 0.5 with a named doubt): ${bad.filter((s) => s.p < 0.5).length} of those, ${good.filter((s) => s.p < 0.5).length} good ones; AUC ${pairs ? (ordered / pairs).toFixed(2) : "-"}`,
  );
}
