/**
 * A fitted document ranker for the offline library-wide search (issue 24), judged by grouped
 * cross-validation on the library dev set before anything is built. Each question's candidates are
 * the library's best 8 documents and the documents of plain BM25's best 5 pages (collected by
 * scripts/library-devset/choice-data.ts, shared with analyze-library-choice.ts); each candidate is
 * described by the features below, and an L2-penalised logistic regression (pointwise: is this the
 * answer's document; or pairwise: the answer's document against each other candidate) ranks them.
 * Folds: leave one Debian package out (the questions of one package's documents are never scored by
 * a model that saw its package); the L2 strength is chosen inside each fold by an inner grouped
 * cross-validation on the other packages. Reported on the held-out questions: the right document
 * first / in the top 3, and hit@3 after the retriever's per-document search and fusion replayed over
 * the 3 chosen — beside the present fusion (the library's order) on the same questions. Also fitted
 * (on the training folds) how the 3 result places are shared: a confident first document keeps 2 or
 * 3 of them. Finally the model fitted on all questions given, with its standardised weights.
 * Never tune on `--split validation` (see eval-library.ts).
 * Run: pnpm run build && npx tsx scripts/fit-library-ranker.ts [--split dev] [--collect]
 *   [--exclude q191-q250] [--pairwise] [--sections: the section-level ranker and the final fit only]
 *   [--validate: once, at the end — the final fit scores the validation half (collected once)]
 *   [--final: no cross-validation, the final fit only]
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { groupFolds } from "./grouped-cv.js";
import {
  burstinessOver,
  concentration,
  type Doc,
  fusedHit,
  lexicalCoverage,
  loadCollected,
  type Question,
  scaled,
  type WordWeight,
  weighedCoverage,
} from "./library-devset/choice-data.js";
import { DECAY, K, libraryEvidence } from "./library-devset/replay.js";
import { fitLogistic, type LogisticFit } from "./logistic-l2.js";

const { values } = parseArgs({
  options: {
    split: { type: "string", default: "dev" },
    collect: { type: "boolean", default: false },
    exclude: { type: "string" },
    pairwise: { type: "boolean", default: false },
    sections: { type: "boolean", default: false },
    validate: { type: "boolean", default: false },
    final: { type: "boolean", default: false },
  },
});
const split = values.split ?? "dev";
if (!["dev", "validation", "all"].includes(split)) throw new Error("--split must be dev, validation or all");

/** The pool a ranker chooses from: the library's best 8 and the documents of BM25's best 5 pages. */
const LIBRARY_POOL = 8;
const PAGE_POOL = 5;
const inPool = (d: Doc) =>
  (d.libraryRank > 0 && d.libraryRank <= LIBRARY_POOL) || (d.pageRank > 0 && d.pageRank <= PAGE_POOL);
const L2_GRID = [0.003, 0.01, 0.03, 0.1, 0.3, 1];
const INNER_FOLDS = 5;

/** `q191-q250`: the questions numbered from A to B. */
function idRange(spec: string | undefined): (id: string) => boolean {
  if (spec === undefined) return () => false;
  const match = /^q(\d+)-q(\d+)$/.exec(spec);
  if (!match) throw new Error(`--exclude takes a range such as q191-q250, got ${spec}`);
  const [from, to] = [Number(match[1]), Number(match[2])];
  return (id) => Number(id.slice(1)) >= from && Number(id.slice(1)) <= to;
}

const FEATURES = [
  "library score (÷ best)",
  "1 / library rank",
  "best section (÷ best)",
  "best 3 sections (÷ best)",
  "coverage, own index (÷ best)",
  "coverage by concentration (÷ best)",
  "coverage by burstiness (÷ best)",
  "share of words present",
  "log nodes",
  "log tokens",
  "best page BM25 (÷ best)",
  "1 / page rank",
] as const;

/** One question's pool and each candidate's raw feature row. */
interface Pooled {
  q: Question;
  docs: Doc[];
  rows: number[][];
  gold: number;
}
function pooled(q: Question, burstiness: WordWeight): Pooled {
  const docs = q.docs.filter(inPool);
  const top3 = (d: Doc) =>
    d.library
      .map((s) => s.score)
      .sort((a, b) => b - a)
      .slice(0, 3)
      .reduce((s, v) => s + v, 0);
  const columns = [
    scaled(docs.map((d) => d.score)),
    docs.map((d) => (d.libraryRank > 0 ? 1 / d.libraryRank : 0)),
    scaled(docs.map((d) => Math.max(0, ...d.library.map((s) => s.score)))),
    scaled(docs.map(top3)),
    scaled(docs.map(lexicalCoverage)),
    scaled(docs.map((d) => weighedCoverage(q, d, concentration))),
    scaled(docs.map((d) => weighedCoverage(q, d, burstiness))),
    docs.map((d) => d.counts.filter((c) => c > 0).length / Math.max(1, q.terms.length)),
    docs.map((d) => Math.log(1 + d.nodes)),
    docs.map((d) => Math.log(1 + d.tokens)),
    scaled(docs.map((d) => d.pageScore)),
    docs.map((d) => (d.pageRank > 0 ? 1 / d.pageRank : 0)),
  ];
  const rows = docs.map((_, j) => columns.map((c) => c[j] as number));
  return { q, docs, rows, gold: docs.findIndex((d) => d.docId === q.docId) };
}

/** Feature means and deviations of the training rows (each column standardised). */
interface Scaler {
  mean: number[];
  sd: number[];
}
function scalerOf(rows: readonly number[][], n: number = FEATURES.length): Scaler {
  const mean = Array.from(
    { length: n },
    (_, k) => rows.reduce((s, r) => s + (r[k] as number), 0) / rows.length,
  );
  const sd = Array.from({ length: n }, (_, k) => {
    const v = rows.reduce((s, r) => s + ((r[k] as number) - (mean[k] as number)) ** 2, 0) / rows.length;
    return Math.sqrt(v) || 1;
  });
  return { mean, sd };
}
const standard = (s: Scaler, row: readonly number[]) =>
  row.map((v, k) => (v - (s.mean[k] as number)) / (s.sd[k] as number));

/** A fitted ranker: the scaler and the logistic weights (a candidate's score is the linear term). */
interface Ranker {
  scaler: Scaler;
  fit: LogisticFit;
  mask: readonly boolean[];
}
const masked = (r: readonly number[], mask: readonly boolean[]) => r.map((v, k) => (mask[k] ? v : 0));
function linear(ranker: Ranker, row: readonly number[]): number {
  const x = masked(standard(ranker.scaler, row), ranker.mask);
  return x.reduce((z, v, k) => z + (ranker.fit.weights[k] ?? 0) * v, ranker.fit.bias);
}

function train(qs: readonly Pooled[], l2: number, pairwise: boolean, mask: readonly boolean[]): Ranker {
  const scaler = scalerOf(qs.flatMap((p) => p.rows));
  const x: number[][] = [];
  const y: number[] = [];
  const w: number[] = [];
  for (const p of qs) {
    const rows = p.rows.map((r) => masked(standard(scaler, r), mask));
    if (pairwise) {
      if (p.gold < 0) continue;
      const g = rows[p.gold] as number[];
      rows.forEach((r, j) => {
        if (j === p.gold) return;
        const diff = g.map((v, k) => v - (r[k] as number));
        x.push(
          diff,
          diff.map((v) => -v),
        );
        y.push(1, 0);
        w.push(1 / (rows.length - 1), 1 / (rows.length - 1));
      });
    } else
      rows.forEach((r, j) => {
        x.push(r);
        y.push(j === p.gold ? 1 : 0);
        // Each question weighs alike; its answer as much as its other candidates together.
        w.push(j === p.gold ? 1 : 1 / Math.max(1, rows.length - 1));
      });
  }
  const fit = fitLogistic(x, y, { l2, rowWeights: w });
  return { scaler, fit: pairwise ? { ...fit, bias: 0 } : fit, mask };
}

/** The pool's order by the ranker, each candidate's share of the question (softmax of the scores). */
function order(ranker: Ranker, p: Pooled): { docs: Doc[]; shares: Map<string, number>; confidence: number } {
  const z = p.rows.map((r) => linear(ranker, r));
  const top = Math.max(...z);
  const e = z.map((v) => Math.exp(v - top));
  const total = e.reduce((s, v) => s + v, 0);
  const idx = p.docs.map((_, j) => j).sort((a, b) => (z[b] as number) - (z[a] as number) || a - b);
  const shares = new Map(p.docs.map((d, j) => [d.docId, (e[j] as number) / total]));
  return {
    docs: idx.map((j) => p.docs[j] as Doc),
    shares,
    confidence: (e[idx[0] as number] as number) / total,
  };
}

/**
 * How the 3 places are shared: the first document keeps `keep` of them when its share is ≥
 * `over`; `modelScore`: the fusion reads the model's shares as the documents' scores (else the library's).
 */
interface Sharing {
  over: number;
  keep: number;
  modelScore: boolean;
}
const NO_SHARING: Sharing = { over: 2, keep: 0, modelScore: false };
const SHARINGS: Sharing[] = [false, true].flatMap((modelScore) => [
  { ...NO_SHARING, modelScore },
  ...[0, 0.5, 0.6, 0.7, 0.8, 0.9].flatMap((over) => [2, 3].map((keep) => ({ over, keep, modelScore }))),
]);

interface Outcome {
  first: number;
  top3: number;
  hit: number;
}
const zero = (): Outcome => ({ first: 0, top3: 0, hit: 0 });
function score(ranker: Ranker, p: Pooled, sharing: Sharing): Outcome {
  const { docs, shares, confidence } = order(ranker, p);
  const chosen = docs.slice(0, 3);
  const firstKeeps = confidence >= sharing.over ? sharing.keep : 0;
  return {
    first: docs[0]?.docId === p.q.docId ? 1 : 0,
    top3: chosen.some((d) => d.docId === p.q.docId) ? 1 : 0,
    hit: fusedHit(p.q, chosen, { firstKeeps, ...(sharing.modelScore ? { documentScore: shares } : {}) })
      ? 1
      : 0,
  };
}
const add = (a: Outcome, b: Outcome): Outcome => ({
  first: a.first + b.first,
  top3: a.top3 + b.top3,
  hit: a.hit + b.hit,
});
const total = (os: readonly Outcome[]) => os.reduce(add, zero());
/** What the inner folds choose by: hit@3, then the right document in the top 3, then first. */
const merit = (o: Outcome) => o.hit * 10_000 + o.top3 * 100 + o.first;

/** Groups of packages for the inner folds (every INNER_FOLDS-th package of the training questions). */
function innerFolds(qs: readonly Pooled[]): Array<{ fit: Pooled[]; score: Pooled[] }> {
  const pkgs = [...new Set(qs.map((p) => p.q.pkg))];
  return Array.from({ length: INNER_FOLDS }, (_, f) => {
    const held = new Set(pkgs.filter((_, i) => i % INNER_FOLDS === f));
    return { fit: qs.filter((p) => !held.has(p.q.pkg)), score: qs.filter((p) => held.has(p.q.pkg)) };
  }).filter((f) => f.score.length > 0 && f.fit.length > 0);
}

/** The L2 strength the inner folds prefer, and how the 3 places are shared (fitted on the training questions). */
function choose(
  qs: readonly Pooled[],
  pairwise: boolean,
  mask: readonly boolean[],
): { l2: number; sharing: Sharing } {
  let best = { l2: L2_GRID[0] as number, merit: -1 };
  for (const l2 of L2_GRID) {
    const m = merit(
      total(
        innerFolds(qs).flatMap((f) =>
          f.score.map((p) => score(train(f.fit, l2, pairwise, mask), p, NO_SHARING)),
        ),
      ),
    );
    if (m > best.merit) best = { l2, merit: m };
  }
  const inner = innerFolds(qs).map((f) => ({
    ranker: train(f.fit, best.l2, pairwise, mask),
    score: f.score,
  }));
  let sharing = { s: NO_SHARING, hit: -1 };
  for (const s of SHARINGS) {
    const hit = inner.reduce((n, f) => n + f.score.reduce((m, p) => m + score(f.ranker, p, s).hit, 0), 0);
    if (hit > sharing.hit) sharing = { s, hit };
  }
  return { l2: best.l2, sharing: sharing.s };
}

/** Leave-one-package-out: each held-out package's questions scored by a model of the others. */
function crossValidate(all: readonly Pooled[], pairwise: boolean, mask: readonly boolean[]) {
  const ranked = new Map<string, Outcome>();
  const shared = new Map<string, Outcome>();
  /** Per sharing (SHARINGS' order), each held-out question's outcome: the landscape, not a choice. */
  const each = SHARINGS.map(() => new Map<string, Outcome>());
  /** Each held-out question's 3 chosen documents. */
  const chosen = new Map<string, string[]>();
  const l2s: number[] = [];
  const sharings: string[] = [];
  for (const fold of groupFolds(all, (p) => p.q.pkg)) {
    const { l2, sharing } = choose(fold.fit, pairwise, mask);
    l2s.push(l2);
    sharings.push(`${sharing.modelScore ? "model" : "library"} ${sharing.keep}@${sharing.over}`);
    const ranker = train(fold.fit, l2, pairwise, mask);
    for (const p of fold.score) {
      ranked.set(p.q.id, score(ranker, p, NO_SHARING));
      chosen.set(
        p.q.id,
        order(ranker, p)
          .docs.slice(0, 3)
          .map((d) => d.docId),
      );
      shared.set(p.q.id, score(ranker, p, sharing));
      for (const [i, s] of SHARINGS.entries()) each[i]?.set(p.q.id, score(ranker, p, s));
    }
  }
  return { ranked, shared, l2s, sharings, each, chosen };
}

/**
 * A section-level ranker: the 3 results chosen directly among the named searches' best K of every
 * pooled document, each row described by its document's features and its own (its place in its
 * document's search, its score there, its library evidence): the choice of documents and how the
 * 3 places are shared, fitted at once.
 */
const SECTION_FEATURES = [
  "1 / place in its document's search",
  "its score there",
  "its library evidence (÷ best)",
];
interface SectionRows {
  p: Pooled;
  rows: number[][];
  hits: boolean[];
}
function sectionRows(p: Pooled): SectionRows {
  const bestSection = Math.max(0, ...p.q.docs.flatMap((d) => d.library.map((s) => s.score))) || 1;
  const rows: number[][] = [];
  const hits: boolean[] = [];
  p.docs.forEach((d, j) => {
    const evidence = libraryEvidence(d.library, DECAY);
    for (const [i, s] of (d.named ?? []).slice(0, K).entries()) {
      rows.push([
        ...(p.rows[j] as number[]),
        1 / (i + 1),
        s.score,
        (evidence.get(s.nodeId) ?? 0) / bestSection,
      ]);
      hits.push(s.hit);
    }
  });
  return { p, rows, hits };
}
const SECTION_WIDTH = FEATURES.length + SECTION_FEATURES.length;
function trainSections(qs: readonly SectionRows[], l2: number): Ranker {
  const scaler = scalerOf(
    qs.flatMap((q) => q.rows),
    SECTION_WIDTH,
  );
  const mask = Array.from({ length: SECTION_WIDTH }, () => true);
  const x: number[][] = [];
  const y: number[] = [];
  const w: number[] = [];
  for (const q of qs) {
    const positives = q.hits.filter(Boolean).length;
    q.rows.forEach((r, i) => {
      x.push(standard(scaler, r));
      y.push(q.hits[i] ? 1 : 0);
      // Each question weighs alike; its hits as much as its other rows together.
      w.push(q.hits[i] ? 1 / positives : 1 / Math.max(1, q.rows.length - positives));
    });
  }
  return { scaler, fit: fitLogistic(x, y, { l2, rowWeights: w }), mask };
}
function sectionHit(ranker: Ranker, q: SectionRows): number {
  const z = q.rows.map((r) => linear(ranker, r));
  const top = z
    .map((v, i) => ({ v, i }))
    .sort((a, b) => b.v - a.v || a.i - b.i)
    .slice(0, 3);
  return top.some((t) => q.hits[t.i]) ? 1 : 0;
}
function crossValidateSections(all: readonly SectionRows[]): { hits: Map<string, number>; l2s: number[] } {
  const hits = new Map<string, number>();
  const l2s: number[] = [];
  for (const fold of groupFolds(all, (q) => q.p.q.pkg)) {
    let best = { l2: L2_GRID[0] as number, hit: -1 };
    for (const l2 of L2_GRID) {
      const pkgs = [...new Set(fold.fit.map((q) => q.p.q.pkg))];
      let hit = 0;
      for (let f = 0; f < INNER_FOLDS; f++) {
        const held = new Set(pkgs.filter((_, i) => i % INNER_FOLDS === f));
        const ranker = trainSections(
          fold.fit.filter((q) => !held.has(q.p.q.pkg)),
          l2,
        );
        for (const q of fold.fit.filter((q) => held.has(q.p.q.pkg))) hit += sectionHit(ranker, q);
      }
      if (hit > best.hit) best = { l2, hit };
    }
    l2s.push(best.l2);
    const ranker = trainSections(fold.fit, best.l2);
    for (const q of fold.score) hits.set(q.p.q.id, sectionHit(ranker, q));
  }
  return { hits, l2s };
}

/** The section-level ranker's cross-validated hit@3. */
function sectionCv(all: readonly Pooled[], hard: readonly Pooled[]): void {
  const sections = all.map(sectionRows);
  const cvs = crossValidateSections(sections);
  const sh = (qs: readonly Pooled[]) => qs.reduce((n, p) => n + (cvs.hits.get(p.q.id) ?? 0), 0);
  console.log(
    `\nsection-level ranker (the 3 results among the pool's named searches' best ${K}); L2 chosen per fold: ${tally(cvs.l2s.map(String))}`,
  );
  console.log(`   cross-validated hit@3 ${sh(all)}/${sh(hard)}`);
}

/** The present fusion: the library's best 3 (its order), results fused as the retriever does. */
function present(p: Pooled): Outcome {
  const chosen = p.q.docs.filter((d) => d.libraryRank > 0).slice(0, 3);
  return {
    first: chosen[0]?.docId === p.q.docId ? 1 : 0,
    top3: chosen.some((d) => d.docId === p.q.docId) ? 1 : 0,
    hit: fusedHit(p.q, chosen) ? 1 : 0,
  };
}

const tally = (xs: readonly string[]) =>
  [...new Set(xs)].map((x) => `${x} ×${xs.filter((y) => y === x).length}`).join(", ");

function line(name: string, all: readonly Pooled[], of: (p: Pooled) => Outcome): void {
  const a = total(all.map(of));
  const h = total(all.filter((p) => p.q.difficulty === "hard").map(of));
  console.log(
    `   ${name.padEnd(56)} first ${a.first}/${h.first}  top3 ${a.top3}/${h.top3}  hit@3 ${a.hit}/${h.hit}`,
  );
}

async function main(): Promise<void> {
  const cache = join(".bench-out", `analyze-library-choice-${split}.json`);
  const collected = await loadCollected(split, cache, values.collect ?? false);
  // Burstiness over the library's documents (the same library for every split's collection).
  const burstiness = burstinessOver(collected.nodeCounts);
  const excluded = idRange(values.exclude);
  const all = collected.questions.filter((q) => !excluded(q.id)).map((q) => pooled(q, burstiness));
  const hard = all.filter((p) => p.q.difficulty === "hard");
  const packages = new Set(all.map((p) => p.q.pkg)).size;
  console.log(
    `${all.length} questions (${hard.length} hard), ${packages} packages (folds); each figure all/hard; ` +
      `answer's document in the pool (library's best ${LIBRARY_POOL} ∪ pages' best ${PAGE_POOL}): ` +
      `${all.filter((p) => p.gold >= 0).length}/${hard.filter((p) => p.gold >= 0).length}`,
  );
  line("present fusion (the library's best 3)", all, present);
  line("plain BM25 pages' best 3 documents, fused", all, (p) => {
    const chosen = [...p.docs]
      .filter((d) => d.pageRank > 0)
      .sort((a, b) => a.pageRank - b.pageRank)
      .slice(0, 3);
    return {
      first: chosen[0]?.docId === p.q.docId ? 1 : 0,
      top3: chosen.some((d) => d.docId === p.q.docId) ? 1 : 0,
      hit: fusedHit(p.q, chosen) ? 1 : 0,
    };
  });
  const pairwise = values.pairwise ?? false;
  const sets: Array<[string, boolean[]]> = [
    ["all features", FEATURES.map(() => true)],
    ["library features only (no pages)", FEATURES.map((_, k) => k < 10)],
    ["library score + page features", FEATURES.map((_, k) => k <= 1 || k >= 10)],
  ];
  for (const [name, mask] of values.sections || values.final ? [] : sets) {
    const cv = crossValidate(all, pairwise, mask);
    console.log(
      `\n${pairwise ? "pairwise" : "pointwise"} logistic, ${name}; L2 chosen per fold: ${[...new Set(cv.l2s)].sort((a, b) => a - b).join(", ")}`,
    );
    line("cross-validated ranker, fusion as today", all, (p) => cv.ranked.get(p.q.id) ?? zero());
    line("cross-validated ranker, places shared by confidence", all, (p) => cv.shared.get(p.q.id) ?? zero());
    console.log(`   sharing chosen per fold: ${tally(cv.sharings)}`);
    console.log("   each sharing on the held-out questions (hit@3 all/hard; read, not chosen by):");
    const cells = SHARINGS.map((sh, i) => {
      const of = (qs: readonly Pooled[]) => total(qs.map((p) => cv.each[i]?.get(p.q.id) ?? zero())).hit;
      return `${sh.modelScore ? "model" : "library"} ${sh.keep}@${sh.over}: ${of(all)}/${of(all.filter((p) => p.q.difficulty === "hard"))}`;
    });
    for (let i = 0; i < cells.length; i += 7) console.log(`     ${cells.slice(i, i + 7).join("  ")}`);
    if (name !== "all features") continue;
    console.log(
      "   hard questions whose document is pooled but not chosen first (library rank, page rank; the ranker's 3):",
    );
    for (const p of hard) {
      const g = p.docs[p.gold];
      const picks = cv.chosen.get(p.q.id) ?? [];
      if (!g || picks[0] === p.q.docId) continue;
      console.log(
        `     ${p.q.id} ${p.q.docId} (${g.libraryRank || "-"}, ${g.pageRank || "-"}): ${picks.join(", ")}`,
      );
    }
  }
  if (!values.final) sectionCv(all, hard);
  const { l2, sharing } = choose(
    all,
    pairwise,
    FEATURES.map(() => true),
  );
  const ranker = train(
    all,
    l2,
    pairwise,
    FEATURES.map(() => true),
  );
  console.log(
    `\nfitted on all ${all.length} (L2 ${l2}; first keeps ${sharing.keep} places at share ≥ ${sharing.over}); standardised weights:`,
  );
  for (const [k, f] of FEATURES.entries())
    console.log(`   ${f.padEnd(40)} ${(ranker.fit.weights[k] ?? 0).toFixed(3)}`);
  if (!values.validate) return;
  // Once, at the end: the model fitted on every dev question scores the validation half.
  const heldOut = (
    await loadCollected("validation", join(".bench-out", "analyze-library-choice-validation.json"), false)
  ).questions.map((q) => pooled(q, burstiness));
  const vhard = heldOut.filter((p) => p.q.difficulty === "hard");
  console.log(
    `\nvalidation half, ${heldOut.length} questions (${vhard.length} hard), scored once by the model fitted on all ${all.length}:`,
  );
  line("present fusion (the library's best 3)", heldOut, present);
  line("fitted ranker, fusion as today", heldOut, (p) => score(ranker, p, NO_SHARING));
  line("fitted ranker, places shared as fitted", heldOut, (p) => score(ranker, p, sharing));
}

await main();
