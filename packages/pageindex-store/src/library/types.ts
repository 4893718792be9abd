/**
 * CONTRACT between the helpers (sqlite, pg, core/store, retriever). Copy this file verbatim to
 * packages/pageindex-store/src/library/types.ts (imports adjusted only if the core move changed
 * paths). Do not change names or shapes on your own; if you must add something, ADD optional
 * members only and write what you added to /work/notes/library-index-CHANGES.md.
 *
 * The library index: one search-engine index over every section of every document of a store
 * (SQLite FTS5 in the store folder, PostgreSQL full text in a PostgreSQL store), holding the
 * document cards too (what searchDocuments/listDocuments answer from), so a fresh process
 * answers its first query from the engine's files, never by loading a whole catalog.
 */

import type { DocumentCard } from "../catalog/card.js";
import type {
  CatalogFilter,
  DocumentMatch,
  DocumentPage,
  DocumentPageOptions,
  SearchDocumentsOptions,
} from "../catalog/index.js";

/** One section as the library index holds it (built from a tree at write time). */
export interface LibrarySection {
  nodeId: string;
  title: string;
  /** Titles from the root down to the parent (not the section's own). */
  ancestors: string[];
  level: number;
  /** `summary` or `prefixSummary` (may be empty). */
  summary: string;
  /** The section's own text (text before its first child), possibly cut to a size limit. */
  text: string;
  startPage?: number;
  endPage?: number;
  startLine?: number;
  endLine?: number;
  /** Back matter (index, contents, licence…): indexed, but marked so rankings can discount it. */
  backMatter: boolean;
}

/** Everything indexed for one published document version: written in one transaction. */
export interface LibraryEntry {
  /** The document's card (also its list entry: name, description, metadata, kind…). */
  card: DocumentCard;
  sections: LibrarySection[];
}

/** A section that matched a query. */
export interface SectionHit {
  docId: string;
  nodeId: string;
  title: string;
  ancestors: string[];
  level: number;
  /** Engine score, higher is better, comparable within one search. */
  score: number;
  startPage?: number;
  endPage?: number;
  startLine?: number;
  endLine?: number;
  backMatter: boolean;
  /** A line of the section's summary (≤ 200 chars), for prompts that show evidence. */
  summary?: string;
}

/** A document ranked by its sections (and card), with the sections that ranked it. */
export interface LibraryDocumentHit {
  docId: string;
  /** Aggregated score (DocScore-style over its best sections, plus its card), higher is better. */
  score: number;
  card: DocumentCard;
  /** Its best-matching sections, best first (at most `sectionsPerDocument`). */
  sections: SectionHit[];
}

export interface SearchLibraryOptions {
  /** Most documents returned. Default 10. */
  limit?: number;
  /** Most sections returned per document. Default 5. */
  sectionsPerDocument?: number;
  /** Only documents whose metadata (or `kind`) match (same semantics as `matchesFilter`). */
  filter?: CatalogFilter;
  /** Only these documents. */
  docIds?: readonly string[];
}

/** An intent to write `versionId` of `docId` (see {@link LibraryIndex.begin}). */
export interface LibraryIntent {
  docId: string;
  versionId?: string;
}

/**
 * The engine behind a store's library: what PageIndexStore writes to on every write path and
 * reads from for searchDocuments / listDocuments / searchLibrary.
 *
 * Crash safety contract (PageIndexStore relies on it): `begin(docId, versionId)` durably records
 * an intent before the byte-store write; `putDocument` / `removeDocument` clear the intent of
 * that very version (the delete intent, for a removal) in the same transaction as the index
 * change, so concurrent writers of one document each clear only their own; `pending()` lists the
 * intents left by a crash, so a store reopening for writing re-reads those documents' heads,
 * makes the index agree (put the head's version, or remove the document when it has no head)
 * and clears the intents it settled.
 */
export interface LibraryIndex {
  /** Human-readable engine name for errors and READMEs ("sqlite", "postgres"). */
  readonly engine: string;
  /** Records an intent to write (versionId) or delete (versionId undefined) a document. */
  begin(docId: string, versionId?: string): Promise<void>;
  /**
   * Same as {@link LibraryIndex.begin} for many documents at once (one statement or
   * transaction): what `addTrees` calls per wave. Optional; without it each is begun alone.
   */
  beginAll?(intents: ReadonlyArray<LibraryIntent>): Promise<void>;
  /** Replaces what is indexed for `entry.card.docId` (card + sections), clearing its intent. */
  putDocument(entry: LibraryEntry): Promise<void>;
  /** Same as putDocument for many documents, in one transaction (bulk addTrees). */
  putDocuments(entries: readonly LibraryEntry[]): Promise<void>;
  /** Removes a document (card + sections), clearing its intent. No-op when absent. */
  removeDocument(docId: string): Promise<void>;
  /**
   * Intents left unfinished (by a crash): docId → the versionIds meant to be written, sorted
   * (`undefined`: a delete).
   */
  pending(): Promise<Map<string, Array<string | undefined>>>;
  /**
   * Clears one intent without changing the index (the write it announced never happened, or a
   * repair settled it): that of `versionId`, or the delete intent when `versionId` is undefined.
   */
  clear(docId: string, versionId?: string): Promise<void>;
  /** The versionId indexed for each document (for a full consistency check / rebuild). */
  indexedVersions(): Promise<Map<string, string>>;
  /** The indexed card of one document, or undefined. */
  getCard(docId: string): Promise<DocumentCard | undefined>;
  /** Documents ranked for a query: sections aggregated per document, plus the card fields. */
  searchLibrary(query: string, options?: SearchLibraryOptions): Promise<LibraryDocumentHit[]>;
  /** Sections ranked for a query across the library (flat). */
  searchSections(
    query: string,
    options?: { limit?: number; filter?: CatalogFilter; docIds?: readonly string[] },
  ): Promise<SectionHit[]>;
  /** The catalog search the retriever and CLI already use (cards + sections evidence). */
  searchDocuments(query: string, options?: SearchDocumentsOptions): Promise<DocumentMatch[]>;
  /** One page of cards in docId order, with the total. */
  listDocuments(page: DocumentPageOptions): Promise<DocumentPage>;
  /** Number of documents indexed. */
  count(): Promise<number>;
  /**
   * Merges the engine's index segments now, where it keeps several (SQLite's FTS5; `vacuum`
   * calls it). Optional: an engine that needs no such maintenance has none.
   */
  mergeSegments?(): Promise<void>;
  close(): Promise<void>;
}

/**
 * A reader that can search the library by section (PageIndexStore with a library index,
 * MemoryTreeReader). The retriever uses it when present (`isLibraryReader`).
 */
export interface LibraryReader {
  searchLibrary(query: string, options?: SearchLibraryOptions): Promise<LibraryDocumentHit[]>;
}
