import { join } from "node:path";
import type { DocumentCard } from "../../catalog/card.js";
import { metadataFacets } from "../../catalog/card.js";
import type {
  CatalogFilter,
  DocumentMatch,
  DocumentPage,
  DocumentPageOptions,
  SearchDocumentsOptions,
} from "../../catalog/index.js";
import { facetKey } from "../../catalog/segment.js";
import { StoreReadOnlyError } from "../../store/errors.js";
import {
  AGGREGATION,
  aggregateSections,
  analyzeQuery,
  bySectionScore,
  candidateTerms,
  cardFieldTerms,
  cooccurringTerms,
  discounted,
  type LibraryQuery,
  type QueryTerm,
  rankDocuments,
  type ScoredSection,
  searchLimits,
  sectionFieldTerms,
  summaryLine,
  toDocumentMatch,
  unsizedContenders,
} from "../query.js";
import { withStoredCard } from "../stored-card.js";
import type {
  LibraryDocumentHit,
  LibraryEntry,
  LibraryIndex,
  LibraryIntent,
  SearchLibraryOptions,
  SectionHit,
} from "../types.js";
import { CHAMPIONS, type ChampionBuildProgress, ChampionLists, documentRange } from "./champions.js";
import { exactReal, jsonRowsSql, readJsonRows } from "./json-rows.js";
import { ftsAtLeastMatch, ftsCandidateMatch, ftsMatch } from "./match.js";
import { hasNodeCounts, NodeCounts } from "./node-counts.js";
import { type Connection, championRowsOf, openConnection, type Statement } from "./open.js";
import { SECTION_ID, sectionId, sectionOwner } from "./schema.js";
import { SegmentMerges } from "./segments.js";

/** The file a store folder's library index lives in. */
export const LIBRARY_FILE = "library.sqlite";

/** Options of {@link SqliteLibraryIndex.open}. */
export interface SqliteLibraryIndexOptions {
  /** Open for reading only: never creates or writes the file (writes throw `StoreReadOnlyError`). */
  readOnly?: boolean;
  /**
   * Sections a query scores at most (default {@link AGGREGATION}`.candidateRows`): those holding
   * at least m of its terms, m the least whose rows fit; when no section holds two, those holding
   * its rarest terms, together in at most this many. Each is scored on every query term.
   */
  candidateRows?: number;
  /**
   * Sections holding one query term only that a query scores beside those holding several
   * (default {@link AGGREGATION}`.singleTermRows`): the rarest terms' rows, when they fit.
   */
  singleTermRows?: number;
  /**
   * Champion lists (per term, its best sections by the term's own BM25 contribution; see
   * champions.ts): a library-wide query reads this many rows of each term's list (default
   * `CHAMPIONS.perTerm`, 100, the measured choice) in place of every section holding its rarest
   * terms, once its terms' rows outgrow `singleTermRows`. On by default: a writable open of a file
   * without lists builds them from its FTS5 index (685 s at 100,000 documents; `onChampionBuild`
   * reports it), and they cost writes (measured on the generated library: put 1.4 → 2.2 ms a
   * document, 1.8 → 3.4 with their merges; see docs/history/pageindex-store.md, seventh
   * session). `0` turns them off: none are built and this handle's queries do not read them. A
   * file keeps its lists (twice the value it was built with) and every writer keeps them in step,
   * asked or not; a later open may read fewer rows, not more.
   */
  championRows?: number;
  /**
   * The lists' backlog (sections written or removed since their last merge) at which a write
   * merges it into the lists (default `CHAMPIONS.mergeSections`, 20,000); a writer's `close`
   * merges what is left. Until then writes add to a small pending FTS5 index that queries read
   * beside the lists.
   */
  championMergeSections?: number;
  /** Called while a writable open builds a file's champion lists (see `championRows`); never for a new file. */
  onChampionBuild?: (progress: ChampionBuildProgress) => void;
}

/** Documents named by `docIds` are searched one row-id range each up to this many; more go through a filter. */
const RANGE_QUERIES = 64;
/** Page cache of a writer of a file with champion lists (KiB; SQLite's default is 2,000). */
const WRITER_CACHE_KIB = 65_536;
/** Card rows scored per query (best first). */
const CARD_ROWS = 200;

/** A section's stored fields (id, node id, title, ancestors, level, summary, pages, lines), as read. */
type SectionRow = [
  id: number,
  nodeId: string,
  title: string,
  ancestors: string[],
  level: number,
  summary: string,
  startPage: number | null,
  endPage: number | null,
  startLine: number | null,
  endLine: number | null,
];

/** The columns of a {@link SectionRow} (the ancestors' stored JSON array as an array, not a string). */
const SECTION_COLUMNS = [
  "id",
  "node_id",
  "title",
  "json(ancestors)",
  "level",
  "summary",
  "start_page",
  "end_page",
  "start_line",
  "end_line",
];

/** A section row id and its FTS5 rank (bm25, lower is better). */
interface RankedRow {
  id: number;
  rank: number;
}

/**
 * A scored section row before its fields are loaded; `docId` is its document's row number as a
 * ranking key, shared by the document's rows. Its `nodeId` (the row id as a key: section ids
 * follow document order within a document, so ties keep it) is made when read, which ranking
 * does only between equal scores: a library-wide query scores ~300 rows at 100,000 documents,
 * and a row id past 2³¹ made a string (~0.2 µs, more in code run once a query) for each.
 */
class ScoredRow implements ScoredSection {
  constructor(
    readonly id: number,
    readonly doc: number,
    readonly docId: string,
    readonly score: number,
  ) {}

  get nodeId(): string {
    return String(this.id).padStart(16, "0");
  }
}

/** A search's terms found in some section, and how they choose its candidates. */
interface Candidates {
  all: QueryTerm[];
  /**
   * The rows holding at least `m` of these terms are candidates (when two or more are found).
   * `unchecked`: not counted, since they cannot outgrow the budget (see {@link pairRowsBound}); the
   * query's rows tell whether there are any (none: the candidates are {@link withoutSeveral}'s).
   */
  several?: { terms: QueryTerm[]; m: number; unchecked?: boolean };
  /** The rows holding any of these are candidates (none when `several` found enough). */
  rare: QueryTerm[];
  /** The terms rare in sections, whose cards are scored (see `cardScores`). */
  uncommon: QueryTerm[];
  /** Every row holding a term is a candidate (they fit the one-term budget). */
  every: boolean;
  /** Rows of each term (exact when at most the budget: the probe stops past it). */
  rows: Map<string, number>;
  /** Rows of each term whose count was stored (see term-rows.ts): exact whatever the budget. */
  stored: Map<string, number>;
}

/** Which documents a search may return: all (`undefined`), or these document rows. */
type Scope = undefined | number[];

/** A document row number as a ranking key (fixed width: keys sort as numbers). */
const docKey = (doc: number) => String(doc).padStart(16, "0");

/**
 * The library index of a store folder: one SQLite file (`library.sqlite`) with FTS5 tables over
 * every section (title, ancestors' titles, summary, own text) and every card, the cards
 * themselves with their filter facets, and the write intents. WAL journal: readers in other
 * processes see the last committed document while one writer adds more; every put or remove is
 * one transaction, so a reader never sees half a document. A query scores a bounded number of
 * section rows in the FTS5 index alone (best first, bm25 with field weights), aggregates them
 * per document, and loads titles and cards for the winners only.
 *
 * @example
 * ```ts
 * const library = await SqliteLibraryIndex.open("/data/my-store");
 * await library.putDocument(libraryEntry(tree, versionId));
 * const hits = await library.searchLibrary("toner smudges on the paper", { limit: 5 });
 * await library.close();
 * ```
 */
export class SqliteLibraryIndex implements LibraryIndex {
  readonly engine = "sqlite";
  /** The index file. */
  readonly path: string;
  readonly readOnly: boolean;
  private readonly db: Connection;
  private readonly statements = new Map<string, Statement>();
  private readonly candidateRows: number;
  private readonly singleTermRows: number;
  /** The champion lists (absent in a file of an earlier release opened read-only). */
  private readonly champions: ChampionLists | undefined;
  /** Whether queries read the lists (`championRows: 0` keeps them in step for writes only). */
  private readonly readsLists: boolean;
  /** Each document's node count (see node-counts.ts). */
  private readonly nodes: NodeCounts;
  /** A writer's merges of the FTS5 indexes' segments (see segments.ts). */
  private readonly segments: SegmentMerges | undefined;

  private constructor(db: Connection, path: string, options: SqliteLibraryIndexOptions) {
    this.db = db;
    this.path = path;
    this.readOnly = options.readOnly ?? false;
    this.candidateRows = Math.max(1, options.candidateRows ?? AGGREGATION.candidateRows);
    this.singleTermRows = Math.max(0, options.singleTermRows ?? AGGREGATION.singleTermRows);
    const kept = ChampionLists.present(db) ? championRowsOf(db) : undefined;
    this.readsLists = options.championRows !== 0;
    this.champions =
      kept === undefined
        ? undefined
        : new ChampionLists(
            db,
            (source) => this.sql(source),
            kept,
            this.readsLists ? options.championRows : undefined,
            options.championMergeSections,
          );
    // A write touches each of its terms' lists, pages spread over the file: a larger page cache
    // for a writer halves that cost (measured 55 → 29 ms a document at 2,000 documents).
    if (this.champions && !this.readOnly) db.exec(`PRAGMA cache_size = -${WRITER_CACHE_KIB}`);
    this.segments = this.readOnly ? undefined : new SegmentMerges((source) => this.sql(source));
    // With champion lists, `section_lengths` holds one narrow row per section: a file without
    // node counts (an earlier release's, read-only) counts its ranges there, else in `sections`.
    this.nodes = new NodeCounts(
      (source) => this.sql(source),
      hasNodeCounts(db),
      this.champions ? "section_lengths" : "sections",
    );
  }

  /**
   * Opens the library index of a store folder (`<folder>/library.sqlite`), creating it unless
   * `readOnly`. @throws {LibraryIndexError} when the file is not a library index or is damaged.
   */
  static async open(folder: string, options: SqliteLibraryIndexOptions = {}): Promise<SqliteLibraryIndex> {
    return SqliteLibraryIndex.openFile(join(folder, LIBRARY_FILE), options);
  }

  /** Opens a library index file at any path (see {@link SqliteLibraryIndex.open}). */
  static async openFile(path: string, options: SqliteLibraryIndexOptions = {}): Promise<SqliteLibraryIndex> {
    const db = await openConnection(
      path,
      options.readOnly ?? false,
      options.championRows ?? CHAMPIONS.perTerm,
      options.onChampionBuild,
    );
    return new SqliteLibraryIndex(db, path, options);
  }

  async begin(docId: string, versionId?: string): Promise<void> {
    this.writing("begin");
    this.sql("INSERT OR IGNORE INTO write_intents (doc_id, version_id) VALUES (?, ?)").run(
      docId,
      versionId ?? "",
    );
  }

  async beginAll(intents: ReadonlyArray<LibraryIntent>): Promise<void> {
    this.writing("begin");
    const insert = this.sql("INSERT OR IGNORE INTO write_intents (doc_id, version_id) VALUES (?, ?)");
    this.db
      .transaction(() => {
        for (const { docId, versionId } of intents) insert.run(docId, versionId ?? "");
      })
      .immediate();
  }

  async putDocument(entry: LibraryEntry): Promise<void> {
    await this.putDocuments([entry]);
  }

  async putDocuments(entries: readonly LibraryEntry[]): Promise<void> {
    this.writing("putDocuments");
    if (entries.length === 0) return;
    // The last entry of a docId wins, as if put one after another.
    const last = new Map(entries.map((entry) => [entry.card.docId, entry]));
    this.writeTransaction(() => {
      for (const entry of last.values()) this.write(entry);
    });
  }

  async removeDocument(docId: string): Promise<void> {
    this.writing("removeDocument");
    this.writeTransaction(() => {
      this.drop(docId);
      this.sql("DELETE FROM write_intents WHERE doc_id = ? AND version_id = ''").run(docId);
    });
  }

  /**
   * A document write in one immediate transaction: the stored term counts checked first, the
   * lists' backlog and the segments settled after `body`, the counts stamped last (term-rows.ts).
   */
  private writeTransaction(body: () => void): void {
    this.db
      .transaction(() => {
        this.champions?.beginWrite();
        body();
        this.champions?.settle();
        this.segments?.settle();
        this.champions?.endWrite();
      })
      .immediate();
  }

  async pending(): Promise<Map<string, Array<string | undefined>>> {
    // A file of an earlier release opened read-only keeps its one-per-document `intents` table.
    const migrated = this.value("SELECT 1 FROM sqlite_master WHERE name = 'write_intents'") !== undefined;
    const rows = this.rows<{ doc_id: string; version_id: string }>(
      migrated
        ? "SELECT doc_id, version_id FROM write_intents ORDER BY doc_id, version_id"
        : "SELECT doc_id, coalesce(version_id, '') AS version_id FROM intents ORDER BY doc_id",
    );
    const pending = new Map<string, Array<string | undefined>>();
    for (const row of rows) {
      const versions = pending.get(row.doc_id) ?? [];
      versions.push(row.version_id === "" ? undefined : row.version_id);
      pending.set(row.doc_id, versions);
    }
    return pending;
  }

  async clear(docId: string, versionId?: string): Promise<void> {
    this.writing("clear");
    this.sql("DELETE FROM write_intents WHERE doc_id = ? AND version_id = ?").run(docId, versionId ?? "");
  }

  async indexedVersions(): Promise<Map<string, string>> {
    const rows = this.rows<{ doc_id: string; version_id: string }>(
      "SELECT doc_id, version_id FROM documents ORDER BY doc_id",
    );
    return new Map(rows.map((r) => [r.doc_id, r.version_id]));
  }

  async getCard(docId: string): Promise<DocumentCard | undefined> {
    const card = this.value("SELECT card FROM documents WHERE doc_id = ?", docId);
    return typeof card === "string" ? (JSON.parse(card) as DocumentCard) : undefined;
  }

  async count(): Promise<number> {
    return Number(this.value("SELECT count(*) FROM documents"));
  }

  async listDocuments(page: DocumentPageOptions): Promise<DocumentPage> {
    const limit = Math.max(0, Math.floor(page.limit ?? 50));
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const { where, params } = filterClause(page.filter);
    return this.read(() => {
      const total = Number(this.value(`SELECT count(*) FROM documents d WHERE ${where}`, ...params));
      const cards = this.rows<{ card: string }>(
        `SELECT card FROM documents d WHERE ${where} ORDER BY doc_id LIMIT ? OFFSET ?`,
        ...params,
        limit,
        offset,
      );
      return { documents: cards.map((c) => JSON.parse(c.card) as DocumentCard), total, offset };
    });
  }

  async searchSections(
    query: string,
    options: { limit?: number; filter?: CatalogFilter; docIds?: readonly string[] } = {},
  ): Promise<SectionHit[]> {
    const limit = searchLimits(options).limit;
    const q = analyzeQuery(query);
    if (limit === 0 || q.terms.length === 0) return [];
    return this.read(() => {
      const scope = this.scope(options.filter, options.docIds);
      if (scope?.length === 0) return [];
      // Back matter is discounted after scoring: fetch enough rows that the discount can reorder them.
      const chosen = this.candidates(q, scope, options.filter);
      const rows = this.scored(q, scope, options.filter, Math.max(limit * 4, 50), chosen);
      const best = rows.sort(bySectionScore).slice(0, limit);
      const docIds = this.docIds(best.map((r) => r.doc));
      const full = this.loadSections(best, docIds);
      return best.flatMap((row) => full.get(row.id) ?? []);
    });
  }

  async searchLibrary(query: string, options: SearchLibraryOptions = {}): Promise<LibraryDocumentHit[]> {
    const limits = searchLimits(options);
    const q = analyzeQuery(query);
    if (limits.limit === 0 || q.terms.length === 0) return [];
    return this.read(() => {
      const scope = this.scope(options.filter, options.docIds);
      if (scope?.length === 0) return [];
      // Rank on row ids and scores; load titles, ancestors and cards for the winners only.
      const chosen = this.candidates(q, scope, options.filter);
      const documents = aggregateSections(
        this.scored(q, scope, options.filter, AGGREGATION.sectionRows, chosen),
      );
      const cardScores = this.cardScores(q, scope, options.filter, chosen);
      const sizes = new Map<string, number>();
      for (
        let ask = unsizedContenders(documents, cardScores, limits.limit, sizes);
        ask.length > 0;
        ask = unsizedContenders(documents, cardScores, limits.limit, sizes)
      ) {
        const counted = this.nodeCounts(ask.map(Number));
        for (const doc of ask) sizes.set(doc, counted.get(doc) ?? 0);
      }
      const ranked = rankDocuments(documents, cardScores, { ...limits, sizes });
      const cards = this.cardsOf(ranked.map((r) => Number(r.docId)));
      const docIds = new Map([...cards].map(([doc, card]) => [doc, card.docId]));
      const full = this.loadSections(
        ranked.flatMap((r) => r.sections),
        docIds,
      );
      return ranked.flatMap((r) => {
        const card = cards.get(Number(r.docId));
        if (!card) return [];
        const sections = r.sections.flatMap((row) => full.get(row.id) ?? []);
        return [withStoredCard({ docId: card.docId, score: r.score, sections }, card.json)];
      });
    });
  }

  async searchDocuments(query: string, options: SearchDocumentsOptions = {}): Promise<DocumentMatch[]> {
    const hits = await this.searchLibrary(query, {
      limit: options.limit ?? 10,
      sectionsPerDocument: 3,
      ...(options.filter ? { filter: options.filter } : {}),
    });
    return hits.map((hit) => toDocumentMatch(hit, query));
  }

  /**
   * Merges the FTS5 indexes' segments into one each now (a writer also does it as the index
   * grows, see segments.ts; `PageIndexStore.vacuum` calls this): queries then seek one segment
   * per term. Rewrites the index (17-37 s at 100,000 documents); readers go on meanwhile.
   */
  async mergeSegments(): Promise<void> {
    this.writing("mergeSegments");
    const segments = this.segments;
    if (segments) this.db.transaction(() => segments.merge()).immediate();
    // Counted again: exact after documents left (a removal leaves them stale; see term-rows.ts).
    const lists = this.champions;
    if (lists) this.db.transaction(() => lists.countTerms()).immediate();
  }

  async close(): Promise<void> {
    if (!this.db.open) return;
    this.statements.clear();
    // libsql finalizes statements when they are collected, so the connection may outlive
    // close(). Leave the file whole without its log now: the last connection out turns the
    // write-ahead log off (the next writer turns it on again), so that a reader in a folder it
    // cannot write needs no -wal or -shm file.
    if (!this.readOnly) {
      this.mergeBacklog();
      try {
        this.db.exec("PRAGMA busy_timeout = 0"); // never wait for readers to leave
        this.db.exec("PRAGMA wal_checkpoint(TRUNCATE)");
        this.db.exec("PRAGMA journal_mode = DELETE");
      } catch {
        // Another process holds the database: the log stays for it (and the next writer).
      }
    }
    this.db.close();
  }

  // ------------------------------------------------------------------ writing

  /**
   * Merges what the champion lists' backlog holds (a writer's close): the next process reads
   * the lists alone. Left for the next writer when another process holds the write lock.
   */
  private mergeBacklog(): void {
    const lists = this.champions;
    if (!lists || lists.backlog() === 0) return;
    try {
      this.db
        .transaction(() => {
          lists.beginWrite();
          lists.merge();
          lists.endWrite();
        })
        .immediate();
    } catch {
      // The backlog stays, read beside the lists, until a write or close merges it.
    }
  }

  private writing(what: string): void {
    if (this.readOnly)
      throw new StoreReadOnlyError(this.path, `the library index was opened read-only (${what})`);
  }

  /** Inserts one document (replacing what was indexed for it); inside a transaction. */
  private write(entry: LibraryEntry): void {
    const { card } = entry;
    this.drop(card.docId);
    const doc = Number(
      this.value(
        "INSERT INTO documents (doc, doc_id, version_id, card) VALUES (?, ?, ?, ?) RETURNING doc",
        this.champions?.nextDocument() ?? null,
        card.docId,
        card.versionId,
        JSON.stringify(card),
      ),
    );
    const facet = this.sql("INSERT OR IGNORE INTO facets (facet, doc) VALUES (?, ?)");
    for (const [key, value] of metadataFacets(card.metadata)) facet.run(facetKey(key, value), doc);
    facet.run(facetKey("kind", card.kind), doc);
    this.sql("INSERT INTO card_terms (rowid, name, about, outline, sections) VALUES (?, ?, ?, ?, ?)").run(
      doc,
      ...cardFieldTerms(card),
    );
    const row = this.sql(
      `INSERT INTO sections (id, node_id, title, ancestors, level, summary, start_page, end_page, start_line,
         end_line) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const terms = this.sql(
      "INSERT INTO section_terms (rowid, title, ancestors, summary, text) VALUES (?, ?, ?, ?, ?)",
    );
    const indexed: Array<{ id: number; fields: readonly string[] }> = [];
    entry.sections.slice(0, SECTION_ID.maxSections).forEach((s, i) => {
      const id = sectionId(doc, i, s.backMatter);
      const fields = sectionFieldTerms(s);
      indexed.push({ id, fields });
      row.run(
        id,
        s.nodeId,
        s.title,
        JSON.stringify(s.ancestors),
        s.level,
        summaryLine(s.summary),
        s.startPage ?? null,
        s.endPage ?? null,
        s.startLine ?? null,
        s.endLine ?? null,
      );
      terms.run(id, ...fields);
    });
    this.champions?.add(indexed);
    this.nodes.put(doc, indexed.length);
    this.segments?.wrote(indexed.length + 1);
    this.sql("DELETE FROM write_intents WHERE doc_id = ? AND version_id = ?").run(card.docId, card.versionId);
  }

  /** Deletes what is indexed for a document; inside a transaction. */
  private drop(docId: string): void {
    const doc = this.value("SELECT doc FROM documents WHERE doc_id = ?", docId);
    if (doc === undefined || doc === null) return;
    const [first, last] = documentRange(Number(doc));
    this.sql("DELETE FROM section_terms WHERE rowid BETWEEN ? AND ?").run(first, last);
    // After the FTS5 rows: a list refilled here reads the index without them.
    this.champions?.remove(first, last);
    const sections = this.sql("DELETE FROM sections WHERE id BETWEEN ? AND ?").run(first, last).changes;
    this.segments?.wrote(sections + 1);
    this.nodes.remove(Number(doc));
    this.sql("DELETE FROM card_terms WHERE rowid = ?").run(doc);
    this.sql("DELETE FROM facets WHERE doc = ?").run(doc);
    this.sql("DELETE FROM documents WHERE doc = ?").run(doc);
  }

  // ------------------------------------------------------------------ reading

  /** Runs reads in one transaction, so they see one committed state of the index. */
  private read<T>(work: () => T): T {
    return this.db.transaction(work).deferred();
  }

  /** The document rows a search is limited to by `docIds` (and the filter), or all. */
  private scope(filter: CatalogFilter | undefined, docIds: readonly string[] | undefined): Scope {
    if (!docIds) return undefined;
    const { where, params } = filterClause(filter);
    const source = `SELECT doc FROM documents d WHERE doc_id = ? AND ${where}`;
    const out: number[] = [];
    for (const docId of new Set(docIds)) {
      const doc = this.value(source, docId, ...params);
      if (doc !== undefined && doc !== null) out.push(Number(doc));
    }
    return out;
  }

  /**
   * The terms a search matches rows by: the query's terms found in some section, and how they
   * choose candidates. Rows holding several of the (rarest few) terms come first: the index
   * intersects their posting lists before scoring anything, and the fewest terms a row must hold
   * (2, 3, …) is the least whose rows fit in `candidateRows` (see `atLeastOf`). Rows holding
   * one term only join them when the rarest terms' rows fit in `singleTermRows`,
   * or, when no row holds two terms, are the candidates on their own (the rarest terms, together
   * in at most `candidateRows` rows, always one; see {@link candidateTerms}). FTS5 scores each
   * row its query matches (about 5 µs a row), so a query's cost follows these rows, not the
   * library's size. Each term and each tier costs one count that stops past the budget.
   * Undefined (every term searched) when a few documents are searched one range each, or when
   * no term is in any section (a card may still hold one).
   */
  private candidates(
    q: LibraryQuery,
    scope: Scope,
    filter: CatalogFilter | undefined,
  ): Candidates | undefined {
    if (scope && scope.length <= RANGE_QUERIES) return undefined;
    const libraryWide = scope === undefined && !(filter && Object.keys(filter).length > 0);
    const probe = "SELECT count(*) FROM (SELECT 1 FROM section_terms WHERE section_terms MATCH ? LIMIT ?)";
    const count = (match: string) => Number(this.value(probe, match, this.candidateRows + 1));
    // A common term's count is stored (one seek): the probe walks its posting list, as long as the library's.
    const stored = this.champions?.termCounts(q.terms.map((t) => t.term)) ?? new Map<string, number>();
    const rowsOf = (t: QueryTerm) => {
      const known = stored.get(t.term);
      return known === undefined ? count(ftsMatch([t])) : Math.min(known, this.candidateRows + 1);
    };
    const found = q.terms.map((t) => ({ ...t, rows: rowsOf(t) })).filter((t) => t.rows > 0);
    if (found.length === 0) return undefined;
    const uncommon = candidateTerms(found, this.candidateRows);
    const termRows = new Map(found.map((t) => [t.term, t.rows]));
    // Every row holding a term fits the one-term budget: one query scores them all (a small library).
    if (found.reduce((sum, t) => sum + t.rows, 0) <= Math.min(this.candidateRows, this.singleTermRows))
      return { all: found, rare: found, uncommon, every: true, rows: termRows, stored };
    for (let m = 2; ; m += 1) {
      const several = cooccurringTerms(found, m);
      if (several.length === 0) break;
      // Library-wide, the ranked query counts for itself when the rows cannot outgrow the budget.
      const unchecked = libraryWide && m === 2 && pairRowsBound(several) <= this.candidateRows;
      const rows = unchecked ? 0 : count(ftsAtLeastMatch(several, several, m));
      if (rows === 0 && !unchecked) break;
      if (unchecked || rows <= this.candidateRows || m === several.length) {
        const rare = candidateTerms(found, Math.min(this.candidateRows, this.singleTermRows), 0);
        return {
          all: found,
          several: unchecked ? { terms: several, m, unchecked } : { terms: several, m },
          rare,
          uncommon,
          every: false,
          rows: termRows,
          stored,
        };
      }
    }
    return { all: found, rare: uncommon, uncommon, every: false, rows: termRows, stored };
  }

  /** The FTS5 queries whose matches are a search's candidates, each scored on every term. */
  private candidateMatches(chosen: Candidates): string[] {
    if (!chosen.several) return [ftsCandidateMatch(chosen.all, chosen.rare)];
    const out = [ftsAtLeastMatch(chosen.all, chosen.several.terms, chosen.several.m)];
    // Every term scores the rare terms' rows too: one of them may hold another term that the
    // first query leaves out (beyond its rarest terms, or fewer than m). Scored on the rare terms
    // alone instead, the dev set lost a right document in the top 3 (60 → 58 of 66), and no time.
    if (chosen.rare.length > 0) out.push(ftsCandidateMatch(chosen.all, chosen.rare));
    return out;
  }

  /**
   * A library-wide search's candidates: FTS5 queries (scored by FTS5), and, once the terms' rows
   * outgrow the one-term budget, the best rows of each term's champion list in place of the
   * rarest terms' every row (scored as FTS5 scores them; exact for a row holding one of the
   * terms, which is every row outside the co-occurrence query when it asks for two terms). The
   * cost is then the rows holding several terms plus `championRows` per term, whatever the
   * library's size (when two terms suffice to choose rows, as questions' rarer words do).
   */
  private libraryWide(chosen: Candidates, rank: (match: string) => RankedRow[]): RankedRow[][] {
    let cooccurring: { match: string; rows: RankedRow[] } | undefined;
    if (chosen.several?.unchecked) {
      const match = ftsAtLeastMatch(chosen.all, chosen.several.terms, chosen.several.m);
      cooccurring = { match, rows: rank(match) };
      // No row holds two of the terms: the search the count would have chosen (see `candidates`).
      if (cooccurring.rows.length === 0) return this.libraryWide(withoutSeveral(chosen), rank);
    }
    const scored = (matches: Array<string | RankedRow[]>) =>
      matches.map((match) =>
        typeof match !== "string" ? match : match === cooccurring?.match ? cooccurring.rows : rank(match),
      );
    return scored(this.libraryWideMatches(chosen));
  }

  /** {@link libraryWide}'s FTS5 queries and champion rows. */
  private libraryWideMatches(chosen: Candidates): Array<string | RankedRow[]> {
    if (chosen.every || !this.champions || !this.readsLists) return this.candidateMatches(chosen);
    const budget = this.candidateRows;
    const terms = chosen.all.map((t) => {
      const rows = chosen.rows.get(t.term) ?? 0;
      const hits = rows <= budget ? rows : chosen.stored.get(t.term);
      return hits === undefined ? { term: t.term } : { term: t.term, hits };
    });
    // No row holds two of the terms: each list's every row (a one-word query still finds 200).
    // A list short of its best rows since documents were removed (until the next merge): FTS5.
    if (!chosen.several) {
      const best = this.champions.best(terms, this.champions.kept, this.champions.listRows);
      return best ? [best] : this.candidateMatches(chosen);
    }
    // Rows holding two terms overflowed the budget: a list's row may hold another term that its
    // score would leave out, so the rarest terms' rows are scored by FTS5 as before.
    if (chosen.several.m > 2) return this.candidateMatches(chosen);
    const best = this.champions.best(terms);
    if (!best) return this.candidateMatches(chosen);
    return [ftsAtLeastMatch(chosen.all, chosen.several.terms, chosen.several.m), best];
  }

  /**
   * The best section rows for a query (at most `rows`), scored by the FTS5 index alone (bm25,
   * best first, back matter discounted): no table is read per scored row, and the best `rows`
   * are kept (see `ranked`). Unrestricted, the candidates are scored; a few documents are
   * searched one row-id range each; a filter, or many documents, keeps the rows of allowed
   * document rows.
   */
  private scored(
    q: LibraryQuery,
    scope: Scope,
    filter: CatalogFilter | undefined,
    rows: number,
    chosen: Candidates | undefined,
  ): ScoredRow[] {
    let found: RankedRow[];
    if (scope && scope.length <= RANGE_QUERIES) {
      // A few documents' rows are few: every term is scored.
      const match = ftsMatch(q.terms);
      const source =
        "SELECT rowid AS id, rank FROM section_terms WHERE section_terms MATCH ? AND rowid BETWEEN ? AND ?";
      found = scope.flatMap((doc) => {
        const first = sectionId(doc, 0, false);
        return this.ranked(source, rows, match, first, first + SECTION_ID.perDocument - 1);
      });
    } else if (scope || (filter && Object.keys(filter).length > 0)) {
      if (chosen === undefined) return [];
      const { where, params } = filterClause(filter);
      const only = scope ? `AND d.doc IN (${scope.join(",")})` : "";
      const source = `SELECT rowid AS id, rank FROM section_terms WHERE section_terms MATCH ?
           AND (rowid / ${SECTION_ID.perDocument}) IN (SELECT d.doc FROM documents d WHERE ${where} ${only})`;
      found = mergedRows(
        this.candidateMatches(chosen).map((match) => this.ranked(source, rows, match, ...params)),
        rows,
      );
      // The candidates may all lie outside the allowed documents: then every term.
      if (found.length === 0) found = this.ranked(source, rows, ftsMatch(q.terms), ...params);
    } else {
      if (chosen === undefined) return [];
      const source = "SELECT rowid AS id, rank FROM section_terms WHERE section_terms MATCH ?";
      found = mergedRows(
        this.libraryWide(chosen, (match) => this.ranked(source, rows, match)),
        rows,
      );
    }
    const keys = new Map<number, string>(); // a document's key, made once for all its rows
    return found.map((row) => {
      const { doc, backMatter } = sectionOwner(row.id);
      let key = keys.get(doc);
      if (key === undefined) {
        key = docKey(doc);
        keys.set(doc, key);
      }
      return new ScoredRow(row.id, doc, key, discounted(-row.rank, backMatter, q));
    });
  }

  /**
   * Card scores (by document row key) of the documents whose cards match best: the cards holding
   * a term that is not common in sections (rare there, or in none), scored on every term.
   */
  private cardScores(
    q: LibraryQuery,
    scope: Scope,
    filter: CatalogFilter | undefined,
    chosen: Candidates | undefined,
  ): Map<string, number> {
    const rare = new Set(chosen?.uncommon.map((t) => t.term));
    const common = new Set(chosen?.all.flatMap((t) => (rare.has(t.term) ? [] : [t.term])));
    const uncommon = q.terms.filter((t) => !common.has(t.term));
    const restricted = scope !== undefined || (filter !== undefined && Object.keys(filter).length > 0);
    const { where, params } = filterClause(filter);
    const only = scope ? `AND d.doc IN (${scope.join(",")})` : "";
    const rows = this.ranked(
      `SELECT rowid AS id, rank FROM card_terms WHERE card_terms MATCH ?
       ${restricted ? `AND rowid IN (SELECT d.doc FROM documents d WHERE ${where} ${only})` : ""}`,
      CARD_ROWS,
      uncommon.length > 0 ? ftsCandidateMatch(q.terms, uncommon) : ftsMatch(q.terms),
      ...(restricted ? params : []),
    );
    return new Map(rows.map((r) => [docKey(r.id), -r.rank]));
  }

  /** Node counts (the length prior of {@link rankDocuments}) by document row key. */
  private nodeCounts(docs: readonly number[]): Map<string, number> {
    if (docs.length === 0) return new Map();
    return new Map(this.nodes.read(docs).map((r) => [docKey(r.doc), Number(r.nodes)]));
  }

  /**
   * The docIds and stored cards (JSON, decoded when a hit's card is read: see `withStoredCard`)
   * of document rows, in one statement (a query's 20 cards were 20 statements).
   */
  private cardsOf(docs: readonly number[]): Map<number, { docId: string; json: string }> {
    if (docs.length === 0) return new Map();
    const rows = this.rows<{ doc: number; doc_id: string; card: string }>(
      "SELECT doc, doc_id, card FROM documents WHERE doc IN (SELECT value FROM json_each(?))",
      JSON.stringify(docs),
    );
    return new Map(rows.map((r) => [Number(r.doc), { docId: r.doc_id, json: r.card }]));
  }

  /** The docIds of document rows. */
  private docIds(docs: readonly number[]): Map<number, string> {
    const out = new Map<number, string>();
    for (const doc of new Set(docs)) {
      const docId = this.value("SELECT doc_id FROM documents WHERE doc = ?", doc);
      if (typeof docId === "string") out.set(doc, docId);
    }
    return out;
  }

  /** The full hits of scored rows (their scores kept), by section id. */
  private loadSections(
    rows: readonly ScoredRow[],
    docIds: ReadonlyMap<number, string>,
  ): Map<number, SectionHit> {
    const out = new Map<number, SectionHit>();
    if (rows.length === 0) return out;
    // A JSON array parameter: one statement in the cache for every number of rows; the rows
    // as one JSON value (see json-rows.ts: ~45 rows a query at 100,000 documents, ~6 at 100).
    const found = readJsonRows<SectionRow>(
      this.sql(
        jsonRowsSql("SELECT * FROM sections WHERE id IN (SELECT value FROM json_each(?))", SECTION_COLUMNS),
      ),
      JSON.stringify(rows.map((r) => r.id)),
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    for (const row of found) {
      const scored = byId.get(row[0]);
      const docId = scored && docIds.get(scored.doc);
      if (scored && docId) out.set(row[0], sectionHit(row, docId, scored.score));
    }
    return out;
  }

  // ------------------------------------------------------------------ statements

  /** A prepared statement, prepared once per connection. */
  private sql(source: string): Statement {
    let statement = this.statements.get(source);
    if (!statement) {
      // Filters make statements of many shapes: keep the cache bounded.
      if (this.statements.size >= 256) this.statements.clear();
      statement = this.db.prepare(source);
      this.statements.set(source, statement);
    }
    return statement;
  }

  /** The first column of the first row (libsql's `pluck()` does not apply to `get()`). */
  private value(source: string, ...params: unknown[]): unknown {
    return (
      this.sql(source)
        .raw(true)
        .get(...params) as unknown[] | undefined
    )?.[0];
  }

  /**
   * The best `limit` rows (`id`, `rank`: FTS5's bm25, lower is better) of a statement selecting
   * `rowid AS id, rank` from an FTS5 table, best first (ties by row id), read as one JSON value
   * (see json-rows.ts). Sorted here, not by FTS5: its `ORDER BY rank` plan ranks through an
   * inner statement and a sorter, ~2x the CPU of scoring the same rows in a plain scan (the
   * bench's questions at 100,000 documents: sections 0.90 → 0.54 ms, cards 0.60 → 0.32), and
   * FTS5 scores every matching row either way, so `LIMIT` bounded the rows returned, not scored.
   */
  private ranked(source: string, limit: number, ...params: unknown[]): RankedRow[] {
    const statement = this.sql(jsonRowsSql(source, ["id", exactReal("rank")]));
    return readJsonRows<[number, string]>(statement, ...params)
      .map(([id, rank]) => ({ id, rank: Number(rank) }))
      .sort(byRank)
      .slice(0, limit);
  }

  /** Every row as an object. */
  private rows<T>(source: string, ...params: unknown[]): T[] {
    return this.sql(source)
      .raw(false)
      .all(...params) as T[];
  }
}

/**
 * At most how many rows hold two of `terms` (each counted exactly): every such row holds one
 * besides the commonest, so no more than the other terms' rows together.
 */
function pairRowsBound(terms: ReadonlyArray<{ rows: number }>): number {
  const rows = terms.map((t) => t.rows);
  return rows.reduce((sum, n) => sum + n, 0) - Math.max(...rows);
}

/**
 * The candidates of a search whose terms no row holds two of: each term's own rows, the rarest
 * (what `candidates` chooses when its count finds none).
 */
function withoutSeveral(chosen: Candidates): Candidates {
  const { several: _, ...rest } = chosen;
  return { ...rest, rare: chosen.uncommon };
}

/** Best rank first (lower is better), then the lower row id. */
function byRank(a: RankedRow, b: RankedRow): number {
  return a.rank - b.rank || a.id - b.id;
}

/**
 * The rows of several candidate queries, each once with its best score (a query may score a
 * row on some of its terms only), best first, at most `limit`.
 */
function mergedRows(lists: ReadonlyArray<readonly RankedRow[]>, limit: number): RankedRow[] {
  if (lists.length === 1) return [...(lists[0] ?? [])];
  const byId = new Map<number, RankedRow>();
  for (const list of lists) {
    for (const row of list) {
      const kept = byId.get(row.id);
      if (!kept || row.rank < kept.rank) byId.set(row.id, row);
    }
  }
  return [...byId.values()].sort(byRank).slice(0, limit);
}

/** A section row as a hit, with its (discounted) score. */
function sectionHit(row: SectionRow, docId: string, score: number): SectionHit {
  const [id, nodeId, title, ancestors, level, summary, startPage, endPage, startLine, endLine] = row;
  const hit: SectionHit = {
    docId,
    nodeId,
    title,
    ancestors,
    level,
    score,
    backMatter: sectionOwner(id).backMatter,
  };
  if (startPage !== null) hit.startPage = startPage;
  if (endPage !== null) hit.endPage = endPage;
  if (startLine !== null) hit.startLine = startLine;
  if (endLine !== null) hit.endLine = endLine;
  if (summary) hit.summary = summary;
  return hit;
}

/**
 * A SQL condition on `documents d` for a metadata filter: per key, the document holds one of
 * the wanted facets (the catalog's `matchesFilter` semantics, facets stored lower-cased).
 */
function filterClause(filter: CatalogFilter | undefined): { where: string; params: string[] } {
  const clauses: string[] = [];
  const params: string[] = [];
  for (const [key, wanted] of Object.entries(filter ?? {})) {
    const values = (Array.isArray(wanted) ? wanted : [wanted]).map((v) => facetKey(key, String(v)));
    if (values.length === 0) {
      clauses.push("0");
      continue;
    }
    clauses.push(`d.doc IN (SELECT doc FROM facets WHERE facet IN (${values.map(() => "?").join(",")}))`);
    params.push(...values);
  }
  return { where: clauses.length > 0 ? clauses.join(" AND ") : "1", params };
}
