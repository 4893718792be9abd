/**
 * The layout path (outline hidden) on the split dev set (issue 26; scripts/devset-split.ts),
 * scored as scripts/eval-pdf-devset.ts scores: the outline's top two levels are the reference
 * (read one level down when a single top bookmark holds everything), a layout node matches a
 * bookmark with the same start page, a similar title and the same level; level-aware F1 per PDF,
 * the mean per half. Also each tree's evidence features and score (tree-evidence.ts) and whether
 * it is below the warning line. `--features FILE` writes rows for scripts/fit-tree-evidence.ts;
 * `--extra` adds more train-package PDFs (half "train-extra", fitting rows only: TRAIN_EXTRA).
 * Reference entries whose bookmark is a page off the printed title are moved to it
 * (reference-pages.ts; the `moved` column), a PDF whose bookmark titles are mostly printed
 * nowhere is set aside (listed at the end); `--outline-pages` keeps the outline as it is.
 *
 * `--cv` also scores each train-half PDF (and extra PDF) out of sample, twice: grouped
 * cross-validation by package and by producer (grouped-cv.ts), its tree built with a heading model
 * fitted (heading-fit.ts, settings HEADING_FIT, on the train half and TRAIN_EXTRA) without its own
 * package, then without every PDF its producer made (devset-split.ts names the tool). The `CV F1`
 * (package) and `producer CV F1` columns and the summary's means are those trees'. Producer CV is
 * the number to tune on: a package's neighbours share its producer's habits, unseen documents
 * often do not. Validation PDFs are never in a fit.
 *
 * Run: npx tsx scripts/eval-devset-layout.ts [--help] [--half train|validation] [--only NAME] [--show NAME] [--features rows.json] [--outline-pages] [--extra] [--no-contents] [--cv [--producer-cv] [--cut-choice best|global]]
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { LOW_CONFIDENCE } from "../packages/pageindex-loader/src/pdf/structure/confidence.js";
import type { HeadingModel } from "../packages/pageindex-loader/src/pdf/structure/heading-evidence.js";
import {
  type LayoutContext,
  layoutStructure,
} from "../packages/pageindex-loader/src/pdf/structure/layout.js";
import type { TreeFeatures } from "../packages/pageindex-loader/src/pdf/structure/tree-evidence.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { mean } from "./grouped-cv.js";
import { cutChoiceNamed, type HeadingDoc, headingDocs, heldOutModels } from "./heading-fit.js";
import { layoutDevsetDocs } from "./layout-devset-docs.js";
import { layoutF1, showEntries, topTwo } from "./layout-devset-score.js";
import type { Entry } from "./structure-match.js";

const USAGE = `Usage: npx tsx scripts/eval-devset-layout.ts [options]
  --half train|validation  one half only (validation is for reporting, never for choosing)
  --only NAME              only PDFs whose label holds NAME
  --show NAME              print reference and layout entries of PDFs whose label holds NAME
  --features FILE          write each PDF's scores and tree evidence (for fit-tree-evidence.ts)
  --outline-pages          keep bookmarks on their own pages (no move to the printed title)
  --extra                  also the extra train-package PDFs (fitting rows, not in the train mean)
  --no-contents            read no printed contents (each PDF as if it had none: the headings' own looks only)
  --cv                     also grouped cross-validation on train, by package and by producer
  --producer-cv            with --cv: by producer only (17 folds instead of about 80: the number tuned on)
  --cut-choice C           with --cv: how each fold picks its cut, best or global (default: heading-fit.ts HEADING_CUT_CHOICE)
  --cache DIR              where scripts/debian-docs.ts put the dev set (default ${DEBIAN_CACHE})
  --help                   this text`;

const { values } = parseArgs({
  options: {
    help: { type: "boolean", default: false },
    cv: { type: "boolean", default: false },
    "producer-cv": { type: "boolean", default: false },
    "cut-choice": { type: "string" },
    cache: { type: "string", default: DEBIAN_CACHE },
    half: { type: "string" },
    only: { type: "string" },
    show: { type: "string" },
    features: { type: "string" },
    "outline-pages": { type: "boolean", default: false },
    extra: { type: "boolean", default: false },
    "no-contents": { type: "boolean", default: false },
  },
});

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

/** One PDF's scores and its tree's evidence. */
export interface LayoutRow {
  label: string;
  half: string;
  producer: string;
  f1: number;
  f1AnyLevel: number;
  missed: number;
  extra: number;
  wrongDepth: number;
  /** Reference entries moved to the page printing their title. */
  moved: number;
  confidence: number;
  features: TreeFeatures;
  /**
   * With --cv (train PDFs): level-aware F1, confidence and evidence of the tree from the fold's
   * heading model (fit-tree-evidence.ts --cv-trees fits the tree model on these).
   */
  cv?: HeldOutTree;
  /** With --cv: the same from the heading model fitted without the PDF's producer. */
  cvProducer?: HeldOutTree;
}

/** A tree built by a heading model that did not see the PDF's package (or producer). */
export interface HeldOutTree {
  f1: number;
  confidence: number;
  features: TreeFeatures;
}

const pct = (x: number): string => (100 * x).toFixed(1);
/** A held-out tree's F1 and warning, blank without one. */
const heldColumns = (held: HeldOutTree | undefined): string =>
  held ? `${pct(held.f1)} | ${held.confidence < LOW_CONFIDENCE ? "yes" : ""}` : " | ";
const pool = values.cv
  ? await headingDocs({ cache: values.cache as string, half: "train", extra: true })
  : [];
// Only the folds of the PDFs scored (all of them unless --only narrows the run).
const scored = (d: HeadingDoc) => !values.only || d.label.includes(values.only);
const cutChoice = cutChoiceNamed(values["cut-choice"]);
/** With --cv: each train package's heading model, fitted without that package's PDFs. */
const foldModels =
  values.cv && !values["producer-cv"]
    ? // Each fold searches its cut over every fitted PDF's tree: the package folds are most of the time.
      heldOutModels(pool, (d) => d.pkg, scored, cutChoice)
    : new Map<string, HeadingModel>();
/** With --cv: each train producer's heading model, fitted without any PDF it made. */
const producerModels = heldOutModels(pool, (d) => d.producer, scored, cutChoice);
/** The tree a held-out heading model builds, scored. */
function heldOut(ctx: LayoutContext, reference: readonly Entry[], model: HeadingModel): HeldOutTree {
  const held = layoutStructure(ctx, { headingModel: model });
  return {
    f1: layoutF1(reference, held.entries).f1,
    confidence: held.confidence.score,
    features: held.evidence,
  };
}
const rows: LayoutRow[] = [];
const skipped: string[] = [];

console.log(
  "half | producer | doc | pages | reference | moved | layout | F1 | F1 any level | missed | extra | wrong depth | confidence | warned | CV F1 | CV warned | producer CV F1 | producer CV warned",
);
console.log(
  "--- | --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | --- | ---: | ---",
);
for await (const { doc, label, pdf, reference, moved, ctx, extra } of layoutDevsetDocs(
  {
    cache: values.cache as string,
    half: values.half,
    only: values.only,
    outlinePages: values["outline-pages"],
    extra: values.extra,
    noContents: values["no-contents"],
  },
  (label, why) => skipped.push(`${label} (${why})`),
)) {
  const result = layoutStructure(ctx);
  const predicted = topTwo(result.entries);
  const scores = layoutF1(reference, result.entries);
  const row: LayoutRow = {
    label,
    half: extra ? "train-extra" : doc.half,
    producer: doc.producer,
    ...scores,
    moved,
    confidence: result.confidence.score,
    features: result.evidence,
  };
  const foldModel = foldModels.get(doc.pkg);
  if (foldModel) row.cv = heldOut(ctx, reference, foldModel);
  const producerModel = producerModels.get(doc.producer);
  if (producerModel) row.cvProducer = heldOut(ctx, reference, producerModel);
  rows.push(row);
  console.log(
    `${row.half} | ${doc.producer} | ${label} | ${pdf.pageCount} | ${reference.length} | ${moved} | ${predicted.length} | ${pct(row.f1)} | ${pct(row.f1AnyLevel)} | ${row.missed} | ${row.extra} | ${row.wrongDepth} | ${row.confidence.toFixed(2)} | ${row.confidence < LOW_CONFIDENCE ? "yes" : ""} | ${heldColumns(row.cv)} | ${heldColumns(row.cvProducer)}`,
  );
  if (values.show && label.includes(values.show)) {
    // With --cv, the tree the producer's held-out heading model built (the one producer CV scores).
    showEntries(
      reference,
      producerModel ? topTwo(layoutStructure(ctx, { headingModel: producerModel }).entries) : predicted,
    );
  }
}
console.log(
  "\nhalf | PDFs | entries moved (PDFs) | mean level-aware F1 | mean F1 any level | missed | extra | wrong depth | warned | warned mean F1 | warned with F1 < 0.8 / all with F1 < 0.8 | mean CV F1 | CV: warned, bad-and-unwarned, good-but-warned | mean producer CV F1 | producer CV: warned, bad-and-unwarned, good-but-warned",
);
console.log(
  "--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- | ---: | ---",
);
/** The summary's cross-validated columns for one grouping (blank without --cv). */
function cvColumns(list: readonly LayoutRow[], pick: (r: LayoutRow) => HeldOutTree | undefined): string {
  const held = list.flatMap((r) => {
    const h = pick(r);
    return h ? [h] : [];
  });
  if (held.length < list.length) return " | ";
  const warned = held.filter((c) => c.confidence < LOW_CONFIDENCE);
  return `${pct(mean(held.map((c) => c.f1)))} | ${warned.length}, ${held.filter((c) => c.f1 < 0.8 && c.confidence >= LOW_CONFIDENCE).length}, ${warned.filter((c) => c.f1 >= 0.8).length}`;
}
for (const half of ["train", "validation", "train-extra"]) {
  const list = rows.filter((r) => r.half === half);
  if (list.length === 0) continue;
  const mean = (f: (r: LayoutRow) => number) => list.reduce((s, r) => s + f(r), 0) / list.length;
  const warned = list.filter((r) => r.confidence < LOW_CONFIDENCE);
  const bad = list.filter((r) => r.f1 < 0.8);
  const sum = (f: (r: LayoutRow) => number) => list.reduce((s, r) => s + f(r), 0);
  console.log(
    `${half} | ${list.length} | ${sum((r) => r.moved)} (${list.filter((r) => r.moved > 0).length}) | ${pct(mean((r) => r.f1))} | ${pct(mean((r) => r.f1AnyLevel))} | ${sum((r) => r.missed)} | ${sum((r) => r.extra)} | ${sum((r) => r.wrongDepth)} | ${warned.length} | ${warned.length === 0 ? "-" : pct(warned.reduce((t, r) => t + r.f1, 0) / warned.length)} | ${bad.filter((r) => r.confidence < LOW_CONFIDENCE).length} / ${bad.length} | ${cvColumns(list, (r) => r.cv)} | ${cvColumns(list, (r) => r.cvProducer)}`,
  );
}
if (skipped.length > 0) console.log(`\nno reference: ${skipped.join(", ")}`);
if (values.features) writeFileSync(values.features, JSON.stringify(rows, null, 1));
