/**
 * A check, on open, that the library's tables have been vacuumed since they grew. Library-wide
 * queries read the champion lists with index-only scans, which skip the table only on pages the
 * visibility map marks all-visible, and only VACUUM marks them. Autovacuum does it while the
 * server keeps its table statistics; a crash restart resets them (every `n_live_tup` reads 0),
 * and a bulk import can finish before autovacuum's turn. Then each list entry costs a heap visit:
 * the 100,000-document bench library had 8 of 54,600 list pages all-visible after a crash, and
 * its queries ran several times slower until `VACUUM (ANALYZE)`. Nothing fails, so without this
 * check nobody would know.
 */

import type { PostgresQueryable } from "./connection.js";
import { PostgresStoreError } from "./errors.js";

/** Tables smaller than this (8 MB at PostgreSQL's 8 kB pages) are not worth a warning. */
export const MAINTENANCE_WARNING_PAGES = 1_000;

/** A library table most of whose pages no vacuum has marked all-visible. */
export interface UnvacuumedTable {
  /** The table's name, without its schema. */
  table: string;
  /** Its size now, in pages. */
  pages: number;
  /** Pages the visibility map marked all-visible at the last vacuum. */
  allVisiblePages: number;
}

/**
 * The library needs a `VACUUM (ANALYZE)` of its schema: its queries still answer, slower.
 * Reported through the store's `onProblem`, once per open.
 * @example
 * ```ts
 * const store = await openPostgresStore(url, {
 *   onProblem: (problem) => {
 *     if (problem instanceof PostgresMaintenanceWarning) console.warn(problem.message, problem.tables);
 *   },
 * });
 * ```
 */
export class PostgresMaintenanceWarning extends PostgresStoreError {
  /** The schema to vacuum, as written in SQL (quoted). */
  readonly schema: string;
  readonly tables: readonly UnvacuumedTable[];

  constructor(schema: string, tables: readonly UnvacuumedTable[]) {
    const named = tables
      .map((t) => `${t.table} (${t.allVisiblePages} of ${t.pages} pages all-visible)`)
      .join(", ");
    super(
      `PostgreSQL library ${schema} was not vacuumed since it grew: ${named}. ` +
        `Queries read the tables instead of their indexes until it is: run VACUUM (ANALYZE) on the schema's tables ` +
        "(needed after a server crash or a bulk import; autovacuum keeps it so afterwards)",
    );
    this.schema = schema;
    this.tables = tables;
  }
}

/**
 * The tables of `schema` of at least `minPages` pages of which fewer than half are marked
 * all-visible: one catalog statement (the page count is the table's size now, the all-visible
 * count what the last vacuum left).
 */
export async function findUnvacuumedTables(
  db: PostgresQueryable,
  schema: string,
  minPages = MAINTENANCE_WARNING_PAGES,
): Promise<UnvacuumedTable[]> {
  const { rows } = await db.query(
    `SELECT c.relname AS table, t.pages, c.relallvisible AS visible
     FROM pg_class c
     JOIN pg_namespace n ON n.oid = c.relnamespace
     CROSS JOIN LATERAL (SELECT pg_relation_size(c.oid) / current_setting('block_size')::int AS pages) t
     WHERE n.oid = to_regnamespace($1) AND c.relkind = 'r'
       AND t.pages >= $2 AND c.relallvisible * 2 < t.pages
     ORDER BY t.pages DESC`,
    [schema, Math.max(1, minPages)],
  );
  return rows.map((row) => ({
    table: String(row.table),
    pages: Number(row.pages),
    allVisiblePages: Number(row.visible),
  }));
}
