/**
 * What every library-index engine shares: how a query becomes weighted terms, how a section's
 * fields become indexed terms (the project's tokenizer, so engines and the lexical judge agree
 * on what a word is), and how section scores become a document ranking.
 */

import { asksForBackMatter, type BackMatterKind, tokenize, tokenizeQuery } from "pageindex-core";
import { cardTerms, type DocumentCard } from "../catalog/card.js";
import type { DocumentMatch } from "../catalog/index.js";
import type { LibraryDocumentHit, LibrarySection, SectionHit } from "./types.js";

/** A query term and its weight (how often the query says it, saturated as BM25 does). */
export interface QueryTerm {
  term: string;
  weight: number;
}

/** A query as the library index reads it. */
export interface LibraryQuery {
  /** Distinct terms in query order; stop words and request fillers dropped. */
  terms: QueryTerm[];
  /** Whether the query asks for back matter (an index, contents…): then it is not discounted. */
  wantsBackMatter: boolean;
}

/** At most this many distinct terms are searched (a pasted paragraph is not a query). */
export const MAX_QUERY_TERMS = 32;

const BACK_MATTER_KINDS: readonly BackMatterKind[] = [
  "contents",
  "index",
  "figures",
  "tables",
  "list",
  "bibliography",
  "glossary",
];

/**
 * The weighted terms of a query (the tokenizer's query terms: normalised, stemmed, stop words
 * and request fillers dropped). A repeated term weighs more, with BM25's query-term saturation.
 * Only letters and digits survive tokenizing, so no term can carry an engine's query syntax.
 */
export function analyzeQuery(query: string): LibraryQuery {
  const counts = new Map<string, number>();
  for (const term of tokenizeQuery(query)) counts.set(term, (counts.get(term) ?? 0) + 1);
  const terms = [...counts]
    .slice(0, MAX_QUERY_TERMS)
    .map(([term, count]) => ({ term, weight: (2.5 * count) / (1.5 + count) }));
  return { terms, wantsBackMatter: BACK_MATTER_KINDS.some((kind) => asksForBackMatter(query, kind)) };
}

/** BM25's k1 (how soon a term's weighted frequency saturates), FTS5's bm25 default: both engines use it. */
export const BM25_K1 = 1.2;
/** BM25's b (how much a section's length discounts its frequencies), FTS5's bm25 default: both engines use it. */
export const BM25_B = 0.75;

/**
 * Per-field weights of a section (BM25F-style): a title names what a section is about; its
 * ancestors' titles give the context a question often names ("printer › paper jams"); a summary
 * condenses the text. Tuned on a small generated fixture only (test/library.behaviour.ts);
 * real tuning belongs to a dev set.
 */
export const SECTION_FIELDS = [
  { name: "title", weight: 4 },
  { name: "ancestors", weight: 1.5 },
  { name: "summary", weight: 2 },
  { name: "text", weight: 1 },
] as const;

/** The fields of a section as space-separated terms, in {@link SECTION_FIELDS} order. */
export function sectionFieldTerms(section: LibrarySection): [string, string, string, string] {
  return [
    tokenize(section.title).join(" "),
    tokenize(section.ancestors.join(" ")).join(" "),
    tokenize(section.summary).join(" "),
    tokenize(section.text).join(" "),
  ];
}

/** Per-field weights of a card (name, about, outline, section titles), as the catalog weighs them. */
export const CARD_INDEX_FIELDS = [
  { name: "name", weight: 3 },
  { name: "about", weight: 1.5 },
  { name: "outline", weight: 1 },
  { name: "sections", weight: 1.2 },
] as const;

/** The fields of a card as space-separated terms, in {@link CARD_INDEX_FIELDS} order. */
export function cardFieldTerms(card: DocumentCard): [string, string, string, string] {
  const [name = [], about = [], outline = [], sections = []] = cardTerms(card, []);
  return [name.join(" "), about.join(" "), outline.join(" "), sections.join(" ")];
}

/** How section scores become a document's score. */
export const AGGREGATION = {
  /** Best sections of a document that count towards its score. */
  sectionsCounted: 5,
  /** Factor on a back-matter section's score when the query does not ask for back matter. */
  backMatterFactor: 0.2,
  /**
   * Weight of the card's score (name, description, outline) against the sections', both scaled
   * to the best of the search: a card that matches lifts a document, never outranks evidence
   * found inside another one on its own.
   */
  cardWeight: 0.3,
  /**
   * Length prior on a document's section score: divided by 1 + sizePrior · ln(1 + its node
   * count). A long manual has many sections, so its best five are a maximum over many chances,
   * and it outranked the short document that answers; this evens the odds. Measured on the
   * Debian library dev set (36 questions, no document named; scripts/eval-library.ts): the right
   * document first 22 → 27, in the top 3 32 → 34 (0.1: 27 and 33; 0.4: 26 and 35).
   */
  sizePrior: 0.2,
  /** Section rows an engine scores per query at most (best first), before aggregating. */
  sectionRows: 400,
  /**
   * Sections a query scores at most, as the engines count them (their `candidateRows`): the rows
   * holding at least m of the query's terms (see {@link atLeastOf}), m = 2, 3, … until they fit;
   * when no row holds two, the rows holding its rarest terms, those that together are found in at
   * most this many sections (always one term). Each is scored on every term. FTS5 scores every row its query
   * matches (about 5 µs a row), so a query of common words would cost more the larger the
   * library. Measured on the Debian library dev set (scripts/eval-library.ts --split dev): 3,000
   * ranks as 20,000 did (66 questions: offline hit@3 42, right document in the top 3 59; oracle
   * 63 at 2,545 tokens); 1,000 lost two offline and one oracle question of the first 36.
   */
  candidateRows: 3_000,
  /**
   * When some sections hold several of a query's terms (see {@link atLeastOf}), the sections
   * holding one term only are candidates too when the rarest terms' rows fit in this many (a
   * rare word alone can still outweigh two common ones); else they are left out, so a query's
   * cost follows the rows holding several of its terms, not the library's size. Measured on the
   * Debian library dev set (66 questions; offline hit@3, right document in the top 3, oracle):
   * 300: 41, 58, 64; 500: 42, 58, 64; 1,000: 42, 60, 64; 3,000: 42, 59, 64 (without the
   * co-occurrence candidates, 3,000 rows of the rarest terms: 42, 59, 64).
   */
  singleTermRows: 1_000,
} as const;

/** A query term and how many rows (sections, or cards) hold it. */
export interface CountedTerm extends QueryTerm {
  rows: number;
}

/**
 * The terms that choose candidates ({@link AGGREGATION}`.candidateRows`): the rarest first,
 * while together they are found in at most `budget` rows, and at least `least` (default one).
 * Query order kept.
 */
export function candidateTerms<T extends CountedTerm>(terms: readonly T[], budget: number, least = 1): T[] {
  const rarest = [...terms].sort((a, b) => a.rows - b.rows);
  const kept = new Set<T>();
  let rows = 0;
  for (const term of rarest) {
    if (kept.size >= least && rows + term.rows > budget) break;
    kept.add(term);
    rows += term.rows;
  }
  return terms.filter((t) => kept.has(t));
}

/**
 * Conjunctions at most in a co-occurrence query (`atLeastOf(m, k terms)` holds C(k, m) of them):
 * bounds the query's size, so its cost stays that of merging a few posting lists.
 */
export const MAX_CONJUNCTIONS = 256;

function combinations(k: number, m: number): number {
  let out = 1;
  for (let i = 0; i < m; i += 1) out = (out * (k - i)) / (i + 1);
  return out;
}

/**
 * The terms whose co-occurrence (at least `m` of them in a row) chooses candidates: the query's
 * terms found in some row, the rarest of them as many as keep C(k, m) ≤ {@link MAX_CONJUNCTIONS},
 * in query order; none when fewer than `m` are found.
 */
export function cooccurringTerms<T extends CountedTerm>(terms: readonly T[], m: number): T[] {
  let k = Math.min(terms.length, m);
  while (k < terms.length && combinations(k + 1, m) <= MAX_CONJUNCTIONS) k += 1;
  if (m < 2 || k < m) return [];
  const rarest = new Set([...terms].sort((a, b) => a.rows - b.rows).slice(0, k));
  return terms.filter((t) => rarest.has(t));
}

/** How an engine writes a boolean query over terms (see {@link atLeastOf}). */
export interface BooleanSyntax {
  term(term: string): string;
  and(left: string, right: string): string;
  or(left: string, right: string): string;
  /** Rows matching `left` and not holding `term`. */
  without(left: string, term: string): string;
}

/**
 * A boolean query matching the rows that hold at least `m` of `terms` (1 ≤ m ≤ terms.length):
 * `t₁ AND atLeast(m−1, rest) OR atLeast(m, rest) NOT t₁`. The two branches never match the same
 * row, and each term appears once in the branch a row matches, so an engine that scores the
 * query's matching occurrences (FTS5's bm25) scores each term of a row once. A GIN or FTS5 index
 * answers it by merging posting lists, before a single row is read or scored: what a query
 * costs is then the rows holding several of its terms, not the rows holding any.
 */
export function atLeastOf(m: number, terms: readonly string[], syntax: BooleanSyntax): string {
  const [first, ...rest] = terms;
  if (first === undefined || m < 1 || m > terms.length)
    throw new RangeError(`atLeastOf(${m}, ${terms.length} terms)`);
  if (m === 1) return terms.map((t) => syntax.term(t)).reduce((a, b) => syntax.or(a, b));
  const withFirst = syntax.and(syntax.term(first), atLeastOf(m - 1, rest, syntax));
  return m > rest.length
    ? withFirst
    : syntax.or(withFirst, syntax.without(atLeastOf(m, rest, syntax), first));
}

/** A section's score once back matter is discounted (unless the query asks for it). */
export function discounted(score: number, backMatter: boolean, query: LibraryQuery): number {
  return backMatter && !query.wantsBackMatter ? score * AGGREGATION.backMatterFactor : score;
}

/**
 * What aggregation reads of a section hit: an engine may rank light rows first and load the
 * full {@link SectionHit}s of the winners only. `nodeId` breaks ties (document order).
 */
export interface ScoredSection {
  docId: string;
  nodeId: string;
  score: number;
}

/** A document's sections, best first, and its aggregated section score. */
export interface DocumentSections<H extends ScoredSection = SectionHit> {
  docId: string;
  /** Σ over its best sections of score / (rank + 2)² (see {@link aggregateSections}). */
  score: number;
  sections: H[];
}

/**
 * Groups section hits (scores already discounted) by document, scoring each document by its
 * best N sections (N ≤ {@link AGGREGATION}`.sectionsCounted`, so a long document is not ranked
 * by its length): Σᵢ sᵢ / (i + 2)², the best section first (relative weights 1, 0.44, 0.25,
 * 0.16, 0.11). Measured on the generated 100,000-document library (bench-library-index
 * questions, right document in the top 3): 50/50 with this decay, 36/50 with 1/(i + 2), 31/50
 * with 1/√(i + 2) — there a document whose title word fills five sections outranked the one
 * section holding all the question's words. PageIndex's DocScore (Σ sᵢ / √(N + 1)) also lowers
 * a document when a weak match joins a strong one; this form only ever adds. Best first.
 */
export function aggregateSections<H extends ScoredSection>(hits: readonly H[]): DocumentSections<H>[] {
  const byDoc = new Map<string, H[]>();
  for (const hit of hits) {
    const list = byDoc.get(hit.docId);
    if (list) list.push(hit);
    else byDoc.set(hit.docId, [hit]);
  }
  const out: DocumentSections<H>[] = [];
  for (const [docId, list] of byDoc) {
    list.sort(bySectionScore);
    let score = 0;
    const counted = Math.min(list.length, AGGREGATION.sectionsCounted);
    for (let i = 0; i < counted; i += 1) score += (list[i] as H).score / (i + 2) ** 2;
    out.push({ docId, score, sections: list });
  }
  return out.sort((a, b) => b.score - a.score || (a.docId < b.docId ? -1 : 1));
}

/** Best section first; document order (node id) among equals, so rankings are stable. */
export function bySectionScore(a: ScoredSection, b: ScoredSection): number {
  return b.score - a.score || (a.docId < b.docId ? -1 : a.docId > b.docId ? 1 : a.nodeId < b.nodeId ? -1 : 1);
}

/** A ranked document before its card is attached. */
export interface RankedDocument<H extends ScoredSection = SectionHit> {
  docId: string;
  score: number;
  sections: H[];
}

/**
 * The final document ranking: section scores (see {@link aggregateSections}) and card scores,
 * each scaled to the best of the search, blended ({@link AGGREGATION}`.cardWeight` for the
 * card), so a document found by its card alone never outranks the best evidence found inside
 * another. A document's section score is first divided by its length prior (`sizes`: node counts,
 * see {@link sizeFactor}). Best first, at most `limit`; the engine attaches the cards.
 */
export function rankDocuments<H extends ScoredSection>(
  documents: readonly DocumentSections<H>[],
  cardScores: ReadonlyMap<string, number>,
  options: { limit: number; sectionsPerDocument: number; sizes?: ReadonlyMap<string, number> },
): RankedDocument<H>[] {
  const { ranking } = blendedScores(documents, cardScores, options.sizes);
  return firstInOrder(ranking, options.limit, byBlendedScore).map(({ docId, score, at }) => ({
    docId,
    score,
    sections: (documents[at]?.sections ?? []).slice(0, options.sectionsPerDocument),
  }));
}

/** A document's final score; `at` is its index in the section documents (-1: found by its card alone). */
interface BlendedScore {
  docId: string;
  score: number;
  at: number;
}

/**
 * Every document's final score (see {@link rankDocuments}), unordered (see `byBlendedScore`), and
 * the document with the best section score after the length prior (the first in `documents`
 * order among equals).
 * One pass with no object per document beyond its entry: the ranking is redone each time node
 * counts arrive (see {@link unsizedContenders}), over a few hundred documents at scale.
 */
function blendedScores<H extends ScoredSection>(
  documents: readonly DocumentSections<H>[],
  cardScores: ReadonlyMap<string, number>,
  sizes: ReadonlyMap<string, number> | undefined,
): { ranking: BlendedScore[]; bestSized: { docId: string; score: number } | undefined } {
  const sized = new Float64Array(documents.length);
  let bestSections = 0;
  let bestSized: { docId: string; score: number } | undefined;
  documents.forEach((d, i) => {
    const score = d.score / sizeFactor(sizes?.get(d.docId));
    sized[i] = score;
    bestSections = Math.max(bestSections, score);
    if (!bestSized || score > bestSized.score) bestSized = { docId: d.docId, score };
  });
  let bestCard = 0;
  for (const score of cardScores.values()) bestCard = Math.max(bestCard, score);
  const fromCard = (docId: string) => (bestCard > 0 ? (cardScores.get(docId) ?? 0) / bestCard : 0);
  const ranking: BlendedScore[] = [];
  const withSections = new Set<string>();
  documents.forEach((d, i) => {
    withSections.add(d.docId);
    const fromSections = bestSections > 0 ? (sized[i] as number) / bestSections : 0;
    ranking.push({ docId: d.docId, score: fromSections + AGGREGATION.cardWeight * fromCard(d.docId), at: i });
  });
  for (const docId of cardScores.keys()) {
    if (!withSections.has(docId))
      ranking.push({ docId, score: 0 + AGGREGATION.cardWeight * fromCard(docId), at: -1 });
  }
  return { ranking, bestSized };
}

/** Best final score first; document id among equals (ids are distinct: a total order). */
function byBlendedScore(a: BlendedScore, b: BlendedScore): number {
  return b.score - a.score || (a.docId < b.docId ? -1 : 1);
}

/**
 * The first `k` of `items` in `order`, a total order: what sorting them all and keeping `k`
 * gives, without ordering the rest (a query at 100,000 documents ranks ~400 documents and keeps
 * 20). Each item is compared with the last kept first; the few that beat it are placed by
 * binary search.
 */
export function firstInOrder<T>(items: readonly T[], k: number, order: (a: T, b: T) => number): T[] {
  const first: T[] = [];
  if (k <= 0) return first;
  for (const item of items) {
    if (first.length === k) {
      if (order(item, first[k - 1] as T) >= 0) continue;
      first.pop();
    }
    let low = 0;
    let high = first.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (order(item, first[middle] as T) < 0) high = middle;
      else low = middle + 1;
    }
    first.splice(low, 0, item);
  }
  return first;
}

/**
 * The documents whose node counts {@link rankDocuments} still needs, given the counts known
 * (`sizes`): the length prior only ever lowers a score, so a document whose unlowered score
 * ranks below `limit` documents already exact can never rise into them. Needed: the documents
 * with sections and no known count among the first 2 × `limit` of the ranking as it stands, and the
 * one with the best section score after the prior (every score is scaled to it). Asking until
 * none is left ranks exactly as if every count were known, reading a few documents' counts
 * instead of one per document found (up to {@link AGGREGATION}`.sectionRows`).
 */
export function unsizedContenders<H extends ScoredSection>(
  documents: readonly DocumentSections<H>[],
  cardScores: ReadonlyMap<string, number>,
  limit: number,
  sizes: ReadonlyMap<string, number>,
): string[] {
  const needed = new Set<string>();
  const unsized = (hit: BlendedScore) => hit.at >= 0 && !sizes.has(hit.docId);
  // Twice `limit`: fewer rounds of asking, for a few more counts read.
  const window = 2 * limit;
  const { ranking, bestSized } = blendedScores(documents, cardScores, sizes);
  ranking.sort(byBlendedScore);
  for (const hit of ranking.slice(0, window)) if (unsized(hit)) needed.add(hit.docId);
  // Each round is a statement (a round trip on PostgreSQL) and a ranking: asking the window's
  // documents alone took ~15 rounds a query at 10,000 documents. Once `window` scores are exact,
  // the unsized documents scoring above the last of them are the ones that may still enter the
  // window: the best of them are asked now too, as many as the counts known (rounds fall
  // geometrically, the counts read stay within about twice what the window needs).
  let exact = 0;
  let floor: number | undefined;
  for (const hit of ranking) {
    if (unsized(hit)) continue;
    exact += 1;
    if (exact === window) {
      floor = hit.score;
      break;
    }
  }
  let more = Math.max(window, sizes.size);
  if (floor !== undefined)
    for (const hit of ranking) {
      if (hit.score < floor || more === 0) break;
      if (unsized(hit) && !needed.has(hit.docId)) {
        needed.add(hit.docId);
        more -= 1;
      }
    }
  if (bestSized && !sizes.has(bestSized.docId)) needed.add(bestSized.docId);
  return [...needed];
}

/** What a document's section score is divided by for its length ({@link AGGREGATION}`.sizePrior`). */
export function sizeFactor(nodeCount: number | undefined): number {
  return 1 + AGGREGATION.sizePrior * Math.log1p(Math.max(0, nodeCount ?? 0));
}

/** The first line of a summary, at most 200 characters (what a {@link SectionHit} shows). */
export function summaryLine(summary: string): string {
  const line = summary.replace(/\s+/g, " ").trim();
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

/**
 * A library hit in the catalog's {@link DocumentMatch} shape: its best sections are the
 * evidence (at most 3), `evidenceWords` the query words in the best one's title, `matched` the
 * query words on the card's visible fields.
 */
export function toDocumentMatch(hit: LibraryDocumentHit, query: string): DocumentMatch {
  const words = new Set(tokenizeQuery(query));
  const onCard = new Set(cardTerms(hit.card, []).flat());
  const evidence = hit.sections.slice(0, 3).map((s) => ({ nodeId: s.nodeId, title: s.title }));
  const best = evidence[0];
  const evidenceWords = best ? new Set(tokenize(best.title).filter((t) => words.has(t))).size : 0;
  return {
    card: hit.card,
    score: hit.score,
    evidence,
    evidenceWords,
    matched: [...words].filter((w) => onCard.has(w)),
  };
}

/** Normalised paging and limits of a search, shared by the engines. */
export function searchLimits(options: { limit?: number; sectionsPerDocument?: number } = {}): {
  limit: number;
  sectionsPerDocument: number;
} {
  return {
    limit: Math.max(0, Math.floor(options.limit ?? 10)),
    sectionsPerDocument: Math.max(0, Math.floor(options.sectionsPerDocument ?? 5)),
  };
}
