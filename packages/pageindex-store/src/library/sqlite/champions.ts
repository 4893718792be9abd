/**
 * Champion lists: per term, its best sections by the term's own BM25 contribution, kept in a
 * table beside the FTS5 index. A query then reads at most a few hundred rows per term instead of
 * having FTS5 score every section holding its rarest term (about 5-20 µs a row, so a cost that
 * grew with the library). Each list is exact: it holds the best `kept` rows of its term, or every
 * row of the term (`complete`). Rows read from a list are scored exactly as FTS5's bm25 scores
 * them (same averages, document frequency and field weights), so they rank beside FTS5's rows.
 */
import { SECTION_FIELDS } from "../query.js";
import type { Connection, Statement } from "./open.js";
import { SECTION_ID } from "./schema.js";



/** How many rows of each list a query reads, and how many a list keeps (the rest is slack for deletes). */
export const CHAMPIONS = {
  /** Rows a query reads per term (its best by impact). */
  perTerm: 100,
  /** Rows a list keeps at most: deleting champions refills a list only once fewer than `perTerm` are left. */
  kept: 200,
} as const;

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
    return db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'champion_terms'").raw(true).get() !== undefined;
  }

  /** Adds a section's terms to the lists they make; inside the writer's transaction. */
  add(id: number, fields: readonly string[]): void {
    const { terms, len } = weightedTerms(fields);
    this.sql("INSERT OR REPLACE INTO section_lengths (id, len) VALUES (?, ?)").run(id, len);
    const meta = this.sql("SELECT kept, complete FROM champion_terms WHERE term = ?").raw(true);
    const floor = this.sql("SELECT impact, id FROM champions WHERE term = ? ORDER BY impact, id DESC LIMIT 1")
      .raw(true);
    const insert = this.sql("INSERT INTO champions (term, impact, id, wf, len) VALUES (?, ?, ?, ?, ?)");
    const setMeta = this.sql(
      "INSERT OR REPLACE INTO champion_terms (term, kept, complete) VALUES (?, ?, ?)",
    );
    for (const [term, wf] of terms) {
      const value = impact(wf, len);
      const found = meta.get(term) as [number, number] | undefined;
      let kept = Number(found?.[0] ?? 0);
      let complete = found === undefined || found[1] === 1;
      if (!complete) {
        // The list is its term's best `kept` rows: a row below its last one may rank below rows
        // the list never kept, so it stays out.
        const last = floor.get(term) as [number, number] | undefined;
        if (last && (value < last[0] || (value === last[0] && id > last[1]))) continue;
      }
      insert.run(term, value, id, wf, len);
      kept += 1;
      if (kept > this.kept) {
        this.sql(
            "DELETE FROM champions WHERE (term, impact, id) = (SELECT term, impact, id FROM champions WHERE term = ? ORDER BY impact, id DESC LIMIT 1)",
          )
          .run(term);
        kept -= 1;
        complete = false;
      }
      setMeta.run(term, kept, complete ? 1 : 0);
    }
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
    const meta = this.sql("SELECT kept, complete FROM champion_terms WHERE term = ?").raw(true);
    for (const [term, count] of lost) {
      const [kept, complete] = (meta.get(term) as [number, number] | undefined) ?? [count, 1];
      const left = Number(kept) - count;
      if (complete === 1 && left <= 0) {
        this.sql("DELETE FROM champion_terms WHERE term = ?").run(term);
      } else if (complete !== 1 && left < this.listRows) {
        this.rebuild([term]);
      } else {
        this.sql("UPDATE champion_terms SET kept = ? WHERE term = ?").run(left, term);
      }
    }
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
       ORDER BY ${IMPACT_SQL} DESC, id LIMIT ?2`,
    );
    const setMeta = this.sql("INSERT OR REPLACE INTO champion_terms (term, kept, complete) VALUES (?, ?, ?)");
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
      else setMeta.run(term, kept, rows <= kept ? 1 : 0);
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
    const read = this.sql("SELECT id, wf, len FROM champions WHERE term = ? ORDER BY impact DESC, id LIMIT ?").raw(
      false,
    );
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
