/**
 * Fits the per-heading model of the layout path (packages/pageindex-loader/src/pdf/structure/
 * heading-evidence.ts): a logistic regression (ml-logistic-regression) from a candidate's features
 * to "the outline has a bookmark on its page with a similar title", on the TRAIN half of the split
 * dev set only. The cut is then chosen on the train half too, as the one giving the best mean
 * level-aware F1 of the trees built with it. Writes heading-evidence-weights.ts; prints both halves
 * at that cut (validation is reported, never used to choose).
 *
 * `--extra` adds more PDFs of the train packages (TRAIN_EXTRA) to the fit; `--train-only` reads no
 * validation PDF (nothing of validation is printed).
 *
 * Run: npx tsx scripts/fit-heading-evidence.ts [--dry] [--extra] [--train-only]
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import LogisticRegression from "ml-logistic-regression";
import { Matrix } from "ml-matrix";
import type { Heading } from "../packages/pageindex-loader/src/pdf/structure/candidates.js";
import {
  featureVector,
  HEADING_FEATURE_NAMES,
  type HeadingModel,
  headingFeatures,
  headingScore,
  keepLikelyHeadings,
} from "../packages/pageindex-loader/src/pdf/structure/heading-evidence.js";
import { HEADING_MODEL } from "../packages/pageindex-loader/src/pdf/structure/heading-evidence-weights.js";
import { nestHeadings } from "../packages/pageindex-loader/src/pdf/structure/hierarchy.js";
import {
  headingContext,
  type LayoutContext,
  layoutCandidates,
  layoutContext,
} from "../packages/pageindex-loader/src/pdf/structure/layout.js";
import { outlineStructure } from "../packages/pageindex-loader/src/pdf/structure/outline.js";
import type { SectionEntry } from "../packages/pageindex-loader/src/pdf/types.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { SPLIT_DEVSET, TRAIN, TRAIN_EXTRA } from "./devset-split.js";
import { layoutF1, referenceEntries } from "./layout-devset-score.js";
import { parsedPdf } from "./parsed-pdf-cache.js";
import { type Entry, SIMILARITY, similar } from "./structure-match.js";

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: DEBIAN_CACHE },
    dry: { type: "boolean" },
    extra: { type: "boolean" },
    "train-only": { type: "boolean" },
  },
});

interface Doc {
  half: string;
  label: string;
  ctx: LayoutContext;
  headings: Heading[];
  x: number[][];
  y: number[];
  reference: Entry[];
}

function flatten(list: readonly SectionEntry[], out: SectionEntry[] = []): SectionEntry[] {
  for (const e of list) {
    out.push(e);
    flatten(e.children, out);
  }
  return out;
}

const docs: Doc[] = [];
const extraDocs = new Set(values.extra ? TRAIN_EXTRA : []);
const sources = [...(values["train-only"] ? TRAIN : SPLIT_DEVSET), ...extraDocs];
for (const doc of sources) {
  const pdf = await parsedPdf(doc, values.cache as string);
  if (!pdf) continue;
  const outline = outlineStructure(pdf.outline);
  if (!outline.usable) continue;
  const bookmarks = flatten(outline.entries);
  const ctx = layoutContext(pdf.pages, { pageLabels: pdf.pageLabels });
  const { headings } = layoutCandidates(ctx);
  const features = headingFeatures(headings, headingContext(ctx));
  docs.push({
    half: extraDocs.has(doc) ? "train-extra" : doc.half,
    label: `${doc.pkg}/${doc.path}`,
    ctx,
    headings,
    x: features.map(featureVector),
    y: headings.map((h) =>
      bookmarks.some((b) => b.page === h.page && similar(b.title, h.title) >= SIMILARITY) ? 1 : 0,
    ),
    reference: referenceEntries(outline.entries),
  });
}

// With --extra, more PDFs of the train packages fit the model and choose the cut too.
const train = docs.filter((d) => d.half === "train" || d.half === "train-extra");
const xs = train.flatMap((d) => d.x.map((r) => [1, ...r]));
const ys = train.flatMap((d) => d.y);
console.log(`train candidates: ${ys.length}, headings among them: ${ys.filter((v) => v === 1).length}`);
const logreg = new LogisticRegression({ numSteps: 4000, learningRate: 2 / ys.length });
logreg.train(new Matrix(xs), Matrix.columnVector(ys));
// Class 0's one-vs-all classifier scores "not class 0", i.e. "a heading".
const fitted = (logreg.classifiers[0] as { weights: Matrix }).weights.to1DArray();
const base = { bias: fitted[0] as number, weights: fitted.slice(1) };

const meanF1 = (list: readonly Doc[], model: HeadingModel): number =>
  list.reduce(
    (s, d) =>
      s +
      layoutF1(d.reference, nestHeadings(keepLikelyHeadings(d.headings, headingContext(d.ctx), model))).f1,
    0,
  ) / list.length;
console.log(
  `train mean F1 with the weights in use: ${(100 * meanF1(train, HEADING_MODEL)).toFixed(1)}` +
    (values.extra
      ? ` (train half alone ${(
          100 *
            meanF1(
              train.filter((d) => d.half === "train"),
              HEADING_MODEL,
            )
        ).toFixed(1)})`
      : ""),
);
let best: HeadingModel = { ...base, threshold: 0, lookWeight: 0 };
let bestF1 = meanF1(train, best);
console.log(`train mean F1 keeping every candidate: ${(100 * bestF1).toFixed(1)}`);
for (const lookWeight of [0, 0.25, 0.5, 0.75]) {
  const line: string[] = [];
  for (const threshold of [0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]) {
    const model = { ...base, threshold, lookWeight };
    const f = meanF1(train, model);
    line.push(`${threshold}: ${(100 * f).toFixed(1)}`);
    if (f > bestF1 + 1e-9) {
      best = model;
      bestF1 = f;
    }
  }
  console.log(`look weight ${lookWeight}, train mean F1 by cut: ${line.join(", ")}`);
}
const model: HeadingModel = {
  bias: Number(best.bias.toFixed(4)),
  weights: best.weights.map((v) => Number(v.toFixed(4))),
  threshold: best.threshold,
  lookWeight: best.lookWeight,
};
console.log(
  HEADING_FEATURE_NAMES.map((n, i) => `${n}: ${model.weights[i]}`).join(", "),
  `bias: ${model.bias}`,
  `cut: ${model.threshold}`,
  `look weight: ${model.lookWeight}`,
);
for (const half of ["train", "train-extra", "validation"]) {
  const list = docs.filter((d) => d.half === half);
  if (list.length === 0) continue;
  let right = 0;
  let all = 0;
  for (const d of list) {
    d.x.forEach((_, i) => {
      const f = Object.fromEntries(HEADING_FEATURE_NAMES.map((n, k) => [n, d.x[i]?.[k] ?? 0]));
      const p = headingScore(f as unknown as Parameters<typeof headingScore>[0], model) >= 0.5 ? 1 : 0;
      right += p === d.y[i] ? 1 : 0;
      all += 1;
    });
  }
  console.log(
    `${half}: candidates classified right (p ≥ 0.5) ${((100 * right) / all).toFixed(1)} %, mean tree F1 ${(100 * meanF1(list, model)).toFixed(1)} (weights in use ${(100 * meanF1(list, HEADING_MODEL)).toFixed(1)})`,
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
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set (${train.length} PDFs,
 * ${ys.length} candidates). Weights in HEADING_FEATURE_NAMES order: ${HEADING_FEATURE_NAMES.join(", ")}.
 */
// The shape of \`HeadingModel\` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: { bias: number; weights: readonly number[]; threshold: number; lookWeight: number } = ${JSON.stringify(model)};
`,
  );
  // Laid out as the linter wants it, so the written file passes `pnpm run lint`.
  execFileSync("npx", ["biome", "format", "--write", target], { stdio: "ignore" });
  console.log(`weights written to ${target}`);
}
