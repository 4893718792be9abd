/**
 * Text search values built from the project's own terms (the tokenizer shared with SQLite and the
 * lexical judge: normalised, stop words dropped, light stemming), written as tsvector / tsquery
 * literals so PostgreSQL's parser never sees user text: every term is letters or digits only.
 */

import type { DocumentCard } from "../catalog/card.js";
import {
  atLeastOf,
  BM25_B,
  type BooleanSyntax,
  CARD_INDEX_FIELDS,
  cardFieldTerms,
  type QueryTerm,
  SECTION_FIELDS,
  sectionFieldTerms,
} from "../library/query.js";
import type { LibrarySection } from "../library/types.js";

/** PostgreSQL's limits: positions 1-16383, at most 256 positions per lexeme, lexemes < 2 KB. */
const MAX_POSITION = 16_383;
const MAX_POSITIONS_PER_TERM = 255;
const MAX_TERM_CHARS = 200;

/** Weight labels in field order: A for the most telling field, D for the text. */
const LABELS = ["A", "B", "C", "D"] as const;

/** A lexeme quoted for a tsvector/tsquery literal (terms are letters/digits; quote and backslash escaped all the same). */
export function lexeme(term: string): string {
  return `'${term.replace(/\\/g, "\\\\").replace(/'/g, "''")}'`;
}

/** A tsvector literal and its distinct terms (what the term frequencies count). */
export interface Vector {
  literal: string;
  terms: string[];
}

/** A tsvector literal from four fields of terms (labels A-D), positions running across fields. */
function vectorLiteral(fields: readonly string[]): Vector {
  const positions = new Map<string, string[]>();
  let position = 0;
  fields.forEach((field, i) => {
    const label = LABELS[i] as string;
    for (const term of field.split(" ")) {
      if (!term || term.length > MAX_TERM_CHARS) continue;
      position = Math.min(position + 1, MAX_POSITION);
      const list = positions.get(term);
      if (!list) positions.set(term, [`${position}${label}`]);
      else if (list.length < MAX_POSITIONS_PER_TERM) list.push(`${position}${label}`);
    }
  });
  return {
    literal: [...positions].map(([term, list]) => `${lexeme(term)}:${list.join(",")}`).join(" "),
    terms: [...positions.keys()],
  };
}

/** A section's tsvector literal: title A, ancestors' titles B, summary C, own text D. */
export function sectionVector(section: LibrarySection): Vector {
  return vectorLiteral(sectionFieldTerms(section));
}

/** A card's tsvector literal: name A, about B, outline C, section titles D. */
export function cardVector(card: DocumentCard): Vector {
  return vectorLiteral(cardFieldTerms(card));
}

/**
 * ts_rank's weights array is ordered {D, C, B, A} and each weight must lie in [0, 1]: the shared
 * field weights (SECTION_FIELDS, CARD_INDEX_FIELDS), scaled so the heaviest is 1.
 */
function rankWeights(fields: ReadonlyArray<{ weight: number }>): string {
  const top = Math.max(...fields.map((f) => f.weight));
  return `{${[...fields]
    .reverse()
    .map((f) => (f.weight / top).toFixed(4))
    .join(",")}}`;
}

export const SECTION_RANK_WEIGHTS = rankWeights(SECTION_FIELDS);
export const CARD_RANK_WEIGHTS = rankWeights(CARD_INDEX_FIELDS);

/** An OR of terms as a tsquery literal. */
export function anyOf(terms: readonly QueryTerm[]): string {
  return terms.map((t) => lexeme(t.term)).join(" | ");
}

/** tsquery's boolean syntax. */
const TSQUERY_SYNTAX: BooleanSyntax = {
  term: lexeme,
  and: (left, right) => `(${left}) & (${right})`,
  or: (left, right) => `(${left}) | (${right})`,
  without: (left, term) => `(${left}) & !${lexeme(term)}`,
};

/** A tsquery literal matching the rows holding at least `m` of `terms` (see `atLeastOf`). */
export function atLeast(m: number, terms: readonly QueryTerm[]): string {
  return atLeastOf(
    m,
    terms.map((t) => t.term),
    TSQUERY_SYNTAX,
  );
}

/**
 * The reference row length, in distinct lexemes (`length(tsv)`), that BM25 divides by. A
 * fixed reference instead of the library's average keeps a row's score for a term independent of
 * the rest of the library, so a champion list stays exactly its term's best rows; sections of the
 * Debian library dev set average 58 lexemes and the generated bench's 68, its cards 100 (80 the
 * median; a reference of 100 for cards ranked the dev set as 64 does).
 */
export const REFERENCE_LENGTH = 64;

/**
 * SQL for a term's weighted frequency in a row (`alias.tsv`), as the ranking and the champion
 * lists both compute it: `ts_rank` without its own normalisation, as float8, divided by BM25's
 * length factor (1 − b + b·length/reference). Saturating tf/factor as tf·(k1+1)/(tf+k1) is
 * BM25's length-normalised saturation. Without it a long section's many weak matches outrank a
 * short section's exact one: offline library-wide hit@3 on the library dev set was 32/66
 * without it and is 40/66 with it, as the folder store's (FTS5). Cards are normalised the same
 * way, as FTS5 ranks the folder store's cards: on the dev set the right document in the top 3
 * 57 → 58/66 and oracle library-wide 63 → 64/66; on validation offline library-wide 28 → 29/64,
 * the rest unchanged. One expression for the ranking and the lists, so a list's stored value
 * and the ranking's agree to the bit.
 */
export function termRankSql(alias: string, weights: string, tsquery: string): string {
  const rank = `ts_rank('${weights}', ${alias}.tsv, ${tsquery}, 0)::float8`;
  return `(${rank} / (${1 - BM25_B} + ${BM25_B / REFERENCE_LENGTH} * length(${alias}.tsv)))`;
}
