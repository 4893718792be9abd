/**
 * Fits the layout tree's evidence model (packages/pageindex-loader/src/pdf/structure/
 * tree-evidence.ts): a logistic regression from a tree's features to "level-aware F1 ≥ 0.8",
 * on the TRAIN half's rows and the extra train-package PDFs only (written by
 * `scripts/eval-devset-layout.ts --extra --features FILE`), L2-penalised (logistic-l2.ts), classes
 * weighted to equal total weight (few trees are bad: unweighted, no score would fall below the
 * warning line). Writes the weights to tree-evidence-weights.ts and prints how the fitted score
 * separates good from bad trees on both halves. `--cv` also scores every train-package row by a
 * model fitted without its package (grouped-cv.ts) and prints those warning counts; `--dry`
 * writes nothing.
 *
 * Run: npx tsx scripts/eval-devset-layout.ts --half train --extra --features /tmp/rows.json && npx tsx scripts/fit-tree-evidence.ts /tmp/rows.json [--cv] [--dry]
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { DOUBTED, LOW_CONFIDENCE } from "../packages/pageindex-loader/src/pdf/structure/confidence.js";
import {
  type EvidenceModel,
  evidenceDoubts,
  evidenceScore,
  FEATURE_NAMES,
} from "../packages/pageindex-loader/src/pdf/structure/tree-evidence.js";
import type { LayoutRow } from "./eval-devset-layout.js";
import { groupFolds } from "./grouped-cv.js";
import { fitLogistic } from "./logistic-l2.js";

/** A tree this good (level-aware F1) is one the model should trust. */
const GOOD_F1 = 0.8;
const L2 = 0.01;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { cv: { type: "boolean" }, dry: { type: "boolean" }, help: { type: "boolean" } },
});
const file = positionals[0];
if (values.help || !file) {
  console.log("usage: npx tsx scripts/fit-tree-evidence.ts rows.json [--cv] [--dry]");
  process.exit(values.help ? 0 : 1);
}
const rows = JSON.parse(readFileSync(file, "utf8")) as LayoutRow[];
// The train half and the extra train-package PDFs (eval-devset-layout.ts --extra): never validation.
const isTrain = (r: LayoutRow): boolean => r.half === "train" || r.half === "train-extra";
const x = (r: LayoutRow): number[] => FEATURE_NAMES.map((n) => r.features[n]);
const y = (r: LayoutRow): number => (r.f1 >= GOOD_F1 ? 1 : 0);
const pkgOf = (r: LayoutRow): string => r.label.split("/")[0] as string;

/** The fit on some rows, each class weighing as much in total as the other. */
function fitRows(list: readonly LayoutRow[]): EvidenceModel {
  const positives = list.filter((r) => y(r) === 1).length;
  const negatives = list.length - positives;
  const fit = fitLogistic(list.map(x), list.map(y), {
    l2: L2,
    rowWeights: list.map((r) => (y(r) === 1 ? 1 / Math.max(1, positives) : 1 / Math.max(1, negatives))),
  });
  return { bias: Number(fit.bias.toFixed(4)), weights: fit.weights.map((v) => Number(v.toFixed(4))) };
}

/** As the loader weighs it (layout.ts): a named doubt puts the tree below the line, at most DOUBTED. */
const scoreOf = (r: LayoutRow, model: EvidenceModel): number =>
  evidenceDoubts(r.features).length > 0 ? Math.min(evidenceScore(r.features, model), DOUBTED) : 1;

function report(name: string, scored: readonly { r: LayoutRow; p: number }[]): void {
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
    `${name}: ${scored.length} PDFs, ${bad.length} with F1 < ${GOOD_F1}; warned (below ${LOW_CONFIDENCE} with a named doubt): ${bad.filter((s) => s.p < LOW_CONFIDENCE).length} of those, ${good.filter((s) => s.p < LOW_CONFIDENCE).length} good ones; AUC ${pairs ? (ordered / pairs).toFixed(2) : "-"}`,
  );
}

const train = rows.filter(isTrain);
const model = fitRows(train);
console.log(FEATURE_NAMES.map((n, i) => `${n}: ${model.weights[i]}`).join(", "), `bias: ${model.bias}`);
for (const half of ["train", "train-extra", "validation"]) {
  const list = rows.filter((r) => r.half === half);
  if (list.length > 0)
    report(
      half,
      list.map((r) => ({ r, p: scoreOf(r, model) })),
    );
}
if (values.cv) {
  const held: { r: LayoutRow; p: number }[] = [];
  for (const fold of groupFolds(train, pkgOf)) {
    const m = fitRows(fold.fit);
    held.push(...fold.score.map((r) => ({ r, p: scoreOf(r, m) })));
  }
  report(
    "train CV (by package)",
    held.filter((s) => s.r.half === "train"),
  );
  report(
    "train-extra CV (by package)",
    held.filter((s) => s.r.half === "train-extra"),
  );
}
if (!values.dry) {
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
}
