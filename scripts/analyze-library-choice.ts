/**
 * Document choice offline on the library dev set (issue 24): which documents the library-wide
 * search should search, measured before anything is built. Per question it collects once
 * (cached in .bench-out/analyze-library-choice-<split>.json; `--collect` again after changing the
 * packages): the library's best 20 documents (score, 12 best sections), and for each of them and
 * the gold document the sections holding each query word (counted on the library index's own
 * fields, as an engine's per-document count would: all four fields, and without the ancestors'
 * titles), its node count, the share of its nodes holding each word in its own lexical index, and
 * for the best 8 and the gold its offline search as if named (k = 10). Also each word's section
 * and document frequencies over the whole library. Then, in memory, re-rankings of the candidates
 * (right document first / in the top 3) and the retriever's fusion replayed over the 3 chosen
 * (hit@3; its `fuseLibraryEvidence`, as scripts/analyze-library-offline.ts replays it):
 * 0. three variants fixed on the dev half before the validation half was first collected;
 * 1. each candidate's coverage of the query's words (Σ weight × share / (share + saturation),
 *    share = its sections holding the word / its nodes: what an engine-side count per candidate
 *    would give), the words weighed alike, by document IDF, by concentration (sections per
 *    document holding the word) or by burstiness (log of the documents expected to hold it, were
 *    its sections spread at random, over those that do), blended into the best 5, 8 or 20;
 * 1b. the query's words shown by a candidate's best sections (what the hits carry: no read);
 * 2. the same with the fusion reading the blended score; 3. reciprocal-rank fusion of the
 *    library's order and the coverage order; 4. a 4th or 5th document searched when close.
 * Never tune on `--split validation` (see eval-library.ts).
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/analyze-library-choice.ts
 *   [--split dev|validation|all] [--collect]
 */
import {
  burstinessOver,
  type Choice,
  concentration,
  fusedHit,
  loadCollected,
  type Question,
  ranked,
  scaled,
  type WordWeight,
  weighedCoverage,
} from "./library-devset/choice-data.js";
import { analysisArgs, SATURATION } from "./library-devset/replay.js";

const { split, collect: recollect, cache: CACHE } = analysisArgs("analyze-library-choice");
interface Outcome {
  first: number;
  top3: number;
  hit: number;
}
/** Right document first, in the top 3, hit@3 (the 3 chosen searched, their fusion replayed). */
function evaluate(qs: readonly Question[], choice: Choice, fuseWithChoice: boolean): Outcome {
  const o: Outcome = { first: 0, top3: 0, hit: 0 };
  for (const q of qs) {
    const order = ranked(q, choice);
    const chosen = order.slice(0, 3);
    if (order[0]?.docId === q.docId) o.first += 1;
    if (chosen.some((d) => d.docId === q.docId)) o.top3 += 1;
    const scores = choice(q);
    const documentScore = new Map(q.docs.map((d, i) => [d.docId, Math.max(0, scores[i] ?? 0)]));
    if (fusedHit(q, chosen, fuseWithChoice ? { documentScore } : {})) o.hit += 1;
  }
  return o;
}

let data: Question[] = [];
let nodeCounts: number[] = [];
function report(name: string, choice: Choice, fuseWithChoice = false): void {
  const hard = data.filter((q) => q.difficulty === "hard");
  const a = evaluate(data, choice, fuseWithChoice);
  const h = evaluate(hard, choice, fuseWithChoice);
  const unsearched = data.filter((q) =>
    ranked(q, choice)
      .slice(0, 3)
      .some((d) => !d.named),
  ).length;
  console.log(
    `   ${name.padEnd(68)} first ${a.first}/${h.first}  top3 ${a.top3}/${h.top3}  hit@3 ${a.hit}/${h.hit}` +
      (unsearched > 0 ? `  (${unsearched} without a collected search)` : ""),
  );
}

const library: Choice = (q) => q.docs.map((d) => d.score);
const uniform: WordWeight = () => 1;
const documentIdf: WordWeight = (q, i) => Math.log(1 + nodeCounts.length / Math.max(1, q.df[i] ?? 0));
/** Concentration among the 20 candidates only (what per-candidate counts give without library statistics). */
const candidateConcentration: WordWeight = (q, i) => {
  const holding = q.docs.filter((d) => (d.counts[i] ?? 0) > 0);
  return holding.reduce((s, d) => s + (d.counts[i] ?? 0), 0) / Math.max(1, holding.length);
};

/** The library's score (scaled) + w × coverage (scaled over the best `pool` candidates, which alone may rise). */
function blend(w: number, pool: number, weight: WordWeight, saturation: number, ownFields = false): Choice {
  return (q) => {
    const lib = scaled(library(q));
    const cov = scaled(
      q.docs.map((d, i) => (i < pool ? weighedCoverage(q, d, weight, saturation, ownFields) : 0)),
    );
    return lib.map((s, i) => (i < pool ? s + w * (cov[i] ?? 0) : s - 10));
  };
}

/** Reciprocal-rank fusion of the library's order and the coverage order over the best `pool`. */
function rrf(offset: number, w: number, pool: number): Choice {
  return (q) => {
    const cov = q.docs.map((d) => weighedCoverage(q, d, uniform, SATURATION));
    const byCoverage = q.docs
      .map((_, i) => i)
      .filter((i) => i < pool)
      .sort((a, b) => (cov[b] ?? 0) - (cov[a] ?? 0) || a - b);
    const rank = new Map(byCoverage.map((i, r) => [i, r]));
    return q.docs.map((_, i) => (i < pool ? 1 / (offset + i) + w / (offset + (rank.get(i) ?? 0)) : -1));
  };
}

/** Hit@3 when a 4th (and 5th) document is searched too while its library score is ≥ ratio × the previous one's. */
function extraDocuments(ratio: number, extra: number, thirdAtBest: boolean): string {
  const count = (qs: readonly Question[]) =>
    qs.filter((q) => {
      let n = 3;
      while (n < 3 + extra && (q.docs[n]?.score ?? 0) >= ratio * (q.docs[n - 1]?.score ?? Infinity)) n += 1;
      return fusedHit(q, q.docs.slice(0, n), thirdAtBest ? { extraFrom: 3 } : {});
    }).length;
  return `${count(data)}/${count(data.filter((q) => q.difficulty === "hard"))}`;
}

async function main(): Promise<void> {
  const collected = await loadCollected(split, CACHE, recollect);
  // The library's candidates only (the collection adds plain BM25's page candidates after them).
  data = collected.questions.map((q) => ({ ...q, docs: q.docs.filter((d) => d.libraryRank > 0) }));
  nodeCounts = collected.nodeCounts;
  const burstiness = burstinessOver(nodeCounts);
  const hard = data.filter((q) => q.difficulty === "hard");
  console.log(`${data.length} questions (${hard.length} hard); each figure all/hard`);
  report("library order (today)", library);
  console.log(
    `   gold document's library rank, hard: ${hard.map((q) => q.docs.findIndex((d) => d.docId === q.docId) + 1 || ">20").join(" ")}`,
  );

  // Chosen on the dev half before the validation half was collected (read these there).
  console.log("\n0. fixed on the dev half before any validation run: pool 8, saturation 0.03, weight 0.35");
  for (const [name, weight] of [
    ["uniform", uniform],
    ["concentration", concentration],
    ["burstiness", burstiness],
  ] as Array<[string, WordWeight]>)
    report(`coverage, ${name}`, blend(0.35, 8, weight, SATURATION));

  console.log(
    "\n1. coverage of the query's words (sections holding each word, all fields), blended into the best `pool`",
  );
  const weights: Array<[string, WordWeight]> = [
    ["uniform", uniform],
    ["document IDF", documentIdf],
    ["concentration", concentration],
    ["concentration among the candidates", candidateConcentration],
    ["burstiness", burstiness],
  ];
  for (const [name, weight] of weights)
    for (const pool of [5, 8, 20])
      for (const saturation of [0.03, 0.1])
        for (const w of [0.2, 0.35, 0.5, 0.7, 1])
          report(
            `${name}, pool ${pool}, saturation ${saturation}, weight ${w}`,
            blend(w, pool, weight, saturation),
          );
  for (const w of [0.35, 0.7])
    report(`uniform, own fields (no ancestors), pool 8, weight ${w}`, blend(w, 8, uniform, SATURATION, true));

  console.log(
    "\n1b. the query's words shown by a candidate's best sections (titles, ancestors, summary lines: no read)",
  );
  for (const [name, weight] of weights)
    for (const w of [0.1, 0.2, 0.35, 0.5, 0.7])
      report(`${name}, pool 8, weight ${w}`, (q) => {
        const lib = scaled(library(q));
        const shown = scaled(
          q.docs.map((d) => q.terms.reduce((s, _t, i) => s + (d.shown[i] ? weight(q, i) : 0), 0)),
        );
        return lib.map((s, i) => (i < 8 ? s + w * (shown[i] ?? 0) : s - 10));
      });

  console.log(
    "\n2. the same, the fusion reading the blended document score (the choice's order carried into the ranking)",
  );
  for (const [name, weight] of weights)
    for (const w of [0.2, 0.35, 0.5])
      report(`${name}, pool 8, saturation 0.03, weight ${w}`, blend(w, 8, weight, SATURATION), true);

  console.log("\n3. reciprocal-rank fusion of the library's order and the coverage order");
  for (const pool of [8, 20])
    for (const offset of [1, 5, 60])
      for (const w of [0.5, 1]) report(`pool ${pool}, offset ${offset}, weight ${w}`, rrf(offset, w, pool));

  console.log(
    "\n4. a 4th (5th) document searched while its library score is ≥ ratio × the previous one's: hit@3",
  );
  for (const ratio of [0.8, 0.9, 0.95])
    for (const extra of [1, 2])
      console.log(
        `   ratio ${ratio}, up to ${extra} more: ${extraDocuments(ratio, extra, false)}; at best third: ${extraDocuments(ratio, extra, true)}`,
      );
}

await main();
