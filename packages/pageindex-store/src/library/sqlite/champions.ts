/**
 * Champion lists: per term, its best sections by the term's own BM25 contribution, kept in a
 * table beside the FTS5 index. A query then reads at most a few hundred rows per term instead of
 * having FTS5 score every section holding its rarest term (about 5-20 µs a row, so a cost that
 * grew with the library). Each list is exact: it holds the best `kept` rows of its term, or every
 * row of the term (`complete`). Only terms in more than `listRows` sections have one; a rarer
 * term's rows are read whole from the index. Writes go to a pending table merged into the lists
 * in batches (see pending.ts and {@link ChampionLists.merge}). Rows read are scored exactly as
 * FTS5's bm25 scores them (same averages, document frequency and field weights), so they rank
 * beside FTS5's rows.
 */
import { SECTION_FIELDS } from "../query.js";
import type { Connection, Statement } from "./connection.js";
import { exactReal, jsonRowsSql, readJsonRows } from "./json-rows.js";
import { byImpact, IMPACT_SQL, instanceRows, PendingRows, saturated, type TermRow } from "./pending.js";
import { SECTION_ID } from "./schema.js";
import { hasTermRows, TermRows } from "./term-rows.js";

/**
 * Champion lists' sizes: how many rows of each list a query reads (the measured choice for
 * `championRows`, what `pageindex index --champion-lists` asks for), and how many a list keeps
 * (the rest is slack for deletes).
 */
export const CHAMPIONS = {
  /** Rows a query reads per term (its best by impact). */
  perTerm: 100,
  /** Rows a list keeps at most: deleting champions refills a list only once fewer than `perTerm` are left. */
  kept: 200,
  /**
   * Sections written or removed since the last merge at which a write merges them into the lists:
   * the pending index (what a query reads beside the lists while writes go on) stays small, and a
   * merge touches each list page once for a few thousand documents.
   */
  mergeSections: 20_000,
} as const;

/**
 * Progress of building a file's champion lists (the first writable open of a file without them):
 * `lengths` counts sections whose lengths are read, `lists` the common terms whose lists are
 * built. Reported only when there is something to build (a new file has not), every
 * {@link PROGRESS_EVERY} sections or terms, and once done.
 */
export interface ChampionBuildProgress {
  phase: "lengths" | "lists";
  done: number;
  total: number;
}

/** Sections, or terms, between two progress reports of a build (a term's list costs about 30 ms at 100,000 documents). */
const PROGRESS_EVERY = { lengths: 5_000, lists: 50 } as const;

/** Rows per statement filling a temp table (see `ChampionLists.batch`). */
const BATCH_ROWS = 100;

/** Reads a SQLite varint (FTS5's format) at `at`: its value and the offset after it. */
function varint(bytes: Uint8Array, at: number): [number, number] {
  let value = 0;
  for (let i = 0; i < 8; i += 1) {
    const byte = bytes[at + i] ?? 0;
    value = value * 128 + (byte & 0x7f);
    if ((byte & 0x80) === 0) return [value, at + i + 1];
  }
  return [value * 256 + (bytes[at + 8] ?? 0), at + 9];
}

/** Sum of a blob of varints (a section's column sizes), the first `count` of them. */
function varintSum(blob: Uint8Array, count: number): number {
  let sum = 0;
  let at = 0;
  for (let i = 0; i < count && at < blob.length; i += 1) {
    const [value, next] = varint(blob, at);
    sum += value;
    at = next;
  }
  return sum;
}

/** What bm25 reads of the whole index: its row count and average row length (FTS5's averages record). */
export interface Bm25Stats {
  rows: number;
  averageLength: number;
}

/**
 * The FTS5 averages record of `section_terms` (row count, then each column's total tokens).
 * @param sql prepares a statement once per connection (a query asks for the record each time).
 */
export function bm25Stats(sql: (source: string) => Statement): Bm25Stats {
  const row = sql("SELECT block FROM section_terms_data WHERE id = 1").raw(true).get() as
    | unknown[]
    | undefined;
  const blob = row?.[0];
  if (!(blob instanceof Uint8Array)) return { rows: 0, averageLength: 1 };
  const [rows, at] = varint(blob, 0);
  const total = varintSum(blob.subarray(at), SECTION_FIELDS.length);
  return { rows, averageLength: rows > 0 && total > 0 ? total / rows : 1 };
}

/** FTS5's idf of a term found in `hits` of `rows` rows. */
function idf(rows: number, hits: number): number {
  const value = Math.log((rows - hits + 0.5) / (hits + 0.5));
  return value > 0 ? value : 1e-6;
}

/** A champion row scored: its id and FTS5's rank for it (minus bm25: lower is better). */
export interface ChampionRow {
  id: number;
  rank: number;
}

/**
 * The champion lists of a library index file: kept in step with every write (its sections
 * pending until the next merge, inside the writer's transactions), built from the FTS5 index
 * itself on the first writable open of a file that has none, read by queries.
 */
export class ChampionLists {
  /** Rows a query reads per term. */
  readonly perTerm: number;
  /** Rows per term the file's lists are built for: fewer left after deletes, a list is rebuilt. */
  readonly listRows: number;
  /** Rows a list keeps at most (twice `listRows`: the slack deletes use up before a refill). */
  readonly kept: number;
  /** The backlog merged into the lists once reached. */
  private readonly mergeSections: number;
  /** The pending rows (absent in a file of an earlier release opened read-only). */
  private readonly pending: PendingRows | undefined;
  /** The common terms' row counts (see term-rows.ts). */
  private readonly termRows: TermRows;

  /**
   * @param sql prepares a statement once per connection (the index's statement cache).
   * @param listRows the rows per term the file's lists are built for (they keep twice as many).
   * @param perTerm rows a query reads per term (at most `listRows`; default `listRows`).
   * @param mergeSections the backlog (sections written or removed) a write transaction merges
   *   into the lists once reached (default {@link CHAMPIONS}`.mergeSections`).
   */
  constructor(
    private readonly db: Connection,
    private readonly sql: (source: string) => Statement,
    listRows: number = CHAMPIONS.perTerm,
    perTerm?: number,
    mergeSections: number = CHAMPIONS.mergeSections,
  ) {
    this.listRows = Math.max(1, Math.floor(listRows));
    this.kept = Math.round((CHAMPIONS.kept / CHAMPIONS.perTerm) * this.listRows);
    this.perTerm = Math.max(1, Math.min(this.listRows, Math.floor(perTerm ?? this.listRows)));
    this.mergeSections = Math.max(1, Math.floor(mergeSections));
    this.pending = PendingRows.present(db) ? new PendingRows(db, sql) : undefined;
    this.termRows = new TermRows(db, sql, hasTermRows(db));
    // A connection's own (a reader may create it): the rows of a term without a list.
    db.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.section_instances USING fts5vocab(main, section_terms, instance)",
    );
  }

  /** Whether the file has the tables (a file of an earlier release opened read-only has not). */
  static present(db: Connection): boolean {
    return (
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'champion_terms'").raw(true).get() !== undefined
    );
  }

  /**
   * Adds a document's sections to the lists their terms make; inside the writer's transaction.
   * The sections go to the pending FTS5 table and are merged into the lists once the backlog
   * reaches `mergeSections` (see {@link merge}): a write no longer touches one page of each of
   * its terms' lists, spread over the file.
   */
  add(sections: ReadonlyArray<{ id: number; fields: readonly string[] }>): void {
    const first = sections[0];
    if (!first || !this.pending) return;
    this.pending.add(sections);
    // Lengths as FTS5 counted them (the document sizes it just wrote), read back in one statement.
    // One row a statement: a statement writing several rows opens a savepoint, at which FTS5
    // flushes the terms it holds in memory to a new segment (measured 1 ms a document).
    const [from, to] = documentRange(Math.floor(first.id / SECTION_ID.perDocument));
    const length = this.sql("INSERT OR REPLACE INTO section_lengths (id, len) VALUES (?, ?)");
    for (const [id, sz] of this.sql("SELECT id, sz FROM section_terms_docsize WHERE id BETWEEN ? AND ?")
      .raw(true)
      .all(from, to) as Array<[number, Uint8Array]>)
      length.run(id, varintSum(sz, SECTION_FIELDS.length));
    this.grow(sections.length);
  }

  /** Adds `sections` to the backlog the next {@link settle} compares with `mergeSections`. */
  private grow(sections: number): void {
    if (sections === 0) return;
    this.sql("UPDATE library_meta SET value = CAST(value AS INTEGER) + ? WHERE key = 'champion_backlog'").run(
      sections,
    );
  }

  /**
   * Fills a connection's temp table (`champion_<name>`, columns a…e) with `rows`, in statements
   * of {@link BATCH_ROWS} rows.
   */
  private batch(name: "counts", rows: ReadonlyArray<ReadonlyArray<string | number>>): void {
    const table = `temp.champion_${name}`;
    this.db.exec(`CREATE TABLE IF NOT EXISTS ${table} (a, b, c, d, e); DELETE FROM ${table};`);
    const width = 5;
    const insert = this.sql(
      `INSERT INTO ${table} VALUES ${Array.from({ length: BATCH_ROWS }, () => `(${Array(width).fill("?").join(",")})`).join(",")}`,
    );
    for (let from = 0; from < rows.length; from += BATCH_ROWS) {
      const values: Array<string | number | null> = [];
      for (let i = from; i < from + BATCH_ROWS; i += 1) {
        const row = rows[i] ?? [];
        for (let c = 0; c < width; c += 1) values.push(row[c] ?? null);
      }
      insert.run(...values);
    }
    // Padding rows (a NULL first column) fill the last statement.
    this.db.exec(`DELETE FROM ${table} WHERE a IS NULL`);
  }

  /**
   * Removes the rows of sections `first`…`last` (a document's row-id range) from the lists and
   * the pending rows at the next merge: until then the document is `gone`, and queries skip its
   * rows. Inside the writer's transaction.
   */
  remove(first: number, last: number): void {
    const sections = this.sql("DELETE FROM section_lengths WHERE id BETWEEN ? AND ?").run(
      first,
      last,
    ).changes;
    if (sections === 0) return;
    this.pending?.remove(first, last);
    this.termRows.stale();
    this.sql("INSERT OR IGNORE INTO champion_gone (doc) VALUES (?)").run(
      Math.floor(first / SECTION_ID.perDocument),
    );
    this.grow(sections);
  }

  /**
   * The row number a new document takes: past every document, present or gone since the last
   * merge (a gone document's rows are still in the lists, so its row ids are not given again).
   */
  nextDocument(): number {
    return (
      Number(
        (
          this.sql(
            `SELECT max(coalesce((SELECT max(doc) FROM documents), 0), coalesce((SELECT max(doc) FROM champion_gone), 0))`,
          )
            .raw(true)
            .get() as unknown[]
        )[0],
      ) + 1
    );
  }

  /**
   * How many sections hold each of `terms`, for those whose count is stored and exact (see
   * term-rows.ts); the others are counted by the caller.
   */
  termCounts(terms: readonly string[]): Map<string, number> {
    return this.termRows.read(terms);
  }

  /** First in a write transaction: stored term counts another writer left behind become stale (see term-rows.ts). */
  beginWrite(): void {
    this.termRows.check();
  }

  /** Last in a write transaction: the stored term counts are stamped with the index's state. */
  endWrite(): void {
    this.termRows.restamp();
  }

  /** Counts the common terms' rows again (a `vacuum`): exact once more after removals; inside the writer's transaction. */
  countTerms(): void {
    this.termRows.count(this.listRows);
  }

  /** Merges the backlog into the lists when it has reached `mergeSections`; at the end of a write transaction. */
  settle(): void {
    if (this.backlog() >= this.mergeSections) this.merge();
  }

  /** Sections written or removed since the last merge. */
  backlog(): number {
    const row = this.sql("SELECT value FROM library_meta WHERE key = 'champion_backlog'").raw(true).get() as
      | unknown[]
      | undefined;
    return Number(row?.[0] ?? 0);
  }

  /**
   * Stages the pending rows that enter their lists in `temp.champion_staged`, in the lists'
   * order: a row enters when its term has a list and the list holds every row of its term, or
   * the row beats the list's last row (a row below it may rank below rows the list never kept).
   * Every row a list never kept is below that last row, so a list's floor before the merge
   * decides. A term without a list is rare (see {@link newlyCommon}): its rows stay out.
   */
  private stagePending(): void {
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS temp.champion_staged (term, impact, id, wf, len);
       DELETE FROM temp.champion_staged;`,
    );
    this.sql(
      `INSERT INTO temp.champion_staged (term, impact, id, wf, len)
       SELECT p.term, p.impact, p.id, p.wf, p.len
       FROM (SELECT term, id, wf, len, ${IMPACT_SQL} AS impact FROM (${PendingRows.listed()})) p
       JOIN champion_terms m ON m.term = p.term
       WHERE m.complete = 1 OR p.impact > m.floor OR (p.impact = m.floor AND p.id > m.floor_id)
       ORDER BY p.term, p.impact, p.id`,
    ).run();
  }

  /**
   * The pending terms without a list that the index now holds in more than `listRows` rows: a
   * merge builds their lists from the index. A rare term has none (a query reads its few rows
   * whole), so a merge reads and writes the rows of common terms only. One vocabulary seek per
   * pending term without a list (its cost follows that term's rows, few for a rare term).
   */
  private newlyCommon(): string[] {
    this.db.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS temp.section_vocabulary USING fts5vocab(main, section_terms, row)",
    );
    return (
      this.sql(
        `SELECT p.term FROM temp.champion_pending_vocabulary p
         WHERE NOT EXISTS (SELECT 1 FROM champion_terms m WHERE m.term = p.term)
           AND (SELECT v.doc FROM temp.section_vocabulary v WHERE v.term = p.term) > ?`,
      )
        .raw(true)
        .all(this.listRows) as unknown[][]
    ).map(([term]) => String(term));
  }

  /**
   * Merges the backlog into the lists, inside the writer's transaction: the gone documents' rows
   * leave, then each pending row enters its term's list when the list holds every row of its term
   * or the row beats the list's last row (a row below it may rank below rows it never kept), the
   * lists grown past `kept` lose their last rows, and a list left with fewer than `listRows` rows
   * of a term that has more is rebuilt from the FTS5 index. A few statements for the whole
   * backlog (each list page is touched once), plus one per gone document and per rebuilt list.
   */
  merge(): void {
    const lost = new Map<string, number>();
    const leave = this.sql("DELETE FROM champions WHERE id BETWEEN ? AND ? RETURNING term").raw(true);
    for (const [doc] of this.sql("SELECT doc FROM champion_gone").raw(true).all() as unknown[][]) {
      const [first, last] = documentRange(Number(doc));
      for (const [term] of leave.all(first, last) as unknown[][])
        lost.set(String(term), (lost.get(String(term)) ?? 0) + 1);
    }
    this.db.exec("DELETE FROM champion_gone");
    this.batch("counts", [...lost]);
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS temp.champion_touched (term TEXT PRIMARY KEY) WITHOUT ROWID;
       DELETE FROM temp.champion_touched;
       INSERT INTO temp.champion_touched SELECT a FROM temp.champion_counts;`,
    );
    // One segment: the merge then seeks each term once, not once per segment (a segment a write
    // transaction; measured 7.3 → 2.3 s staging 20,000 sections at 100,000 documents).
    this.pending?.optimize();
    const common = this.newlyCommon();
    this.stagePending();
    // The lists' floors stay as they were until the end (see stagePending).
    this.sql(
      "UPDATE champion_terms SET kept = kept - g.b FROM temp.champion_counts g WHERE champion_terms.term = g.a",
    ).run();
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS temp.champion_entered (term TEXT PRIMARY KEY, n INTEGER) WITHOUT ROWID;
       DELETE FROM temp.champion_entered;
       INSERT INTO temp.champion_entered SELECT term, count(*) FROM temp.champion_staged GROUP BY term;`,
    );
    // In the lists' order: each list page is written once (3× faster than in the pending order).
    this.sql(
      "INSERT INTO champions (term, impact, id, wf, len) SELECT term, impact, id, wf, len FROM temp.champion_staged ORDER BY rowid",
    ).run();
    this.sql(
      `INSERT INTO champion_terms (term, kept, complete, floor, floor_id)
       SELECT term, n, 1, 0, 0 FROM temp.champion_entered WHERE true
       ON CONFLICT (term) DO UPDATE SET kept = kept + excluded.kept`,
    ).run();
    this.db.exec(
      `CREATE TABLE IF NOT EXISTS temp.champion_grown (term TEXT PRIMARY KEY) WITHOUT ROWID;
       DELETE FROM temp.champion_grown;`,
    );
    this.sql(
      `INSERT INTO temp.champion_grown SELECT t.term FROM temp.champion_entered e
       JOIN champion_terms t ON t.term = e.term WHERE t.kept > ?`,
    ).run(this.kept);
    // Each grown list loses the rows past its `kept` best: one range of its key.
    const trim = this.sql(
      `DELETE FROM champions WHERE term = ?1 AND (impact, id) < (
         SELECT impact, id FROM champions WHERE term = ?1 ORDER BY impact DESC, id DESC LIMIT 1 OFFSET ?2)`,
    );
    for (const [term] of this.sql("SELECT term FROM temp.champion_grown").raw(true).all() as unknown[][])
      trim.run(term, this.kept - 1);
    this.sql(
      "UPDATE champion_terms SET kept = ?, complete = 0 WHERE term IN (SELECT term FROM temp.champion_grown)",
    ).run(this.kept);
    this.db.exec("INSERT OR IGNORE INTO temp.champion_touched SELECT term FROM temp.champion_entered");
    this.sql(
      `UPDATE champion_terms SET
         floor = coalesce((SELECT impact FROM champions c WHERE c.term = champion_terms.term ORDER BY impact, id LIMIT 1), 0),
         floor_id = coalesce((SELECT id FROM champions c WHERE c.term = champion_terms.term ORDER BY impact, id LIMIT 1), 0)
       WHERE term IN (SELECT term FROM temp.champion_touched)`,
    ).run();
    this.sql(
      "DELETE FROM champion_terms WHERE kept <= 0 AND complete = 1 AND term IN (SELECT term FROM temp.champion_touched)",
    ).run();
    const short = this.sql(
      "SELECT term FROM champion_terms WHERE complete = 0 AND kept < ? AND term IN (SELECT a FROM temp.champion_counts)",
    )
      .raw(true)
      .all(this.listRows) as unknown[][];
    if (this.pending) this.termRows.merged(common);
    else this.termRows.stale();
    this.pending?.clear();
    this.sql("UPDATE library_meta SET value = '0' WHERE key = 'champion_backlog'").run();
    const rebuilt = [...short.map(([term]) => String(term)), ...common];
    if (rebuilt.length > 0) this.rebuild(rebuilt);
  }

  /** Records a list's size and last row as they stand in `champions` (after a rebuild). */
  private recount(term: string, complete: boolean): void {
    const [kept, floor, floorId] = this.sql(
      `SELECT count(*), (SELECT impact FROM champions WHERE term = ?1 ORDER BY impact, id LIMIT 1),
         (SELECT id FROM champions WHERE term = ?1 ORDER BY impact, id LIMIT 1) FROM champions WHERE term = ?1`,
    )
      .raw(true)
      .get(term) as [number, number | null, number | null];
    if (kept === 0) this.sql("DELETE FROM champion_terms WHERE term = ?").run(term);
    else
      this.sql(
        "INSERT OR REPLACE INTO champion_terms (term, kept, complete, floor, floor_id) VALUES (?, ?, ?, ?, ?)",
      ).run(term, kept, complete ? 1 : 0, floor, floorId);
  }

  /**
   * Builds the lists of `terms` (every term of the index when undefined) from the FTS5 index:
   * each term's rows and per-field counts from an `fts5vocab` instance table, their lengths from
   * `section_lengths`. Inside the writer's transaction.
   */
  rebuild(terms?: readonly string[], onProgress?: (progress: ChampionBuildProgress) => void): void {
    this.db.exec(
      `CREATE VIRTUAL TABLE IF NOT EXISTS temp.section_instances USING fts5vocab(main, section_terms, instance);
       CREATE VIRTUAL TABLE IF NOT EXISTS temp.section_vocabulary USING fts5vocab(main, section_terms, row);`,
    );
    const weight = `CASE col ${SECTION_FIELDS.map((f) => `WHEN '${f.name}' THEN ${f.weight}`).join(" ")} ELSE 1 END`;
    const clear = this.sql("DELETE FROM champions WHERE term = ?");
    const fill = this.sql(
      `INSERT INTO champions (term, impact, id, wf, len)
       SELECT ?1, ${IMPACT_SQL}, id, wf, len FROM (
         SELECT i.doc AS id, sum(${weight}) AS wf, l.len AS len
         FROM temp.section_instances i JOIN section_lengths l ON l.id = i.doc
         WHERE i.term = ?1 GROUP BY i.doc)
       ORDER BY ${IMPACT_SQL} DESC, id DESC LIMIT ?2`,
    );
    const drop = this.sql("DELETE FROM champion_terms WHERE term = ?");
    const counted = terms
      ? terms.map((term) => [term, this.vocabularyRows(term)] as const)
      : ((this.sql("SELECT term, doc FROM temp.section_vocabulary").raw(true).all() as unknown[][]).map(
          ([term, rows]) => [String(term), Number(rows)] as const,
        ) as ReadonlyArray<readonly [string, number]>);
    const total = terms ? 0 : counted.reduce((n, [, rows]) => n + (rows > this.listRows ? 1 : 0), 0);
    let done = 0;
    for (const [term, rows] of counted) {
      // Built whole (a migration): rare terms get no list (see `newlyCommon`).
      if (!terms && rows <= this.listRows) continue;
      if (onProgress && total > 0 && done % PROGRESS_EVERY.lists === 0)
        onProgress({ phase: "lists", done, total });
      done += 1;
      clear.run(term);
      const kept = rows > 0 ? fill.run(term, this.kept).changes : 0;
      if (kept === 0) drop.run(term);
      else this.recount(term, rows <= kept);
    }
    if (onProgress && total > 0) onProgress({ phase: "lists", done: total, total });
  }

  /** Rows of the index holding `term` (FTS5's vocabulary, tombstones excluded). */
  private vocabularyRows(term: string): number {
    const row = this.sql("SELECT doc FROM temp.section_vocabulary WHERE term = ?").raw(true).get(term) as
      | unknown[]
      | undefined;
    return Number(row?.[0] ?? 0);
  }

  /**
   * Fills `section_lengths` from FTS5's own document sizes (the migration of a file written
   * before champion lists). Inside the writer's transaction.
   */
  fillLengths(onProgress?: (progress: ChampionBuildProgress) => void): void {
    const insert = this.sql("INSERT OR REPLACE INTO section_lengths (id, len) VALUES (?, ?)");
    const total = onProgress
      ? Number((this.sql("SELECT count(*) FROM section_terms_docsize").raw(true).get() as unknown[])[0])
      : 0;
    let done = 0;
    for (const row of this.sql("SELECT id, sz FROM section_terms_docsize")
      .raw(true)
      .iterate() as IterableIterator<unknown[]>) {
      if (onProgress && total > 0 && done % PROGRESS_EVERY.lengths === 0)
        onProgress({ phase: "lengths", done, total });
      done += 1;
      const blob = row[1];
      insert.run(row[0], blob instanceof Uint8Array ? varintSum(blob, SECTION_FIELDS.length) : 0);
    }
    if (onProgress && total > 0) onProgress({ phase: "lengths", done: total, total });
  }

  /**
   * The best rows of each term's list and pending rows (at most `perTerm` each), scored as FTS5's
   * bm25 scores them on these terms: a row's rank sums the contributions of the lists it is in,
   * exact for a row holding no other query term. `hits` is each term's document frequency when
   * known (the caller's probe counted it); else it is read from the index. Terms without a list
   * have no row. Undefined when a list that does not hold every row of its term has fewer than
   * `atLeast` (default `perTerm`) rows left above its floor since documents were removed: its
   * best rows are then not known until the next merge, and the caller scores with FTS5.
   */
  best(
    terms: ReadonlyArray<{ term: string; hits?: number }>,
    perTerm = this.perTerm,
    atLeast = perTerm,
  ): ChampionRow[] | undefined {
    const stats = bm25Stats(this.sql);
    const backlog = this.pending !== undefined && this.backlog() > 0;
    const list = this.sql("SELECT complete, floor, floor_id FROM champion_terms WHERE term = ?").raw(true);
    const scores = new Map<number, number>();
    for (const { term, hits } of terms) {
      const meta = list.get(term) as [number, number, number] | undefined;
      let rows: ReadonlyArray<Pick<TermRow, "id" | "wf" | "len">>;
      // No list: a rare term (in at most `listRows` rows at the last merge), its rows read whole.
      if (!meta) rows = instanceRows(this.sql, "temp.section_instances", term, perTerm);
      else if (backlog && this.pending) {
        const listed = readJsonRows<[string, number, string, number]>(
          this.listed("backlog"),
          term,
          perTerm,
        ).map(([impact, id, wf, len]) => ({ impact: Number(impact), id, wf: Number(wf), len }));
        let merged = this.withPending(listed, this.pending.rows(term, perTerm), perTerm);
        const [complete, floor, floorId] = meta;
        if (complete !== 1) {
          // Rows below the list's last row may rank below rows the list never kept.
          merged = merged.filter((r) => r.impact > floor || (r.impact === floor && r.id >= floorId));
          if (merged.length < Math.min(perTerm, atLeast)) return undefined;
        }
        rows = merged;
      } else {
        // Without a backlog the floor is applied as the list is read: the rows above it are a
        // prefix of the list's order, so these are the best `perTerm` of them, as above.
        const [complete, floor, floorId] = meta;
        const read = complete === 1 ? this.listed("whole") : this.listed("above");
        rows = readJsonRows<[number, string, number]>(
          read,
          term,
          perTerm,
          ...(complete === 1 ? [] : [floor, floorId]),
        ).map(([id, wf, len]) => ({ id, wf: Number(wf), len }));
        if (complete !== 1 && rows.length < Math.min(perTerm, atLeast)) return undefined;
      }
      if (rows.length === 0) continue;
      const weight = idf(stats.rows, hits ?? this.hits(term));
      for (const row of rows) {
        const score = weight * saturated(row.wf, row.len, stats.averageLength);
        scores.set(row.id, (scores.get(row.id) ?? 0) + score);
      }
    }
    return [...scores].map(([id, score]) => ({ id, rank: -score }));
  }

  /**
   * The statement reading a term's list, best first (`?1` the term, `?2` how many rows). With a
   * backlog (`backlog`): without the gone documents' rows, with each row's impact (the pending
   * rows are merged in by it, then the list's floor applies). Without one: every row (`whole`, a
   * complete list) or the rows above the floor (`above`: `?3`, `?4`), read without their impacts
   * (a number the less printed and parsed a row: a query reads ~300 at scale).
   */
  private listed(rows: "backlog" | "whole" | "above"): Statement {
    if (rows === "backlog")
      return this.sql(
        jsonRowsSql(
          // Gone documents are in the backlog: without one, `champion_gone` is empty.
          `SELECT impact, id, wf, len FROM champions
           WHERE term = ?1 AND id / ${SECTION_ID.perDocument} NOT IN (SELECT doc FROM champion_gone)
           ORDER BY impact DESC, id DESC LIMIT ?2`,
          [exactReal("impact"), "id", exactReal("wf"), "len"],
        ),
      );
    const above = rows === "above" ? "AND (impact > ?3 OR (impact = ?3 AND id >= ?4))" : "";
    return this.sql(
      jsonRowsSql(
        `SELECT id, wf, len FROM champions WHERE term = ?1 ${above} ORDER BY impact DESC, id DESC LIMIT ?2`,
        ["id", exactReal("wf"), "len"],
      ),
    );
  }

  /** The best `limit` of a term's listed rows and pending rows (each best first). */
  private withPending(listed: readonly TermRow[], pending: readonly TermRow[], limit: number): TermRow[] {
    return pending.length === 0 ? [...listed] : [...listed, ...pending].sort(byImpact).slice(0, limit);
  }

  /** Rows of the index holding `term` (FTS5's count, tombstones excluded). */
  private hits(term: string): number {
    const query = `"${term.replaceAll('"', '""')}"`;
    return Number(
      (
        this.sql("SELECT count(*) FROM section_terms WHERE section_terms MATCH ?")
          .raw(true)
          .get(query) as unknown[]
      )[0],
    );
  }
}

/** A document's section row-id range (see {@link SECTION_ID}). */
export function documentRange(doc: number): [number, number] {
  const first = doc * SECTION_ID.perDocument;
  return [first, first + SECTION_ID.perDocument - 1];
}
