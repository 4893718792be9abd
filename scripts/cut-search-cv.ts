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
import { HEADING_FEATURE_NAMES } from "../packages/pageindex-loader/src/pdf/structure/heading-evidence.js";
import { HEADING_MODEL } from "../packages/pageindex-loader/src/pdf/structure/heading-evidence-weights.js";
import { DEBIAN_CACHE } from "./debian-docs.js";
import { groupFolds, mean, numberList } from "./grouped-cv.js";
import {
  CUT_GRID,
  type CutChoice,
  type CutSetting,
  chooseCutFromMeans,
  fitHeadingWeights,
  gridF1,
  HEADING_FIT,
  type HeadingDoc,
  type HeadingFitSettings,
  headingDocs,
  LOOK_WEIGHTS,
  sumGrids,
  treeF1,
} from "./heading-fit.js";

const USAGE = `Usage: npx tsx scripts/cut-search-cv.ts [options]
  --cache DIR            where scripts/debian-docs.ts put the dev set (default ${DEBIAN_CACHE})
  --out FILE             write each held-out PDF's F1 per cut choice (for --compare)
  --l2 LIST              L2 penalties to fit with, comma-separated (default HEADING_FIT's)
  --weigh LIST           candidate,pdf,package: what weighs alike in the fit (default HEADING_FIT's)
  --without SETS         feature sets left out (besides HEADING_FIT's), e.g. "-;seriesFit,listItem" ("-": none)
  --perturb K            also refit each fold K times with one fitted PDF left out, and report
                         each choice's swing on the (untouched) held-out PDFs
  --cuts LIST            walk only these cuts (comma-separated) at every look share: a faster run
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
    without: { type: "string" },
    perturb: { type: "string" },
    cuts: { type: "string" },
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
  "blur r1": { kind: "blur", radius: 1 },
  "blur r2": { kind: "blur", radius: 2 },
  "margin 0.75 by 0.5 pt": { kind: "margin", look: LOOK_WEIGHTS.indexOf(0.75), points: 0.005 },
  "margin 0.75 by 1 pt": { kind: "margin", look: LOOK_WEIGHTS.indexOf(0.75), points: 0.01 },
  "margin 0 by 1 pt": { kind: "margin", look: 0, points: 0.01 },
  fixed: "fixed",
};
/**
 * One cell for the whole procedure: the best of every fold's fitted-PDF mean grid summed, so no
 * fold's choice rests on its own near-tie (each fold's grid includes other folds' held-out PDFs
 * as fitted ones: a procedure-level setting, like the L2 penalty chosen by CV).
 */
const GLOBAL = "global";

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
/** Feature sets left out besides HEADING_FIT's: `--without "a,b;c"`, "-" for none. */
const withouts = (values.without ?? "-").split(";").map((set) =>
  set === "-"
    ? []
    : set.split(",").map((name) => {
        const i = (HEADING_FEATURE_NAMES as readonly string[]).indexOf(name.trim());
        if (i < 0) throw new Error(`--without: no feature "${name}" (${HEADING_FEATURE_NAMES.join(", ")})`);
        return i;
      }),
);
const fits: { tag: string; settings: HeadingFitSettings }[] = numberList(values.l2, [HEADING_FIT.l2]).flatMap(
  (l2) =>
    weighs.flatMap((weigh) =>
      withouts.map((left) => ({
        tag: `l2 ${l2}, ${weigh}${withouts.length > 1 ? `, without ${left.map((i) => HEADING_FEATURE_NAMES[i]).join("+") || "-"}` : ""}`,
        settings: { ...HEADING_FIT, l2, weigh, drop: [...HEADING_FIT.drop, ...left] },
      })),
    ),
);
/** The grid walked: CUT_GRID, or its look shares by `--cuts` only (a faster run). */
const GRID: readonly (readonly CutSetting[])[] = values.cuts
  ? LOOK_WEIGHTS.map((lookWeight) =>
      numberList(values.cuts, []).map((threshold) => ({ threshold, lookWeight })),
    )
  : CUT_GRID;
/** The loader's shipped cell, when the grid walked has it (`fixed`). */
const shipped = GRID.flat().find(
  (c) => c.threshold === HEADING_MODEL.threshold && c.lookWeight === HEADING_MODEL.lookWeight,
);
const perturbations = Number(values.perturb ?? 0);
const names = fits.flatMap(({ tag }) =>
  [...Object.keys(CHOICES), GLOBAL].filter((c) => c !== "fixed" || shipped).map((c) => `${tag}: ${c}`),
);
const folds = groupFolds(pool, (d) => d.producer);
const keyOf = (d: HeadingDoc): string => `${pool.indexOf(d)} ${d.label}`;
/**
 * Per fit and perturbation (0: the fold's whole fitting set; k > 0: one of its PDFs left out, a
 * change that touches no held-out tree), each fold's fitted-PDF mean F1 per cell and each
 * held-out PDF's F1 per cell.
 */
interface FoldGrids {
  means: number[][];
  held: Map<string, number[][]>;
}
const grids = new Map<string, FoldGrids[][]>();
const cellOf = (look: number, cut: number): CutSetting => GRID[look]?.[cut] as CutSetting;
const cellName = (c: CutSetting): string => `cut ${c.threshold}, look ${c.lookWeight}`;
/** Each choice's cell per fold for one fit and perturbation; `global` from every fold's grid. */
function cellsFor(perFold: FoldGrids[]): Record<string, CutSetting>[] {
  const sum = sumGrids(
    (perFold[0] as FoldGrids).means,
    perFold.map((g) => g.means),
  );
  const global = chooseCutFromMeans(sum, { kind: "best" });
  return perFold.map((g) => {
    const out: Record<string, CutSetting> = {};
    for (const [c, choice] of Object.entries(CHOICES)) {
      if (choice === "fixed" && !shipped) continue;
      out[c] =
        choice === "fixed"
          ? (shipped as CutSetting)
          : (() => {
              const { look, cut } = chooseCutFromMeans(g.means, choice);
              return cellOf(look, cut);
            })();
    }
    out[GLOBAL] = cellOf(global.look, global.cut);
    return out;
  });
}
const heldF1 = (g: FoldGrids, key: string, c: CutSetting): number => {
  const look = LOOK_WEIGHTS.indexOf(c.lookWeight as (typeof LOOK_WEIGHTS)[number]);
  const cut = GRID[look]?.findIndex((x) => x.threshold === c.threshold) ?? -1;
  const v = g.held.get(key)?.[look]?.[cut];
  if (v === undefined) throw new Error(`no held-out F1 for ${key} at ${cellName(c)}`);
  return v;
};
for (const [f, fold] of folds.entries()) {
  for (const { tag, settings } of fits) {
    for (let k = 0; k <= perturbations; k++) {
      // Perturbation k leaves out one fitted PDF (spread over the list): the held-out trees are untouched.
      const gone = k === 0 ? -1 : (f * 17 + k * 31) % fold.fit.length;
      const fitSet = fold.fit.filter((_, i) => i !== gone);
      const fit = fitHeadingWeights(fitSet, settings);
      const means = gridF1(fitSet, fit, GRID).map((row) => row.map((cell) => mean(cell)));
      const held = new Map(
        fold.score.map((d) => [
          keyOf(d),
          GRID.map((row) => row.map((cell) => treeF1(d, { bias: fit.bias, weights: fit.weights, ...cell }))),
        ]),
      );
      const list = grids.get(tag) ?? [];
      grids.set(tag, list);
      const per = list[k] ?? [];
      list[k] = per;
      per[f] = { means, held };
    }
  }
  console.error(`fold ${fold.held} done`);
}
const held = new Map<string, HeldPdf>();
const swing: Record<string, { d: number[]; moved: Set<string>; labels: string[] }> = {};
for (const { tag } of fits) {
  const perK = grids.get(tag) as FoldGrids[][];
  const base = cellsFor(perK[0] as FoldGrids[]);
  folds.forEach((fold, f) => {
    const g = (perK[0] as FoldGrids[])[f] as FoldGrids;
    const chosen = run.folds[fold.held] ?? {};
    run.folds[fold.held] = chosen;
    for (const [c, cell] of Object.entries(base[f] as Record<string, CutSetting>)) {
      const name = `${tag}: ${c}`;
      chosen[name] = cellName(cell);
      for (const d of fold.score) {
        const key = keyOf(d);
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
        pdf.f1[name] = heldF1(g, key, cell);
      }
    }
  });
  for (let k = 1; k <= perturbations; k++) {
    const cells = cellsFor(perK[k] as FoldGrids[]);
    folds.forEach((fold, f) => {
      const g = (perK[k] as FoldGrids[])[f] as FoldGrids;
      for (const [c, cell] of Object.entries(cells[f] as Record<string, CutSetting>)) {
        const name = `${tag}: ${c}`;
        const s = swing[name] ?? { d: [], moved: new Set<string>(), labels: [] };
        swing[name] = s;
        if (cellName(cell) !== run.folds[fold.held]?.[name]) s.moved.add(fold.held);
        for (const d of fold.score) {
          const delta = heldF1(g, keyOf(d), cell) - (held.get(keyOf(d))?.f1[name] as number);
          s.d.push(Math.abs(delta));
          if (Math.abs(delta) > 0.01) s.labels.push(`${d.label} ${delta > 0 ? "+" : ""}${pct(delta)}`);
        }
      }
    });
  }
}
run.pdfs = [...held.values()];
for (const fold of folds) {
  const list = fold.score.map((d) => held.get(keyOf(d)) as HeldPdf);
  const chosen = run.folds[fold.held] ?? {};
  console.log(
    `${fold.held} (${list.length}) | ${names.map((n) => `${n} -> ${chosen[n]}: ${pct(mean(list.map((p) => p.f1[n] as number)))}`).join(" | ")}`,
  );
}
console.log(
  `\nchoice | held-out mean F1 (all) | train half | TRAIN_EXTRA${perturbations > 0 ? ` | swing with one fitted PDF left out (${perturbations} per fold): mean |Δ| | max |Δ| | held-out PDFs moved > 1 pt | folds whose cell moved` : ""}`,
);
console.log(`--- | ---: | ---: | ---:${perturbations > 0 ? " | ---: | ---: | ---: | ---" : ""}`);
for (const name of names) {
  const f = (list: HeldPdf[]) => pct(mean(list.map((p) => p.f1[name] as number)));
  const s = swing[name];
  console.log(
    `${name} | ${f(run.pdfs)} | ${f(run.pdfs.filter((p) => p.half === "train"))} | ${f(run.pdfs.filter((p) => p.half === "train-extra"))}${s ? ` | ${pct(mean(s.d))} | ${pct(Math.max(0, ...s.d))} | ${s.d.filter((x) => x > 0.01).length} of ${s.d.length} | ${s.moved.size} (${[...s.moved].join(", ")})` : ""}`,
  );
}
if (perturbations > 0) {
  console.log("\nheld-out PDFs moved > 1 pt by a perturbation, per choice:");
  for (const [name, s] of Object.entries(swing)) console.log(`${name}: ${s.labels.join("; ") || "none"}`);
}
if (values.out) writeFileSync(values.out, JSON.stringify(run));
