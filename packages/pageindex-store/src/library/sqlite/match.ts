import type { QueryTerm } from "../query.js";

/**
 * An FTS5 query OR-ing the terms, each a quoted string. Terms come from the tokenizer (letters
 * and digits only), and quoting (with `"` doubled) makes FTS5 read each as a plain token
 * whatever it holds, so no user text is ever parsed as FTS5 syntax (`NEAR`, `*`, `-`, `:`).
 */
export function ftsMatch(terms: readonly QueryTerm[]): string {
  return terms.map(({ term }) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}

/**
 * An FTS5 query matching the rows that hold any of `rare`, scored on every term of `all`:
 * `(R) AND (C) OR (R) NOT (C)`, R the rare terms OR-ed, C the others. A row matches one branch
 * only, and FTS5 counts no occurrence in a branch that does not match, so each term is scored
 * once: a candidate's bm25 equals its score under the plain OR of `all` (checked row by row on
 * the generated 100,000-document library: 2,000 of 2,000 equal). Plain OR when `rare` is `all`.
 */
export function ftsCandidateMatch(all: readonly QueryTerm[], rare: readonly QueryTerm[]): string {
  const chosen = new Set(rare.map((t) => t.term));
  const others = all.filter((t) => !chosen.has(t.term));
  if (others.length === 0) return ftsMatch(all);
  const r = `(${ftsMatch(rare)})`;
  const c = `(${ftsMatch(others)})`;
  return `${r} AND ${c} OR ${r} NOT ${c}`;
}
