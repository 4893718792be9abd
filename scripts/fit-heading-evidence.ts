/**
 * Fits the per-heading model of the layout path (packages/pageindex-loader/src/pdf/structure/
 * heading-evidence.ts): an L2-penalised logistic regression (logistic-l2.ts) from a candidate's
 * features to "the outline has a bookmark on its page with a similar title", on the TRAIN half of
 * the split dev set only; then the cut and look share giving the fitted PDFs' best mean
 * level-aware F1 (heading-fit.ts). Writes heading-evidence-weights.ts; prints both halves with
 * the new weights and those in use (validation is reported, never used to choose).
 *
 * `--cv` adds grouped cross-validation (grouped-cv.ts): one fold per package fitted on, each
 * fitting weights, cut and look share without that package and scoring its PDFs; the mean over
 * the train half's PDFs (the extra PDFs' apart) is printed beside the train-fit F1, and with several `--l2` values the penalty with
 * the best CV F1 is the one fitted and written. `--extra` adds more PDFs of the train packages
 * (TRAIN_EXTRA) to every fit (never to a mean); `--train-only` reads no validation PDF. `--gd`
 * fits as before this round (ml-logistic-regression's unpenalised gradient ascent, 4000 steps),
 * to compare.
 *
 * Run: npx tsx scripts/fit-heading-evidence.ts [--help] [--dry] [--extra] [--train-only] [--cv] [--group package|producer] [--l2 0.001,0.01,0.1] [--cut-choice best|global] [--weigh pdf] [--drop NAMES] [--ablate NAMES|all] [--gd]
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import LogisticRegression from "ml-logistic-regression";
import { Matrix } from "ml-matrix";
import {
  HEADING_FEATURE_NAMES,
  type HeadingModel,
  headingScore,
} from "../packages/pageindex-loader/src/pdf/structure/heading-evidence.js";
import { HEADING_MODEL } from "../packages/pageindex-loader/src/pdf/structure/heading-evidence-weights.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { groupFolds, mean, numberList } from "./grouped-cv.js";
import {
  cutChoiceNamed,
  fitHeadingModel,
  GlobalCutSearch,
  HEADING_FIT,
  type HeadingDoc,
  type HeadingFit,
  type HeadingFitSettings,
  headingDocs,
  meanTreeF1,
  roundedModel,
  treeF1,
} from "./heading-fit.js";

const USAGE = `Usage: npx tsx scripts/fit-heading-evidence.ts [options]
  --cache DIR     where scripts/debian-docs.ts put the dev set (default ${DEBIAN_CACHE})
  --dry           print only; do not write heading-evidence-weights.ts
  --extra         also fit on more PDFs of the train packages (TRAIN_EXTRA)
  --train-only    read no validation PDF
  --cv            grouped cross-validation on the train half (by package unless --group)
  --group G       with --cv: the folds hold out a package or a producer (default package)
  --l2 LIST       penalties to try, comma-separated (default ${HEADING_FIT.l2}, the one in use); with --cv the best CV F1 wins
  --cut-choice C  how the cut is picked: best or global (default: heading-fit.ts HEADING_CUT_CHOICE)
  --weigh W       what weighs alike in the fit: candidate, pdf or package (default ${HEADING_FIT.weigh})
  --drop NAMES    features left out (weight 0), comma-separated (default: ${HEADING_FIT.drop.map((i) => HEADING_FEATURE_NAMES[i]).join(",") || "none"})
  --ablate NAMES  with --cv: also the CV F1 with each of these features (or "all") left out in turn
  --gd            fit as before this round (unpenalised gradient ascent), to compare
  --help          this text`;

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: DEBIAN_CACHE },
    dry: { type: "boolean" },
    extra: { type: "boolean" },
    "train-only": { type: "boolean" },
    cv: { type: "boolean" },
    l2: { type: "string" },
    gd: { type: "boolean" },
    weigh: { type: "string" },
    drop: { type: "string" },
    ablate: { type: "string" },
    group: { type: "string", default: "package" },
    "cut-choice": { type: "string" },
    help: { type: "boolean" },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const penalties = numberList(values.l2, [HEADING_FIT.l2]);
if (values.group !== "package" && values.group !== "producer")
  throw new Error(`--group: package or producer, not "${values.group}"`);
/** What a fold holds out: a package, or every PDF one producer made (what an unseen document faces). */
const groupOf = (d: HeadingDoc): string => (values.group === "producer" ? d.producer : d.pkg);
const weigh = (values.weigh ?? HEADING_FIT.weigh) as HeadingFitSettings["weigh"];
if (!["candidate", "pdf", "package"].includes(weigh))
  throw new Error(`--weigh: candidate, pdf or package, not "${weigh}"`);
const drop =
  values.drop === undefined
    ? [...HEADING_FIT.drop]
    : values.drop
        .split(",")
        .filter(Boolean)
        .map((name) => {
          const i = (HEADING_FEATURE_NAMES as readonly string[]).indexOf(name.trim());
          if (i < 0) throw new Error(`--drop: no feature "${name}" (${HEADING_FEATURE_NAMES.join(", ")})`);
          return i;
        });
const settingsWith = (l2: number, dropped: readonly number[] = drop): HeadingFitSettings => ({
  l2,
  weigh,
  drop: dropped,
});

/** The fit before this round: ml-logistic-regression, then the same cut search. */
function gradientFit(list: readonly HeadingDoc[]): HeadingFit {
  const xs = list.flatMap((d) => d.x.map((r) => [1, ...r]));
  const ys = list.flatMap((d) => d.y);
  const logreg = new LogisticRegression({ numSteps: 4000, learningRate: 2 / ys.length });
  logreg.train(new Matrix(xs), Matrix.columnVector(ys));
  // Class 0's one-vs-all classifier scores "not class 0", i.e. "a heading".
  const w = (logreg.classifiers[0] as { weights: Matrix }).weights.to1DArray();
  // The cut search of fitHeadingModel, over these weights: a zero penalty fit replaced by them.
  return fitHeadingModel(list, settingsWith(0), { bias: w[0] as number, weights: w.slice(1) });
}
const cutChoice = cutChoiceNamed(values["cut-choice"]);
const docs = await headingDocs({
  cache: values.cache as string,
  half: values["train-only"] ? "train" : undefined,
  extra: values.extra,
});
const pool = docs.filter((d) => d.half === "train" || d.half === "train-extra");
/** With `global`, one search per fit setting over the whole pool: the CV's folds share its inner fits. */
const searches = new Map<string, GlobalCutSearch>();
function searchFor(settings: HeadingFitSettings): GlobalCutSearch | undefined {
  if (cutChoice.kind !== "global") return undefined;
  const key = JSON.stringify(settings);
  const search = searches.get(key) ?? new GlobalCutSearch(pool, settings);
  searches.set(key, search);
  return search;
}
const fitWith = (list: readonly HeadingDoc[], settings: HeadingFitSettings): HeadingFit =>
  values.gd ? gradientFit(list) : fitHeadingModel(list, settings, undefined, cutChoice, searchFor(settings));
const trainHalf = docs.filter((d) => d.half === "train");
const pct = (x: number): string => (100 * x).toFixed(1);
console.log(
  `fitting on ${pool.length} PDFs (${trainHalf.length} of the train half), ${pool.reduce((s, d) => s + d.y.length, 0)} candidates`,
);
console.log(`train mean F1 with the weights in use: ${pct(meanTreeF1(trainHalf, HEADING_MODEL))}`);

/** Train-half PDFs' F1, each from a model fitted without its package (or producer: --group). */
function crossValidated(settings: HeadingFitSettings): { f1: number; extraF1: number; byPackage: string[] } {
  const byPackage: string[] = [];
  const train: number[] = [];
  const extra: number[] = [];
  for (const fold of groupFolds(pool, groupOf)) {
    const { model } = fitWith(fold.fit, settings);
    const f = fold.score.map((d) => treeF1(d, model));
    fold.score.forEach((d, i) => {
      (d.half === "train" ? train : extra).push(f[i] as number);
    });
    byPackage.push(`${fold.held} ${pct(mean(f))} (cut ${model.threshold}, look ${model.lookWeight})`);
  }
  return { f1: mean(train), extraF1: mean(extra), byPackage };
}

let chosen = penalties[0] as number;
let bestCv = -1;
const fits = new Map<number, HeadingFit>();
for (const l2 of values.gd ? [0] : penalties) {
  const fit = fitWith(pool, settingsWith(l2));
  fits.set(l2, fit);
  const line = `l2 ${values.gd ? "- (gradient ascent)" : l2}: train-fit F1 ${pct(meanTreeF1(trainHalf, fit.model))} (cut ${fit.model.threshold}, look ${fit.model.lookWeight})`;
  if (!values.cv) {
    console.log(line);
    continue;
  }
  const cv = crossValidated(settingsWith(l2));
  console.log(
    `${line}, train CV F1 ${pct(cv.f1)}${values.extra ? ` (extra PDFs' CV F1 ${pct(cv.extraF1)})` : ""}`,
  );
  console.log(`  held-out ${values.group}: ${cv.byPackage.join("; ")}`);
  if (cv.f1 > bestCv + 1e-9) {
    bestCv = cv.f1;
    chosen = l2;
  }
}
if (values.cv && values.ablate) {
  const names = values.ablate === "all" ? HEADING_FEATURE_NAMES : values.ablate.split(",");
  for (const [i, name] of HEADING_FEATURE_NAMES.entries()) {
    if (drop.includes(i) || !names.includes(name)) continue;
    const cv = crossValidated(settingsWith(chosen, [...drop, i]));
    console.log(`without ${name}: train CV F1 ${pct(cv.f1)} (extra PDFs' CV F1 ${pct(cv.extraF1)})`);
    console.log(`  held-out ${values.group}: ${cv.byPackage.join("; ")}`);
  }
}
const model: HeadingModel = roundedModel((fits.get(values.gd ? 0 : chosen) as HeadingFit).model);
console.log(
  HEADING_FEATURE_NAMES.map((n, i) => `${n}: ${model.weights[i]}`).join(", "),
  `bias: ${model.bias}`,
  `cut: ${model.threshold}`,
  `look weight: ${model.lookWeight}`,
  values.gd
    ? ""
    : `l2: ${chosen}, weigh: ${weigh}, dropped: ${drop.map((i) => HEADING_FEATURE_NAMES[i]).join(",") || "none"}`,
);
for (const half of ["train", "train-extra", "validation"]) {
  const list = docs.filter((d) => d.half === half);
  if (list.length === 0) continue;
  const right = list.flatMap((d) =>
    d.x.map((row, i) => {
      const f = Object.fromEntries(HEADING_FEATURE_NAMES.map((n, k) => [n, row[k] ?? 0]));
      const p = headingScore(f as unknown as Parameters<typeof headingScore>[0], model) >= 0.5 ? 1 : 0;
      return p === d.y[i] ? 1 : 0;
    }),
  );
  console.log(
    `${half}: candidates classified right (p ≥ 0.5) ${pct(mean(right))} %, mean tree F1 ${pct(meanTreeF1(list, model))} (weights in use ${pct(meanTreeF1(list, HEADING_MODEL))})`,
  );
}
if (!values.dry) {
  const target = join(
    import.meta.dirname,
    "../packages/pageindex-loader/src/pdf/structure/heading-evidence-weights.ts",
  );
  writeFileSync(
    target,
    `/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set${values.extra ? " and TRAIN_EXTRA (more PDFs of its packages and of the packages added since the sixth session)" : ""} (${pool.length} PDFs,
 * ${pool.reduce((s, d) => s + d.y.length, 0)} candidates${values.gd ? "" : `, L2 penalty ${chosen}${values.cv || chosen === HEADING_FIT.l2 ? " chosen by grouped cross-validation" : ""}, ${weigh}s weighing alike${drop.length > 0 ? `, left out: ${drop.map((i) => HEADING_FEATURE_NAMES[i]).join(", ")}` : ""}, cut chosen "${cutChoice.kind}"`}). Weights in HEADING_FEATURE_NAMES order: ${HEADING_FEATURE_NAMES.join(", ")}.
 */
// The shape of \`HeadingModel\` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: { bias: number; weights: readonly number[]; threshold: number; lookWeight: number } = ${JSON.stringify(model)};
`,
  );
  // Laid out as the linter wants it, so the written file passes `pnpm run lint`.
  execFileSync("npx", ["biome", "format", "--write", target], { stdio: "ignore" });
  console.log(`weights written to ${target}`);
}
