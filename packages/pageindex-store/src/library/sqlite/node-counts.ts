/**
 * Each document's node count (the length prior of `rankDocuments`) in a narrow table of its own,
 * one row a document: a query asks for the counts of the ~80 documents that can still change its
 * ranking, and counting each one's row-id range in `section_lengths` (or `sections`) read pages
 * spread over a table of one row per section (844,111 rows at 100,000 documents, past a reader's
 * page cache), where this table's 100,000 rows fit on a few hundred pages. Written in the same
 * transaction as the document's sections (so a reader never sees the two disagree, and a crash
 * loses neither), filled from `sections` on the first writable open of a file written without it.
 */
import type { Connection, Statement } from "./connection.js";
import { jsonRowsSql, readJsonRows } from "./json-rows.js";
import { NODE_COUNTS_SCHEMA, SECTION_ID } from "./schema.js";

/** Whether a file has the table (one of an earlier release opened read-only has not). */
export function hasNodeCounts(db: Connection): boolean {
  return (
    db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'document_nodes'").raw(true).get() !== undefined
  );
}

/**
 * Adds the table to a file written without it, filled from its sections, in one transaction: a
 * crash leaves the file as it was and the next writable open fills it again.
 */
export function migrateNodeCounts(db: Connection): void {
  if (hasNodeCounts(db)) return;
  db.transaction(() => {
    db.exec(NODE_COUNTS_SCHEMA);
    db.exec(
      `INSERT INTO document_nodes (doc, nodes)
       SELECT id / ${SECTION_ID.perDocument}, count(*) FROM sections GROUP BY id / ${SECTION_ID.perDocument}`,
    );
  }).immediate();
}

/** A handle's reads and writes of the node counts (statements from the index's cache). */
export class NodeCounts {
  /**
   * @param sql prepares a statement once per connection (the index's statement cache).
   * @param present whether the file has the table; without it (an earlier release's file opened
   *   read-only) counts are read from `fallback`, a table of one row per section.
   */
  constructor(
    private readonly sql: (source: string) => Statement,
    private readonly present: boolean,
    private readonly fallback: "sections" | "section_lengths",
  ) {}

  /** Records a document's node count; inside the writer's transaction. */
  put(doc: number, nodes: number): void {
    this.sql("INSERT OR REPLACE INTO document_nodes (doc, nodes) VALUES (?, ?)").run(doc, nodes);
  }

  /** Forgets a document's node count; inside the writer's transaction. */
  remove(doc: number): void {
    this.sql("DELETE FROM document_nodes WHERE doc = ?").run(doc);
  }

  /** Node counts of document rows (those with none left out), in one statement whatever the list. */
  read(docs: readonly number[]): Array<{ doc: number; nodes: number }> {
    // A JSON array parameter: one statement in the cache for every list.
    const source = this.present
      ? "SELECT n.doc AS doc, n.nodes AS nodes FROM json_each(?) AS j JOIN document_nodes n ON n.doc = j.value"
      : // A document's sections are one row-id range: counting it reads a few index rows.
        `SELECT j.value AS doc, (SELECT count(*) FROM ${this.fallback} WHERE id BETWEEN j.value * ${SECTION_ID.perDocument}
         AND j.value * ${SECTION_ID.perDocument} + ${SECTION_ID.perDocument - 1}) AS nodes FROM json_each(?) AS j`;
    // Integers: JSON keeps them exact (see json-rows.ts).
    const rows = readJsonRows<[number, number]>(
      this.sql(jsonRowsSql(source, ["doc", "nodes"])),
      JSON.stringify(docs),
    );
    return rows.flatMap(([doc, nodes]) =>
      Number(nodes) > 0 ? [{ doc: Number(doc), nodes: Number(nodes) }] : [],
    );
  }
}
