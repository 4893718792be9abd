/**
 * Whether each shape rule of the layout path (packages/pageindex-loader/src/pdf/structure/
 * shape-rules.ts) earns its place under producer-grouped cross-validation (issue 26). Every train
 * PDF (the train half and TRAIN_EXTRA; never validation) is built by the heading model fitted
 * without its producer (heading-fit.ts, as eval-devset-layout.ts --cv), once with every rule and
 * once with each rule switched off; a rule's gain on a PDF is the level-aware F1 it adds. Out of
 * sample (grouped-cv.ts heldOutGain): each producer gets the rule only when the other producers
 * gain from it on average, so a rule that only its own producer needs gains nothing. A rule whose
 * held-out gain is not above 0 does not earn its place.
 *
 * Run: npx tsx scripts/ablate-shape-rules.ts [--rules a,b] [--group producer|package] [--json FILE]
 */
import { writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import type { HeadingModel } from "../packages/pageindex-loader/src/pdf/structure/heading-evidence.js";
import { layoutStructure } from "../packages/pageindex-loader/src/pdf/structure/layout.js";
import { SHAPE_RULES, type ShapeRule } from "../packages/pageindex-loader/src/pdf/structure/shape-rules.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { groupFolds, heldOutGain, mean } from "./grouped-cv.js";
import { fitHeadingModel, HEADING_FIT, headingDocs } from "./heading-fit.js";
import { layoutDevsetDocs } from "./layout-devset-docs.js";
import { layoutF1 } from "./layout-devset-score.js";

const USAGE = `Usage: npx tsx scripts/ablate-shape-rules.ts [options]
  --rules LIST     the rules to switch off one at a time (default all: ${SHAPE_RULES.join(", ")})
  --group G        producer (default) or package: what each fold holds out
  --json FILE      write each PDF's F1 with every rule and with each one off
  --cache DIR      where scripts/debian-docs.ts put the dev set (default ${DEBIAN_CACHE})
  --help           this text`;

const { values } = parseArgs({
  options: {
    rules: { type: "string" },
    group: { type: "string", default: "producer" },
    json: { type: "string" },
    cache: { type: "string", default: DEBIAN_CACHE },
    help: { type: "boolean", default: false },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const rules = (values.rules?.split(",").map((r) => r.trim()) ?? [...SHAPE_RULES]) as ShapeRule[];
const unknown = rules.find((r) => !(SHAPE_RULES as readonly string[]).includes(r));
if (unknown) throw new Error(`--rules: no rule "${unknown}" (${SHAPE_RULES.join(", ")})`);
if (values.group !== "producer" && values.group !== "package")
  throw new Error(`--group: producer or package, not "${values.group}"`);
const groupOf = (d: { pkg: string; producer: string }): string =>
  values.group === "producer" ? d.producer : d.pkg;

/** One train PDF's level-aware F1 with every rule on and with each one off. */
interface AblationRow {
  label: string;
  pkg: string;
  producer: string;
  half: string;
  f1: number;
  off: Partial<Record<ShapeRule, number>>;
}

const cache = values.cache as string;
const models = new Map<string, HeadingModel>();
for (const fold of groupFolds(await headingDocs({ cache, half: "train", extra: true }), groupOf)) {
  models.set(fold.held, fitHeadingModel(fold.fit, HEADING_FIT).model);
}
const rows: AblationRow[] = [];
for await (const { doc, label, reference, ctx, extra } of layoutDevsetDocs({
  cache,
  half: "train",
  extra: true,
})) {
  const headingModel = models.get(groupOf(doc));
  if (!headingModel) continue;
  const f1 = (rulesOff: ReadonlySet<ShapeRule>) =>
    layoutF1(reference, layoutStructure(ctx, { headingModel, rulesOff }).entries).f1;
  const row: AblationRow = {
    label,
    pkg: doc.pkg,
    producer: doc.producer,
    half: extra ? "train-extra" : doc.half,
    f1: f1(new Set()),
    off: {},
  };
  for (const rule of rules) row.off[rule] = f1(new Set([rule]));
  rows.push(row);
  process.stderr.write(".");
}
process.stderr.write("\n");

const pct = (x: number): string => (100 * x).toFixed(2);
/**
 * A held-out gain above 0 keeps a rule. At 0 with no producer hurt (it changes only its own
 * producer's trees) it is a tie, and the rule stays: no evidence it harms an unseen document.
 * A rule that hurts another producer and gains nothing held out goes.
 */
const verdict = (gain: number, hurt: number): string =>
  gain > 1e-9 ? "keep" : hurt === 0 ? "keep (a tie: harms no other producer)" : "does not earn its place";
console.log(
  `${rows.length} train PDFs, each built by the heading model fitted without its ${values.group}; mean level-aware F1 with every rule ${pct(mean(rows.map((r) => r.f1)))} %`,
);
console.log(
  `\nrule | PDFs changed | mean gain (in sample) | ${values.group}s helped | ${values.group}s hurt | held-out gain | verdict`,
);
console.log("--- | ---: | ---: | --- | --- | ---: | ---");
for (const rule of rules) {
  const gainOf = (r: AblationRow): number => r.f1 - (r.off[rule] ?? r.f1);
  const changed = rows.filter((r) => Math.abs(gainOf(r)) > 1e-9);
  const cv = heldOutGain(rows, groupOf, gainOf);
  console.log(
    `${rule} | ${changed.length} | ${pct(mean(rows.map(gainOf)))} | ${cv.helped.join(", ")} | ${cv.hurt.join(", ")} | ${pct(cv.gain)} | ${verdict(cv.gain, cv.hurt.length)}`,
  );
  for (const r of changed)
    console.log(`    ${r.producer} ${r.label}: ${pct(r.f1)} with, ${pct(r.off[rule] ?? r.f1)} without`);
}
if (values.json) writeFileSync(values.json, JSON.stringify(rows, null, 1));
