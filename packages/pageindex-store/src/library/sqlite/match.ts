import type { QueryTerm } from "../query.js";

/**
 * An FTS5 query OR-ing the terms, each a quoted string. Terms come from the tokenizer (letters
 * and digits only), and quoting (with `"` doubled) makes FTS5 read each as a plain token
 * whatever it holds, so no user text is ever parsed as FTS5 syntax (`NEAR`, `*`, `-`, `:`).
 */
export function ftsMatch(terms: readonly QueryTerm[]): string {
  return terms.map(({ term }) => `"${term.replaceAll('"', '""')}"`).join(" OR ");
}
