/**
 * The pending lists of the library's full-text (GIN) indexes, emptied by each write. A GIN index
 * built with `fastupdate` (PostgreSQL's default) queues new entries in an unsorted pending list
 * until it passes `gin_pending_list_limit` (4 MB) or a vacuum runs, and every search of the index
 * reads the whole list: 430 pages (~2,000 sections) in the 100,000-document bench library, most
 * of the co-occurrence statement's 450 buffers, where the terms' own posting lists are a few
 * pages. Autovacuum empties it only when its statistics say the table changed (they are lost
 * with a server's crash). So each write transaction moves what it queued into the index
 * (`gin_clean_pending_list`): a bulk write of 500 documents flushes once, as the 4 MB limit would
 * have; a one-document write merges its few hundred entries at once.
 */
import type { PostgresQueryable } from "./connection.js";

export class PostgresGinPending {
  private constructor(
    /** The (schema-qualified, quoted) GIN indexes whose lists are emptied. */
    readonly indexes: readonly string[],
  ) {}

  /**
   * The cleaner of those of `indexes` this connection's role may clean (PostgreSQL lets only an
   * index's owner, or a member of its role, empty its list), or undefined when none: then a
   * vacuum does it, as before.
   */
  static async open(
    db: PostgresQueryable,
    indexes: readonly string[],
  ): Promise<PostgresGinPending | undefined> {
    const { rows } = await db.query(
      `SELECT i.name FROM unnest($1::text[]) AS i(name) JOIN pg_class c ON c.oid = to_regclass(i.name)
       WHERE pg_has_role(c.relowner, 'USAGE')`,
      [[...indexes]],
    );
    const owned = rows.map((row) => row.name as string);
    return owned.length > 0 ? new PostgresGinPending(owned) : undefined;
  }

  /** Moves the pending entries into the indexes; inside the writer's transaction, after its inserts. */
  async clean(db: PostgresQueryable): Promise<void> {
    await db.query("SELECT gin_clean_pending_list(i::regclass) FROM unnest($1::text[]) AS i", [
      [...this.indexes],
    ]);
  }
}
