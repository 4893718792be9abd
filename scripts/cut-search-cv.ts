/**
 * How stable the heading model's cut search is under producer-grouped cross-validation (issue 26).
 * For each producer fold, the weights are fitted on the other producers' PDFs (HEADING_FIT), every
 * fitted PDF's F1 is taken at every cell of the cut × look-share grid (CUT_GRID) once, and each
 * cut choice (heading-fit.ts CutChoice, plus the loader's shipped setting held fixed) picks its
 * cell from them; the held-out producer's PDFs are scored at every cell too (treeF1), so each
 * choice's held-out F1 is read off the same fold. `--out FILE` keeps each PDF's held-out F1 per
 * choice with a fingerprint of its candidates; `--compare A.json B.json` takes two such runs (code
 * with and without a change) and reports, per choice, the held-out mean of each and the swing: the
 * mean and largest |ΔF1| over PDFs whose candidates the change left alone — a change that touches
 * no tree of a held-out producer should not move that producer's F1.
 *
 * Run: npx tsx scripts/cut-search-cv.ts [--cache DIR] [--out FILE] | --compare A.json B.json
 */
import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { parseArgs } from "node:util";
import { HEADING_MODEL } from "../packages/pageindex-loader/src/pdf/structure/heading-evidence-weights.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { groupFolds, mean, numberList } from "./grouped-cv.js";
import {
  CUT_GRID,
  type CutChoice,
  type CutSetting,
  chooseCut,
  fitHeadingWeights,
  gridF1,
  HEADING_FIT,
  type HeadingFitSettings,
  headingDocs,
  treeF1,
} from "./heading-fit.js";

const USAGE = `Usage: npx tsx scripts/cut-search-cv.ts [options]
  --cache DIR            where scripts/debian-docs.ts put the dev set (default ${DEBIAN_CACHE})
  --out FILE             write each held-out PDF's F1 per cut choice (for --compare)
  --l2 LIST              L2 penalties to fit with, comma-separated (default HEADING_FIT's)
  --weigh LIST           candidate,pdf,package: what weighs alike in the fit (default HEADING_FIT's)
  --compare A.json B.json  the held-out means of two runs and the swing on PDFs neither change touched
  --help                 this text`;

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    help: { type: "boolean", default: false },
    cache: { type: "string", default: DEBIAN_CACHE },
    out: { type: "string" },
    compare: { type: "boolean", default: false },
    l2: { type: "string" },
    weigh: { type: "string" },
  },
});
if (values.help) {
  console.log(USAGE);
  process.exit(0);
}

/** The choices compared; `fixed` is the loader's shipped cut and look share, never searched. */
const CHOICES: Record<string, CutChoice | "fixed"> = {
  best: { kind: "best" },
  "flat r1": { kind: "flat", radius: 1 },
  "flat r2": { kind: "flat", radius: 2 },
  "flat r3": { kind: "flat", radius: 3 },
  fixed: "fixed",
};

/** One held-out PDF in a run. */
interface HeldPdf {
  /** The PDF's label and its place in the pool (two PDFs may share a label). */
  key: string;
  label: string;
  producer: string;
  half: string;
  /** A hash of its candidates and their features: equal in two runs when a change left it alone. */
  print: string;
  /** Held-out F1 per choice. */
  f1: Record<string, number>;
}
/** One run: each fold's chosen cell per choice, and the held-out PDFs. */
interface Run {
  folds: Record<string, Record<string, string>>;
  pdfs: HeldPdf[];
}

const pct = (x: number): string => (100 * x).toFixed(1);

if (values.compare) {
  const [a, b] = positionals.map((f) => JSON.parse(readFileSync(f, "utf8")) as Run);
  if (!a || !b) throw new Error("--compare needs two files written by --out");
  const inB = new Map(b.pdfs.map((p) => [p.key, p]));
  const pairs = a.pdfs.flatMap((p) => {
    const q = inB.get(p.key);
    return q ? [{ p, q }] : [];
  });
  const untouched = pairs.filter(({ p, q }) => p.print === q.print);
  console.log(
    `${pairs.length} PDFs in both runs, ${pairs.length - untouched.length} touched by the change\n`,
  );
  console.log(
    "choice | held-out mean A | held-out mean B | mean |Δ| untouched | max |Δ| untouched | untouched PDFs moved > 1 pt | producers whose cell moved",
  );
  console.log("--- | ---: | ---: | ---: | ---: | ---: | ---:");
  for (const choice of Object.keys(a.pdfs[0]?.f1 ?? {})) {
    const d = untouched.map(({ p, q }) => Math.abs((p.f1[choice] as number) - (q.f1[choice] as number)));
    const moved = Object.keys(a.folds).filter((f) => a.folds[f]?.[choice] !== b.folds[f]?.[choice]);
    console.log(
      `${choice} | ${pct(mean(pairs.map(({ p }) => p.f1[choice] as number)))} | ${pct(mean(pairs.map(({ q }) => q.f1[choice] as number)))} | ${pct(mean(d))} | ${pct(Math.max(0, ...d))} | ${d.filter((x) => x > 0.01).length} | ${moved.length} (${moved.join(", ")})`,
    );
  }
  process.exit(0);
}

const pool = await headingDocs({ cache: values.cache as string, half: "train", extra: true });
const run: Run = { folds: {}, pdfs: [] };
const weighs = (values.weigh?.split(",") ?? [HEADING_FIT.weigh]) as HeadingFitSettings["weigh"][];
const fits: { tag: string; settings: HeadingFitSettings }[] = numberList(values.l2, [HEADING_FIT.l2]).flatMap(
  (l2) => weighs.map((weigh) => ({ tag: `l2 ${l2}, ${weigh}`, settings: { ...HEADING_FIT, l2, weigh } })),
);
const names = fits.flatMap(({ tag }) => Object.keys(CHOICES).map((c) => `${tag}: ${c}`));
const held = new Map<string, HeldPdf>();
for (const fold of groupFolds(pool, (d) => d.producer)) {
  const chosen: Record<string, string> = {};
  for (const { tag, settings } of fits) {
    const fit = fitHeadingWeights(fold.fit, settings);
    const f1s = gridF1(fold.fit, fit);
    for (const [c, choice] of Object.entries(CHOICES)) {
      const name = `${tag}: ${c}`;
      const setting =
        choice === "fixed"
          ? { threshold: HEADING_MODEL.threshold, lookWeight: HEADING_MODEL.lookWeight }
          : (() => {
              const { look, cut } = chooseCut(f1s, choice);
              return CUT_GRID[look]?.[cut] as CutSetting;
            })();
      chosen[name] = `cut ${setting.threshold}, look ${setting.lookWeight}`;
      for (const d of fold.score) {
        const key = `${pool.indexOf(d)} ${d.label}`;
        const pdf = held.get(key) ?? {
          key,
          label: d.label,
          producer: d.producer,
          half: d.half,
          print: createHash("sha1")
            .update(JSON.stringify([d.x, d.headings.map((h) => [h.page, h.title])]))
            .digest("hex"),
          f1: {},
        };
        held.set(key, pdf);
        pdf.f1[name] = treeF1(d, { bias: fit.bias, weights: fit.weights, ...setting });
      }
    }
  }
  run.folds[fold.held] = chosen;
  const list = fold.score.map((d) => held.get(`${pool.indexOf(d)} ${d.label}`) as HeldPdf);
  console.log(
    `${fold.held} (${list.length}) | ${names.map((n) => `${n} -> ${chosen[n]}: ${pct(mean(list.map((p) => p.f1[n] as number)))}`).join(" | ")}`,
  );
}
run.pdfs = [...held.values()];
console.log("\nchoice | held-out mean F1 (all) | train half | TRAIN_EXTRA");
console.log("--- | ---: | ---: | ---:");
for (const name of names) {
  const f = (list: HeldPdf[]) => pct(mean(list.map((p) => p.f1[name] as number)));
  console.log(
    `${name} | ${f(run.pdfs)} | ${f(run.pdfs.filter((p) => p.half === "train"))} | ${f(run.pdfs.filter((p) => p.half === "train-extra"))}`,
  );
}
if (values.out) writeFileSync(values.out, JSON.stringify(run));
