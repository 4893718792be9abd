/**
 * Fits the layout path's level model (packages/pageindex-loader/src/pdf/structure/
 * level-evidence.ts): each heading the heading model keeps takes the depth of its bookmark (same
 * page, similar title; one without a bookmark sits below the last one with a bookmark), the
 * stack of open headings is replayed with those depths, and
 * every question the stack asks ("does h go inside e, beside it, or does e close?") becomes a
 * row labelled by the outline. Three one-vs-rest logistic regressions (ml-logistic-regression)
 * on the TRAIN half only. The cut above which the model overrules the rules (hierarchy.ts) is
 * chosen on train too (0 = the model alone, 1 = the rules alone; the model must gain half a point
 * to be used). Prints mean level-aware F1 of both halves with the rules and with the chosen cut
 * (validation is reported, never used to choose) and writes level-evidence-weights.ts.
 *
 * The regressions are L2-penalised (logistic-l2.ts; `--l2`, default 0.001; ml-logistic-regression's
 * unpenalised ascent before). `--cv` adds grouped cross-validation by package (grouped-cv.ts):
 * each fold fits the regressions and chooses the cut without one train package, and that
 * package's PDFs are nested with the fold's model; their mean F1 is printed beside the rules'.
 *
 * `--train-only` reads no validation PDF.
 *
 * Run: npx tsx scripts/fit-level-evidence.ts [--dry] [--per-doc] [--cv] [--l2 X] [--train-only]   (--per-doc: train PDFs whose F1 the model alone changes)
 */
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import type { Heading } from "../packages/pageindex-loader/src/pdf/structure/candidates.js";
import {
  type HeadingContext,
  keepLikelyHeadings,
} from "../packages/pageindex-loader/src/pdf/structure/heading-evidence.js";
import {
  nestHeadings,
  type Relation,
  type RelationOf,
  ruleRelation,
  sequenceFacts,
} from "../packages/pageindex-loader/src/pdf/structure/hierarchy.js";
import { headingContext, layoutCandidates } from "../packages/pageindex-loader/src/pdf/structure/layout.js";
import {
  headingIndents,
  LEVEL_FEATURE_NAMES,
  type LevelFeatures,
  type LevelModel,
  levelFeatures,
  levelRelation,
  levelVector,
  RELATIONS,
  relationScores,
} from "../packages/pageindex-loader/src/pdf/structure/level-evidence.js";
import { numberingClass } from "../packages/pageindex-loader/src/pdf/structure/numbering.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { groupFolds, mean } from "./grouped-cv.js";
import { allLevels, layoutDevsetDocs } from "./layout-devset-docs.js";
import { layoutF1 } from "./layout-devset-score.js";
import { fitLogistic } from "./logistic-l2.js";
import { type Entry, SIMILARITY, similar } from "./structure-match.js";

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: DEBIAN_CACHE },
    dry: { type: "boolean" },
    "per-doc": { type: "boolean" },
    cv: { type: "boolean" },
    "train-only": { type: "boolean" },
    l2: { type: "string", default: "0.001" },
  },
});
const L2 = Number(values.l2);
if (!Number.isFinite(L2) || L2 < 0) throw new Error(`--l2: a non-negative number, not "${values.l2}"`);

interface Doc {
  pkg: string;
  half: string;
  label: string;
  hctx: HeadingContext;
  kept: Heading[];
  reference: Entry[];
  x: number[][];
  y: Relation[];
}

/** Each kept heading's bookmark depth, matched one to one (best title on the same page). */
function outlineDepths(kept: readonly Heading[], marks: readonly Entry[]): Map<Heading, number> {
  const used = new Set<number>();
  const out = new Map<Heading, number>();
  for (const h of kept) {
    let best = -1;
    let bestScore = SIMILARITY;
    marks.forEach((m, i) => {
      if (used.has(i) || m.page !== h.page) return;
      const s = similar(m.title, h.title);
      if (s >= bestScore) {
        best = i;
        bestScore = s;
      }
    });
    if (best >= 0) {
      used.add(best);
      out.set(h, (marks[best] as Entry).level);
    }
  }
  return out;
}

/** The stack's questions over the matched headings, answered by the outline's depths. */
function pairs(kept: readonly Heading[], depths: ReadonlyMap<Heading, number>, hctx: HeadingContext) {
  const indents = headingIndents(kept, hctx);
  const { lastOfClass, nextToc } = sequenceFacts(kept);
  const x: number[][] = [];
  const y: Relation[] = [];
  const stack: { h: Heading; depth: number }[] = [];
  let previous: Heading | undefined;
  let lastDepth = 0;
  kept.forEach((h, i) => {
    if (h.label) return;
    // A heading with no bookmark is taken for a sub-heading of the last one with a bookmark:
    // the stack must learn to close such headings as well as to open them.
    const depth = depths.get(h) ?? lastDepth + 1;
    if (depths.has(h)) lastDepth = depth;
    const openClasses = new Set(stack.flatMap((s) => (s.h.numbering ? [numberingClass(s.h.numbering)] : [])));
    for (let k = stack.length - 1; k >= 0; k--) {
      const top = stack[k] as { h: Heading; depth: number };
      if (top.h.label) continue;
      const state = {
        openClasses,
        series: (c: string) => (lastOfClass.get(c) ?? -1) > i,
        nextTocLevel: nextToc[i],
        previous: top.h === previous,
      };
      const r: Relation = depth > top.depth ? "higher" : depth === top.depth ? "same" : "lower";
      x.push(levelVector(levelFeatures(top.h, h, state, hctx.body.size, indents)));
      y.push(r);
      if (r !== "lower") break;
    }
    while (stack.length > 0 && (stack[stack.length - 1] as { depth: number }).depth >= depth) stack.pop();
    stack.push({ h, depth });
    previous = h;
  });
  return { x, y };
}

const docs: Doc[] = [];
for await (const { doc, label, outline, reference, ctx } of layoutDevsetDocs({
  cache: values.cache as string,
  half: values["train-only"] ? "train" : undefined,
})) {
  const hctx = headingContext(ctx);
  const kept = keepLikelyHeadings(layoutCandidates(ctx).headings, hctx);
  const { x, y } = pairs(kept, outlineDepths(kept, allLevels(outline)), hctx);
  docs.push({
    pkg: doc.pkg,
    half: doc.half,
    label,
    hctx,
    kept,
    reference,
    x,
    y,
  });
}

const train = docs.filter((d) => d.half === "train");
const ys = train.flatMap((d) => d.y);
console.log(
  `train pairs: ${ys.length} (${RELATIONS.map((r) => `${r} ${ys.filter((v) => v === r).length}`).join(", ")})`,
);

/** Three one-vs-rest regressions on some PDFs' stack questions. */
function fitRelations(list: readonly Doc[]): { bias: number[]; weights: number[][] } {
  const x = list.flatMap((d) => d.x);
  const y = list.flatMap((d) => d.y);
  const bias: number[] = [];
  const weights: number[][] = [];
  for (const r of RELATIONS) {
    const fit = fitLogistic(
      x,
      y.map((v) => (v === r ? 1 : 0)),
      { l2: L2 },
    );
    bias.push(Number(fit.bias.toFixed(4)));
    weights.push(fit.weights.map((v) => Number(v.toFixed(4))));
  }
  return { bias, weights };
}

const meanF1 = (list: readonly Doc[], m: LevelModel): number =>
  mean(
    list.map(
      (d) => layoutF1(d.reference, nestHeadings(d.kept, { relation: levelRelation(d.kept, d.hctx, m) })).f1,
    ),
  );
/**
 * The model replaces the rules only where it gains this much mean F1 on train: a smaller gain
 * is one or two documents' worth, noise at 37 PDFs.
 */
const MARGIN = 0.005;
const OVERRULE_CUTS = [0, 0.5, 0.6, 0.7, 0.8, 0.9, 0.95, 0.98, 0.99] as const;

/** The cut chosen on `list` (1 = the rules alone unless the model gains MARGIN), and every cut's F1. */
function chooseOverrule(
  list: readonly Doc[],
  relations: { bias: number[]; weights: number[][] },
): { model: LevelModel; tried: string[]; topCut: number } {
  let model: LevelModel = { ...relations, overrule: 1 };
  let bestF1 = meanF1(list, model) + MARGIN;
  const tried: string[] = [];
  // The best cut with no margin, reported beside the one chosen.
  let topCut = 1;
  let topF1 = meanF1(list, model);
  for (const overrule of OVERRULE_CUTS) {
    const f = meanF1(list, { ...relations, overrule });
    tried.push(`${overrule}: ${(100 * f).toFixed(1)}`);
    if (f > topF1 + 1e-9) {
      topF1 = f;
      topCut = overrule;
    }
    if (f > bestF1 + 1e-9) {
      bestF1 = f;
      model = { ...relations, overrule };
    }
  }
  return { model, tried, topCut };
}

const { bias, weights } = fitRelations(train);
const chosen = chooseOverrule(train, { bias, weights });
const model = chosen.model;
const topCut = chosen.topCut;
for (const [k, r] of RELATIONS.entries()) {
  console.log(
    `${r}: bias ${bias[k]}, ${LEVEL_FEATURE_NAMES.map((n, i) => `${n} ${weights[k]?.[i]}`).join(", ")}`,
  );
}
console.log(
  `train mean F1 by overrule cut (1 = rules only: ${(100 * meanF1(train, { bias, weights, overrule: 1 })).toFixed(1)}): ${chosen.tried.join(", ")}`,
);
if (values.cv) {
  const held: number[] = [];
  const alone: number[] = [];
  const cuts: string[] = [];
  for (const fold of groupFolds(train, (d) => d.pkg)) {
    const relations = fitRelations(fold.fit);
    const { model: m } = chooseOverrule(fold.fit, relations);
    cuts.push(`${fold.held} ${m.overrule}`);
    for (const d of fold.score) {
      held.push(meanF1([d], m));
      alone.push(meanF1([d], { ...relations, overrule: 0 }));
    }
  }
  console.log(
    `train CV (by package): mean level-aware F1 with the cut each fold chose ${(100 * mean(held)).toFixed(1)}, the model alone ${(100 * mean(alone)).toFixed(1)}, the rules ${(100 * meanF1(train, { bias, weights, overrule: 1 })).toFixed(1)} (nothing fitted); cuts: ${cuts.join(", ")}`,
  );
}
/** The rules where they have strong evidence (printed contents, keywords, two dotted numbers), else the model. */
const looksOnly =
  (d: Doc): RelationOf =>
  (e, h, state) => {
    const strong =
      e.tocLevel !== undefined ||
      h.tocLevel !== undefined ||
      e.numbering?.kind === "keyword" ||
      h.numbering?.kind === "keyword" ||
      (e.numbering?.kind === "dotted" && h.numbering?.kind === "dotted");
    return strong
      ? ruleRelation(e, h, state)
      : levelRelation(d.kept, d.hctx, { bias, weights, overrule: 0 })(e, h, state);
  };
const ways: Record<string, (d: Doc) => RelationOf> = {
  rules: () => ruleRelation,
  "model alone": (d) => levelRelation(d.kept, d.hctx, { bias, weights, overrule: 0 }),
  [`chosen cut ${model.overrule}`]: (d) => levelRelation(d.kept, d.hctx, model),
  [`best cut ${topCut}`]: (d) => levelRelation(d.kept, d.hctx, { bias, weights, overrule: topCut }),
  "model where the rules fall back on looks": looksOnly,
};
const treeF1 = (d: Doc, way: (d: Doc) => RelationOf): number =>
  layoutF1(d.reference, nestHeadings(d.kept, { relation: way(d) })).f1;
for (const half of ["train", "validation"]) {
  const list = docs.filter((d) => d.half === half);
  if (list.length === 0) continue;
  let right = 0;
  let all = 0;
  for (const d of list) {
    d.x.forEach((row, i) => {
      const f = Object.fromEntries(
        LEVEL_FEATURE_NAMES.map((n, k) => [n, row[k] ?? 0]),
      ) as unknown as LevelFeatures;
      const scores = relationScores(f, model);
      right += RELATIONS[scores.indexOf(Math.max(...scores))] === d.y[i] ? 1 : 0;
      all += 1;
    });
  }
  const means = Object.entries(ways).map(
    ([name, way]) =>
      `${name} ${((100 * list.reduce((s, d) => s + treeF1(d, way), 0)) / list.length).toFixed(1)}`,
  );
  console.log(
    `${half}: ${list.length} PDFs, questions answered as the outline does ${((100 * right) / Math.max(1, all)).toFixed(1)} % of ${all}; mean level-aware F1: ${means.join(", ")}`,
  );
}
if (!values.dry) {
  const target = join(
    import.meta.dirname,
    "../packages/pageindex-loader/src/pdf/structure/level-evidence-weights.ts",
  );
  writeFileSync(
    target,
    `/**
 * Fitted by scripts/fit-level-evidence.ts on the train half of the split dev set (${train.length} PDFs,
 * ${ys.length} stack questions, L2 penalty ${L2}). Per relation (higher, same, lower): a bias and weights in
 * LEVEL_FEATURE_NAMES order: ${LEVEL_FEATURE_NAMES.join(", ")}.
 */
// The shape of \`LevelModel\` (level-evidence.ts), written out: that module imports this one.
export const LEVEL_MODEL: {
  bias: readonly number[];
  weights: readonly (readonly number[])[];
  overrule: number;
} = ${JSON.stringify(model)};
`,
  );
  execFileSync("npx", ["biome", "format", "--write", target], { stdio: "ignore" });
  console.log(`weights written to ${target}`);
}
if (values["per-doc"]) {
  for (const d of docs.filter((x) => x.half === "train")) {
    const a = treeF1(d, ways.rules as (d: Doc) => RelationOf);
    const b = treeF1(d, ways["model alone"] as (d: Doc) => RelationOf);
    if (Math.abs(a - b) > 0.005)
      console.log(`${d.label}: rules ${(100 * a).toFixed(1)} model ${(100 * b).toFixed(1)}`);
  }
}
