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
  cardFieldTerms,
  discounted,
  type LibraryQuery,
  rankDocuments,
  searchLimits,
  sectionFieldTerms,
  summaryLine,
  toDocumentMatch,
} from "../query.js";
import type {
  LibraryDocumentHit,
  LibraryEntry,
  LibraryIndex,
  SearchLibraryOptions,
  SectionHit,
} from "../types.js";
import { ftsMatch } from "./match.js";
import { type Connection, openConnection, type Statement } from "./open.js";

/** The file a store folder's library index lives in. */
export const LIBRARY_FILE = "library.sqlite";

/** Options of {@link SqliteLibraryIndex.open}. */
export interface SqliteLibraryIndexOptions {
  /** Open for reading only: never creates or writes the file (writes throw `StoreReadOnlyError`). */
  readOnly?: boolean;
}

/** Documents named by `docIds` are searched one rowid range each up to this many; more go through a join. */
const RANGE_QUERIES = 64;
/** Card rows scored per query (best first). */
const CARD_ROWS = 200;

interface SectionRow {
  id: number;
  doc_id: string;
  node_id: string;
  title: string;
  ancestors: string;
  level: number;
  summary: string;
  start_page: number | null;
  end_page: number | null;
  start_line: number | null;
  end_line: number | null;
  back_matter: number;
  rank: number;
}

/** Which documents a search may return: all, or these (internal row ids and section ranges). */
type Scope = undefined | Array<{ doc: number; first: number; last: number }>;

/**
 * The library index of a store folder: one SQLite file (`library.sqlite`) with FTS5 tables over
 * every section (title, ancestors' titles, summary, own text) and every card, the cards
 * themselves with their filter facets, and the write intents. WAL journal: readers in other
 * processes see the last committed document while one writer adds more; every put or remove is
 * one transaction, so a reader never sees half a document. Queries score a bounded number of
 * section rows (best first, by FTS5's bm25 with field weights) and aggregate them per document.
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

  private constructor(db: Connection, path: string, readOnly: boolean) {
    this.db = db;
    this.path = path;
    this.readOnly = readOnly;
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
    const readOnly = options.readOnly ?? false;
    return new SqliteLibraryIndex(await openConnection(path, readOnly), path, readOnly);
  }

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
    return (this.sql(source).raw(true).get(...params) as unknown[] | undefined)?.[0];
  }

  /** Every row as an object. */
  private rows<T>(source: string, ...params: unknown[]): T[] {
    return this.sql(source).raw(false).all(...params) as T[];
  }

  private writing(what: string): void {
    if (this.readOnly) throw new StoreReadOnlyError(this.path, `the library index was opened read-only (${what})`);
  }

  async begin(docId: string, versionId?: string): Promise<void> {
    this.writing("begin");
    this.sql(
      "INSERT INTO intents (doc_id, version_id) VALUES (?, ?) ON CONFLICT (doc_id) DO UPDATE SET version_id = excluded.version_id",
    ).run(docId, versionId ?? null);
  }

  async putDocument(entry: LibraryEntry): Promise<void> {
    await this.putDocuments([entry]);
  }

  async putDocuments(entries: readonly LibraryEntry[]): Promise<void> {
    this.writing("putDocuments");
    if (entries.length === 0) return;
    // The last entry of a docId wins, as if put one after another.
    const last = new Map(entries.map((entry) => [entry.card.docId, entry]));
    this.db.transaction(() => {
      for (const entry of last.values()) this.write(entry);
    }).immediate();
  }

  async removeDocument(docId: string): Promise<void> {
    this.writing("removeDocument");
    this.db.transaction(() => {
      this.drop(docId);
      this.sql("DELETE FROM intents WHERE doc_id = ?").run(docId);
    }).immediate();
  }

  /** Inserts one document (replacing what was indexed for it); inside a transaction. */
  private write(entry: LibraryEntry): void {
    const { card, sections } = entry;
    this.drop(card.docId);
    const first = Number(this.value("SELECT coalesce(max(id), 0) + 1 FROM sections"));
    const doc = Number(
      this.value(
        "INSERT INTO documents (doc_id, version_id, card, first_section, last_section) VALUES (?, ?, ?, ?, ?) RETURNING doc",
        card.docId,
        card.versionId,
        JSON.stringify(card),
        first,
        first + sections.length - 1,
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
      `INSERT INTO sections (id, doc, node_id, title, ancestors, level, summary, start_page, end_page,
         start_line, end_line, back_matter) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    const terms = this.sql("INSERT INTO section_terms (rowid, title, ancestors, summary, text) VALUES (?, ?, ?, ?, ?)");
    sections.forEach((s, i) => {
      const id = first + i;
      row.run(
        id,
        doc,
        s.nodeId,
        s.title,
        JSON.stringify(s.ancestors),
        s.level,
        summaryLine(s.summary),
        s.startPage ?? null,
        s.endPage ?? null,
        s.startLine ?? null,
        s.endLine ?? null,
        s.backMatter ? 1 : 0,
      );
      terms.run(id, ...sectionFieldTerms(s));
    });
    this.sql("DELETE FROM intents WHERE doc_id = ?").run(card.docId);
  }

  /** Deletes what is indexed for a document; inside a transaction. */
  private drop(docId: string): void {
    const [old] = this.rows<{ doc: number; first_section: number; last_section: number }>(
      "SELECT doc, first_section, last_section FROM documents WHERE doc_id = ?",
      docId,
    );
    if (!old) return;
    this.sql("DELETE FROM section_terms WHERE rowid BETWEEN ? AND ?").run(old.first_section, old.last_section);
    this.sql("DELETE FROM sections WHERE id BETWEEN ? AND ?").run(old.first_section, old.last_section);
    this.sql("DELETE FROM card_terms WHERE rowid = ?").run(old.doc);
    this.sql("DELETE FROM facets WHERE doc = ?").run(old.doc);
    this.sql("DELETE FROM documents WHERE doc = ?").run(old.doc);
  }

  async pending(): Promise<Map<string, string | undefined>> {
    const rows = this.rows<{ doc_id: string; version_id: string | null }>(
      "SELECT doc_id, version_id FROM intents ORDER BY doc_id",
    );
    return new Map(rows.map((r) => [r.doc_id, r.version_id ?? undefined]));
  }

  async clear(docId: string): Promise<void> {
    this.writing("clear");
    this.sql("DELETE FROM intents WHERE doc_id = ?").run(docId);
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
      // Back matter is discounted after scoring: fetch enough rows that the discount can reorder them.
      const hits = this.sections(q, scope, options.filter, Math.max(limit * 4, 50));
      return hits.sort(bySectionScore).slice(0, limit);
    });
  }

  async searchLibrary(query: string, options: SearchLibraryOptions = {}): Promise<LibraryDocumentHit[]> {
    const limits = searchLimits(options);
    const q = analyzeQuery(query);
    if (limits.limit === 0 || q.terms.length === 0) return [];
    return this.read(() => {
      const scope = this.scope(options.filter, options.docIds);
      if (scope?.length === 0) return [];
      const documents = aggregateSections(this.sections(q, scope, options.filter, AGGREGATION.sectionRows));
      const ranked = rankDocuments(documents, this.cardScores(q, scope, options.filter), limits);
      const cards = this.cards(ranked.map((r) => r.docId));
      return ranked.flatMap((r) => {
        const card = cards.get(r.docId);
        return card ? [{ ...r, card }] : [];
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

  async close(): Promise<void> {
    if (this.db.open) this.db.close();
  }

  /** Runs reads in one transaction, so they see one committed state of the index. */
  private read<T>(work: () => T): T {
    return this.db.transaction(work).deferred();
  }

  /** The documents a search is limited to by `docIds` (with the filter applied), or all. */
  private scope(filter: CatalogFilter | undefined, docIds: readonly string[] | undefined): Scope {
    if (!docIds) return undefined;
    if (docIds.length === 0) return [];
    const { where, params } = filterClause(filter);
    const out: NonNullable<Scope> = [];
    const source = `SELECT doc, first_section AS first, last_section AS last FROM documents d WHERE doc_id = ? AND ${where}`;
    for (const docId of new Set(docIds)) {
      const [row] = this.rows<{ doc: number; first: number; last: number }>(source, docId, ...params);
      if (row) out.push({ doc: row.doc, first: row.first, last: row.last });
    }
    return out;
  }

  /**
   * The best section rows for a query (at most `rows`, best first by bm25), scores discounted.
   * Unrestricted, FTS5 keeps only the best `rows` while it scores (ORDER BY rank LIMIT); a
   * short `docIds` list is searched one rowid range per document; a filter joins the facets.
   */
  private sections(q: LibraryQuery, scope: Scope, filter: CatalogFilter | undefined, rows: number): SectionHit[] {
    const match = ftsMatch(q.terms);
    const select = `SELECT s.id, d.doc_id, s.node_id, s.title, s.ancestors, s.level, s.summary, s.start_page,
      s.end_page, s.start_line, s.end_line, s.back_matter, top.rank
      FROM top JOIN sections s ON s.id = top.id JOIN documents d ON d.doc = s.doc`;
    let found: SectionRow[];
    if (scope && scope.length <= RANGE_QUERIES) {
      const source = `WITH top AS MATERIALIZED (SELECT rowid AS id, rank FROM section_terms
           WHERE section_terms MATCH ? AND rowid BETWEEN ? AND ? ORDER BY rank LIMIT ?) ${select}`;
      found = scope.flatMap((s) => this.rows<SectionRow>(source, match, s.first, s.last, rows));
    } else if (scope || (filter && Object.keys(filter).length > 0)) {
      const { where, params } = filterClause(filter);
      const only = scope ? `AND d.doc IN (${scope.map((s) => s.doc).join(",")})` : "";
      found = this.rows<SectionRow>(
        `WITH top AS MATERIALIZED (SELECT f.rowid AS id, f.rank FROM section_terms f
           JOIN sections s ON s.id = f.rowid JOIN documents d ON d.doc = s.doc
           WHERE section_terms MATCH ? AND ${where} ${only} ORDER BY f.rank LIMIT ?) ${select}`,
        match,
        ...params,
        rows,
      );
    } else {
      found = this.rows<SectionRow>(
        `WITH top AS MATERIALIZED (SELECT rowid AS id, rank FROM section_terms
           WHERE section_terms MATCH ? ORDER BY rank LIMIT ?) ${select}`,
        match,
        rows,
      );
    }
    return found.map((row) => sectionHit(row, q));
  }

  /** Card scores of the documents whose cards match best (at most {@link CARD_ROWS}). */
  private cardScores(q: LibraryQuery, scope: Scope, filter: CatalogFilter | undefined): Map<string, number> {
    const { where, params } = filterClause(filter);
    const only = scope ? `AND d.doc IN (${scope.map((s) => s.doc).join(",")})` : "";
    const rows = this.rows<{ doc_id: string; rank: number }>(
      `SELECT d.doc_id, c.rank FROM card_terms c JOIN documents d ON d.doc = c.rowid
       WHERE card_terms MATCH ? AND ${where} ${only} ORDER BY c.rank LIMIT ?`,
      ftsMatch(q.terms),
      ...params,
      CARD_ROWS,
    );
    return new Map(rows.map((r) => [r.doc_id, -r.rank]));
  }

  private cards(docIds: readonly string[]): Map<string, DocumentCard> {
    const out = new Map<string, DocumentCard>();
    for (const docId of docIds) {
      const card = this.value("SELECT card FROM documents WHERE doc_id = ?", docId);
      if (typeof card === "string") out.set(docId, JSON.parse(card) as DocumentCard);
    }
    return out;
  }
}

/** A section row as a hit: bm25 (lower is better) negated, back matter discounted. */
function sectionHit(row: SectionRow, q: LibraryQuery): SectionHit {
  const backMatter = row.back_matter === 1;
  const hit: SectionHit = {
    docId: row.doc_id,
    nodeId: row.node_id,
    title: row.title,
    ancestors: JSON.parse(row.ancestors) as string[],
    level: row.level,
    score: discounted(-row.rank, backMatter, q),
    backMatter,
  };
  if (row.start_page !== null) hit.startPage = row.start_page;
  if (row.end_page !== null) hit.endPage = row.end_page;
  if (row.start_line !== null) hit.startLine = row.start_line;
  if (row.end_line !== null) hit.endLine = row.end_line;
  if (row.summary) hit.summary = row.summary;
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
