/**
 * Champion lists: per term, its best sections by the term's own BM25 contribution, kept in a
 * table beside the FTS5 index. A query then reads at most a few hundred rows per term instead of
 * having FTS5 score every section holding its rarest term (about 5-20 µs a row, so a cost that
 * grew with the library). Each list is exact: it holds the best `kept` rows of its term, or every
 * row of the term (`complete`). Rows read from a list are scored exactly as FTS5's bm25 scores
 * them (same averages, document frequency and field weights), so they rank beside FTS5's rows.
 */
import { SECTION_FIELDS } from "../query.js";
import type { Connection, Statement } from "./connection.js";
import { SECTION_ID } from "./schema.js";

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
} as const;

/** Rows per statement filling a temp table (see `ChampionLists.batch`). */
const BATCH_ROWS = 100;

/** FTS5's bm25 constants. */
const K1 = 1.2;
const B = 0.75;
/**
 * The length a list's order assumes for the average section: a stored impact must not change
 * when the library's average does, or a list would need re-sorting on every write. Only the
 * order of a list uses it; scores use the index's own average (see {@link Bm25Stats}).
 */
const REFERENCE_LENGTH = 100;

/** A term's weight in a row and the row's length: what FTS5's bm25 reads of a row. */
function saturated(wf: number, len: number, averageLength: number): number {
  return (wf * (K1 + 1)) / (wf + K1 * (1 - B + (B * len) / averageLength));
}

/** The order of a list: the term's bm25 factor at the reference length. */
export function impact(wf: number, len: number): number {
  return saturated(wf, len, REFERENCE_LENGTH);
}

/** SQL for {@link impact} over columns `wf` and `len`. */
const IMPACT_SQL = `(wf * ${K1 + 1}) / (wf + ${K1} * (${1 - B} + ${B} * len / ${REFERENCE_LENGTH}.0))`;

/** FTS5 tokens of a field (unicode61 splits on anything but letters and digits). */
const tokens = (field: string) => field.split(/[^\p{L}\p{N}]+/u).filter((t) => t.length > 0);

/** A section's terms with their field-weighted counts, and its length in tokens (as FTS5 counts them). */
export function weightedTerms(fields: readonly string[]): { terms: Map<string, number>; len: number } {
  const terms = new Map<string, number>();
  let len = 0;
  fields.forEach((field, i) => {
    const weight = SECTION_FIELDS[i]?.weight ?? 1;
    for (const token of tokens(field)) {
      terms.set(token, (terms.get(token) ?? 0) + weight);
      len += 1;
    }
  });
  return { terms, len };
}

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

/** The FTS5 averages record of `section_terms` (row count, then each column's total tokens). */
export function bm25Stats(db: Connection): Bm25Stats {
  const row = db.prepare("SELECT block FROM section_terms_data WHERE id = 1").raw(true).get() as
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
 * The champion lists of a library index file: kept on every write (inside the writer's
 * transaction), built from the FTS5 index itself on the first writable open of a file that has
 * none, read by queries.
 */
export class ChampionLists {
  /** Rows a query reads per term. */
  readonly perTerm: number;
  /** Rows per term the file's lists are built for: fewer left after deletes, a list is rebuilt. */
  private readonly listRows: number;
  /** Rows a list keeps at most (twice `listRows`: the slack deletes use up before a refill). */
  readonly kept: number;

  /**
   * @param sql prepares a statement once per connection (the index's statement cache).
   * @param listRows the rows per term the file's lists are built for (they keep twice as many).
   * @param perTerm rows a query reads per term (at most `listRows`; default `listRows`).
   */
  constructor(
    private readonly db: Connection,
    private readonly sql: (source: string) => Statement,
    listRows: number = CHAMPIONS.perTerm,
    perTerm?: number,
  ) {
    this.listRows = Math.max(1, Math.floor(listRows));
    this.kept = Math.round((CHAMPIONS.kept / CHAMPIONS.perTerm) * this.listRows);
    this.perTerm = Math.max(1, Math.min(this.listRows, Math.floor(perTerm ?? this.listRows)));
  }

  /** Whether the file has the tables (a file of an earlier release opened read-only has not). */
  static present(db: Connection): boolean {
    return (
      db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'champion_terms'").raw(true).get() !== undefined
    );
  }

  /**
   * Adds a document's sections to the lists their terms make; inside the writer's transaction.
   * A few statements per document whatever its terms (a statement costs libsql ~50 µs): the rows
   * that make their lists go in at once, then the lists' sizes and last rows, then the lists
   * grown past `kept` lose their last rows.
   */
  add(sections: ReadonlyArray<{ id: number; fields: readonly string[] }>): void {
    const rows: Array<[string, number, number, number, number]> = [];
    const lengths: Array<[number, number]> = [];
    for (const { id, fields } of sections) {
      const { terms, len } = weightedTerms(fields);
      lengths.push([id, len]);
      for (const [term, wf] of terms) rows.push([term, impact(wf, len), id, wf, len]);
    }
    if (lengths.length === 0) return;
    this.batch("lengths", lengths);
    this.sql("INSERT OR REPLACE INTO section_lengths (id, len) SELECT a, b FROM temp.champion_lengths").run();
    this.batch("rows", rows);
    // A list short of its term's rows holds their best `kept`: a row below its last one may rank
    // below rows it never kept, so it stays out.
    const added = this.sql(
      `INSERT INTO champions (term, impact, id, wf, len)
       SELECT n.a, n.b, n.c, n.d, n.e FROM temp.champion_rows n
       LEFT JOIN champion_terms m ON m.term = n.a
       WHERE m.term IS NULL OR m.complete = 1 OR n.b > m.floor OR (n.b = m.floor AND n.c > m.floor_id)
       RETURNING term, impact, id`,
    )
      .raw(true)
      .all() as Array<[string, number, number]>;
    if (added.length === 0) return;
    const byTerm = new Map<string, [number, number, number]>();
    for (const [term, value, id] of added) {
      const seen = byTerm.get(term);
      if (!seen) byTerm.set(term, [1, value, id]);
      else {
        seen[0] += 1;
        if (value < seen[1] || (value === seen[1] && id < seen[2])) [seen[1], seen[2]] = [value, id];
      }
    }
    this.batch(
      "counts",
      [...byTerm].map(([term, [count, value, id]]) => [term, count, value, id]),
    );
    const grown = this.sql(
      `INSERT INTO champion_terms (term, kept, complete, floor, floor_id)
       SELECT a, b, 1, c, d FROM temp.champion_counts WHERE true
       ON CONFLICT (term) DO UPDATE SET
         kept = kept + excluded.kept,
         floor_id = CASE WHEN excluded.floor < floor OR (excluded.floor = floor AND excluded.floor_id < floor_id)
           THEN excluded.floor_id ELSE floor_id END,
         floor = min(floor, excluded.floor)
       RETURNING term, kept`,
    )
      .raw(true)
      .all() as Array<[string, number]>;
    for (const [term, kept] of grown) if (kept > this.kept) this.trim(term, kept - this.kept);
  }

  /**
   * Fills a connection's temp table (`champion_<name>`, columns a…e) with `rows`, in statements
   * of {@link BATCH_ROWS} rows (libsql's json_each cost ~8 µs an element; a statement ~50 µs).
   */
  private batch(
    name: "lengths" | "rows" | "counts",
    rows: ReadonlyArray<ReadonlyArray<string | number>>,
  ): void {
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

  /** Drops the last `extra` rows of a list grown past `kept`: it no longer holds every row of its term. */
  private trim(term: string, extra: number): void {
    this.sql(
      `DELETE FROM champions WHERE term = ?1 AND id IN
         (SELECT id FROM champions WHERE term = ?1 ORDER BY impact, id LIMIT ?2)`,
    ).run(term, extra);
    this.sql(
      `UPDATE champion_terms SET kept = kept - ?2, complete = 0, (floor, floor_id) =
         (SELECT impact, id FROM champions WHERE term = ?1 ORDER BY impact, id LIMIT 1) WHERE term = ?1`,
    ).run(term, extra);
  }

  /**
   * Removes the rows of sections `first`…`last` (a document's row-id range) from the lists; a
   * list left with fewer than `listRows` rows of a term that has more is rebuilt from the index.
   * Inside the writer's transaction, after the sections left the FTS5 index.
   */
  remove(first: number, last: number): void {
    this.sql("DELETE FROM section_lengths WHERE id BETWEEN ? AND ?").run(first, last);
    const gone = this.sql("DELETE FROM champions WHERE id BETWEEN ? AND ? RETURNING term")
      .raw(true)
      .all(first, last) as unknown[][];
    if (gone.length === 0) return;
    const lost = new Map<string, number>();
    for (const [term] of gone) lost.set(String(term), (lost.get(String(term)) ?? 0) + 1);
    this.batch("counts", [...lost]);
    const short = this.sql(
      `UPDATE champion_terms SET kept = kept - g.b,
         floor = CASE WHEN floor_id BETWEEN ?2 AND ?3 THEN coalesce(
           (SELECT impact FROM champions c WHERE c.term = champion_terms.term ORDER BY impact, id LIMIT 1), 0)
           ELSE floor END,
         floor_id = CASE WHEN floor_id BETWEEN ?2 AND ?3 THEN coalesce(
           (SELECT id FROM champions c WHERE c.term = champion_terms.term ORDER BY impact, id LIMIT 1), 0)
           ELSE floor_id END
         FROM temp.champion_counts g WHERE champion_terms.term = g.a
       RETURNING term, kept, complete`,
    )
      .raw(true)
      .all(first, last) as Array<[string, number, number]>;
    for (const [term, kept, complete] of short) {
      if (complete !== 1 && kept < this.listRows) this.rebuild([term]);
      else if (kept <= 0) this.sql("DELETE FROM champion_terms WHERE term = ?").run(term);
    }
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
  rebuild(terms?: readonly string[]): void {
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
    for (const [term, rows] of counted) {
      clear.run(term);
      const kept = rows > 0 ? fill.run(term, this.kept).changes : 0;
      if (kept === 0) drop.run(term);
      else this.recount(term, rows <= kept);
    }
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
  fillLengths(): void {
    const insert = this.sql("INSERT OR REPLACE INTO section_lengths (id, len) VALUES (?, ?)");
    for (const row of this.sql("SELECT id, sz FROM section_terms_docsize")
      .raw(true)
      .iterate() as IterableIterator<unknown[]>) {
      const blob = row[1];
      insert.run(row[0], blob instanceof Uint8Array ? varintSum(blob, SECTION_FIELDS.length) : 0);
    }
  }

  /**
   * The best rows of each term's list (at most `perTerm` each), scored as FTS5's bm25 scores
   * them on these terms: a row's rank sums the contributions of the lists it is in, exact for a
   * row holding no other query term. `hits` is each term's document frequency when known (the
   * caller's probe counted it); else it is read from the index. Terms without a list have no row.
   */
  best(terms: ReadonlyArray<{ term: string; hits?: number }>, perTerm = this.perTerm): ChampionRow[] {
    const stats = bm25Stats(this.db);
    const read = this.sql(
      "SELECT id, wf, len FROM champions WHERE term = ? ORDER BY impact DESC, id DESC LIMIT ?",
    ).raw(false);
    const scores = new Map<number, number>();
    for (const { term, hits } of terms) {
      const rows = read.all(term, perTerm) as Array<{ id: number; wf: number; len: number }>;
      if (rows.length === 0) continue;
      const weight = idf(stats.rows, hits ?? this.hits(term));
      for (const row of rows) {
        const score = weight * saturated(row.wf, row.len, stats.averageLength);
        scores.set(row.id, (scores.get(row.id) ?? 0) + score);
      }
    }
    return [...scores].map(([id, score]) => ({ id, rank: -score }));
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
