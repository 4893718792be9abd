import { atLeastOf, type BooleanSyntax, type QueryTerm } from "../query.js";

/** A term quoted as one FTS5 token (see {@link ftsMatch}). */
const quoted = (term: string) => `"${term.replaceAll('"', '""')}"`;

/**
 * An FTS5 query OR-ing the terms, each a quoted string. Terms come from the tokenizer (letters
 * and digits only), and quoting (with `"` doubled) makes FTS5 read each as a plain token
 * whatever it holds, so no user text is ever parsed as FTS5 syntax (`NEAR`, `*`, `-`, `:`).
 */
export function ftsMatch(terms: readonly QueryTerm[]): string {
  return terms.map(({ term }) => quoted(term)).join(" OR ");
}

/** FTS5's boolean syntax (every operand parenthesised: NOT binds tighter than AND, AND than OR). */
const FTS5_SYNTAX: BooleanSyntax = {
  term: quoted,
  and: (left, right) => `(${left}) AND (${right})`,
  or: (left, right) => `(${left}) OR (${right})`,
  without: (left, term) => `(${left}) NOT ${quoted(term)}`,
};

/**
 * An FTS5 query matching the rows that `choose` matches (an expression over the terms
 * `chosen`), scored on every term of `all`: `(X) AND (C) OR (X) NOT (C)`, C the other terms
 * OR-ed. A row matches one branch only, and FTS5 counts no occurrence in a branch that does not
 * match, so each term is scored once: a candidate's bm25 equals its score under the plain OR of
 * `all` (checked row by row on the generated 100,000-document library: 2,000 of 2,000 equal).
 */
function ftsChosenMatch(choose: string, chosen: readonly string[], all: readonly QueryTerm[]): string {
  const others = all.filter((t) => !chosen.includes(t.term));
  if (others.length === 0) return choose;
  const c = `(${ftsMatch(others)})`;
  return `(${choose}) AND ${c} OR (${choose}) NOT ${c}`;
}

/** An FTS5 query matching the rows that hold any of `rare`, scored on every term of `all`. */
export function ftsCandidateMatch(all: readonly QueryTerm[], rare: readonly QueryTerm[]): string {
  return ftsChosenMatch(
    ftsMatch(rare),
    rare.map((t) => t.term),
    all,
  );
}

/**
 * An FTS5 query matching the rows that hold at least `m` of `several` (see `atLeastOf`), scored
 * on every term of `all`.
 */
export function ftsAtLeastMatch(all: readonly QueryTerm[], several: readonly QueryTerm[], m: number): string {
  const terms = several.map((t) => t.term);
  return ftsChosenMatch(atLeastOf(m, terms, FTS5_SYNTAX), terms, all);
}
