/**
 * Node counts (the length prior of `rankDocuments`) in a narrow table beside the cards: a query
 * reads a few documents' counts from its btree (index entries only) where reading them from the
 * cards meant a heap page of a wide row each, cold at scale (20-100 ms a query at 1,000,000
 * documents). Built and kept with the champion lists (`championRows`): a library without them
 * reads the cards as before.
 */
import type { PostgresQueryable } from "./connection.js";
import type { LibraryTables } from "./library-schema.js";

export class PostgresNodeCounts {
  constructor(
    /** The (quoted) table name. */
    readonly table: string,
    private readonly library: LibraryTables,
  ) {}

  /** Whether the table exists (a library of an earlier release, or without lists, has none). */
  static async present(db: PostgresQueryable, table: string): Promise<boolean> {
    const { rows } = await db.query("SELECT to_regclass($1) AS found", [table]);
    return Boolean(rows[0]?.found);
  }

  /** Creates the table and fills it from the stored cards; inside the writer's transaction. */
  async build(db: PostgresQueryable): Promise<void> {
    await db.query(
      `CREATE TABLE IF NOT EXISTS ${this.table} (doc_id text COLLATE "C" NOT NULL, nodes integer NOT NULL, PRIMARY KEY (doc_id) INCLUDE (nodes))`,
    );
    await db.query(`TRUNCATE ${this.table}`);
    await this.copy(db, undefined);
  }

  /** Copies the counts of `docIds` (or of every card) from their cards, just written. */
  async copy(db: PostgresQueryable, docIds: readonly string[] | undefined): Promise<void> {
    await db.query(
      `INSERT INTO ${this.table} (doc_id, nodes)
       SELECT doc_id, coalesce((card->>'nodeCount')::int, 0) FROM ${this.library.cards}
       ${docIds ? "WHERE doc_id = ANY($1::text[])" : ""}
       ON CONFLICT (doc_id) DO UPDATE SET nodes = EXCLUDED.nodes`,
      docIds ? [[...docIds]] : [],
    );
  }

  async remove(db: PostgresQueryable, docIds: readonly string[]): Promise<void> {
    await db.query(`DELETE FROM ${this.table} WHERE doc_id = ANY($1::text[])`, [[...docIds]]);
  }

  /** The counts of `docIds` (a document not indexed has none). */
  async read(db: PostgresQueryable, docIds: readonly string[]): Promise<Map<string, number>> {
    const { rows } = await db.query(
      `SELECT doc_id, nodes FROM ${this.table} WHERE doc_id = ANY($1::text[])`,
      [[...docIds]],
    );
    return new Map(rows.map((row) => [row.doc_id as string, Number(row.nodes)]));
  }
}
