/**
 * Keeps the FTS5 indexes of a library index file merged. FTS5 writes each transaction's terms as
 * a new segment and merges segments level by level (its automerge), so a library written in
 * batches holds 20-25 segments per index, and every phrase of every query seeks each of them:
 * at 100,000 documents that was half the cost of a query's term probes and co-occurrence query
 * (measured: probes 1.06 → 0.57 ms, co-occurrence query 1.72 → 0.97, cards 0.97 → 0.68 ms a
 * query once merged into one; same results, scores included). Merging rewrites the whole index
 * (17-37 s at 100,000 documents), so a writer merges once the sections written or removed since the
 * last merge reach half the sections the index held then: the cost stays within about three
 * merges of the final index, and at most a third of a growing index sits outside the merged
 * segment. `vacuum` merges whatever is due or not. A file written before this count has none: its
 * first writable open merges it (see {@link migrateSegments}), as it builds champion lists.
 */
import type { Connection, Statement } from "./connection.js";

/** When a writer merges: sections written or removed since the last merge, against the index's rows then. */
export const SEGMENT_MERGE = {
  /** Merged once the sections written or removed since reach this share of the rows merged then. */
  growth: 0.5,
} as const;

/** The FTS5 tables merged (the champion lists' pending table is merged by each list merge). */
const MERGED_TABLES = ["section_terms", "card_terms"] as const;

/** `library_meta` keys: sections written or removed since the last merge, and the rows merged then. */
const KEYS = { written: "segments_written", merged: "segments_merged_rows" } as const;

/** The count of a new file (created with the schema): nothing written, nothing merged. */
export const SEGMENT_KEYS_SCHEMA = `INSERT OR IGNORE INTO library_meta (key, value) VALUES ('${KEYS.written}', '0'), ('${KEYS.merged}', '0');`;

/**
 * Merges the indexes of a file written without the count (an earlier release's), in one
 * transaction on its first writable open: its queries then seek one segment per term at once,
 * not after half its size is written again.
 */
export function migrateSegments(db: Connection): void {
  const counted = db.prepare(`SELECT 1 FROM library_meta WHERE key = '${KEYS.merged}'`).raw(true).get();
  if (counted !== undefined) return;
  db.transaction(() => new SegmentMerges((source) => db.prepare(source)).merge()).immediate();
}

/**
 * The segment merges of one connection's writes (see the module's note). Inside the writer's
 * transactions: the merge is part of the write that triggered it, so a crash leaves the index
 * as it was before that write.
 */
export class SegmentMerges {
  /**
   * @param sql prepares a statement once per connection (the index's statement cache).
   */
  constructor(private readonly sql: (source: string) => Statement) {}

  /**
   * Sections (and cards) written or removed in this transaction, not yet added to the file's
   * count. A transaction that failed leaves its count to the next one: a merge then comes a
   * little early, never late.
   */
  private unsaved = 0;

  /** Counts sections written or removed (a document's put or drop); inside the writer's transaction. */
  wrote(rows: number): void {
    this.unsaved += Math.max(0, rows);
  }

  /**
   * Adds this transaction's count to the file's and merges the indexes when enough was written
   * since their last merge; at the end of a write transaction (one statement when not due).
   */
  settle(): void {
    if (this.unsaved === 0) return;
    const row = this.sql(
      `INSERT INTO library_meta (key, value) VALUES ('${KEYS.written}', ?)
       ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + excluded.value
       RETURNING CAST(value AS INTEGER)`,
    )
      .raw(true)
      .get(String(this.unsaved)) as unknown[] | undefined;
    this.unsaved = 0;
    const written = Number(row?.[0] ?? 0);
    if (written >= SEGMENT_MERGE.growth * this.meta(KEYS.merged)) this.merge();
  }

  /** Merges each FTS5 index into one segment (FTS5's optimize) and records it; inside the writer's transaction. */
  merge(): void {
    for (const table of MERGED_TABLES) this.sql(`INSERT INTO ${table} (${table}) VALUES ('optimize')`).run();
    // The sections there are (FTS5's own row count keeps deleted rows: it is not the index's size).
    const rows = Number(
      (this.sql("SELECT count(*) FROM sections").raw(true).get() as unknown[] | undefined)?.[0] ?? 0,
    );
    const set = this.sql("INSERT OR REPLACE INTO library_meta (key, value) VALUES (?, ?)");
    set.run(KEYS.merged, String(rows));
    set.run(KEYS.written, "0");
  }

  private meta(key: string): number {
    const row = this.sql("SELECT value FROM library_meta WHERE key = ?").raw(true).get(key) as
      | unknown[]
      | undefined;
    return Number(row?.[0] ?? 0);
  }
}
