/**
 * Where the offline library-wide search loses to document-named (issue 24), on the library dev
 * set (scripts/eval-library.ts's store and questions). Per question it collects once (cached in
 * .bench-out/analyze-library-offline-<split>.json; `--collect` again after changing the packages):
 * the library's best 4 documents (score, 12 best sections), each one's offline search as if named
 * (k = 10) and the library's sections scoped to it (every term scored), the same for the gold
 * document when it is not among them, and the real library-wide retriever's hit@3. Then, in
 * memory (milliseconds a variant):
 * 1. the retriever's fusion (`fuseLibraryEvidence`, with each document's coverage of the query's
 *    words) replayed on the collected searches, against
 *    the real run (they must agree, or the replay measures nothing);
 * 2. the hard questions by the gold document's library rank × whether document-named hits, and
 *    the bound that follows: the fusion can only win questions whose gold document is searched;
 * 3. a grid of fusions (documents searched, own-rank block k and its weight, document, section and
 *    own-search weights, ancestor decay): the best of them, to tell a tuning gap from a ceiling;
 * 4. each document's own order: its named search, its library sections scoped to it, both
 *    (reciprocal rank), for document-named and library-wide alike.
 *
 * Never tune on `--split validation` (see eval-library.ts).
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/analyze-library-offline.ts
 *   [--split dev|validation|all] [--collect]
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { tokenizeQuery } from "pageindex-core";
import type { PageIndexStore } from "pageindex-store";
import { lexicalCoverage } from "./library-devset/choice-data.js";
import { holdsGold } from "./library-devset/gold.js";
import {
  inSplit,
  type LibraryQuestion,
  libraryFiles,
  libraryStore,
  libraryTrees,
} from "./library-devset/library.js";
import {
  analysisArgs,
  COVERAGE,
  DECAY,
  type GoldSection,
  goldSection,
  K,
  libraryEvidence,
  SECTIONS,
} from "./library-devset/replay.js";

// The retriever under test: this checkout's sources (the built package may be older).
const { LexicalIndexes, PageIndexRetriever } = await import("../packages/pageindex-retriever/src/index.js");

const HERE = dirname(fileURLToPath(import.meta.url));
const { split, collect: recollect, cache: CACHE } = analysisArgs("analyze-library-offline");
/** Documents collected per question (the retriever searches `maxDocuments` = 3 of them). */
const DOCUMENTS = 4;

type Section = GoldSection;
interface Doc {
  docId: string;
  /** The library's document score (0 for a gold document it did not rank). */
  score: number;
  /** Its best sections in the library-wide search. */
  library: Section[];
  /** Its offline search as if named alone, best first. */
  named: Section[];
  /** The library's sections of this document alone (every query term scored), best first. */
  scoped: Section[];
  /** Per distinct query word, the share of the document's nodes holding it (its search's index). */
  shares: number[];
}
interface Question {
  id: string;
  difficulty: string;
  docId: string;
  docs: Doc[];
  gold: Doc;
  /** Hit@3 of the real library-wide retriever. */
  libraryWideHit: boolean;
}

async function collect(store: PageIndexStore, questions: readonly LibraryQuestion[]): Promise<Question[]> {
  const lexical = new LexicalIndexes(store);
  const section = (q: LibraryQuestion, docId: string, nodeId: string, score: number) =>
    goldSection(store, q, docId, nodeId, score);
  const doc = async (q: LibraryQuestion, docId: string, score: number, library: Section[]): Promise<Doc> => {
    const retriever = new PageIndexRetriever({ reader: store, cache: false, docIds: [docId], k: 10 });
    const found = await retriever.invoke(q.question);
    const named = await Promise.all(found.map((d) => section(q, docId, d.metadata.nodeId, d.metadata.score)));
    const [own] = await store.searchLibrary(q.question, {
      limit: 1,
      sectionsPerDocument: 20,
      docIds: [docId],
    });
    const scoped = await Promise.all((own?.sections ?? []).map((s) => section(q, docId, s.nodeId, s.score)));
    const index = await lexical.get(await store.getSkeleton(docId));
    const shares = index.nodeShares([...new Set(tokenizeQuery(q.question))]);
    return { docId, score, library, named, scoped, shares };
  };
  const out: Question[] = [];
  for (const q of questions) {
    const hits = await store.searchLibrary(q.question, { limit: 20, sectionsPerDocument: SECTIONS });
    const docs: Doc[] = [];
    for (const h of hits.slice(0, DOCUMENTS)) {
      const library = await Promise.all(h.sections.map((s) => section(q, h.docId, s.nodeId, s.score)));
      docs.push(await doc(q, h.docId, h.score, library));
    }
    const gold = docs.find((d) => d.docId === q.docId) ?? (await doc(q, q.docId, 0, []));
    const real = await new PageIndexRetriever({ reader: store, cache: false }).invoke(q.question);
    const libraryWideHit = real.slice(0, 3).some((d) => holdsGold(d, q));
    out.push({ id: q.id, difficulty: q.difficulty, docId: q.docId, docs, gold, libraryWideHit });
    process.stdout.write(".");
  }
  process.stdout.write("\n");
  return out;
}

/** A document's own order: `[nodeId, hit, score]` rows, best first. */
type Order = (d: Doc) => Array<{ nodeId: string; hit: boolean; score: number }>;
const byNamed: Order = (d) => d.named.map((s) => ({ nodeId: s.nodeId, hit: s.hit, score: s.score }));
const byScoped: Order = (d) => d.scoped.map((s) => ({ nodeId: s.nodeId, hit: s.hit, score: s.score }));
/** Reciprocal-rank fusion of the named search and the scoped library sections. */
function byBoth(offset: number): Order {
  return (d) => {
    const rows = new Map<string, { nodeId: string; hit: boolean; score: number }>();
    for (const list of [d.named, d.scoped])
      list.forEach((s, i) => {
        const row = rows.get(s.nodeId) ?? { nodeId: s.nodeId, hit: false, score: 0 };
        row.hit ||= s.hit;
        row.score += 1 / (offset + i);
        rows.set(s.nodeId, row);
      });
    return [...rows.values()].sort((a, b) => b.score - a.score);
  };
}

interface Fusion {
  docs: number;
  /** A document's best `k` by its own order get `block` more. */
  k: number;
  block: number;
  document: number;
  section: number;
  own: number;
  decay: number;
  /** Weight of a document's coverage of the query's words, added to its document score. */
  coverage: number;
}
/** `fuseLibraryEvidence`: (document + section)/2, the best k first — up to scale, this. */
const RETRIEVER: Fusion = {
  docs: 3,
  k: K,
  block: 10,
  document: 1,
  section: 1,
  own: 0,
  decay: DECAY,
  coverage: COVERAGE,
};

/** Hit@3 of the library-wide search under a fusion and a per-document order. */
function fusedHit(q: Question, f: Fusion, order: Order = byNamed): boolean {
  const bestDocument = Math.max(...q.docs.map((d) => d.score)) || 1;
  const bestSection = Math.max(0, ...q.docs.flatMap((d) => d.library.map((s) => s.score))) || 1;
  const searched = q.docs.slice(0, f.docs);
  const bestCoverage = Math.max(0, ...searched.map(lexicalCoverage)) || 1;
  const rows = searched.flatMap((d, rank) => {
    const evidence = libraryEvidence(d.library, f.decay);
    return order(d).map((s, i) => ({
      hit: s.hit,
      // The document's rank breaks ties, as the retriever's stable sort does.
      score:
        (i < f.k ? f.block : 0) +
        f.document * (d.score / bestDocument + f.coverage * (lexicalCoverage(d) / bestCoverage)) +
        f.section * ((evidence.get(s.nodeId) ?? 0) / bestSection) +
        f.own * s.score -
        rank * 1e-9,
    }));
  });
  return rows
    .sort((a, b) => b.score - a.score)
    .slice(0, 3)
    .some((r) => r.hit);
}

const namedHit = (q: Question, order: Order = byNamed) =>
  order(q.gold)
    .slice(0, 3)
    .some((s) => s.hit);

function count(qs: readonly Question[], test: (q: Question) => boolean): string {
  const hard = qs.filter((q) => q.difficulty === "hard");
  return `${qs.filter(test).length}/${qs.length} (hard ${hard.filter(test).length}/${hard.length})`;
}

async function main(): Promise<void> {
  const file = join(HERE, "library-devset", "questions.json");
  const all = (JSON.parse(readFileSync(file, "utf8")) as { questions: LibraryQuestion[] }).questions;
  const questions = all.filter((q) => inSplit(q, split));
  let data: Question[];
  if (recollect || !existsSync(CACHE)) {
    const { store } = await libraryStore(await libraryTrees(libraryFiles(), false), false);
    data = await collect(store, questions);
    mkdirSync(dirname(CACHE), { recursive: true });
    writeFileSync(CACHE, JSON.stringify(data));
  } else data = JSON.parse(readFileSync(CACHE, "utf8")) as Question[];

  console.log("1. hit@3, all (hard)");
  console.log(`   real library-wide retriever        ${count(data, (q) => q.libraryWideHit)}`);
  console.log(`   its fusion replayed                ${count(data, (q) => fusedHit(q, RETRIEVER))}`);
  const disagree = data.filter((q) => q.libraryWideHit !== fusedHit(q, RETRIEVER)).map((q) => q.id);
  if (disagree.length > 0) console.log(`   (replay disagrees on ${disagree.join(" ")})`);
  console.log(`   document named                     ${count(data, (q) => namedHit(q))}`);

  console.log(
    "\n2. hard questions by the gold document's library rank × document-named hit (+ = library-wide hit)",
  );
  const groups = new Map<string, string[]>();
  const hard = data.filter((q) => q.difficulty === "hard");
  for (const q of hard) {
    const rank = q.docs.findIndex((d) => d.docId === q.docId);
    const key = `rank ${rank < 0 ? `>${DOCUMENTS}` : rank + 1}, named ${namedHit(q) ? "hit " : "miss"}`;
    groups.set(key, [...(groups.get(key) ?? []), `${q.id}${q.libraryWideHit ? "+" : ""}`]);
  }
  for (const [key, ids] of [...groups].sort())
    console.log(`   ${key}: ${String(ids.length).padStart(2)}  ${ids.join(" ")}`);
  const searched = hard.filter((q) => q.docs.slice(0, RETRIEVER.docs).some((d) => d.docId === q.docId));
  const reachable = searched.filter((q) => namedHit(q) || q.libraryWideHit).length;
  console.log(
    `   bound: gold document searched and (named or library-wide) hits: ${reachable}/${hard.length}` +
      ` (named ${hard.filter((q) => namedHit(q)).length}/${hard.length})`,
  );

  console.log("\n3. fusion grid (named order): best hard hit@3");
  const grid: Array<{ f: Fusion; hard: number; all: number }> = [];
  for (const docs of [2, 3, 4])
    for (const k of [1, 2, 3, 5, 10])
      for (const block of [0, 0.1, 0.25, 0.5, 10])
        for (const document of [0.5, 1, 2])
          for (const own of [0, 0.25, 0.5])
            for (const decay of [0, 0.5, 0.8, 1]) {
              const f = { docs, k, block, document, section: 1, own, decay, coverage: COVERAGE };
              grid.push({
                f,
                hard: hard.filter((q) => fusedHit(q, f)).length,
                all: data.filter((q) => fusedHit(q, f)).length,
              });
            }
  grid.sort((a, b) => b.hard - a.hard || b.all - a.all);
  const top = grid[0];
  if (top) {
    const atTop = grid.filter((g) => g.hard === top.hard).length;
    console.log(
      `   ${grid.length} fusions; best ${top.hard}/${hard.length} hard (${atTop} of them), e.g. ${JSON.stringify(top.f)}`,
    );
  }

  console.log("\n4. each document's own order: document named | library-wide (the retriever's fusion)");
  const orders: Array<[string, Order]> = [
    ["named search (now)", byNamed],
    ["library sections scoped to it", byScoped],
    ["both, reciprocal rank (1/(1+i))", byBoth(1)],
    ["both, reciprocal rank (1/(10+i))", byBoth(10)],
  ];
  for (const [name, order] of orders)
    console.log(
      `   ${name.padEnd(34)} ${count(data, (q) => namedHit(q, order))} | ${count(data, (q) => fusedHit(q, RETRIEVER, order))}`,
    );
}

await main();
