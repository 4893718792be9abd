import type { DocumentCard } from "../catalog/card.js";
import type {
  CatalogFilter,
  DocumentMatch,
  DocumentPage,
  DocumentPageOptions,
  SearchDocumentsOptions,
} from "../catalog/index.js";
import {
  AGGREGATION,
  aggregateSections,
  analyzeQuery,
  bySectionScore,
  type CountedTerm,
  candidateTerms,
  cooccurringTerms,
  discounted,
  BM25_K1 as K1,
  type LibraryQuery,
  rankDocuments,
  SECTION_FIELDS,
  searchLimits,
  toDocumentMatch,
  unsizedContenders,
} from "../library/query.js";
import { CHAMPIONS } from "../library/sqlite/champions.js";
import type {
  LibraryDocumentHit,
  LibraryEntry,
  LibraryIndex,
  LibraryIntent,
  SearchLibraryOptions,
  SectionHit,
} from "../library/types.js";
import {
  DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS,
  guarded,
  inTransaction,
  type PostgresConnectionOptions,
  type PostgresPool,
  type PostgresQueryable,
  type PostgresRow,
  queryPrepared,
  quotedSchema,
  withOpenedPool,
} from "./connection.js";
import {
  type ChampionTables,
  championSource,
  PG_MERGE_SECTIONS,
  PostgresChampionLists,
} from "./library-champions.js";
import { PostgresGinPending } from "./library-gin.js";
import { decodeListed, type ListedTerm, listedColumnsSql } from "./library-listed.js";
import { PostgresNodeCounts } from "./library-node-counts.js";
import { type LibraryRows, libraryRows } from "./library-rows.js";
import { ensureLibraryTables, type LibraryTables } from "./library-schema.js";
import {
  anyOf,
  atLeast,
  CARD_RANK_WEIGHTS,
  lexeme,
  SECTION_RANK_WEIGHTS,
  termRankSql,
} from "./library-vectors.js";

/** Options of {@link PostgresLibraryIndex}. */
export interface PostgresLibraryIndexOptions extends PostgresConnectionOptions {
  /**
   * Most rows (sections, or cards) a query reads from the GIN index before ranking (default
   * {@link AGGREGATION}`.candidateRows`, 3,000): the rows holding several of the query's terms,
   * or when none does its rarest terms' rows (see `candidateTerms`); every term ranks them, so a
   * query's cost does not grow with the library.
   */
  candidateRows?: number;
  /**
   * Rows holding one query term only read beside those holding several (default
   * {@link AGGREGATION}`.singleTermRows`): the rarest terms' rows, when they fit.
   */
  singleTermRows?: number;
  /** Documents written per transaction by {@link PostgresLibraryIndex.putDocuments} (default 500). */
  writeBatchDocs?: number;
  /**
   * Rows per term of the library's champion lists (per term, its best sections and cards by the
   * term's own weighted frequency; see library-champions.ts): a library-wide query reads at most
   * this many rows per term where it read the rarest terms' every section. A new (empty) library
   * gets lists of 100 (`CHAMPIONS.perTerm`, the measured choice) unless this is 0. An existing
   * library without lists gets them, built from its stored rows on open, only when this is given
   * (one transaction: minutes for 100,000 documents, so open it with `commandTimeoutMs: 0`).
   * Once a library has lists every writer keeps them, asked or not.
   */
  championRows?: number;
  /**
   * Sections written since the lists were last merged at which a write merges them (default
   * 5,000): until then writes add their rows to a pending table that
   * queries read beside the lists. 0 merges on every write.
   */
  championMergeSections?: number;
  /**
   * Send a search's statements named (node-postgres' prepared statements; the pool must take
   * node-postgres' query configs, as its `Pool` does): each connection parses them once and
   * keeps the plans of those whose generic plan costs no more than a custom one (the champion
   * lists' statements; at scale the cards' and shown sections' too), where an unnamed statement
   * is parsed, analysed and planned on every run (0.1-0.5 ms of server time each). Off by
   * default: it lowers a warm query's time at every library size, the small ones' most (see
   * docs/history/pageindex-store.md, warmpg16's entry).
   */
  preparedStatements?: boolean;
}

/** A section ranked before its details are read: what aggregation needs, and the details when read. */
interface RankedSection {
  docId: string;
  nodeId: string;
  score: number;
  backMatter: boolean;
  hit?: SectionHit;
}

/** The columns of a section hit. */
const HIT_COLUMNS = [
  "doc_id",
  "node_id",
  "title",
  "ancestors",
  "level",
  "start_page",
  "end_page",
  "start_line",
  "end_line",
  "back_matter",
  "summary",
] as const;
const SECTION_COLUMNS = HIT_COLUMNS.map((column) => `s.${column}`).join(", ");

/** A table ranked from champion lists: sections (`s`) or cards (`c`). */
interface ListTarget {
  table: string;
  alias: "s" | "c";
  weights: string;
}

/**
 * ts_rank of one term, without length normalisation, is about its heaviest occurrence's field
 * weight (plus a little for each further one) over 1.645; times this it reads as a weighted
 * term frequency in units of the text field (title 4, summary 2…), which BM25's saturation
 * then bounds. Without the saturation a common word in a title outweighs two rare words in a
 * summary (the conformance suite's "section deep inside a document" case).
 */
const TF_SCALE = 1.6449 * Math.max(...SECTION_FIELDS.map((f) => f.weight));

/** The numerator's factor of BM25's saturation, tf·(k1+1)/(tf+k1). */
const SATURATION = K1 + 1;

/** Cards ranked per query at most (documents found by their card alone). */
const CARD_ROWS = 500;

/** Builds a statement's parameter list: `add(value)` returns its `$n`. */
class Params {
  readonly values: unknown[] = [];
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}

/**
 * The SQL condition restricting `alias.doc_id` to a filter and a list of documents, or
 * undefined when nothing restricts it. A filter key matches any of its values; keys combine with
 * AND; `kind` is a facet like any metadata key (the catalog's `matchesFilter` semantics).
 */
function restriction(
  alias: string,
  tables: LibraryTables,
  params: Params,
  filter: CatalogFilter | undefined,
  docIds: readonly string[] | undefined,
): string {
  const parts: string[] = [];
  if (docIds) parts.push(`${alias}.doc_id = ANY(${params.add([...docIds])}::text[])`);
  for (const [key, wanted] of Object.entries(filter ?? {})) {
    const values = (Array.isArray(wanted) ? wanted : [wanted]).map((v) => String(v).trim().toLowerCase());
    parts.push(
      `${alias}.doc_id IN (SELECT doc_id FROM ${tables.facets} WHERE key = ${params.add(key.toLowerCase())} AND value = ANY(${params.add(values)}::text[]))`,
    );
  }
  return parts.length > 0 ? ` AND ${parts.join(" AND ")}` : "";
}

/** A query over the whole library: no document list and no metadata filter (the lists' case). */
function isLibraryWide(options: { filter?: CatalogFilter; docIds?: readonly string[] }): boolean {
  return !options.docIds && Object.keys(options.filter ?? {}).length === 0;
}

/** A section's key in the maps of ranked rows (ids hold no NUL). */
const sectionKey = (docId: string, nodeId: string): string => `${docId}\u0000${nodeId}`;

/**
 * Queues a transaction behind the other writers of a library (its schema's advisory lock, held
 * until the transaction ends): writes, and the champion lists' build and mending on open.
 */
async function lockWriters(db: PostgresQueryable, schema: string): Promise<void> {
  await db.query("SELECT pg_advisory_xact_lock(hashtext($1))", [`pageindex-library ${schema}`]);
}

/**
 * List rows (and pending rows) up to which an open gives lists without node counts theirs unasked
 * (see `addsNodes`): a rewrite of that many takes a second or two (measured: 60,883 rows in
 * 0.7 s; 2.4 M in 20 s and 5.1 M in 23 s, the bench's 10,000 and 100,000 documents). An object
 * so tests can lower it (it is not exported from the package).
 */
export const ADD_NODES_UNASKED = { rows: 200_000 };

/**
 * Whether this open gives the sections' lists (`tables`, without node counts: an earlier release
 * built them; the library keeps node counts) their documents' counts: when the open asks for
 * lists (`championRows`: its owner allows a long command, as for a build) or they are small (at
 * most {@link ADD_NODES_UNASKED}`.rows` rows). Otherwise they are read as they are, each
 * document's count looked up as before: the same answers.
 */
async function addsNodes(
  db: PostgresQueryable,
  tables: ChampionTables,
  wanted: number | undefined,
): Promise<boolean> {
  if (wanted !== undefined) return wanted > 0;
  const most = ADD_NODES_UNASKED.rows;
  const pending = (await PostgresChampionLists.hasPending(db, tables))
    ? ` UNION ALL (SELECT 1 FROM ${tables.pending} LIMIT ${most + 1})`
    : "";
  const { rows } = await db.query(
    `SELECT count(*)::int AS n FROM ((SELECT 1 FROM ${tables.rows} LIMIT ${most + 1})${pending}) r`,
  );
  return Number(rows[0]?.n ?? 0) <= most;
}

/** A term's inverse document frequency (BM25's, never negative). */
function idf(total: number, frequency: number): number {
  return Math.log(1 + (total - frequency + 0.5) / (frequency + 0.5));
}

/**
 * Rows read from the champion lists, scored by the terms they hold: per term its IDF weight ×
 * the saturated `ts_rank` the list keeps, summed in the terms' order with the operations of
 * `rankSql`'s score, so a row scores the same bits either way.
 */
function scoreListed(
  terms: readonly CountedTerm[],
  lists: readonly ListedTerm[],
): Map<string, RankedSection> {
  const scored = new Map<string, RankedSection>();
  // Plain loops over the columns: ~450 rows a query at 100,000 documents (sections' and cards').
  for (const list of [...lists].sort((a, b) => a.term - b.term)) {
    const weight = terms[list.term]?.weight ?? 0;
    const { docIds, nodeIds, ranks, backMatter } = list;
    for (let r = 0; r < docIds.length; r += 1) {
      const docId = docIds[r] as string;
      const nodeId = nodeIds?.[r] ?? "";
      const tf = (ranks[r] as number) * TF_SCALE;
      const score = (weight * tf * SATURATION) / (tf + K1);
      const key = sectionKey(docId, nodeId);
      const seen = scored.get(key);
      if (seen) seen.score += score;
      else scored.set(key, { docId, nodeId, backMatter: backMatter?.[r] === "1", score });
    }
  }
  return scored;
}

/** A query term with the weight it scores with (query weight × IDF) and how many rows hold it. */
type RankedTerm = CountedTerm;

/** Rows matching a tsquery, at most `rows` of them: candidates of a ranking. */
interface CandidateSource {
  query: string;
  rows: number;
}

function optionalInt(value: unknown): number | undefined {
  return value === null || value === undefined ? undefined : Number(value);
}

/** A section's columns in {@link HIT_COLUMNS}' order. */
type HitFields = readonly unknown[];

/** A section row's columns, in {@link HIT_COLUMNS}' order. */
const hitFields = (row: PostgresRow): HitFields => HIT_COLUMNS.map((column) => row[column]);

/** A section as a hit (score already discounted), from its columns in {@link HIT_COLUMNS}' order. */
function sectionHit(fields: HitFields, score: number): SectionHit {
  const [
    docId,
    nodeId,
    title,
    ancestors,
    level,
    startPage,
    endPage,
    startLine,
    endLine,
    backMatter,
    summary,
  ] = fields;
  const hit: SectionHit = {
    docId: docId as string,
    nodeId: nodeId as string,
    title: title as string,
    ancestors: ancestors as string[],
    level: Number(level),
    score,
    backMatter: backMatter as boolean,
  };
  const start = optionalInt(startPage);
  if (start !== undefined) hit.startPage = start;
  const end = optionalInt(endPage);
  if (end !== undefined) hit.endPage = end;
  const first = optionalInt(startLine);
  if (first !== undefined) hit.startLine = first;
  const last = optionalInt(endLine);
  if (last !== undefined) hit.endLine = last;
  if (summary) hit.summary = summary as string;
  return hit;
}

/** The last entry of each docId, in input order of last appearance. */
function lastOfEach(entries: readonly LibraryEntry[]): LibraryEntry[] {
  const byId = new Map<string, LibraryEntry>();
  for (const entry of entries) {
    byId.delete(entry.card.docId);
    byId.set(entry.card.docId, entry);
  }
  return [...byId.values()];
}

/**
 * The library index in PostgreSQL full text, beside the trees of a {@link PostgresByteStore} in
 * the same database: one row per section with a weighted tsvector (title, ancestors' titles,
 * summary, own text) under a GIN index, the document cards with their facets for filters, and
 * per-term frequencies so ranking weighs rare words above common ones (ts_rank alone has no
 * IDF). Each write is one transaction; writers take a transaction-scoped advisory lock, so
 * concurrent writers from many machines queue instead of deadlocking on the frequency rows.
 * @example
 * ```ts
 * const library = await PostgresLibraryIndex.fromUrl("postgres://app@db.example/pageindex");
 * await library.putDocument(libraryEntry(tree, versionId));
 * const [best] = await library.searchLibrary("toner smudges on the paper");
 * console.log(best?.docId, best?.sections[0]?.title);
 * await library.close();
 * ```
 */
export class PostgresLibraryIndex implements LibraryIndex {
  readonly engine = "postgres";
  readonly commandTimeoutMs: number;
  private readonly pool: PostgresPool;
  private readonly tables: LibraryTables;
  /** The library's schema (quoted): its writers' lock is keyed on it. */
  private readonly schema: string;
  private readonly candidateRows: number;
  private readonly singleTermRows: number;
  private readonly writeBatchDocs: number;
  /** The champion lists, when the library has them. */
  private readonly champions: PostgresChampionLists | undefined;
  /** The cards' champion lists (built with the sections'), when the library has them. */
  private readonly cardChampions: PostgresChampionLists | undefined;
  /** Node counts in a table of their own, built with the champion lists. */
  private readonly nodeCountTable: PostgresNodeCounts | undefined;
  /** Empties the full-text indexes' pending lists after each write (when this role may). */
  private readonly ginPending: PostgresGinPending | undefined;
  private owned = false;
  /** Whether searches send their statements named ({@link PostgresLibraryIndexOptions.preparedStatements}). */
  private readonly prepared: boolean;

  private constructor(
    pool: PostgresPool,
    tables: LibraryTables,
    schema: string,
    options: PostgresLibraryIndexOptions,
    listRows: { sections?: number | undefined; cards?: number | undefined },
    nodeCounts: PostgresNodeCounts | undefined,
    carried: boolean,
    ginPending: PostgresGinPending | undefined,
  ) {
    this.pool = pool;
    this.prepared = options.preparedStatements ?? false;
    this.nodeCountTable = nodeCounts;
    this.ginPending = ginPending;
    const lists = (kind: "sections" | "cards") => {
      const rows = listRows[kind];
      if (rows === undefined) return undefined;
      const { tables: listTables, source } = championSource(
        schema,
        tables,
        kind,
        kind === "sections" && carried ? nodeCounts?.table : undefined,
      );
      return new PostgresChampionLists(
        listTables,
        source,
        tables,
        rows,
        options.championRows || undefined,
        options.championMergeSections ?? PG_MERGE_SECTIONS,
      );
    };
    this.champions = lists("sections");
    this.cardChampions = lists("cards");
    this.tables = tables;
    this.schema = schema;
    this.commandTimeoutMs = Math.max(0, options.commandTimeoutMs ?? DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS);
    this.candidateRows = Math.max(1, options.candidateRows ?? AGGREGATION.candidateRows);
    this.singleTermRows = Math.max(0, options.singleTermRows ?? AGGREGATION.singleTermRows);
    this.writeBatchDocs = Math.max(1, options.writeBatchDocs ?? 500);
  }

  /** Over a caller's pool (which the caller ends), creating the tables when absent. */
  static async open(
    pool: PostgresPool,
    options: PostgresLibraryIndexOptions = {},
  ): Promise<PostgresLibraryIndex> {
    const schema = quotedSchema(options.schema);
    const timeout = Math.max(0, options.commandTimeoutMs ?? DEFAULT_POSTGRES_COMMAND_TIMEOUT_MS);
    const tables = await ensureLibraryTables(pool, schema, timeout);
    const sections = championSource(schema, tables, "sections");
    const cards = championSource(schema, tables, "cards");
    const nodeCounts = new PostgresNodeCounts(`${schema}.library_node_counts`, tables);
    // The sections' lists as this release writes them: each row with its document's node count.
    const counting = championSource(schema, tables, "sections", nodeCounts.table);
    const present = () =>
      guarded("library open", timeout, async () => ({
        sections: await PostgresChampionLists.listRows(pool, sections.tables),
        cards: await PostgresChampionLists.listRows(pool, cards.tables),
      }));
    let listRows = await present();
    const wanted = options.championRows;
    // Unasked, only a new (empty) library gets lists: for one of many documents the build takes
    // minutes, which its owner asks for (`championRows`) with a timeout that allows it.
    const isEmpty = async (db: PostgresQueryable) =>
      (await db.query(`SELECT 1 FROM ${tables.cards} LIMIT 1`)).rows.length === 0;
    const build =
      listRows.sections === undefined &&
      wanted !== 0 &&
      (wanted !== undefined || (await guarded("library open", timeout, () => isEmpty(pool))));
    if (build) {
      const asked = Math.max(1, Math.floor(wanted ?? CHAMPIONS.perTerm));
      await inTransaction(pool, "library champion lists", timeout, async (db) => {
        await lockWriters(db, schema);
        // Another process may have built them (or written documents) while this one waited.
        if ((await PostgresChampionLists.listRows(db, sections.tables)) !== undefined) return;
        if (wanted === undefined && !(await isEmpty(db))) return;
        // The counts first: the sections' list rows carry them.
        await nodeCounts.build(db);
        for (const kind of [counting, cards])
          await PostgresChampionLists.build(db, kind.tables, kind.source, tables, asked);
      });
      listRows = await present();
    } else if (listRows.sections !== undefined || listRows.cards !== undefined) {
      // Lists an earlier release built: without a pending table yet, ranked by another formula
      // (cards before their length factor), or sections' rows without node counts. Mended under
      // the writers' lock: the table added, the stale lists built again from the stored rows (the
      // cards' took 19 s at 100,000 documents), the counts added (see `addsNodes`).
      const { carries, migrate } = await guarded("library open", timeout, async () => {
        if (listRows.sections === undefined || !(await PostgresNodeCounts.present(pool, nodeCounts.table)))
          return { carries: false, migrate: false };
        if (await PostgresChampionLists.tablesCarryNodes(pool, counting.tables))
          return { carries: true, migrate: false };
        return { carries: false, migrate: await addsNodes(pool, counting.tables, wanted) };
      });
      const kinds = (["sections", "cards"] as const).flatMap((kind) => {
        const rows = listRows[kind];
        if (rows === undefined) return [];
        return [{ ...(kind === "cards" ? cards : carries || migrate ? counting : sections), rows }];
      });
      const mend = await guarded("library open", timeout, () =>
        Promise.all(
          kinds.map(
            async (kind) =>
              !(await PostgresChampionLists.hasPending(pool, kind.tables)) ||
              (await PostgresChampionLists.stale(pool, kind.tables, kind.source)),
          ),
        ),
      );
      if (migrate || mend.includes(true))
        await inTransaction(pool, "library champion lists", timeout, async (db) => {
          await lockWriters(db, schema);
          for (const kind of kinds) {
            if (!(await PostgresChampionLists.hasPending(db, kind.tables)))
              await PostgresChampionLists.addPending(db, kind.tables, kind.source);
            if (await PostgresChampionLists.stale(db, kind.tables, kind.source))
              await PostgresChampionLists.build(db, kind.tables, kind.source, tables, kind.rows);
            else await PostgresChampionLists.addNodes(db, kind.tables, kind.source);
          }
        });
    }
    const { counted, carried, ginPending } = await guarded("library open", timeout, async () => {
      const counted = await PostgresNodeCounts.present(pool, nodeCounts.table);
      return {
        counted,
        carried: counted && (await PostgresChampionLists.tablesCarryNodes(pool, counting.tables)),
        ginPending: await PostgresGinPending.open(pool, tables.textIndexes),
      };
    });
    return new PostgresLibraryIndex(
      pool,
      tables,
      schema,
      options,
      listRows,
      counted ? nodeCounts : undefined,
      carried,
      ginPending,
    );
  }

  /**
   * Connects to `url` with a pool this index owns ({@link PostgresLibraryIndex.close} ends it).
   * @throws {PostgresStoreError} when `pg` is not installed or the server cannot be reached.
   */
  static async fromUrl(
    url: string,
    options: PostgresLibraryIndexOptions = {},
  ): Promise<PostgresLibraryIndex> {
    quotedSchema(options.schema);
    return withOpenedPool(url, options, async (pool) => {
      const index = await PostgresLibraryIndex.open(pool, options);
      index.owned = true;
      return index;
    });
  }

  async close(): Promise<void> {
    if (!this.owned) return;
    this.owned = false;
    await this.pool.end().catch(() => undefined);
  }

  /**
   * A search's statement, named when this index prepares them: its text is one of a few shapes
   * (the query's term count, up to 32, and its path decide), so a connection holds at most
   * ~130 of them, a few dozen in practice.
   */
  private select(db: PostgresQueryable, text: string, values: readonly unknown[]) {
    return this.prepared ? queryPrepared(db, text, values) : db.query(text, values);
  }

  private read<T>(operation: string, fn: (db: PostgresQueryable) => Promise<T>): Promise<T> {
    return guarded(`library ${operation}`, this.commandTimeoutMs, () => fn(this.pool));
  }

  /** One write transaction, queued behind other writers of this library (see the class notes). */
  private write<T>(operation: string, fn: (db: PostgresQueryable) => Promise<T>): Promise<T> {
    return inTransaction(this.pool, `library ${operation}`, this.commandTimeoutMs, async (db) => {
      await lockWriters(db, this.schema);
      return fn(db);
    });
  }

  // ---- writing ---------------------------------------------------------------------------

  async begin(docId: string, versionId?: string): Promise<void> {
    await this.read("begin", (db) =>
      db.query(
        `INSERT INTO ${this.tables.intents} (doc_id, version_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`,
        [docId, versionId ?? ""],
      ),
    );
  }

  async beginAll(intents: ReadonlyArray<LibraryIntent>): Promise<void> {
    // In key order, so two writers' batches never lock the same rows in opposite orders.
    const key = (i: LibraryIntent) => `${i.docId}\u0000${i.versionId ?? ""}`;
    const sorted = [...new Map(intents.map((i) => [key(i), i])).values()].sort((a, b) =>
      key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0,
    );
    await this.read("begin", (db) =>
      db.query(
        `INSERT INTO ${this.tables.intents} (doc_id, version_id)
         SELECT * FROM unnest($1::text[], $2::text[])
         ON CONFLICT DO NOTHING`,
        [sorted.map((i) => i.docId), sorted.map((i) => i.versionId ?? "")],
      ),
    );
  }

  async clear(docId: string, versionId?: string): Promise<void> {
    await this.read("clear", (db) =>
      db.query(`DELETE FROM ${this.tables.intents} WHERE doc_id = $1 AND version_id = $2`, [
        docId,
        versionId ?? "",
      ]),
    );
  }

  async pending(): Promise<Map<string, Array<string | undefined>>> {
    const { rows } = await this.read("pending", (db) =>
      this.select(
        db,
        `SELECT doc_id, version_id FROM ${this.tables.intents} ORDER BY doc_id, version_id`,
        [],
      ),
    );
    const pending = new Map<string, Array<string | undefined>>();
    for (const row of rows) {
      const docId = row.doc_id as string;
      const version = row.version_id as string;
      pending.set(docId, [...(pending.get(docId) ?? []), version === "" ? undefined : version]);
    }
    return pending;
  }

  async putDocument(entry: LibraryEntry): Promise<void> {
    await this.putDocuments([entry]);
  }

  async putDocuments(entries: readonly LibraryEntry[]): Promise<void> {
    const latest = lastOfEach(entries);
    for (let i = 0; i < latest.length; i += this.writeBatchDocs) {
      const batch = latest.slice(i, i + this.writeBatchDocs);
      // Rows are built before the transaction, so other writers wait only for the database.
      const rows = libraryRows(batch);
      await this.write("put", async (db) => {
        const ids = batch.map((entry) => entry.card.docId);
        await this.removeRows(db, ids);
        await this.insertRows(db, rows);
        // Only the intents of the versions written: another writer's stays until it finishes.
        await db.query(
          `DELETE FROM ${this.tables.intents} AS i USING unnest($1::text[], $2::text[]) AS w(doc_id, version_id)
           WHERE i.doc_id = w.doc_id COLLATE "C" AND i.version_id = w.version_id COLLATE "C"`,
          [ids, batch.map((entry) => entry.card.versionId)],
        );
      });
    }
  }

  async removeDocument(docId: string): Promise<void> {
    await this.write("remove", async (db) => {
      await this.removeRows(db, [docId]);
      await db.query(`DELETE FROM ${this.tables.intents} WHERE doc_id = $1 AND version_id = ''`, [docId]);
    });
  }

  /** Adds to the term frequencies (negative counts for rows removed); the empty term holds the totals. */
  private async addTermCounts(
    db: PostgresQueryable,
    counts: ReadonlyMap<string, [number, number]>,
  ): Promise<void> {
    // In term order, so two writers could never lock the same rows in opposite orders.
    const terms = [...counts.keys()].sort();
    if (terms.length === 0) return;
    await db.query(
      `INSERT INTO ${this.tables.terms} (term, sections, cards)
       SELECT * FROM unnest($1::text[], $2::bigint[], $3::bigint[])
       ON CONFLICT (term) DO UPDATE SET sections = ${this.tables.terms}.sections + EXCLUDED.sections,
                                        cards = ${this.tables.terms}.cards + EXCLUDED.cards`,
      [terms, terms.map((t) => counts.get(t)?.[0] ?? 0), terms.map((t) => counts.get(t)?.[1] ?? 0)],
    );
  }

  /** Takes the stored rows' terms off the frequencies (read from their vectors). */
  private async uncountTerms(db: PostgresQueryable, docIds: readonly string[]): Promise<void> {
    const t = this.tables;
    const { rows } = await db.query(
      `SELECT term, sum(sections)::bigint AS sections, sum(cards)::bigint AS cards FROM (
         SELECT lexeme AS term, 1 AS sections, 0 AS cards
           FROM ${t.sections} s, unnest(tsvector_to_array(s.tsv)) AS lexeme WHERE s.doc_id = ANY($1::text[])
         UNION ALL SELECT '', 1, 0 FROM ${t.sections} s WHERE s.doc_id = ANY($1::text[])
         UNION ALL SELECT lexeme, 0, 1
           FROM ${t.cards} c, unnest(tsvector_to_array(c.tsv)) AS lexeme WHERE c.doc_id = ANY($1::text[])
         UNION ALL SELECT '', 0, 1 FROM ${t.cards} c WHERE c.doc_id = ANY($1::text[])
       ) counted GROUP BY term`,
      [docIds],
    );
    if (rows.length === 0) return;
    await this.addTermCounts(
      db,
      new Map(rows.map((row) => [row.term as string, [-Number(row.sections), -Number(row.cards)]])),
    );
    await db.query(
      `DELETE FROM ${t.terms} WHERE term = ANY($1::text[]) AND sections <= 0 AND cards <= 0 AND term <> ''`,
      [rows.map((row) => row.term as string)],
    );
  }

  private async removeRows(db: PostgresQueryable, docIds: readonly string[]): Promise<void> {
    const t = this.tables;
    // A document's card, sections and facets are written and removed together: documents
    // without a card have nothing to remove, so a batch of new ones (a bulk import) skips the
    // vector scans and deletes (writers hold the advisory lock: no one adds a card meanwhile).
    const { rows } = await db.query(`SELECT doc_id FROM ${t.cards} WHERE doc_id = ANY($1::text[])`, [docIds]);
    const indexed = rows.map((row) => row.doc_id as string);
    if (indexed.length === 0) return;
    await this.uncountTerms(db, indexed);
    for (const table of [t.sections, t.cards, t.facets]) {
      await db.query(`DELETE FROM ${table} WHERE doc_id = ANY($1::text[])`, [indexed]);
    }
    // After the sections and their term counts: a list refilled here reads what is left.
    await this.champions?.remove(db, indexed);
    await this.cardChampions?.remove(db, indexed);
    await this.nodeCountTable?.remove(db, indexed);
  }

  private async insertRows(db: PostgresQueryable, rows: LibraryRows): Promise<void> {
    const t = this.tables;
    await db.query(
      `INSERT INTO ${t.cards} (doc_id, version_id, card, tsv)
       SELECT * FROM unnest($1::text[], $2::text[], $3::json[], $4::tsvector[])`,
      rows.cards,
    );
    if ((rows.facets[0]?.length ?? 0) > 0) {
      await db.query(
        `INSERT INTO ${t.facets} (key, value, doc_id) SELECT * FROM unnest($1::text[], $2::text[], $3::text[])`,
        rows.facets,
      );
    }
    await db.query(
      `INSERT INTO ${t.sections} (doc_id, node_id, title, ancestors, level, start_page, end_page, start_line,
         end_line, back_matter, summary, tsv)
       SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::json[], $5::int[], $6::int[], $7::int[],
         $8::int[], $9::int[], $10::boolean[], $11::text[], $12::tsvector[])`,
      rows.sections,
    );
    await this.addTermCounts(db, rows.counts);
    const docIds = rows.cards[0] as string[];
    // The counts first: the sections' list rows carry them.
    await this.nodeCountTable?.copy(db, docIds);
    await this.champions?.add(db, docIds, rows.sections[0]?.length ?? 0);
    await this.cardChampions?.add(db, docIds, docIds.length);
    await this.ginPending?.clean(db);
  }

  // ---- reading ---------------------------------------------------------------------------

  async indexedVersions(): Promise<Map<string, string>> {
    const { rows } = await this.read("versions", (db) =>
      db.query(`SELECT doc_id, version_id FROM ${this.tables.cards} ORDER BY doc_id`),
    );
    return new Map(rows.map((row) => [row.doc_id as string, row.version_id as string]));
  }

  async getCard(docId: string): Promise<DocumentCard | undefined> {
    const { rows } = await this.read("card", (db) =>
      db.query(`SELECT card FROM ${this.tables.cards} WHERE doc_id = $1`, [docId]),
    );
    return rows[0]?.card as DocumentCard | undefined;
  }

  async count(): Promise<number> {
    return this.read("count", (db) => this.total(db));
  }

  /**
   * Documents indexed: the cards total the term frequencies keep (the empty term's row, updated
   * in every write's transaction), one row read where count(*) would scan every card.
   */
  private async total(db: PostgresQueryable): Promise<number> {
    const { rows } = await db.query(`SELECT cards FROM ${this.tables.terms} WHERE term = ''`);
    return Number(rows[0]?.cards ?? 0);
  }

  async listDocuments(page: DocumentPageOptions): Promise<DocumentPage> {
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const limit = page.limit === undefined ? null : Math.max(0, Math.floor(page.limit));
    const params = new Params();
    const where = restriction("c", this.tables, params, page.filter, undefined);
    return this.read("list", async (db) => {
      const total = where
        ? Number(
            (
              await db.query(
                `SELECT count(*)::int AS n FROM ${this.tables.cards} c WHERE true${where}`,
                params.values,
              )
            ).rows[0]?.n ?? 0,
          )
        : await this.total(db);
      const cards =
        limit === 0
          ? { rows: [] }
          : await db.query(
              `SELECT card FROM ${this.tables.cards} c WHERE true${where} ORDER BY doc_id
               LIMIT ${params.add(limit)} OFFSET ${params.add(offset)}`,
              params.values,
            );
      return {
        documents: cards.rows.map((row) => row.card as DocumentCard),
        total,
        offset,
      };
    });
  }

  /** Each query term with its IDF-weighted score weight and how many sections/cards hold it. */
  private async weighTerms(
    db: PostgresQueryable,
    query: LibraryQuery,
  ): Promise<{ sections: RankedTerm[]; cards: RankedTerm[] }> {
    const { rows } = await this.select(
      db,
      `SELECT term, sections, cards FROM ${this.tables.terms} WHERE term = ANY($1::text[])`,
      [["", ...query.terms.map((t) => t.term)]],
    );
    const counts = new Map(
      rows.map((row) => [row.term as string, { sections: Number(row.sections), cards: Number(row.cards) }]),
    );
    const totals = counts.get("") ?? { sections: 0, cards: 0 };
    const sections: RankedTerm[] = [];
    const cards: RankedTerm[] = [];
    for (const term of query.terms) {
      const count = counts.get(term.term);
      if (!count) continue;
      if (count.sections > 0) {
        sections.push({
          term: term.term,
          weight: term.weight * idf(totals.sections, count.sections),
          rows: count.sections,
        });
      }
      if (count.cards > 0) {
        cards.push({
          term: term.term,
          weight: term.weight * idf(totals.cards, count.cards),
          rows: count.cards,
        });
      }
    }
    return { sections, cards };
  }

  /**
   * Ranks rows of `table` for weighted terms: candidates found through the GIN index (each
   * source's rows, at most its `rows`), each scored Σ weight × sat(tf), tf the term's
   * field-weighted frequency from ts_rank and sat BM25's saturation tf·(k1+1)/(tf+k1). Each
   * row also says how many candidates the first source gave (`found`), so an overflow shows.
   */
  private rankSql(
    table: string,
    alias: string,
    weights: string,
    terms: readonly RankedTerm[],
    sources: readonly CandidateSource[],
    params: Params,
    where: string,
    limit: number,
    columns: string,
  ): string {
    const candidates = sources
      .map(
        (source, i) =>
          `(SELECT *, ${i} AS source FROM ${table} ${alias} WHERE ${alias}.tsv @@ ${params.add(source.query)}::tsquery${where}
           LIMIT ${params.add(source.rows)})`,
      )
      .join(" UNION ALL ");
    const tfs = terms
      .map(
        (t, i) =>
          `${termRankSql(alias, weights, `${params.add(lexeme(t.term))}::tsquery`)} * ${TF_SCALE} AS tf${i}`,
      )
      .join(", ");
    const score = terms
      .map((t, i) => `${params.add(t.weight)}::float8 * tf${i} * ${SATURATION} / (tf${i} + ${K1})`)
      .join(" + ");
    return `SELECT ${columns}, ${score} AS score, count(*) FILTER (WHERE ${alias}.source = 0) OVER () AS found
      FROM (${candidates}) ${alias}
      CROSS JOIN LATERAL (SELECT ${tfs}) tf
      ORDER BY score DESC LIMIT ${params.add(limit)}`;
  }

  /**
   * The rows holding the rarest terms, together in at most `candidateRows` rows (always one
   * term): the candidates when no row holds two of a query's terms.
   */
  private rarestRows(terms: readonly RankedTerm[]): CandidateSource {
    return { query: anyOf(candidateTerms(terms, this.candidateRows)), rows: this.candidateRows };
  }

  /**
   * The candidates of rows holding at least `m` of `several` (the GIN index intersects their
   * posting lists: no other row is read), at most `candidateRows` + 1 (one more shows an
   * overflow), and the rows holding one of the rarest terms only while those fit in `oneTerm`.
   */
  private cooccurrenceSources(
    terms: readonly RankedTerm[],
    several: readonly RankedTerm[],
    m: number,
    oneTerm: number,
  ): CandidateSource[] {
    const chosen = atLeast(m, several);
    const sources: CandidateSource[] = [{ query: chosen, rows: this.candidateRows + 1 }];
    const single = candidateTerms(terms, Math.min(this.candidateRows, oneTerm), 0);
    if (single.length > 0) sources.push({ query: `(${anyOf(single)}) & !(${chosen})`, rows: oneTerm });
    return sources;
  }

  /**
   * The best rows of `table` (at most `limit`, with their scores; see `rankSql`). Candidates: the
   * rows holding at least m of the query's (rarest) terms, m = 2, 3, … while they overflow
   * `candidateRows` (see {@link PostgresLibraryIndex.cooccurrenceSources}); when no row holds
   * two, the rarest terms' rows (see `candidateTerms`).
   */
  private async rankRows(
    db: PostgresQueryable,
    target: { table: string; alias: "s" | "c"; weights: string; columns: string; oneTerm: number },
    terms: readonly RankedTerm[],
    options: { filter?: CatalogFilter; docIds?: readonly string[] },
    limit: number,
  ): Promise<PostgresRow[]> {
    if (terms.length === 0) return [];
    const rank = async (sources: readonly CandidateSource[]) => {
      const params = new Params();
      const where = restriction(target.alias, this.tables, params, options.filter, options.docIds);
      const sql = this.rankSql(
        target.table,
        target.alias,
        target.weights,
        terms,
        sources,
        params,
        where,
        limit,
        target.columns,
      );
      return (await db.query(sql, params.values)).rows;
    };
    // Every row holding a term fits the one-term budget: read them all (a small library).
    const rows = terms.reduce((sum, t) => sum + t.rows, 0);
    for (let m = 2; rows > Math.min(this.candidateRows, this.singleTermRows); m += 1) {
      const several = cooccurringTerms(terms, m);
      if (several.length === 0) break;
      const ranked = await rank(this.cooccurrenceSources(terms, several, m, target.oneTerm));
      const holding = Number(ranked[0]?.found ?? 0);
      if (holding === 0) break; // no row holds m terms (then none holds more)
      if (holding <= this.candidateRows || m === several.length) return ranked;
    }
    return rank([this.rarestRows(terms)]);
  }

  /**
   * Sections ranked (scores discounted for back matter), best first, at most `rows`: through the
   * champion lists when the library has them and a search over it all outgrows the one-term
   * budget (see {@link PostgresLibraryIndex.listedSections}), else the candidates of `rankRows`.
   * `sizes`, when given, may receive node counts (see {@link PostgresLibraryIndex.readLists}).
   */
  private async rankSections(
    db: PostgresQueryable,
    query: LibraryQuery,
    terms: readonly RankedTerm[],
    options: { filter?: CatalogFilter; docIds?: readonly string[] },
    rows: number,
    sizes?: Map<string, number>,
  ): Promise<RankedSection[]> {
    const listed = isLibraryWide(options)
      ? await this.listedSections(db, query, terms, rows, sizes)
      : undefined;
    if (listed) return listed;
    const ranked = await this.rankRows(
      db,
      {
        table: this.tables.sections,
        alias: "s",
        weights: SECTION_RANK_WEIGHTS,
        columns: SECTION_COLUMNS,
        oneTerm: this.singleTermRows,
      },
      terms,
      options,
      rows,
    );
    return ranked
      .map((row) => {
        const hit = sectionHit(
          hitFields(row),
          discounted(Number(row.score), row.back_matter as boolean, query),
        );
        return { docId: hit.docId, nodeId: hit.nodeId, score: hit.score, backMatter: hit.backMatter, hit };
      })
      .filter((section) => section.score > 0)
      .sort(bySectionScore);
  }

  /**
   * Sections ranked from the champion lists, or undefined when they do not apply (see
   * {@link PostgresLibraryIndex.listedRows}).
   */
  private async listedSections(
    db: PostgresQueryable,
    query: LibraryQuery,
    terms: readonly RankedTerm[],
    rows: number,
    sizes?: Map<string, number>,
  ): Promise<RankedSection[] | undefined> {
    const listed = await this.listedRows(
      db,
      this.champions,
      { table: this.tables.sections, alias: "s", weights: SECTION_RANK_WEIGHTS },
      terms,
      rows,
      sizes,
    );
    if (!listed) return undefined;
    // The rows are this search's own objects: discounted in place, not copied (~300 at scale).
    const kept: RankedSection[] = [];
    for (const row of listed) {
      row.score = discounted(row.score, row.backMatter, query);
      if (row.score > 0) kept.push(row);
    }
    kept.sort(bySectionScore);
    return kept.length > rows ? kept.slice(0, rows) : kept;
  }

  /**
   * Rows of a table ranked from its champion lists, or undefined when they do not apply: the rows
   * holding two of the query's terms (the GIN index intersects their posting lists), scored on
   * every term, and the first `perTerm` rows of each term's list in place of the rarest terms'
   * every row (each list's every row when no row holds two terms). A list's row outside the
   * two-term rows holds one query term (of the co-occurring ones), so its score — that term's IDF
   * weight × the saturated `ts_rank` the list keeps — is what `rankSql` computes for it. When rows
   * holding two terms overflow `candidateRows`, `rankRows` chooses by three or more as before;
   * when every row holding a term fits the one-term budget, it reads them all (a small library).
   * `sizes`, when given, receives the node counts of every document met.
   */
  private async listedRows(
    db: PostgresQueryable,
    lists: PostgresChampionLists | undefined,
    target: ListTarget,
    terms: readonly RankedTerm[],
    rows: number,
    sizes?: Map<string, number>,
  ): Promise<RankedSection[] | undefined> {
    if (!lists || terms.length === 0) return undefined;
    if (terms.reduce((sum, t) => sum + t.rows, 0) <= Math.min(this.candidateRows, this.singleTermRows))
      return this.everyListedRow(db, lists, target, terms, sizes);
    const { cooccurring, listed } = await this.readLists(
      db,
      lists,
      target,
      terms,
      cooccurringTerms(terms, 2),
      rows,
      sizes,
    );
    const holding = Number(cooccurring[0]?.found ?? 0);
    if (holding > this.candidateRows) return undefined;
    const scored = scoreListed(terms, listed);
    for (const row of cooccurring) {
      const docId = row.doc_id as string;
      const nodeId = row.node_id as string;
      scored.set(sectionKey(docId, nodeId), {
        docId,
        nodeId,
        backMatter: row.back_matter as boolean,
        score: Number(row.value),
      });
    }
    return [...scored.values()];
  }

  /**
   * A table's champion lists for `terms` (see `listSql`) and, when `several` is not empty, the
   * rows holding two of them ranked by `rankSql` (at most `rows`). Each list is read whole
   * (`kept` rows) unless some row holds two terms, then its first `perTerm`. The two are
   * separate statements sent at once (two connections of the pool), the lists read to their
   * first `perTerm` on the guess that some row holds two terms; when none does, the whole lists
   * are read after (a second round trip, for a query whose terms never meet in one section).
   * One statement did both, with the lists' limit decided in SQL: its parsing and planning
   * (~0.8 ms at 100,000 documents) and execution ran in series on one server process. With
   * `sizes`, the node counts of every document met come too, so the ranking needs no round trip
   * of its own for them: carried by the list rows (index entries), looked up for the rows holding
   * two terms and for list rows without one.
   */
  private async readLists(
    db: PostgresQueryable,
    lists: PostgresChampionLists,
    target: ListTarget,
    terms: readonly RankedTerm[],
    several: readonly RankedTerm[],
    rows: number,
    sizes: Map<string, number> | undefined,
  ): Promise<{ cooccurring: PostgresRow[]; listed: ListedTerm[] }> {
    const counts = sizes ? this.nodeCountTable?.table : undefined;
    if (several.length === 0)
      return {
        cooccurring: [],
        listed: await this.readListRows(db, lists, target, terms, lists.kept, sizes),
      };
    const cut = new Map<string, number>();
    const [cooccurring, listed] = await Promise.all([
      this.readCooccurring(db, target, terms, several, rows, counts),
      this.readListRows(db, lists, target, terms, lists.perTerm, sizes ? cut : undefined),
    ]);
    if (cooccurring.length === 0)
      return { cooccurring, listed: await this.readListRows(db, lists, target, terms, lists.kept, sizes) };
    if (sizes) {
      for (const [docId, count] of cut) sizes.set(docId, count);
      // Each with its document's node count, looked up (a handful of rows: ~4 a question at
      // 100,000 documents, against ~250 documents the lists name).
      if (counts) for (const row of cooccurring) sizes.set(row.doc_id as string, Number(row.nodes ?? 0));
    }
    return { cooccurring, listed };
  }

  /**
   * The rows of a table holding two of `several` (the GIN index intersects their posting lists),
   * ranked on every term by `rankSql`, at most `rows`, each with its document's node count when
   * `counts` names the table holding them.
   */
  private async readCooccurring(
    db: PostgresQueryable,
    target: ListTarget,
    terms: readonly RankedTerm[],
    several: readonly RankedTerm[],
    rows: number,
    counts: string | undefined,
  ): Promise<PostgresRow[]> {
    const params = new Params();
    const columns =
      target.alias === "s"
        ? "s.doc_id, s.node_id, s.back_matter"
        : "c.doc_id, '' AS node_id, false AS back_matter";
    const ranked = this.rankSql(
      target.table,
      target.alias,
      target.weights,
      terms,
      [{ query: atLeast(2, several), rows: this.candidateRows + 1 }],
      params,
      "",
      rows,
      columns,
    );
    const nodes = counts ? `(SELECT n.nodes FROM ${counts} n WHERE n.doc_id = co.doc_id)` : "NULL::int";
    const sql = `SELECT doc_id, node_id, back_matter, score::text AS value, found, ${nodes} AS nodes
      FROM (${ranked}) co`;
    return (await this.select(db, sql, params.values)).rows;
  }

  /**
   * One statement reading a table's champion lists for `terms` (see `listSql`), each to its
   * first `limit` rows. With `sizes`, the node counts of every document met: carried by the
   * list rows, looked up for those without one.
   */
  private async readListRows(
    db: PostgresQueryable,
    lists: PostgresChampionLists,
    target: ListTarget,
    terms: readonly RankedTerm[],
    limit: number,
    sizes: Map<string, number> | undefined,
  ): Promise<ListedTerm[]> {
    const params = new Params();
    const counts = sizes ? this.nodeCountTable?.table : undefined;
    const listed = `WITH listed AS MATERIALIZED (${lists.listSql(params.add(terms.map((t) => t.term)), `${params.add(limit)}::int`)})`;
    // The lists' rows come as one value a term, a column each (`listedColumnsSql`: with the
    // documents' node counts where the rows carry them), and the counts looked up as one more:
    // hundreds of rows at scale, decoded at once rather than row by row.
    const carried = counts !== undefined && lists.carriesNodes;
    const parts = [
      `SELECT 1 AS part, i, ${listedColumnsSql(target.alias === "s", carried)} AS value
       FROM listed GROUP BY i`,
    ];
    if (counts)
      // The documents of list rows without a count: every one where the lists carry none (an
      // earlier release's), else those an earlier release's writer added (usually none).
      parts.push(
        `SELECT 2, 0, json_build_array(json_agg(d.doc_id), json_agg(n.nodes))::text
         FROM (SELECT DISTINCT doc_id FROM listed WHERE nodes IS NULL) d
         LEFT JOIN LATERAL (SELECT nodes FROM ${counts} n WHERE n.doc_id = d.doc_id) n ON true`,
      );
    // Unordered: a section's score sums its terms in term order (`scoreListed` sorts them), and
    // the ranking orders sections by score with ties broken by ids.
    const out: ListedTerm[] = [];
    for (const row of (await this.select(db, `${listed} ${parts.join(" UNION ALL ")}`, params.values)).rows) {
      if (Number(row.part) === 1) {
        const list = decodeListed(Number(row.i) - 1, row.value as string);
        out.push(list);
        if (sizes && list.nodes)
          list.nodes.forEach((count, r) => {
            if (count !== null) sizes.set(list.docIds[r] as string, count);
          });
      } else if (sizes) {
        // json_agg of no rows is null: no document met.
        const [docIds, nodes] = JSON.parse(row.value as string) as [
          string[] | null,
          (number | null)[] | null,
        ];
        for (const [d, docId] of (docIds ?? []).entries()) sizes.set(docId, nodes?.[d] ?? 0);
      }
    }
    return out;
  }

  /**
   * Every row holding one of `terms`, scored, from the lists alone (index entries, where
   * `rankRows` reads each row's heap page and ranks its vector): when every row holding a term
   * fits the one-term budget and each term's list, with its pending rows, holds all of its rows
   * (as many as the term's frequency says). Then the rows and their scores are those `rankRows`
   * gives, to the bit; otherwise undefined.
   */
  private async everyListedRow(
    db: PostgresQueryable,
    lists: PostgresChampionLists,
    target: ListTarget,
    terms: readonly RankedTerm[],
    sizes: Map<string, number> | undefined,
  ): Promise<RankedSection[] | undefined> {
    if (terms.some((t) => t.rows > lists.kept)) return undefined;
    const { listed } = await this.readLists(db, lists, target, terms, [], 0, sizes);
    const found = new Array<number>(terms.length).fill(0);
    for (const list of listed) found[list.term] = (found[list.term] ?? 0) + list.docIds.length;
    // A list cut short (deletes left it without some rows) or a write since the counts were read.
    if (terms.some((t, i) => found[i] !== t.rows)) return undefined;
    return [...scoreListed(terms, listed).values()];
  }

  /**
   * The hits of ranked sections (their scores kept), their details read for those that have
   * none, and the cards of `cardsOf`: one statement, each part read as one JSON value.
   */
  private async readShown(
    db: PostgresQueryable,
    ranked: readonly RankedSection[],
    cardsOf: readonly string[],
  ): Promise<{ hits: SectionHit[]; cards: Map<string, DocumentCard> }> {
    const missing = ranked.filter((section) => !section.hit);
    const value = async (column: string, sql: string, values: readonly unknown[]) => {
      const [row] = (await this.select(db, `SELECT (${sql})::text AS ${column}`, values)).rows;
      return JSON.parse((row?.[column] as string | null) ?? "[]") as unknown[];
    };
    // Two statements sent at once (two connections of the pool), each read as one JSON value.
    const [cardRows, sectionRows] = await Promise.all([
      cardsOf.length > 0
        ? value(
            "cards",
            `SELECT json_agg(json_build_array(doc_id, card)) FROM ${this.tables.cards} WHERE doc_id = ANY($1::text[])`,
            [[...cardsOf]],
          )
        : [],
      missing.length > 0
        ? // A section as an array of its columns, not an object: the keys are not sent and parsed
          // for every section shown (~60 a query at 100,000 documents).
          value(
            "sections",
            `SELECT json_agg(json_build_array(${SECTION_COLUMNS})) FROM ${this.tables.sections} s
             JOIN unnest($1::text[], $2::text[]) AS w(doc_id, node_id)
               ON s.doc_id = w.doc_id COLLATE "C" AND s.node_id = w.node_id COLLATE "C"`,
            [missing.map((section) => section.docId), missing.map((section) => section.nodeId)],
          )
        : [],
    ]);
    const cards = new Map<string, DocumentCard>();
    for (const [docId, card] of cardRows as [string, DocumentCard][]) cards.set(docId, card);
    const read = new Map<string, HitFields>();
    for (const section of sectionRows as HitFields[])
      read.set(sectionKey(section[0] as string, section[1] as string), section);
    // A section removed between the two reads is dropped rather than shown without its details.
    const hits = ranked.flatMap((section) => {
      if (section.hit) return [{ ...section.hit, score: section.score }];
      const row = read.get(sectionKey(section.docId, section.nodeId));
      return row ? [sectionHit(row, section.score)] : [];
    });
    return { hits, cards };
  }

  async searchSections(
    query: string,
    options: { limit?: number; filter?: CatalogFilter; docIds?: readonly string[] } = {},
  ): Promise<SectionHit[]> {
    const { limit } = searchLimits(options);
    const analysed = analyzeQuery(query);
    if (limit === 0 || analysed.terms.length === 0 || options.docIds?.length === 0) return [];
    return this.read("search", async (db) => {
      const { sections } = await this.weighTerms(db, analysed);
      // Back matter is discounted after ranking: read enough rows that the discount can reorder them.
      const ranked = await this.rankSections(db, analysed, sections, options, Math.max(limit * 4, 50));
      return (await this.readShown(db, ranked.slice(0, limit), [])).hits;
    });
  }

  async searchLibrary(query: string, options: SearchLibraryOptions = {}): Promise<LibraryDocumentHit[]> {
    const limits = searchLimits(options);
    const analysed = analyzeQuery(query);
    if (limits.limit === 0 || analysed.terms.length === 0 || options.docIds?.length === 0) return [];
    return this.read("search", async (db) => {
      const weighted = await this.weighTerms(db, analysed);
      // Node counts (the length prior): read with the champion lists where they are read, for
      // the rest of the documents found here in one statement (index entries only), cheaper
      // than rounds of a few (up to 11 at 100,000 documents, a round trip each).
      const sizes = new Map<string, number>();
      // Sections and cards ranked at once, on two connections of the pool.
      const [sections, cardScores] = await Promise.all([
        this.rankSections(
          db,
          analysed,
          weighted.sections,
          options,
          AGGREGATION.sectionRows,
          this.nodeCountTable ? sizes : undefined,
        ),
        this.rankCards(db, weighted.cards, options),
      ]);
      const documents = aggregateSections(sections);
      // Ranked first; then only the cards of the documents returned are read.
      if (this.nodeCountTable) {
        // Every document found gets its count (most came with the lists): nothing is left for
        // `unsizedContenders` to ask, whose ranking cost as much as the final one.
        const ids = documents.map((d) => d.docId).filter((docId) => !sizes.has(docId));
        const counted = await this.nodeCounts(db, ids);
        for (const docId of ids) sizes.set(docId, counted.get(docId) ?? 0);
      } else
        for (
          let ask = unsizedContenders(documents, cardScores, limits.limit, sizes);
          ask.length > 0;
          ask = unsizedContenders(documents, cardScores, limits.limit, sizes)
        ) {
          const counted = await this.nodeCounts(db, ask);
          for (const docId of ask) sizes.set(docId, counted.get(docId) ?? 0);
        }
      const ranked = rankDocuments(documents, cardScores, { ...limits, sizes });
      if (ranked.length === 0) return [];
      // The cards of the documents returned and the sections shown (only those read in full), at once.
      const { hits, cards } = await this.readShown(
        db,
        ranked.flatMap((hit) => hit.sections),
        ranked.map((hit) => hit.docId),
      );
      const byDoc = new Map<string, SectionHit[]>();
      for (const hit of hits) {
        const list = byDoc.get(hit.docId);
        if (list) list.push(hit);
        else byDoc.set(hit.docId, [hit]);
      }
      // A document removed between the two reads is dropped rather than shown without its card.
      return ranked.flatMap((hit) => {
        const card = cards.get(hit.docId);
        return card ? [{ ...hit, card, sections: byDoc.get(hit.docId) ?? [] }] : [];
      });
    });
  }

  /** Node counts (the length prior of `rankDocuments`) of the given documents. */
  private async nodeCounts(db: PostgresQueryable, docIds: readonly string[]): Promise<Map<string, number>> {
    if (docIds.length === 0) return new Map();
    if (this.nodeCountTable) return this.nodeCountTable.read(db, docIds);
    const { rows } = await db.query(
      `SELECT doc_id, (card->>'nodeCount')::int AS nodes FROM ${this.tables.cards} WHERE doc_id = ANY($1::text[])`,
      [docIds],
    );
    return new Map(rows.map((row) => [row.doc_id as string, Number(row.nodes ?? 0)]));
  }

  private async rankCards(
    db: PostgresQueryable,
    terms: readonly RankedTerm[],
    options: { filter?: CatalogFilter; docIds?: readonly string[] },
  ): Promise<Map<string, number>> {
    const listed = isLibraryWide(options)
      ? await this.listedRows(
          db,
          this.cardChampions,
          { table: this.tables.cards, alias: "c", weights: CARD_RANK_WEIGHTS },
          terms,
          CARD_ROWS,
        )
      : undefined;
    if (listed) {
      const best = listed.filter((row) => row.score > 0).sort(bySectionScore);
      return new Map(best.slice(0, CARD_ROWS).map((row) => [row.docId, row.score]));
    }
    const rows = await this.rankRows(
      db,
      // A card only lifts a document its sections found: cards holding one term are not read
      // (at 1,000,000 documents the rarest term's ~500 cards were half a cold query's time).
      { table: this.tables.cards, alias: "c", weights: CARD_RANK_WEIGHTS, columns: "c.doc_id", oneTerm: 0 },
      terms,
      options,
      CARD_ROWS,
    );
    return new Map(
      rows.filter((row) => Number(row.score) > 0).map((row) => [row.doc_id as string, Number(row.score)]),
    );
  }

  async searchDocuments(query: string, options: SearchDocumentsOptions = {}): Promise<DocumentMatch[]> {
    const hits = await this.searchLibrary(query, {
      ...(options.limit !== undefined ? { limit: options.limit } : {}),
      ...(options.filter ? { filter: options.filter } : {}),
    });
    return hits.map((hit) => toDocumentMatch(hit, query));
  }
}
