/**
 * Champion lists on PostgreSQL: per term, its best sections (and, in lists of their own, its best
 * document cards) by the term's own weighted frequency
 * (`ts_rank` of the term alone, which the ranking saturates and weighs by IDF), in a narrow table
 * under a btree, kept in the writer's transaction. A query reads at most `perTerm` index entries
 * per term instead of the rarest terms' every section from the heap (400-1,000 rows at 100,000
 * documents, one heap page each when cold, and `ts_rank` on each). The section ranking normalises
 * by length against a fixed reference (`termRankSql`), not the library's average, so a row's
 * place in a list never depends on the rest of the library: a list is exactly the best `kept`
 * rows of its term (or all of them, `complete`).
 *
 * Writes do not touch the lists: a write adds its rows to a pending table (one insert), which
 * queries read beside the lists; once `mergeSections` sections have piled up, the write that
 * passes the mark merges them into the lists in SQL (each list touched once for many documents,
 * as the folder store does). Deletes take rows out of both at once.
 */
import { CHAMPIONS } from "../library/sqlite/champions.js";
import type { PostgresQueryable } from "./connection.js";
import type { LibraryTables } from "./library-schema.js";
import { CARD_RANK_WEIGHTS, REFERENCE_LENGTH, SECTION_RANK_WEIGHTS, termRankSql } from "./library-vectors.js";

/** Table names of one kind of champion lists inside the library's (quoted) schema. */
export interface ChampionTables {
  /** One row per (term, row) kept: the term's `ts_rank` in the row. */
  rows: string;
  /** One row per term with a list: its size, whether it holds every row of the term, its last row. */
  terms: string;
  /** Rows written since the last merge, read by queries beside the lists (as `rows`). */
  pending: string;
}

/** Sections (or cards) written since the last merge at which a write merges them (see {@link PostgresChampionLists}). */
export const PG_MERGE_SECTIONS = 5_000;

/** What a kind of lists ranks: sections, or document cards (a card's node is '', never back matter). */
export interface ChampionSource {
  kind: "sections" | "cards";
  /** The ranked table (alias `s`). */
  table: string;
  /** ts_rank's weights, as the ranking reads that table. */
  weights: string;
  node: string;
  backMatter: string;
  /**
   * The node-count table whose counts each list row carries (column `nodes`, in the list index),
   * when the lists have that column: the sections' lists of a library with node counts. A query
   * then takes the length prior of every document its lists meet from the index entries it
   * reads, where it looked each document up (~250 probes a query at 100,000 documents).
   */
  nodeCounts?: string;
}

/**
 * The lists of sections, or of cards, of a library (`schema` quoted); `nodeCounts`, the node-count
 * table the sections' rows carry counts of (see {@link ChampionSource.nodeCounts}).
 */
export function championSource(
  schema: string,
  library: LibraryTables,
  kind: "sections" | "cards",
  nodeCounts?: string,
): { tables: ChampionTables; source: ChampionSource } {
  const prefix = kind === "sections" ? "library_champion" : "library_card_champion";
  return {
    tables: {
      rows: `${schema}.${prefix}s`,
      terms: `${schema}.${prefix}_terms`,
      pending: `${schema}.${prefix}_pending`,
    },
    source:
      kind === "sections"
        ? {
            kind,
            table: library.sections,
            weights: SECTION_RANK_WEIGHTS,
            node: "s.node_id",
            backMatter: "s.back_matter",
            ...(nodeCounts ? { nodeCounts } : {}),
          }
        : { kind, table: library.cards, weights: CARD_RANK_WEIGHTS, node: "''", backMatter: "false" },
  };
}

/** SQL for the one-term tsquery of a lexeme column (terms are letters and digits; quotes escaped all the same). */
const termQuery = (column: string) =>
  `('''' || replace(replace(${column}, '\\', '\\\\'), '''', '''''') || '''')::tsquery`;

/** The term's weighted frequency in a row, exactly as the ranking computes it. */
const rankOf = (source: ChampionSource, column: string) =>
  termRankSql("s", source.weights, termQuery(column));

/** Order of a list: best rank first, then document order (as `bySectionScore` breaks ties). */
const LIST_ORDER = "rank DESC, doc_id, node_id";
/** `LIST_ORDER` backwards: a list's last rows first (what a trim deletes). */
const LIST_ORDER_BACKWARDS = "rank, doc_id DESC, node_id DESC";

/** The columns of a list row, as a source's lists store them (`nodes` when they carry counts), each after `alias`. */
const rowColumns = (source: ChampionSource, alias = "") =>
  ["term", "rank", "doc_id", "node_id", "back_matter", ...(source.nodeCounts ? ["nodes"] : [])]
    .map((column) => `${alias}${column}`)
    .join(", ");

/**
 * A table of list rows, one per (term, section): the lists themselves and their pending rows
 * alike. `nodes` (the document's node count) is nullable: a row an earlier release's writer
 * added has none, and a query looks that document's count up as it did.
 */
function listRowsTable(name: string, source: ChampionSource): string {
  return `CREATE TABLE IF NOT EXISTS ${name} (
    term text COLLATE "C" NOT NULL,
    rank float8 NOT NULL,
    doc_id text COLLATE "C" NOT NULL,
    node_id text COLLATE "C" NOT NULL,
    back_matter boolean NOT NULL${source.nodeCounts ? ",\n    nodes integer" : ""})`;
}

/**
 * The indexes of a table of list rows: each term's rows in list order (every column a query reads
 * in the index), and a document's rows (for its removal).
 */
async function indexListRows(db: PostgresQueryable, name: string, source: ChampionSource): Promise<void> {
  const prefix = name.slice(name.lastIndexOf(".") + 1);
  await db.query(
    `CREATE INDEX IF NOT EXISTS ${prefix}_list ON ${name} (term, rank DESC, doc_id, node_id) INCLUDE (back_matter${source.nodeCounts ? ", nodes" : ""})`,
  );
  await db.query(`CREATE INDEX IF NOT EXISTS ${prefix}_doc ON ${name} (doc_id)`);
}

/** SQL selecting the postings of a source's rows (its {@link rowColumns}), `where` appended. */
const postingsSql = (source: ChampionSource, where = "") =>
  `SELECT u.lexeme AS term, ${rankOf(source, "u.lexeme")} AS rank, s.doc_id, ${source.node} AS node_id, ${source.backMatter} AS back_matter${source.nodeCounts ? ", n.nodes" : ""}
   FROM ${source.table} s${source.nodeCounts ? ` LEFT JOIN ${source.nodeCounts} n ON n.doc_id = s.doc_id` : ""}
   CROSS JOIN LATERAL unnest(s.tsv) AS u${where}`;

/**
 * Whether every one of the tables of list rows `names` that exists has the `nodes` column (an
 * earlier release's has none); true when none exists.
 */
async function haveNodes(db: PostgresQueryable, names: readonly string[]): Promise<boolean> {
  const { rows } = await db.query(
    `SELECT count(*) FILTER (WHERE a.attname IS NULL) = 0 AS carried
     FROM unnest($1::text[]) AS t(name) JOIN pg_class c ON c.oid = to_regclass(t.name)
     LEFT JOIN pg_attribute a ON a.attrelid = c.oid AND a.attname = 'nodes' AND NOT a.attisdropped`,
    [names],
  );
  return rows[0]?.carried === true;
}

/**
 * The champion lists of a PostgreSQL library index: created and built from the stored section
 * rows when asked for (`championRows`), kept on every write from then on, read by library-wide
 * queries. Every method runs inside the caller's statement or transaction.
 */
export class PostgresChampionLists {
  /** Rows per list kept at most (twice the rows a query reads: slack for deletes). */
  readonly kept: number;
  readonly perTerm: number;
  /** Sections written since the last merge at which a write merges them (0: every write merges). */
  readonly mergeSections: number;

  constructor(
    readonly tables: ChampionTables,
    private readonly source: ChampionSource,
    private readonly library: LibraryTables,
    listRows: number,
    perTerm?: number,
    mergeSections: number = PG_MERGE_SECTIONS,
  ) {
    this.kept = Math.round((CHAMPIONS.kept / CHAMPIONS.perTerm) * Math.max(1, Math.floor(listRows)));
    this.perTerm = Math.max(1, Math.min(Math.floor(listRows), Math.floor(perTerm ?? listRows)));
    this.mergeSections = Math.max(0, Math.floor(mergeSections));
  }

  /**
   * Whether the lists hold ranks of another formula than `termRankSql`'s (an earlier release's,
   * e.g. cards before they were normalised by length): one listed row of a length the factor
   * changes (among the first 64), ranked again. Such lists are built again.
   */
  static async stale(
    db: PostgresQueryable,
    tables: ChampionTables,
    source: ChampionSource,
  ): Promise<boolean> {
    const { rows } = await db.query(
      // A few listed rows first, each row's vector then by its key: bounded at any size.
      `SELECT c.rank = ${rankOf(source, "c.term")} AS same
       FROM (SELECT term, rank, doc_id, node_id FROM ${tables.rows} LIMIT 64) c
       CROSS JOIN LATERAL (SELECT s.tsv FROM ${source.table} s
         WHERE s.doc_id = c.doc_id AND ${source.node} = c.node_id) s
       WHERE length(s.tsv) <> ${REFERENCE_LENGTH} LIMIT 1`,
    );
    return rows.length > 0 && rows[0]?.same !== true;
  }

  /** Whether the lists have their pending table (lists built by an earlier release have not). */
  static async hasPending(db: PostgresQueryable, tables: ChampionTables): Promise<boolean> {
    const { rows } = await db.query("SELECT to_regclass($1) AS found", [tables.pending]);
    return Boolean(rows[0]?.found);
  }

  /**
   * Creates the pending table (in the shape of `source`'s rows), and the column counting the
   * sections in it (on the `''` term's row). Inside the writer's transaction: on build, or on the
   * first open of lists an earlier release built (the lists as they are stay exact).
   */
  static async addPending(
    db: PostgresQueryable,
    tables: ChampionTables,
    source: ChampionSource,
  ): Promise<void> {
    await db.query(listRowsTable(tables.pending, source));
    await indexListRows(db, tables.pending, source);
    await db.query(`ALTER TABLE ${tables.terms} ADD COLUMN IF NOT EXISTS pending integer NOT NULL DEFAULT 0`);
  }

  /**
   * Whether the lists' rows, and their pending rows where that table exists, carry their
   * documents' node counts (see {@link ChampionSource.nodeCounts}).
   */
  static async tablesCarryNodes(db: PostgresQueryable, tables: ChampionTables): Promise<boolean> {
    return haveNodes(db, [tables.rows, tables.pending]);
  }

  /**
   * Gives the rows of lists an earlier release built (and their pending rows) their documents'
   * node counts from `source.nodeCounts`: each table copied in list order with the counts, the
   * old one dropped, the copy renamed and indexed. Rewriting beats updating every row in place (a
   * new row version and index entries each). Inside the writer's transaction, so a crash leaves
   * the lists as they were; readers wait for the drop until it commits (measured in
   * docs/history/pageindex-store.md, warmpg17's entry: seconds at 100,000 documents).
   */
  static async addNodes(
    db: PostgresQueryable,
    tables: ChampionTables,
    source: ChampionSource,
  ): Promise<void> {
    if (!source.nodeCounts) return;
    for (const table of [tables.rows, tables.pending]) {
      // Absent, or given its counts already: nothing to copy.
      if (await haveNodes(db, [table])) continue;
      const name = table.slice(table.lastIndexOf(".") + 1);
      const copy = `${table.slice(0, table.lastIndexOf("."))}.${name}_with_nodes`;
      await db.query(`DROP TABLE IF EXISTS ${copy}`);
      await db.query(listRowsTable(copy, source));
      await db.query("SET LOCAL work_mem = '256MB'");
      await db.query(
        `INSERT INTO ${copy} (${rowColumns(source)})
         SELECT r.term, r.rank, r.doc_id, r.node_id, r.back_matter, n.nodes FROM ${table} r
         LEFT JOIN ${source.nodeCounts} n ON n.doc_id = r.doc_id
         ORDER BY r.term, r.rank DESC, r.doc_id, r.node_id`,
      );
      await db.query(`DROP TABLE ${table}`);
      await db.query(`ALTER TABLE ${copy} RENAME TO ${name}`);
      await indexListRows(db, table, source);
    }
  }

  /** The rows per term a library's lists were built for (the `''` term's row), or undefined when it has none. */
  static async listRows(db: PostgresQueryable, tables: ChampionTables): Promise<number | undefined> {
    const { rows } = await db.query("SELECT to_regclass($1) AS found", [tables.terms]);
    if (!rows[0]?.found) return undefined;
    const meta = await db.query(`SELECT kept FROM ${tables.terms} WHERE term = ''`);
    return meta.rows[0] ? Number(meta.rows[0].kept) : undefined;
  }

  /**
   * Creates the tables and builds every list from the stored sections (one pass over them, each
   * term's postings ranked by `ts_rank`, its best `kept` kept). Inside the writer's transaction.
   */
  static async build(
    db: PostgresQueryable,
    tables: ChampionTables,
    source: ChampionSource,
    library: LibraryTables,
    listRows: number,
  ): Promise<void> {
    const lists = new PostgresChampionLists(tables, source, library, listRows);
    // Dropped rather than emptied: rebuilt lists take the shape `source` asks for.
    await db.query(`DROP TABLE IF EXISTS ${tables.rows}, ${tables.pending}`);
    await db.query(listRowsTable(tables.rows, source));
    await db.query(`CREATE TABLE IF NOT EXISTS ${tables.terms} (
      term text COLLATE "C" PRIMARY KEY,
      kept integer NOT NULL,
      complete boolean NOT NULL,
      floor_rank float8,
      floor_doc text COLLATE "C",
      floor_node text COLLATE "C")`);
    await PostgresChampionLists.addPending(db, tables, source);
    await db.query(`TRUNCATE ${tables.terms}`);
    // The sort of every posting is the build's cost: give it memory rather than temp files.
    await db.query("SET LOCAL work_mem = '256MB'");
    const columns = rowColumns(source);
    await db.query(
      `INSERT INTO ${tables.rows} (${columns})
       SELECT ${columns} FROM (
         SELECT ${columns}, row_number() OVER (PARTITION BY term ORDER BY ${LIST_ORDER}) AS place
         FROM (${postingsSql(source)}) postings) ranked
       WHERE place <= $1
       ORDER BY term, ${LIST_ORDER}`,
      [lists.kept],
    );
    await indexListRows(db, tables.rows, source);
    await db.query(
      `INSERT INTO ${tables.terms} (term, kept, complete)
       SELECT c.term, count(*), count(*) >= coalesce(max(t.${source.kind}), 0) FROM ${tables.rows} c
       LEFT JOIN ${library.terms} t ON t.term = c.term GROUP BY c.term`,
    );
    await lists.refloor(db, undefined);
    await db.query(`INSERT INTO ${tables.terms} (term, kept, complete) VALUES ('', $1, true)`, [listRows]);
  }

  /**
   * Records each list's last row (the floor a new row must beat to enter), for `terms` or all.
   */
  private async refloor(db: PostgresQueryable, terms: readonly string[] | undefined): Promise<void> {
    const t = this.tables;
    await db.query(
      `UPDATE ${t.terms} m SET floor_rank = l.rank, floor_doc = l.doc_id, floor_node = l.node_id
       FROM ${t.terms} x CROSS JOIN LATERAL (
         SELECT rank, doc_id, node_id FROM ${t.rows} c WHERE c.term = x.term
         ORDER BY rank, doc_id DESC, node_id DESC LIMIT 1) l
       WHERE m.term = x.term AND x.term <> ''${terms ? " AND x.term = ANY($1::text[])" : ""}`,
      terms ? [[...terms]] : [],
    );
  }

  /**
   * Adds the rows of `docIds` (just inserted, `sections` of them): to the pending rows, merged
   * into the lists once `mergeSections` have piled up (at once when it is 0).
   */
  async add(db: PostgresQueryable, docIds: readonly string[], sections: number): Promise<void> {
    const fresh = postingsSql(this.source, " WHERE s.doc_id = ANY($1::text[])");
    if (this.mergeSections === 0) {
      await this.enter(db, fresh, [[...docIds]]);
      return;
    }
    const t = this.tables;
    await db.query(`INSERT INTO ${t.pending} (${rowColumns(this.source)}) ${fresh}`, [[...docIds]]);
    const { rows } = await db.query(
      `UPDATE ${t.terms} SET pending = pending + $1 WHERE term = '' RETURNING pending`,
      [sections],
    );
    if (Number(rows[0]?.pending ?? 0) >= this.mergeSections) await this.merge(db);
  }

  /** Merges the pending rows into the lists and empties the pending table. */
  private async merge(db: PostgresQueryable): Promise<void> {
    const t = this.tables;
    await this.enter(db, `SELECT ${rowColumns(this.source)} FROM ${t.pending}`, []);
    await db.query(`DELETE FROM ${t.pending}`);
    await db.query(`UPDATE ${t.terms} SET pending = 0 WHERE term = ''`);
  }

  /**
   * Puts the rows `fresh` selects into the lists their terms make: a row enters a list that
   * holds every row of its term, or one whose last row it beats; a list grown past `kept` loses
   * its last rows and no longer holds every row. A new term starts a complete list.
   */
  private async enter(db: PostgresQueryable, fresh: string, params: unknown[]): Promise<void> {
    const t = this.tables;
    const columns = rowColumns(this.source);
    const { rows } = await db.query(
      `WITH fresh AS (${fresh})
       INSERT INTO ${t.rows} (${columns})
       SELECT ${rowColumns(this.source, "f.")} FROM fresh f
       LEFT JOIN ${t.terms} m ON m.term = f.term
       WHERE m.term IS NULL OR m.complete OR f.rank > m.floor_rank
          OR (f.rank = m.floor_rank AND (f.doc_id, f.node_id) < (m.floor_doc, m.floor_node))
       RETURNING term`,
      params,
    );
    if (rows.length === 0) return;
    const added = new Map<string, number>();
    for (const row of rows) added.set(row.term as string, (added.get(row.term as string) ?? 0) + 1);
    const terms = [...added.keys()].sort();
    const { rows: grown } = await db.query(
      `INSERT INTO ${t.terms} (term, kept, complete) SELECT * FROM unnest($1::text[], $2::int[], $3::boolean[])
       ON CONFLICT (term) DO UPDATE SET kept = ${t.terms}.kept + EXCLUDED.kept
       RETURNING term, kept`,
      [terms, terms.map((term) => added.get(term)), terms.map(() => true)],
    );
    const grownPast = grown.filter((row) => Number(row.kept) > this.kept);
    const over = grownPast.map((row) => row.term as string);
    if (over.length > 0) {
      // Each list loses its last rows, read backwards on its list index and deleted by their
      // physical row ids (stable within the statement; the writer lock keeps others out): the
      // work is the rows that go. Numbering every row of every grown list (a window) cost
      // seconds a write at 40,000 documents and timed out under load.
      await db.query(
        `DELETE FROM ${t.rows} c USING (
           SELECT l.row_id FROM unnest($1::text[], $2::int[]) AS x(term, excess)
           CROSS JOIN LATERAL (SELECT r.ctid AS row_id FROM ${t.rows} r WHERE r.term = x.term
             ORDER BY ${LIST_ORDER_BACKWARDS} LIMIT x.excess) l) x
         WHERE c.ctid = x.row_id`,
        [over, grownPast.map((row) => Number(row.kept) - this.kept)],
      );
      await db.query(`UPDATE ${t.terms} SET kept = $2, complete = false WHERE term = ANY($1::text[])`, [
        over,
        this.kept,
      ]);
    }
    await this.refloor(db, terms);
  }

  /**
   * Removes the rows of `docIds` from the lists and the pending rows, after
   * their sections left the table (and their terms the frequencies): a list left with fewer than `perTerm` rows of a term that has more is
   * rebuilt from the sections (through the GIN index); an emptied complete list goes.
   */
  async remove(db: PostgresQueryable, docIds: readonly string[]): Promise<void> {
    const t = this.tables;
    const { rows: unmerged } = await db.query(
      `WITH gone AS (DELETE FROM ${t.pending} WHERE doc_id = ANY($1::text[]) RETURNING doc_id, node_id)
       SELECT count(DISTINCT (doc_id, node_id))::int AS sections FROM gone`,
      [[...docIds]],
    );
    const sections = Number(unmerged[0]?.sections ?? 0);
    if (sections > 0)
      await db.query(`UPDATE ${t.terms} SET pending = greatest(0, pending - $1) WHERE term = ''`, [sections]);
    const { rows } = await db.query(`DELETE FROM ${t.rows} WHERE doc_id = ANY($1::text[]) RETURNING term`, [
      [...docIds],
    ]);
    if (rows.length === 0) return;
    const lost = new Map<string, number>();
    for (const row of rows) lost.set(row.term as string, (lost.get(row.term as string) ?? 0) + 1);
    const terms = [...lost.keys()].sort();
    const { rows: left } = await db.query(
      `UPDATE ${t.terms} m SET kept = m.kept - g.n FROM unnest($1::text[], $2::int[]) AS g(term, n)
       WHERE m.term = g.term RETURNING m.term, m.kept, m.complete`,
      [terms, terms.map((term) => lost.get(term))],
    );
    const short = left
      .filter((row) => !row.complete && Number(row.kept) < this.perTerm)
      .map((row) => row.term as string);
    await db.query(`DELETE FROM ${t.terms} WHERE term = ANY($1::text[]) AND kept <= 0 AND complete`, [terms]);
    if (short.length > 0) await this.rebuild(db, short);
    await this.refloor(db, terms);
  }

  /**
   * Builds the lists of `terms` again from the sections holding them (the GIN index finds them),
   * pending ones included: the terms' pending rows go.
   */
  private async rebuild(db: PostgresQueryable, terms: readonly string[]): Promise<void> {
    const t = this.tables;
    await db.query(`DELETE FROM ${t.rows} WHERE term = ANY($1::text[])`, [[...terms]]);
    await db.query(`DELETE FROM ${t.pending} WHERE term = ANY($1::text[])`, [[...terms]]);
    const nodes = this.source.nodeCounts;
    await db.query(
      `INSERT INTO ${t.rows} (${rowColumns(this.source)})
       SELECT x.term, l.rank, l.doc_id, l.node_id, l.back_matter${nodes ? ", l.nodes" : ""} FROM unnest($1::text[]) AS x(term)
       CROSS JOIN LATERAL (
         SELECT ${rankOf(this.source, "x.term")} AS rank, s.doc_id, ${this.source.node} AS node_id, ${this.source.backMatter} AS back_matter${nodes ? `, (SELECT n.nodes FROM ${nodes} n WHERE n.doc_id = s.doc_id) AS nodes` : ""}
         FROM ${this.source.table} s WHERE s.tsv @@ ${termQuery("x.term")}
         ORDER BY ${LIST_ORDER} LIMIT $2) l`,
      [[...terms], this.kept],
    );
    await db.query(
      `UPDATE ${t.terms} m SET kept = coalesce(c.n, 0), complete = coalesce(c.n, 0) >= coalesce(f.${this.source.kind}, 0)
       FROM unnest($1::text[]) AS x(term)
       LEFT JOIN (SELECT term, count(*)::int AS n FROM ${t.rows} WHERE term = ANY($1::text[]) GROUP BY term) c ON c.term = x.term
       LEFT JOIN ${this.library.terms} f ON f.term = x.term
       WHERE m.term = x.term`,
      [[...terms]],
    );
    await db.query(`DELETE FROM ${t.terms} WHERE term = ANY($1::text[]) AND kept <= 0`, [[...terms]]);
  }

  /** Whether the rows carry their documents' node counts (see {@link ChampionSource.nodeCounts}). */
  get carriesNodes(): boolean {
    return this.source.nodeCounts !== undefined;
  }

  /**
   * SQL selecting the first `limit` rows (an SQL expression) of each term's list and pending rows
   * together (index entries only: the btrees hold every column read): `i` the term's place in
   * the array `terms` (a parameter, 1-based), then doc_id, node_id, back_matter, the term's
   * `rank` in the row and the document's `nodes` (null where the rows carry none); unordered
   * (each term's in its list's order is `i, rank DESC, doc_id, node_id`).
   */
  listSql(terms: string, limit: string): string {
    const columns = `doc_id, node_id, back_matter, rank, ${this.carriesNodes ? "nodes" : "NULL::int AS nodes"}`;
    return `SELECT x.i, l.doc_id, l.node_id, l.back_matter, l.rank, l.nodes
       FROM unnest(${terms}::text[]) WITH ORDINALITY AS x(term, i)
       CROSS JOIN LATERAL (
         (SELECT ${columns} FROM ${this.tables.rows} c
          WHERE c.term = x.term ORDER BY ${LIST_ORDER} LIMIT ${limit})
         UNION ALL
         (SELECT ${columns} FROM ${this.tables.pending} p
          WHERE p.term = x.term ORDER BY ${LIST_ORDER} LIMIT ${limit})
         ORDER BY ${LIST_ORDER} LIMIT ${limit}) l`;
  }
}
