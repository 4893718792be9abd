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
 * The cut (the model's probability below which it alone warns, besides a named doubt) is chosen
 * on the rows fitted on: by balanced error, the share of bad trees left above the line plus the
 * share of good ones put below it (`--criterion count`: the two counts instead). Under `--cv` each fold chooses its own cut on its own
 * rows, so the CV counts are out of sample for the cut too. `--cv-trees` fits and scores the
 * trees built by each group's held-out heading model (rows from `eval-devset-layout.ts --cv`).
 * `--group producer` (the default) holds out every PDF of a producer in each fold and, with
 * `--cv-trees`, takes the trees of the heading model fitted without that producer; `--group
 * package` holds out packages, as before the eighth session.
 *
 * Several row files (the same PDFs read with their printed contents and with `--no-contents`) are
 * fitted together, each PDF's rows in one fold, and reported file by file: a user's document may
 * or may not have a contents page the loader reads. `--scores FILE` writes each row's warning as
 * fitted and (with `--cv`) out of fold, for counts over any subset of the rows.
 *
 * Run: npx tsx scripts/eval-devset-layout.ts --half train --extra --cv --features /tmp/rows.json && npx tsx scripts/fit-tree-evidence.ts /tmp/rows.json [/tmp/rows-no-contents.json] [--cv] [--cv-trees] [--group producer|package] [--dry] [--scores FILE]
 */
import { execFileSync } from "node:child_process";
import { readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { parseArgs } from "node:util";
import { LOW_CONFIDENCE } from "../packages/pageindex-loader/src/pdf/structure/confidence.js";
import {
  type EvidenceModel,
  evidenceDoubts,
  FEATURE_NAMES,
  type TreeFeatures,
  weighEvidence,
} from "../packages/pageindex-loader/src/pdf/structure/tree-evidence.js";
import { EVIDENCE_MODEL } from "../packages/pageindex-loader/src/pdf/structure/tree-evidence-weights.js";
import type { LayoutRow } from "./eval-devset-layout.js";
import { groupFolds } from "./grouped-cv.js";
import { fitLogistic } from "./logistic-l2.js";

/** A tree this good (level-aware F1) is one the model should trust. */
const GOOD_F1 = 0.8;
/**
 * Chosen with the default features by producer- and package-grouped CV (balanced error) in the
 * fifteenth session, on the 260 train and TRAIN_EXTRA PDFs read with and without their contents
 * (1e-4 warned 5 to 7 more good trees, 3e-3 one or two bad trees fewer; the ninth session's 1e-2
 * on 95 rows warned 5 fewer good trees than 1e-3 then).
 */
const L2 = 0.001;
/** The cuts tried: 0 leaves warnings to the named doubts alone. */
const CUTS = [0, 0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6] as const;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    cv: { type: "boolean" },
    dry: { type: "boolean" },
    help: { type: "boolean" },
    criterion: { type: "string", default: "balanced" },
    "cv-trees": { type: "boolean" },
    group: { type: "string", default: "producer" },
    use: { type: "string", default: "depth,contents" },
    l2: { type: "string", default: String(L2) },
    scores: { type: "string" },
  },
});
if (values.help || positionals.length === 0) {
  console.log(
    "usage: npx tsx scripts/fit-tree-evidence.ts rows.json [more-rows.json …] [--cv] [--dry] [--criterion count|balanced] [--l2 X] [--cv-trees] [--group producer|package] [--use NAMES|all] [--scores FILE]",
  );
  process.exit(values.help ? 0 : 1);
}
if (values.group !== "producer" && values.group !== "package")
  throw new Error(`--group: producer or package, not "${values.group}"`);
const byProducer = values.group === "producer";
/** A row and the file it was read from (its reading: contents read or hidden). */
type SourcedRow = LayoutRow & { source: string };
/** A feature the rows' evaluation did not yet measure (rows written before it was added) reads 0. */
function complete(f: Partial<TreeFeatures>): TreeFeatures {
  const out = {} as Record<(typeof FEATURE_NAMES)[number], number>;
  for (const n of FEATURE_NAMES) out[n] = f[n] ?? 0;
  return out;
}
const read: SourcedRow[] = positionals.flatMap((file) =>
  (JSON.parse(readFileSync(file, "utf8")) as LayoutRow[]).map((r) => ({
    ...r,
    features: complete(r.features),
    source: basename(file),
  })),
);
// --cv-trees: each train row as the tree its group's held-out heading model built (written by
// eval-devset-layout.ts --cv), so the bad trees are those an unseen producer gets.
const heldTree = (r: LayoutRow) => (byProducer ? r.cvProducer : r.cv);
const rows: SourcedRow[] = values["cv-trees"]
  ? read.map((r) => {
      const held = heldTree(r);
      return held ? { ...r, f1: held.f1, confidence: held.confidence, features: complete(held.features) } : r;
    })
  : read;
// The train half and the extra train-package PDFs (eval-devset-layout.ts --extra): never validation.
const isTrain = (r: LayoutRow): boolean => r.half === "train" || r.half === "train-extra";
/**
 * --use: only these features are weighed (the others' weights stay 0). The default was chosen in
 * the fifteenth session by producer- and package-grouped CV over the 260 train and TRAIN_EXTRA
 * PDFs, each read with its printed contents and without (`--no-contents`), both readings of a
 * PDF in one fold, by balanced error, over L2 1e-4, 1e-3, 3e-3 (bad trees warned of 19 with
 * contents and 42 without / good trees warned, by producer): depth and contents 11 / 13 and 34 /
 * 36 (L2 1e-3); with recurring 11 / 13, 33 / 36; with listLike, dropped, sparse or tocMismatch
 * the same or worse; every feature 10 / 17, 33 / 44; the ninth session's recurring and depth
 * (L2 1e-2) 11 / 30, 35 / 41. Earlier (ninth session, 86 rows' held-out trees): recurring,
 * dropped, numbered and depth, then recurring and depth.
 */
const used = (values.use === "all" ? undefined : values.use)?.split(",").map((n) => n.trim());
const unknown = used?.find((n) => !(FEATURE_NAMES as readonly string[]).includes(n));
if (unknown) throw new Error(`--use: no feature "${unknown}" (${FEATURE_NAMES.join(", ")})`);
const x = (r: LayoutRow): number[] =>
  FEATURE_NAMES.map((n) => (!used || used.includes(n) ? r.features[n] : 0));
const y = (r: LayoutRow): number => (r.f1 >= GOOD_F1 ? 1 : 0);
/** What a fold holds out: the PDF's producer, or its package. */
const groupOf = (r: LayoutRow): string => (byProducer ? r.producer : (r.label.split("/")[0] as string));

/** As the loader weighs it (layout.ts): below the line with a named doubt or under the model's cut. */
const warned = (r: LayoutRow, model: EvidenceModel): boolean =>
  weighEvidence(r.features, model).score < LOW_CONFIDENCE;

/**
 * The cut's error on some rows: with `balanced`, the share of bad trees not warned plus the share
 * of good trees warned; else the count of both (a wrong warning costs as much as a missed one).
 */
function cutError(list: readonly LayoutRow[], model: EvidenceModel): number {
  const bad = list.filter((r) => y(r) === 0);
  const good = list.filter((r) => y(r) === 1);
  const missed = bad.filter((r) => !warned(r, model)).length;
  const wrong = good.filter((r) => warned(r, model)).length;
  return values.criterion === "balanced"
    ? missed / Math.max(1, bad.length) + wrong / Math.max(1, good.length)
    : missed + wrong;
}

/** The fit on some rows, each class weighing as much in total as the other, and its cut. */
function fitRows(list: readonly LayoutRow[]): EvidenceModel {
  const positives = list.filter((r) => y(r) === 1).length;
  const negatives = list.length - positives;
  const fit = fitLogistic(list.map(x), list.map(y), {
    l2: Number(values.l2),
    rowWeights: list.map((r) => (y(r) === 1 ? 1 / Math.max(1, positives) : 1 / Math.max(1, negatives))),
  });
  const weighed = {
    bias: Number(fit.bias.toFixed(4)),
    weights: fit.weights.map((v) => Number(v.toFixed(4))),
  };
  // The lowest balanced error; on a tie the lower cut (fewer warnings).
  let best: EvidenceModel = { ...weighed, cut: 0 };
  let bestError = cutError(list, best);
  for (const cut of CUTS) {
    const error = cutError(list, { ...weighed, cut });
    if (error < bestError - 1e-9) {
      best = { ...weighed, cut };
      bestError = error;
    }
  }
  return best;
}

type Scored = { r: SourcedRow; model: EvidenceModel };

function report(name: string, scored: readonly Scored[]): void {
  const good = scored.filter((s) => y(s.r) === 1);
  const bad = scored.filter((s) => y(s.r) === 0);
  const below = (s: Scored) => warned(s.r, s.model);
  const unwarned = bad.filter((s) => !below(s)).map((s) => `${s.r.label} ${(100 * s.r.f1).toFixed(1)}`);
  const goodWarned = good.filter(below).map((s) => `${s.r.label} ${(100 * s.r.f1).toFixed(1)}`);
  console.log(
    `${name}: ${scored.length} PDFs, ${bad.length} with F1 < ${GOOD_F1}; below the line: ${bad.length - unwarned.length} of those, ${goodWarned.length} good ones (named doubt alone: ${bad.filter((s) => evidenceDoubts(s.r.features).length > 0).length} bad, ${good.filter((s) => evidenceDoubts(s.r.features).length > 0).length} good)`,
  );
  if (unwarned.length > 0) console.log(`  bad and unwarned: ${unwarned.join(", ")}`);
  if (goodWarned.length > 0) console.log(`  good but warned: ${goodWarned.join(", ")}`);
}

const sources = [...new Set(rows.map((r) => r.source))];
/** {@link report} for each half (`all`: every row), file by file when several were read. */
function reportHalves(name: string, scored: readonly Scored[], halves: readonly string[]): void {
  for (const source of sources) {
    for (const half of halves) {
      const list = scored.filter((s) => s.r.source === source && (half === "all" || s.r.half === half));
      if (list.length > 0) report(`${sources.length > 1 ? `${source}: ` : ""}${half} ${name}`, list);
    }
  }
}

const train = rows.filter(isTrain);
const model = fitRows(train);
console.log(
  FEATURE_NAMES.map((n, i) => `${n}: ${model.weights[i]}`).join(", "),
  `bias: ${model.bias}, cut: ${model.cut}`,
);
const halves = ["train", "train-extra", "validation"];
reportHalves(
  "(shipped weights)",
  rows.map((r) => ({ r, model: EVIDENCE_MODEL })),
  halves,
);
reportHalves(
  "(fitted)",
  rows.map((r) => ({ r, model })),
  halves,
);
const held: Scored[] = [];
if (values.cv) {
  for (const fold of groupFolds(train, groupOf)) {
    const m = fitRows(fold.fit);
    held.push(...fold.score.map((r) => ({ r, model: m })));
  }
  reportHalves(`CV (by ${values.group})`, held, ["train", "train-extra", "all"]);
}
if (values.scores) {
  const heldOf = new Map(held.map((s) => [s.r, s.model]));
  writeFileSync(
    values.scores,
    JSON.stringify(
      rows.map((r) => {
        const cvModel = heldOf.get(r);
        return {
          label: r.label,
          source: r.source,
          half: r.half,
          f1: r.f1,
          shipped: warned(r, EVIDENCE_MODEL),
          fitted: warned(r, model),
          ...(cvModel ? { cv: warned(r, cvModel) } : {}),
        };
      }),
      null,
      1,
    ),
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
 * its packages (${train.length} ${sources.length > 1 ? `rows: the PDFs read ${sources.length} ways, with their printed contents and without` : "PDFs"}${values["cv-trees"] ? `, each tree as its ${values.group}'s held-out heading model built it` : ""}; target: level-aware F1 ≥ ${GOOD_F1}; L2 ${values.l2};
 * features weighed: ${used?.join(", ") ?? "all"}; the cut by ${values.criterion === "balanced" ? "balanced error" : "the fewest bad trees above the line plus good ones below it"}).
 * Weights in FEATURE_NAMES order: ${FEATURE_NAMES.join(", ")}.
 */
// The shape of \`EvidenceModel\` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[]; cut: number } = ${JSON.stringify(model)};
`,
  );
  // Formatted as the linter wants it.
  execFileSync("npx", ["biome", "format", "--write", target], { stdio: "ignore" });
  console.log(`weights written to ${target}`);
}
