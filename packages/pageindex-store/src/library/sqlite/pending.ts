/**
 * The champion lists' pending rows: every section written since the lists' last merge, in a small
 * FTS5 table of its own (`champion_pending`, the section's fields as `section_terms` holds them).
 * A write is then one more FTS5 insert, tokenized in SQLite's C, where a row per term in a table
 * keyed by term dirtied a page per term and made each commit write most of that table again
 * (measured 28 µs a term, against 6 appended); the merge reads the rows back through an
 * `fts5vocab` instance table in term order, all in SQL.
 */
import { BM25_B as B, BM25_K1 as K1, SECTION_FIELDS } from "../query.js";
import type { Connection, Statement } from "./connection.js";

/**
 * The length a list's order assumes for the average section: a stored impact must not change
 * when the library's average does, or a list would need re-sorting on every write.
 */
const REFERENCE_LENGTH = 100;

/** A term's weight in a row and the row's length: what FTS5's bm25 reads of a row. */
export function saturated(wf: number, len: number, averageLength: number): number {
  return (wf * (K1 + 1)) / (wf + K1 * (1 - B + (B * len) / averageLength));
}

/** The order of a list: the term's bm25 factor at the reference length. */
export function impact(wf: number, len: number): number {
  return saturated(wf, len, REFERENCE_LENGTH);
}

/** SQL for {@link impact} over columns `wf` and `len`. */
export const IMPACT_SQL = `(wf * ${K1 + 1}) / (wf + ${K1} * (${1 - B} + ${B} * len / ${REFERENCE_LENGTH}.0))`;

/** SQL for a field's weight in an `fts5vocab` instance row (column `col`). */
export const FIELD_WEIGHT_SQL = `CASE col ${SECTION_FIELDS.map((f) => `WHEN '${f.name}' THEN ${f.weight}`).join(" ")} ELSE 1 END`;

/** A row of one term: a section holding it, the order its list uses, and what bm25 reads. */
export interface TermRow {
  impact: number;
  id: number;
  wf: number;
  len: number;
}

/** Best first: a list's order (impact, then the later row). */
export const byImpact = (a: TermRow, b: TermRow) => b.impact - a.impact || b.id - a.id;

/**
 * The pending rows' table of a connection: written beside `section_terms`, read per term by
 * queries (while a backlog is left), read whole by a merge.
 */
export class PendingRows {
  constructor(
    db: Connection,
    private readonly sql: (source: string) => Statement,
  ) {
    // A temp table (this connection's): a reader may create it too.
    db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.champion_pending_instances USING fts5vocab(main, champion_pending, instance);
       CREATE VIRTUAL TABLE IF NOT EXISTS temp.champion_pending_vocabulary USING fts5vocab(main, champion_pending, row);`,
    );
  }

  /** Whether a file has the pending table (a file of an earlier release opened read-only has not). */
  static present(db: Connection): boolean {
    return (
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'champion_pending'").raw(true).get() !== undefined
    );
  }

  /** Adds sections (their FTS5 fields); inside the writer's transaction. */
  add(sections: ReadonlyArray<{ id: number; fields: readonly string[] }>): void {
    const insert = this.sql(
      `INSERT INTO champion_pending (rowid, ${SECTION_FIELDS.map((f) => f.name).join(", ")}) VALUES (?${", ?".repeat(SECTION_FIELDS.length)})`,
    );
    for (const { id, fields } of sections) insert.run(id, ...fields);
  }

  /** Removes the sections `first`…`last`; inside the writer's transaction. */
  remove(first: number, last: number): void {
    this.sql("DELETE FROM champion_pending WHERE rowid BETWEEN ? AND ?").run(first, last);
  }

  /**
   * SQL selecting the pending rows (term, id, wf, len) of the terms that have a list: the pending
   * terms (one vocabulary row each) joined with the lists, then each listed term's instances
   * (one seek a term): a merge reads none of the rare terms' rows.
   */
  static listed(): string {
    return `SELECT i.term AS term, i.doc AS id, sum(${FIELD_WEIGHT_SQL}) AS wf, l.len AS len
      FROM temp.champion_pending_vocabulary v JOIN champion_terms m ON m.term = v.term
      JOIN temp.champion_pending_instances i ON i.term = v.term
      JOIN section_lengths l ON l.id = i.doc GROUP BY i.term, i.doc`;
  }

  /** A term's pending rows, best first, at most `limit` (the term's every instance is read). */
  rows(term: string, limit: number): TermRow[] {
    return instanceRows(this.sql, "temp.champion_pending_instances", term, limit);
  }

  /** Merges the table's segments into one (FTS5's optimize); inside the writer's transaction. */
  optimize(): void {
    this.sql("INSERT INTO champion_pending (champion_pending) VALUES ('optimize')").run();
  }

  /** Empties the table (after a merge); inside the writer's transaction. */
  clear(): void {
    this.sql("INSERT INTO champion_pending (champion_pending) VALUES ('delete-all')").run();
  }
}

/**
 * A term's rows in an FTS5 index, read through its `fts5vocab` instance table (`vocabulary`),
 * best first by impact, at most `limit`: what a list holding every row of the term holds. Its
 * cost follows the term's instances (each read, none scored by FTS5).
 */
export function instanceRows(
  sql: (source: string) => Statement,
  vocabulary: string,
  term: string,
  limit: number,
): TermRow[] {
  const found = sql(
    `SELECT i.doc AS id, sum(${FIELD_WEIGHT_SQL}) AS wf, l.len AS len
     FROM ${vocabulary} i JOIN section_lengths l ON l.id = i.doc
     WHERE i.term = ? GROUP BY i.doc`,
  )
    .raw(true)
    .all(term) as Array<[number, number, number]>;
  return found
    .map(([id, wf, len]) => ({ impact: impact(wf, len), id: Number(id), wf, len: Number(len) }))
    .sort(byImpact)
    .slice(0, limit);
}
