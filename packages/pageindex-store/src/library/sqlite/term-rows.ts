/**
 * How many sections hold each common term (the terms with a champion list), kept beside the
 * lists. A library-wide query counts its terms' rows first (to choose its candidates, and for
 * the idf of the rows it reads from the lists); FTS5 counts a term by walking its posting list,
 * whose length grows with the library (at 100,000 documents a question's words are in 400-17,000
 * sections each), where a stored count is one seek. The counts are exact only as of the last
 * merge of the lists' backlog, and only while no document has left since they were counted: a
 * merge adds the rows its pending sections bring (as the lists take them); a removal (or a
 * replacement) marks them stale, since a contentless FTS5 index cannot say which terms the
 * removed sections held, until `vacuum` counts them all again. Queries use them only when they
 * are exact and nothing is pending, and count with FTS5 otherwise.
 */
import type { Connection, Statement } from "./connection.js";
import { jsonRowsSql, readJsonRows } from "./json-rows.js";

/** The FTS5 index's terms with their row counts (one row a term), a connection's temp table. */
const SECTION_VOCABULARY =
  "CREATE VIRTUAL TABLE IF NOT EXISTS temp.section_vocabulary USING fts5vocab(main, section_terms, row)";

/**
 * The index's state as a writer of this release left it: FTS5's averages record of the sections
 * (row count and token totals: any section written or removed changes it) and the last document
 * row (a replacement takes a new one). A write this release did not make (an earlier release
 * writing the file, which keeps no counts) leaves the stored stamp behind: the counts are not read.
 */
const STAMP_SQL =
  "coalesce((SELECT hex(block) FROM section_terms_data WHERE id = 1), '') || ':' || coalesce((SELECT max(doc) FROM documents), 0)";

/** The table (created when absent, by a writer) and its state in `library_meta`. */
export const TERM_ROWS_SCHEMA = `
CREATE TABLE IF NOT EXISTS term_rows (term TEXT PRIMARY KEY, rows INTEGER NOT NULL) WITHOUT ROWID;
INSERT OR IGNORE INTO library_meta (key, value) VALUES ('term_rows', 'stale');
INSERT OR IGNORE INTO library_meta (key, value) VALUES ('term_rows_stamp', '');
`;

/** Whether a file has the table (one written before it, opened read-only, has not). */
export function hasTermRows(db: Connection): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'term_rows'").raw(true).get() !== undefined;
}

/**
 * Adds the table to a file with champion lists and without it, counted from its FTS5 index, in
 * one transaction (4.7 s at 100,000 documents): a crash leaves the file as it was. `listRows`: the
 * rows a term needs for a list (those in fewer are not stored).
 */
export function migrateTermRows(db: Connection, listRows: number): void {
  if (hasTermRows(db)) return;
  db.transaction(() => {
    db.exec(TERM_ROWS_SCHEMA);
    new TermRows(db, (source) => db.prepare(source), true).count(listRows);
  }).immediate();
}

/** A handle's reads and writes of the stored counts (statements from the index's cache). */
export class TermRows {
  /**
   * @param sql prepares a statement once per connection.
   * @param present whether the file has the table (else nothing is read or written).
   */
  constructor(
    db: Connection,
    private readonly sql: (source: string) => Statement,
    private readonly present: boolean,
  ) {
    // A connection's own, as the lists' (a reader may create it): what writers count from.
    if (present) db.exec(SECTION_VOCABULARY);
  }

  /**
   * The stored counts of `terms` that the table holds, when they are exact and no section is
   * pending; else an empty map (count with FTS5). One statement.
   */
  read(terms: readonly string[]): Map<string, number> {
    if (!this.present || terms.length === 0) return new Map();
    const source = `SELECT term, rows FROM term_rows WHERE term IN (SELECT value FROM json_each(?))
      AND (SELECT value FROM library_meta WHERE key = 'term_rows') = 'exact'
      AND CAST((SELECT value FROM library_meta WHERE key = 'champion_backlog') AS REAL) = 0
      AND (SELECT value FROM library_meta WHERE key = 'term_rows_stamp') = ${STAMP_SQL}`;
    const rows = readJsonRows<[string, number]>(
      this.sql(jsonRowsSql(source, ["term", "rows"])),
      JSON.stringify(terms),
    );
    return new Map(rows.map(([term, count]) => [term, Number(count)]));
  }

  /**
   * Counts every term in more than `listRows` sections from the FTS5 index (the lists' terms)
   * and marks the counts exact; inside the writer's transaction. With sections pending (a
   * writer stopped before merging them) they stay stale.
   */
  count(listRows: number): void {
    if (!this.present) return;
    // Counted with sections pending, a merge would add their rows a second time.
    const pending = this.sql("SELECT value FROM library_meta WHERE key = 'champion_backlog'")
      .raw(true)
      .get() as unknown[] | undefined;
    if (Number(pending?.[0] ?? 0) !== 0) {
      this.stale();
      return;
    }
    this.sql("DELETE FROM term_rows").run();
    this.sql(
      `INSERT INTO term_rows (term, rows) SELECT term, doc FROM temp.section_vocabulary WHERE doc > ?`,
    ).run(listRows);
    this.mark("exact");
    this.restamp();
  }

  /**
   * At the start of a write transaction: counts whose stamp is not the index's state were left
   * behind by a write this release did not make, and are stale from now on.
   */
  check(): void {
    if (!this.present) return;
    this.sql(
      `UPDATE library_meta SET value = 'stale' WHERE key = 'term_rows' AND value = 'exact'
       AND coalesce((SELECT value FROM library_meta WHERE key = 'term_rows_stamp'), '') != ${STAMP_SQL}`,
    ).run();
  }

  /** At the end of a write transaction: exact counts are stamped with the index's state. */
  restamp(): void {
    if (!this.present) return;
    this.sql(
      `UPDATE library_meta SET value = ${STAMP_SQL} WHERE key = 'term_rows_stamp'
       AND (SELECT value FROM library_meta WHERE key = 'term_rows') = 'exact'`,
    ).run();
  }

  /**
   * A merge's share, before its pending sections are cleared: each stored term gains its
   * pending rows, and `common` (terms the merge gives a list) are counted from the index.
   */
  merged(common: readonly string[]): void {
    if (!this.present) return;
    this.sql(
      `UPDATE term_rows SET rows = rows + v.doc FROM temp.champion_pending_vocabulary v
       WHERE term_rows.term = v.term`,
    ).run();
    const insert = this.sql(
      "INSERT OR REPLACE INTO term_rows (term, rows) SELECT term, doc FROM temp.section_vocabulary WHERE term = ?",
    );
    for (const term of common) insert.run(term);
  }

  /** A section left: which terms it held is not known, so no count is exact until the next {@link count}. */
  stale(): void {
    if (this.present) this.mark("stale");
  }

  private mark(state: "exact" | "stale"): void {
    this.sql("UPDATE library_meta SET value = ? WHERE key = 'term_rows' AND value != ?").run(state, state);
  }
}
