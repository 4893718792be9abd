/**
 * An offline semantic signal learned from the library itself (issue 24, twelfth session): can
 * term associations fitted on the library's own text — never on questions, no downloaded
 * weights — choose the documents to search better than the lexical library index alone? Fits
 * LSA over sections and over documents, PPMI word vectors and a tf-idf control
 * (scripts/library-devset/semantic-model.ts), scores each question against each document (its
 * whole text, and its best section), blends that into the library's order of its 20 candidates
 * (variants: whole + best section, the model's best documents admitted beside the candidates, the
 * third place given to the model's best), and replays the retriever's fusion over the 3 chosen
 * (hit@3) on the collection analyze-library-choice.ts makes (shared cache); searches that
 * collection lacks (a candidate it did not search as if named, a document it did not rank) are run
 * here and cached. Figures: right document first / in the top 3 / hit@3, all/hard, and on the
 * questions where lexical evidence is strong (the library's first document leads by ≥ 1.5×). On
 * dev it also lists what the variant FIXED (chosen before any validation run) changes, and ends
 * with a cross-validated choice among every variant (leave one package out). `--split
 * validation` runs FIXED alone: never tune on it (see eval-library.ts). Results: docs/history/library-search.md,
 * *Twelfth session: a semantic signal learned from the library*.
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/analyze-library-semantic.ts
 *   [--split dev|validation|all] [--only <regex over model names>] [--collect]
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { tokenizeQuery } from "pageindex-core";
import { PageIndexStore } from "pageindex-store";
import { groupFolds } from "./grouped-cv.js";
import { type Doc, fusedHit, loadCollected, type Question, scaled } from "./library-devset/choice-data.js";
import type { LibraryQuestion } from "./library-devset/library.js";
import { goldSection, SECTIONS } from "./library-devset/replay.js";
import {
  cosine,
  lsaModel,
  ppmiModel,
  type SemanticModel,
  semanticCorpus,
  tfidfModel,
  vocabulary,
} from "./library-devset/semantic-model.js";

const { LexicalIndexes, PageIndexRetriever } = await import("../packages/pageindex-retriever/src/index.js");

const { values } = parseArgs({
  options: {
    split: { type: "string", default: "dev" },
    collect: { type: "boolean", default: false },
    only: { type: "string" },
  },
});
const split = values.split ?? "dev";
const recollect = values.collect ?? false;
if (!["dev", "validation", "all"].includes(split)) throw new Error("--split must be dev, validation or all");
/** The collection analyze-library-choice.ts makes (and reads): shared. */
const cache = join(".bench-out", `analyze-library-choice-${split}.json`);
const EXTRA = join(".bench-out", `analyze-library-semantic-extra-${split}.json`);

/** Per model: each question's cosine with every document (whole text) and with its best section. */
interface Similarities {
  name: string;
  whole: Map<string, Map<string, number>>;
  section: Map<string, Map<string, number>>;
}

// ---- searches the collection lacks, run once and cached ----
let store: PageIndexStore | undefined;
let storeDir = "";
const questionsById = new Map<string, LibraryQuestion>();
const extra: Record<string, Doc> = existsSync(EXTRA) ? JSON.parse(readFileSync(EXTRA, "utf8")) : {};
let extraAdded = 0;

/** `docId` for question `q` with its library evidence, lexical shares and named search (k = 10). */
async function searched(q: Question, docId: string, known?: Doc): Promise<Doc> {
  if (known?.named) return known;
  const key = `${q.id}|${docId}`;
  const have = extra[key];
  if (have) return have;
  store ??= await PageIndexStore.fromPath(storeDir);
  const lq = questionsById.get(q.id) as LibraryQuestion;
  const section = (nodeId: string, score: number) =>
    goldSection(store as PageIndexStore, lq, docId, nodeId, score);
  let d: Doc;
  if (known) d = { ...known };
  else {
    // The engine scales scores to the best of those it returns: search the outsider beside the
    // library's first candidate and carry the ratio over to that candidate's collected score.
    const first = q.docs[0] as Doc;
    const hits = await store.searchLibrary(lq.question, {
      limit: 2,
      sectionsPerDocument: SECTIONS,
      docIds: [first.docId, docId],
    });
    const hit = hits.find((h) => h.docId === docId);
    const ratio = first.score / (hits.find((h) => h.docId === first.docId)?.score ?? 1);
    const lastCandidate = (q.docs[q.docs.length - 1] as Doc).score;
    const skeleton = await store.getSkeleton(docId);
    const index = await new LexicalIndexes(store).get(skeleton);
    d = {
      docId,
      // Not among the library's candidates, so not above its last one.
      score: Math.min(lastCandidate, (hit?.score ?? 0) * ratio),
      nodes: 0,
      tokens: 0,
      library: await Promise.all((hit?.sections ?? []).map((s) => section(s.nodeId, s.score * ratio))),
      counts: [],
      ownCounts: [],
      shares: index.nodeShares(q.terms),
      shown: [],
      pageScore: 0,
      pageRank: 0,
      libraryRank: 0,
    };
  }
  const retriever = new PageIndexRetriever({ reader: store, cache: false, docIds: [docId], k: 10 });
  const found = await retriever.invoke(lq.question);
  d.named = await Promise.all(found.map((f) => section(f.metadata.nodeId, f.metadata.score)));
  extra[key] = d;
  extraAdded += 1;
  return d;
}

// ---- choices and their replay ----
/** A choice over a pool: each pool document's score (higher first; pool order breaks ties). */
type Choice = (q: Question, pool: readonly Doc[]) => number[];
interface Variant {
  name: string;
  choice: Choice;
  /** Documents outside the library's candidates admitted from this model's best (0: none). */
  admit?: { sims: Similarities; count: number };
}

function bestOf(sims: Map<string, number>, count: number): string[] {
  return [...sims]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([d]) => d);
}

async function poolOf(q: Question, v: Variant): Promise<Doc[]> {
  const pool = [...q.docs];
  if (v.admit)
    for (const docId of bestOf(v.admit.sims.whole.get(q.id) as Map<string, number>, v.admit.count))
      if (!pool.some((d) => d.docId === docId)) pool.push(await searched(q, docId));
  return pool;
}

interface Tally {
  first: number;
  top3: number;
  hit: number;
}
/** One question's outcome under a variant. */
interface Outcome {
  first: boolean;
  top3: boolean;
  hit: boolean;
}
async function outcome(q: Question, v: Variant): Promise<Outcome> {
  const pool = await poolOf(q, v);
  const scores = v.choice(q, pool);
  const order = pool
    .map((d, i) => ({ d, s: scores[i] ?? 0, i }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.d);
  const chosen = await Promise.all(order.slice(0, 3).map((d) => searched(q, d.docId, d)));
  return {
    first: order[0]?.docId === q.docId,
    top3: chosen.some((d) => d.docId === q.docId),
    hit: fusedHit({ ...q, docs: pool }, chosen),
  };
}
function tally(outcomes: readonly Outcome[]): Tally {
  const n = (f: (o: Outcome) => boolean) => outcomes.filter(f).length;
  return { first: n((o) => o.first), top3: n((o) => o.top3), hit: n((o) => o.hit) };
}

let data: Question[] = [];
/** The model whose variants are being reported ("" for the library's order). */
let modelName = "";
let strong: Question[] = [];
/** Every reported variant's outcomes per question (for the cross-validated choice of a variant). */
const grid: Array<{ name: string; outcomes: Outcome[] }> = [];
const fmt = (a: Tally, h: Tally) =>
  `first ${a.first}/${h.first}  top3 ${a.top3}/${h.top3}  hit@3 ${a.hit}/${h.hit}`;
async function report(v: Variant): Promise<void> {
  const outcomes: Outcome[] = [];
  for (const q of data) outcomes.push(await outcome(q, v));
  grid.push({ name: `${modelName}${modelName ? ": " : ""}${v.name}`, outcomes });
  const where = (qs: readonly Question[]) =>
    tally(outcomes.filter((_, i) => qs.includes(data[i] as Question)));
  const s = where(strong);
  console.log(
    `   ${v.name.padEnd(60)} ${fmt(tally(outcomes), where(data.filter((q) => q.difficulty === "hard")))}   strong: first ${s.first} top3 ${s.top3} hit@3 ${s.hit}`,
  );
}

/**
 * How much of the best variant's gain is its choice on these questions: leave one package out,
 * choose the variant with the most hard top-3 + hard hit@3 on the other packages' questions
 * (the library's order wins ties), count the held-out package's questions under it.
 */
function crossValidated(): void {
  const folds = groupFolds(
    data.map((_, i) => i),
    (i) => (data[i] as Question).pkg,
  );
  const outcomes: Outcome[] = [];
  const chosen = new Map<string, number>();
  for (const fold of folds) {
    const score = (g: (typeof grid)[number]) =>
      fold.fit.reduce((sum, i) => {
        const o = g.outcomes[i] as Outcome;
        return data[i]?.difficulty === "hard" ? sum + Number(o.top3) + Number(o.hit) : sum;
      }, 0);
    const best = grid.reduce((b, g) => (score(g) > score(b) ? g : b), grid[0] as (typeof grid)[number]);
    chosen.set(best.name, (chosen.get(best.name) ?? 0) + 1);
    for (const i of fold.score) outcomes[i] = best.outcomes[i] as Outcome;
  }
  const hard = outcomes.filter((_, i) => data[i]?.difficulty === "hard");
  console.log(
    `\nVariant chosen per left-out package (${folds.length} folds, ${grid.length} variants): ${fmt(tally(outcomes), tally(hard))}`,
  );
  console.log(`   chosen: ${[...chosen].map(([n, c]) => `${n} (${c})`).join("; ")}`);
}

const library: Choice = (_q, pool) => pool.map((d) => d.score);
/** The library's score (scaled) + w × the model's cosine (scaled over the pool; negative taken as 0). */
function blend(sims: Map<string, Map<string, number>>, w: number, pool = 20): Choice {
  return (q, docs) => {
    const lib = scaled(docs.map((d) => d.score));
    const own = sims.get(q.id) as Map<string, number>;
    const sem = scaled(docs.map((d) => Math.max(0, own.get(d.docId) ?? 0)));
    return lib.map((s, i) =>
      i < pool || (docs[i] as Doc).libraryRank === 0 ? s + w * (sem[i] ?? 0) : s - 10,
    );
  };
}

/** The library's first two, then the pool's document of highest cosine among the rest, then the library's order. */
function thirdPlace(sims: Map<string, Map<string, number>>): Choice {
  return (q, pool) => {
    const lib = scaled(pool.map((d) => d.score));
    const own = sims.get(q.id) as Map<string, number>;
    const byLibrary = pool.map((_, i) => i).sort((a, b) => (lib[b] ?? 0) - (lib[a] ?? 0) || a - b);
    const rest = byLibrary.slice(2);
    const best = rest.reduce(
      (m, i) => ((own.get(pool[i]?.docId ?? "") ?? 0) > (own.get(pool[m]?.docId ?? "") ?? 0) ? i : m),
      rest[0] ?? 0,
    );
    return lib.map((s, i) => (byLibrary.indexOf(i) < 2 ? s + 10 : i === best ? s + 5 : s));
  };
}

/** Each question's cosine with each document (whole) and each document's best section. */
function similarities(
  model: SemanticModel,
  qs: readonly Question[],
  corpus: Awaited<ReturnType<typeof semanticCorpus>>,
): Similarities {
  const whole = new Map<string, Map<string, number>>();
  const section = new Map<string, Map<string, number>>();
  const docVectors = corpus.docs.map((d) => ({
    docId: d.docId,
    whole: model.embed(d.sections.flatMap((s) => s.terms)),
    sections: model.sections === false ? [] : d.sections.map((s) => model.embed(s.terms)),
  }));
  for (const q of qs) {
    const v = model.embed(tokenizeQuery(questionsById.get(q.id)?.question ?? ""));
    whole.set(q.id, new Map(docVectors.map((d) => [d.docId, cosine(v, d.whole)])));
    section.set(
      q.id,
      new Map(docVectors.map((d) => [d.docId, Math.max(0, ...d.sections.map((s) => cosine(v, s)))])),
    );
  }
  return { name: model.name, whole, section };
}

/** Where the gold document ranks by the model alone, over the whole library (hard questions). */
function alone(s: Similarities, qs: readonly Question[], withSections: boolean): string {
  const rankOf = (m: Map<string, Map<string, number>>, q: Question) =>
    bestOf(m.get(q.id) as Map<string, number>, Infinity).indexOf(q.docId) + 1;
  const within = (m: Map<string, Map<string, number>>) =>
    [1, 3, 10, 20].map((n) => qs.filter((q) => rankOf(m, q) <= n).length).join("/");
  return `whole text top1/3/10/20 ${within(s.whole)}${withSections ? `; best section ${within(s.section)}` : ""}`;
}

/** Questions whose gold enters (+) or leaves (−) the top 3, and whose hit@3 is won or lost, vs the library's order. */
async function changes(v: Variant): Promise<void> {
  const lines: string[] = [];
  for (const q of data) {
    const [before, after] = [await outcome(q, { name: "", choice: library }), await outcome(q, v)];
    const mark = (b: boolean, a: boolean, what: string) => (a === b ? "" : `${a ? "+" : "−"}${what} `);
    const change = mark(before.top3, after.top3, "top3") + mark(before.hit, after.hit, "hit");
    if (change) lines.push(`${q.id} (${q.difficulty}) ${change}`);
  }
  console.log(`   changes: ${lines.join("; ") || "none"}`);
}
/** The hard questions whose document the library's top 3 misses: its rank by the library, by the model alone, blended. */
function misses(sims: Similarities, v: Variant): void {
  const rows = data
    .filter((q) => q.difficulty === "hard" && !q.docs.slice(0, 3).some((d) => d.docId === q.docId))
    .map((q) => {
      const libraryRank = q.docs.findIndex((d) => d.docId === q.docId) + 1;
      const alone = bestOf(sims.whole.get(q.id) as Map<string, number>, Infinity).indexOf(q.docId) + 1;
      const scores = v.choice(q, q.docs);
      const blended = libraryRank
        ? 1 + q.docs.filter((_, i) => (scores[i] ?? 0) > (scores[libraryRank - 1] ?? 0)).length
        : 0;
      return `${q.id} ${libraryRank || ">20"}→${blended || ">20"} (alone ${alone})`;
    });
  console.log(
    `   hard, document not in the library's top 3 (${rows.length}): library rank→blended (model alone): ${rows.join(", ")}`,
  );
}

/** Chosen on the dev half before any validation run: the only variant a validation run reads. */
const FIXED = { model: "LSA documents k100 UΣ", weight: 0.35 };

async function main(): Promise<void> {
  const all = (
    JSON.parse(readFileSync(join("scripts", "library-devset", "questions.json"), "utf8")) as {
      questions: LibraryQuestion[];
    }
  ).questions;
  for (const q of all) questionsById.set(q.id, q);
  const collected = await loadCollected(split, cache, recollect);
  data = collected.questions.map((q) => ({ ...q, docs: q.docs.filter((d) => d.libraryRank > 0) }));
  strong = data.filter((q) => (q.docs[0]?.score ?? 0) >= 1.5 * (q.docs[1]?.score ?? 0));
  const corpus = await semanticCorpus(join(".bench-out", "semantic-corpus.json"), recollect);
  storeDir = corpus.storeDir;
  const hard = data.filter((q) => q.difficulty === "hard");
  console.log(
    `${data.length} questions (${hard.length} hard; ${strong.length} where the library's first document leads by ≥ 1.5×); all/hard`,
  );
  await report({ name: "library order (today)", choice: library });

  const vocab2 = vocabulary(corpus, 2);
  const sections = corpus.docs.flatMap((d) => d.sections.map((s) => s.terms));
  const documents = corpus.docs.map((d) => d.sections.flatMap((s) => s.terms));
  const fits: Array<[string, () => SemanticModel]> = [
    ["LSA documents k100 UΣ", () => lsaModel("LSA documents k100 UΣ", documents, vocab2, 100, 1)],
    ["tf-idf (no SVD)", () => tfidfModel("tf-idf (no SVD)", vocab2)],
    ["LSA documents k50 UΣ", () => lsaModel("LSA documents k50 UΣ", documents, vocab2, 50, 1)],
    ["LSA documents k150 UΣ", () => lsaModel("LSA documents k150 UΣ", documents, vocab2, 150, 1)],
    ["LSA documents k100 U", () => lsaModel("LSA documents k100 U", documents, vocab2, 100, 0)],
    ["LSA documents k200 UΣ", () => lsaModel("LSA documents k200 UΣ", documents, vocab2, 200, 1)],
    ["LSA sections k100 UΣ", () => lsaModel("LSA sections k100 UΣ", sections, vocab2, 100, 1)],
    ["LSA sections k200 UΣ", () => lsaModel("LSA sections k200 UΣ", sections, vocab2, 200, 1)],
    [
      "PPMI window 5 k100 (df ≥ 5)",
      () => ppmiModel("PPMI window 5 k100 (df ≥ 5)", corpus, vocabulary(corpus, 5), 5, 100),
    ],
    [
      "PPMI window 2 k100 (df ≥ 5)",
      () => ppmiModel("PPMI window 2 k100 (df ≥ 5)", corpus, vocabulary(corpus, 5), 2, 100),
    ],
  ];
  const only = split === "validation" ? `^${FIXED.model}$` : values.only;
  for (const [name, build] of fits) {
    if (only !== undefined && !new RegExp(only).test(name)) continue;
    const started = performance.now();
    const model = build();
    const fitted = performance.now() - started;
    const sims = similarities(model, data, corpus);
    modelName = model.name;
    console.log(
      `\n${model.name}: fitted in ${(fitted / 1000).toFixed(1)} s; alone, hard (${hard.length}): ${alone(sims, hard, model.sections !== false)}`,
    );
    if (name === FIXED.model) {
      const fixed = {
        name: `FIXED: whole, library + ${FIXED.weight} × cosine`,
        choice: blend(sims.whole, FIXED.weight),
      };
      await report(fixed);
      await changes(fixed);
      if (split !== "validation") misses(sims, fixed);
    }
    if (split === "validation") break;
    const kinds = model.sections === false ? (["whole"] as const) : (["whole", "section"] as const);
    for (const kind of kinds)
      for (const w of [0.1, 0.2, 0.35, 0.5, 1])
        await report({
          name: `${kind}, library + ${w} × cosine, 20 candidates`,
          choice: blend(sims[kind], w),
        });
    if (model.sections !== false) {
      for (const [a, b] of [
        [0.2, 0.2],
        [0.35, 0.2],
        [0.2, 0.35],
      ] as const)
        await report({
          name: `library + ${a} × whole + ${b} × best section`,
          choice: (q, pool) => {
            const [x, y] = [blend(sims.whole, a)(q, pool), blend(sims.section, b)(q, pool)];
            const lib = scaled(pool.map((d) => d.score));
            return x.map((v, i) => v + (y[i] ?? 0) - (lib[i] ?? 0));
          },
        });
      for (const admitted of [false, true])
        await report({
          name: `third place to the model's best ${admitted ? "in the library (admitted)" : "of the 20"}`,
          choice: thirdPlace(sims.whole),
          ...(admitted ? { admit: { sims, count: 1 } } : {}),
        });
      for (const count of [3, 10])
        for (const w of [0.2, 0.5])
          await report({
            name: `whole, + ${w} × cosine, the model's best ${count} admitted`,
            choice: blend(sims.whole, w),
            admit: { sims, count },
          });
    }
    if (extraAdded > 0) writeFileSync(EXTRA, JSON.stringify(extra));
    extraAdded = 0;
  }
  if (extraAdded > 0) writeFileSync(EXTRA, JSON.stringify(extra));
  if (split !== "validation") crossValidated();
}

await main();
