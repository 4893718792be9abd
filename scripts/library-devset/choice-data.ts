/**
 * What the document-choice analyses of the library dev set collect and replay
 * (scripts/analyze-library-choice.ts, scripts/fit-library-ranker.ts): per question the library's
 * best 20 documents (plus the documents of plain BM25's best pages), for each its sections holding
 * each query word, node and token counts, its best page's BM25 score and rank, and for the best 8
 * (and the pages' best 5, and the gold) its offline search as if named; then the retriever's
 * fusion (`fuseLibraryEvidence`) replayed over a choice of 3 documents (hit@3).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Bm25Index, bm25Doc, type TreeDocument, tokenize, tokenizeQuery } from "pageindex-core";
import { libraryEntry, type PageIndexStore } from "pageindex-store";
import { inSplit, type LibraryQuestion, libraryFiles, libraryStore, libraryTrees } from "./library.js";
import { type LibraryPage, libraryPages } from "./pages.js";
import {
  COVERAGE,
  DECAY,
  type GoldSection,
  goldSection,
  K,
  libraryEvidence,
  SATURATION,
  SECTIONS,
} from "./replay.js";

const { LexicalIndexes, PageIndexRetriever } = await import(
  "../../packages/pageindex-retriever/src/index.js"
);

const HERE = dirname(fileURLToPath(import.meta.url));
/** Library candidates collected per question. */
export const CANDIDATES = 20;
/** The best library candidates searched as if named. */
export const SEARCHED = 8;
/** Documents of plain BM25's best pages added as candidates (and searched as if named). */
export const PAGE_CANDIDATES = 5;

export type Section = GoldSection;
export interface Doc {
  docId: string;
  /** Its library score (0 when it is only a page candidate with no matching section). */
  score: number;
  nodes: number;
  /** Tokens of its sections' own text. */
  tokens: number;
  library: Section[];
  /** Per query word: sections holding it in any field / in title, summary or text. */
  counts: number[];
  ownCounts: number[];
  /** Per query word: the share of nodes holding it (the document's lexical index). */
  shares: number[];
  /** Per query word: whether the titles, ancestors or summary line of its library sections show it. */
  shown: boolean[];
  /** Its best page's plain BM25 score over every page of the library, and its rank by it (1 = best; 0: none). */
  pageScore: number;
  pageRank: number;
  /** Its library rank (1 = best; 0: not among the library's candidates). */
  libraryRank: number;
  named?: Section[];
}
export interface Question {
  id: string;
  difficulty: string;
  docId: string;
  /** The Debian package of the gold document (cross-validation folds). */
  pkg: string;
  terms: string[];
  /** Per word: sections (whole library) holding it, documents holding it. */
  sf: number[];
  df: number[];
  /** The library's best candidates in its order, then page candidates it did not rank. */
  docs: Doc[];
  gold: Doc;
}

/** Per document: its node and token counts and, per word, the sections holding it (all fields / own fields). */
interface Postings {
  nodes: number;
  tokens: number;
  all: Map<string, number>;
  own: Map<string, number>;
}
function postingsOf(tree: TreeDocument): Postings {
  const all = new Map<string, number>();
  const own = new Map<string, number>();
  let tokens = 0;
  for (const s of libraryEntry(tree, "v").sections) {
    const text = tokenize(s.text);
    tokens += text.length;
    const ownTerms = new Set([...tokenize(s.title), ...tokenize(s.summary), ...text]);
    const allTerms = new Set([...ownTerms, ...tokenize(s.ancestors.join(" "))]);
    for (const t of allTerms) all.set(t, (all.get(t) ?? 0) + 1);
    for (const t of ownTerms) own.set(t, (own.get(t) ?? 0) + 1);
  }
  return { nodes: tree.nodes.length, tokens, all, own };
}

/** Plain BM25 over every page of the library: each document's best page score and rank by it. */
function pageRanking(
  pages: readonly LibraryPage[],
): (query: string) => Map<string, { score: number; rank: number }> {
  const index = new Bm25Index(pages.map((p) => bm25Doc([{ terms: tokenize(p.text), weight: 1 }])));
  return (query) => {
    const best = new Map<string, number>();
    index.scoreAll(tokenizeQuery(query)).forEach((score, i) => {
      const docId = (pages[i] as LibraryPage).docId;
      if (score > 0 && score > (best.get(docId) ?? 0)) best.set(docId, score);
    });
    const order = [...best.entries()].sort((a, b) => b[1] - a[1]);
    return new Map(order.map(([docId, score], r) => [docId, { score, rank: r + 1 }]));
  };
}

/** What is collected: the questions, and every document's node count (for burstiness). */
export interface Collected {
  nodeCounts: number[];
  questions: Question[];
}

async function collect(
  store: PageIndexStore,
  trees: readonly TreeDocument[],
  pages: readonly LibraryPage[],
  questions: readonly LibraryQuestion[],
): Promise<Collected> {
  const lexical = new LexicalIndexes(store);
  const postings = new Map(trees.map((t) => [t.docId, postingsOf(t)]));
  const byPage = pageRanking(pages);
  const section = (q: LibraryQuestion, docId: string, nodeId: string, score: number) =>
    goldSection(store, q, docId, nodeId, score);
  const out: Question[] = [];
  for (const q of questions) {
    const terms = [...new Set(tokenizeQuery(q.question))];
    const sf = terms.map((t) => [...postings.values()].reduce((s, p) => s + (p.all.get(t) ?? 0), 0));
    const df = terms.map((t) => [...postings.values()].filter((p) => p.all.has(t)).length);
    const pageRanks = byPage(q.question);
    const doc = async (
      docId: string,
      score: number,
      libraryRank: number,
      library: Section[],
      named: boolean,
      visible: readonly string[] = [],
    ): Promise<Doc> => {
      const p = postings.get(docId) as Postings;
      const index = await lexical.get(await store.getSkeleton(docId));
      const d: Doc = {
        docId,
        score,
        nodes: p.nodes,
        tokens: p.tokens,
        library,
        counts: terms.map((t) => p.all.get(t) ?? 0),
        ownCounts: terms.map((t) => p.own.get(t) ?? 0),
        shares: index.nodeShares(terms),
        shown: terms.map((t) => visible.includes(t)),
        pageScore: pageRanks.get(docId)?.score ?? 0,
        pageRank: pageRanks.get(docId)?.rank ?? 0,
        libraryRank,
      };
      if (named) {
        const retriever = new PageIndexRetriever({ reader: store, cache: false, docIds: [docId], k: 10 });
        const found = await retriever.invoke(q.question);
        d.named = await Promise.all(found.map((f) => section(q, docId, f.metadata.nodeId, f.metadata.score)));
      }
      return d;
    };
    const fromHit = async (h: LibraryHit, rank: number, named: boolean) => {
      const library = await Promise.all(h.sections.map((s) => section(q, h.docId, s.nodeId, s.score)));
      const visible = h.sections.flatMap((s) =>
        tokenize([s.title, ...s.ancestors, s.summary ?? ""].join(" ")),
      );
      return doc(h.docId, h.score, rank, library, named, visible);
    };
    const hits = await store.searchLibrary(q.question, { limit: CANDIDATES, sectionsPerDocument: SECTIONS });
    const docs: Doc[] = [];
    for (const [i, h] of hits.entries())
      docs.push(
        await fromHit(
          h,
          i + 1,
          i < SEARCHED || h.docId === q.docId || (pageRanks.get(h.docId)?.rank ?? 99) <= PAGE_CANDIDATES,
        ),
      );
    // The documents of plain BM25's best pages the library did not rank among its candidates.
    const pageTop = [...pageRanks.entries()]
      .filter(([, r]) => r.rank <= PAGE_CANDIDATES)
      .map(([docId]) => docId);
    for (const docId of pageTop) {
      if (docs.some((d) => d.docId === docId)) continue;
      const [h] = await store.searchLibrary(q.question, {
        limit: 1,
        sectionsPerDocument: SECTIONS,
        docIds: [docId],
      });
      docs.push(h ? await fromHit(h, 0, true) : await doc(docId, 0, 0, [], true));
    }
    const gold = docs.find((d) => d.docId === q.docId) ?? (await doc(q.docId, 0, 0, [], true));
    const pkg = q.file.split("/")[0] as string;
    out.push({ id: q.id, difficulty: q.difficulty, docId: q.docId, pkg, terms, sf, df, docs, gold });
    process.stdout.write(".");
  }
  process.stdout.write("\n");
  return { nodeCounts: trees.map((t) => t.nodes.length), questions: out };
}
type LibraryHit = Awaited<ReturnType<PageIndexStore["searchLibrary"]>>[number];

/**
 * The questions of `split` (all questions whose id is in `ids`, when given), collected once and
 * cached in `cache` (`recollect` after changing the packages or the questions).
 */
export async function loadCollected(
  split: string,
  cache: string,
  recollect: boolean,
  ids?: ReadonlySet<string>,
): Promise<Collected> {
  if (!recollect && existsSync(cache)) return JSON.parse(readFileSync(cache, "utf8")) as Collected;
  const file = join(HERE, "questions.json");
  const all = (JSON.parse(readFileSync(file, "utf8")) as { questions: LibraryQuestion[] }).questions;
  const questions = all.filter((q) => (ids ? ids.has(q.id) : inSplit(q, split)));
  const files = libraryFiles();
  const trees = await libraryTrees(files, false);
  const { store } = await libraryStore(trees, false);
  const stored = new Set(trees.map((t) => t.docId));
  const pages: LibraryPage[] = [];
  for (const f of files) if (stored.has(f.docId)) pages.push(...((await libraryPages(f)) ?? []));
  const collected = await collect(store, trees, pages, questions);
  mkdirSync(dirname(cache), { recursive: true });
  writeFileSync(cache, JSON.stringify(collected));
  return collected;
}

/** A document choice: each candidate's score (higher first; the library's order breaks ties). */
export type Choice = (q: Question) => number[];

export function ranked(q: Question, choice: Choice): Doc[] {
  const scores = choice(q);
  return q.docs
    .map((d, i) => ({ d, s: scores[i] ?? 0, i }))
    .sort((a, b) => b.s - a.s || a.i - b.i)
    .map((x) => x.d);
}

/** The retriever's coverage (`documentCoverage`): from the searched documents' own lexical indexes. */
export const lexicalCoverage = (d: Pick<Doc, "shares">): number =>
  d.shares.reduce((sum, s) => sum + s / (s + SATURATION), 0);

/** Each value over the largest (1 where all are 0 or less), as a feature or a blend reads scores. */
export const scaled = (xs: readonly number[]): number[] => {
  const top = Math.max(0, ...xs) || 1;
  return xs.map((x) => x / top);
};

/** How a query word is weighed in a document's coverage. */
export type WordWeight = (q: Question, i: number) => number;
/** Sections per document holding the word: a subject word fills many sections of few documents. */
export const concentration: WordWeight = (q, i) => (q.sf[i] ?? 0) / Math.max(1, q.df[i] ?? 0);
/**
 * Burstiness over a library of documents with these node counts: log(expected / observed
 * documents holding the word), the expectation if its sections were spread at random over the
 * library's sections (Church and Gale's residual IDF idea).
 */
export function burstinessOver(nodeCounts: readonly number[]): WordWeight {
  const sections = nodeCounts.reduce((s, n) => s + n, 0);
  return (q, i) => {
    const p = (q.sf[i] ?? 0) / Math.max(1, sections);
    const expected = nodeCounts.reduce((s, n) => s + 1 - (1 - p) ** n, 0);
    const df = q.df[i] ?? 0;
    return df > 0 ? Math.max(0, Math.log(expected / df)) : 0;
  };
}

/** Σ over words of weight × share / (share + saturation), share = sections holding it / nodes. */
export function weighedCoverage(
  q: Question,
  d: Doc,
  weight: WordWeight,
  saturation: number = SATURATION,
  ownFields = false,
): number {
  return q.terms.reduce((sum, _t, i) => {
    const share = ((ownFields ? d.ownCounts : d.counts)[i] ?? 0) / Math.max(1, d.nodes);
    return share > 0 ? sum + (weight(q, i) * share) / (share + saturation) : sum;
  }, 0);
}

/** How the fused results' 3 places are filled. */
export interface FusionOptions {
  /** Document scores the fusion reads instead of the library's (scaled to the best searched). */
  documentScore?: Map<string, number>;
  /** Documents from this rank on may take the third place at best. */
  extraFrom?: number;
  /** The first searched document's best results take this many of the 3 places (the rest as fused). */
  firstKeeps?: number;
}

/**
 * Hit@3 of the retriever's fusion (`fuseLibraryEvidence`) over `searched`: each document's best
 * K first, then document score (the library's, or `documentScore`) + coverage + section evidence.
 */
export function fusedHit(q: Question, searched: readonly Doc[], options: FusionOptions = {}): boolean {
  const own = options.documentScore ?? new Map(q.docs.map((d) => [d.docId, d.score]));
  // The retriever scales to the library's best document; a choice's scores, to the best searched.
  const scaleOver = options.documentScore ? searched : q.docs;
  const bestDocument = Math.max(0, ...scaleOver.map((d) => own.get(d.docId) ?? 0)) || 1;
  const bestSection = Math.max(0, ...q.docs.flatMap((d) => d.library.map((s) => s.score))) || 1;
  const bestCoverage = Math.max(0, ...searched.map(lexicalCoverage)) || 1;
  const rows = searched.flatMap((d, rank) => {
    const evidence = libraryEvidence(d.library, DECAY);
    return (d.named ?? []).map((s, i) => ({
      hit: s.hit,
      rank,
      score:
        (i < K ? 10 : 0) +
        (own.get(d.docId) ?? 0) / bestDocument +
        COVERAGE * (lexicalCoverage(d) / bestCoverage) +
        (evidence.get(s.nodeId) ?? 0) / bestSection -
        rank * 1e-9,
    }));
  });
  rows.sort((a, b) => b.score - a.score);
  const top: typeof rows = [];
  const keep = options.firstKeeps ?? 0;
  for (const row of rows.filter((r) => r.rank === 0).slice(0, keep)) top.push(row);
  for (const row of rows) {
    if (top.length === 3) break;
    if (top.includes(row)) continue;
    if (options.extraFrom !== undefined && row.rank >= options.extraFrom && top.length < 2) continue;
    top.push(row);
  }
  return top.some((r) => r.hit);
}
