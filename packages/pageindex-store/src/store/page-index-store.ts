import type { BaseStore } from "@langchain/core/stores";
import {
  type DocumentInfo,
  PageIndexError,
  type TreeDocument,
  type TreeNode,
  type TreeReader,
  type TreeSkeleton,
} from "pageindex-core";
import type {
  DocumentMatch,
  DocumentPage,
  DocumentPageOptions,
  SearchDocumentsOptions,
} from "../catalog/index.js";
import { openFolderLibrary } from "../library/sqlite/folder-library.js";
import type { SqliteLibraryIndexOptions } from "../library/sqlite/sqlite-library-index.js";
import type {
  LibraryDocumentHit,
  LibraryIndex,
  LibraryReader,
  SearchLibraryOptions,
} from "../library/types.js";
import type { AddTreesOptions } from "./batch-write.js";
import { FileByteStore, type FileByteStoreOptions } from "./file-byte-store.js";
import { StoreJanitor } from "./janitor.js";
import type { KeyLayout } from "./keys.js";
import type {
  DocIdReservation,
  DocumentListing,
  DocumentQuery,
  PageIndexStoreOptions,
  VacuumResult,
} from "./options.js";
import { StoreReader } from "./reader.js";
import { RedisByteStore, type RedisByteStoreOptions, type RedisCommandClient } from "./redis-byte-store.js";
import { StoreState } from "./state.js";
import { StoreWriter } from "./writer.js";

export type { DocIdReservation, DocumentListing, DocumentQuery, PageIndexStoreOptions, VacuumResult };

/**
 * Persists PageIndex trees in any LangChain byte store (`BaseStore<string, Uint8Array>`):
 * `InMemoryStore`, `LocalFileStore`, the bundled {@link FileByteStore} and
 * {@link RedisByteStore}, or any other.
 *
 * - Navigation reads a document's skeleton (cached, re-validated against a one-key head read)
 *   and then only the text chunks of the nodes it opens.
 * - Adding or replacing a tree writes a new version under fresh keys, then switches the
 *   document's head key: readers see the old tree or the new one, never a mix, even when the
 *   writer dies midway. Each document has its own head, so concurrent writers of different
 *   documents never overwrite each other.
 * - Everything read is validated; bad values raise {@link StoreCorruptionError} naming the
 *   document and key, and affect only that document.
 * - With a library index (`library` in the options), every write keeps it in step, and
 *   document searches and lists are answered by it.
 *
 * The work is split by concern: {@link StoreWriter} (writes), {@link StoreReader} (reads),
 * {@link StoreJanitor} (cleanup and repair), over one {@link StoreState}.
 * @example
 * ```ts
 * const store = await PageIndexStore.fromPath(".pageindex");
 * await store.addTree(tree);
 * const skeleton = await store.getSkeleton(tree.docId);
 * ```
 */
export class PageIndexStore implements TreeReader, LibraryReader {
  /** The byte store holding the keys. */
  readonly byteStore: BaseStore<string, Uint8Array>;
  readonly keys: KeyLayout;
  private readonly state: StoreState;
  private readonly writer: StoreWriter;
  private readonly reader: StoreReader;
  private readonly janitor: StoreJanitor;
  private closer: (() => Promise<void>) | undefined;

  constructor(byteStore: BaseStore<string, Uint8Array>, options: PageIndexStoreOptions = {}) {
    this.state = new StoreState(byteStore, options, {
      all: () => this.janitor.entriesFromHeads(),
      unfinished: (index) => this.janitor.unfinishedEntries(index),
    });
    this.byteStore = byteStore;
    this.keys = this.state.keys;
    this.janitor = new StoreJanitor(this.state);
    this.writer = new StoreWriter(this.state, this.janitor);
    this.reader = new StoreReader(this.state);
  }

  /**
   * A store in a folder on disk (created if needed): the embedded default. Its library index is
   * SQLite FTS5 in the folder (`.library/library.sqlite`, see {@link SqliteLibraryIndex}), created
   * with the folder and built from the documents already stored when a folder written before the
   * library index is opened for writing; a `readOnly` folder uses the index it has, or its catalog
   * when it has none. `library: false` opens the folder without one; a {@link LibraryIndex} uses
   * that one. {@link PageIndexStore.close} closes the index the store opened. The index has
   * champion lists by default (built on the first writable open of a folder whose index has none,
   * reported to `onChampionBuild`; see `SqliteLibraryIndexOptions.championRows`): library-wide
   * queries then cost less at scale, and every write more; `championRows: 0` turns them off.
   * @throws {LibraryIndexError} when the folder's index file is not a library index or is damaged.
   */
  static async fromPath(
    dir: string,
    options: Omit<PageIndexStoreOptions, "library"> &
      FileByteStoreOptions & {
        library?: LibraryIndex | false;
      } & Pick<SqliteLibraryIndexOptions, "championRows" | "onChampionBuild"> = {},
  ): Promise<PageIndexStore> {
    const byteStore = await FileByteStore.fromPath(dir, options);
    const { library: given, championRows, onChampionBuild, ...rest } = options;
    if (given !== undefined) {
      return new PageIndexStore(byteStore, given === false ? rest : { ...rest, library: given });
    }
    const library = await openFolderLibrary(byteStore.rootPath, byteStore.readOnly, {
      ...(championRows === undefined ? {} : { championRows }),
      ...(onChampionBuild ? { onChampionBuild } : {}),
    });
    if (!library) return new PageIndexStore(byteStore, rest);
    const store = new PageIndexStore(byteStore, { ...rest, library });
    store.closer = () => library.close();
    try {
      if (!byteStore.readOnly) await store.janitor.buildLibraryIfEmpty();
      await store.janitor.indexPublishedIntents();
    } catch (error) {
      await library.close().catch(() => undefined);
      throw error;
    }
    return store;
  }

  /**
   * A store in Redis. Given a URL, opens a connection that {@link PageIndexStore.close}
   * closes; given a connected node-redis v5 client, uses it and leaves closing to the caller.
   */
  static async fromRedis(
    urlOrClient: string | RedisCommandClient,
    options: PageIndexStoreOptions & RedisByteStoreOptions = {},
  ): Promise<PageIndexStore> {
    if (typeof urlOrClient === "string") {
      const byteStore = await RedisByteStore.fromUrl(urlOrClient, options);
      const store = new PageIndexStore(byteStore, options);
      store.closer = () => byteStore.close();
      return store;
    }
    if (!urlOrClient.isOpen) {
      throw new PageIndexError("The Redis client is not connected: call `await client.connect()` first");
    }
    return new PageIndexStore(new RedisByteStore(urlOrClient, options), options);
  }

  /** Releases a connection the store opened itself (see {@link PageIndexStore.fromRedis}). */
  async close(): Promise<void> {
    const closer = this.closer;
    this.closer = undefined;
    this.state.cache.clear();
    await closer?.();
  }

  /**
   * Adds a tree, or replaces the document with the same `docId` all-or-nothing.
   * The tree is validated first.
   * @throws {TreeValidationError} for an invalid tree. @throws {InvalidIdError} for an unusable id
   * (also one ending in a dot). @throws {DocumentIdConflictError} for an id equal to a stored
   * document's but for letter case.
   */
  async addTree(input: TreeDocument): Promise<DocumentInfo> {
    return this.writer.addTree(input);
  }

  /**
   * Adds or replaces many trees: documents are written in waves of `concurrency` (default 8),
   * each step of a wave (library intents, pending markers, values, heads) one call for all its
   * documents; each document is published all-or-nothing as by {@link PageIndexStore.addTree},
   * and after a failed wave no other starts. The catalog gets one segment per batch (not one per
   * document, then merged), which makes building a large library several times faster. Every tree is validated before anything is written. Should the batch be
   * interrupted, every document published so far is readable, and its pending marker stays
   * until its card is written: the next cleanup sweep (any write after `orphanGraceMs`, or
   * `vacuum`) writes the cards the batch did not.
   * @returns each document's info, in input order.
   * @throws {TreeValidationError} for an invalid tree (nothing written). @throws
   * {DuplicateBatchDocumentError} when two trees name the same document. @throws the first
   * write failure, after the documents already published were cataloged.
   * @example
   * ```ts
   * const store = await PageIndexStore.fromPath("./library");
   * await store.addTrees(trees, { concurrency: 8 });
   * ```
   */
  async addTrees(inputs: readonly TreeDocument[], options: AddTreesOptions = {}): Promise<DocumentInfo[]> {
    return this.writer.addTrees(inputs, options);
  }

  /**
   * Reserves a document id for `owner` (e.g. a source path) before a slow load, so two processes
   * choosing ids for different sources cannot both take the same one: the reservation is one
   * create-if-absent write, atomic across processes on {@link FileByteStore} (a hard link) and
   * {@link RedisByteStore} (`SET NX`); on other byte stores (InMemoryStore, LangChain's
   * LocalFileStore) it is atomic only among the calls of this process. The reservation lasts
   * until the document is deleted or {@link PageIndexStore.releaseDocId}; one older than
   * `orphanGraceMs` whose id has no document (its process died before storing it) is taken over.
   * `addTree` does not check reservations: they are for callers that choose ids, like the CLI.
   * @example
   * ```ts
   * const claim = await store.reserveDocId("notes.md", "/home/me/a/notes.md");
   * if (!claim.reserved) console.log(`"notes.md" belongs to ${claim.owner}`);
   * ```
   * @throws {InvalidIdError} for an unusable id.
   */
  async reserveDocId(docId: string, owner: string): Promise<DocIdReservation> {
    return this.writer.reserveDocId(docId, owner);
  }

  /** Gives up a reservation made by {@link PageIndexStore.reserveDocId} if `owner` holds it. */
  async releaseDocId(docId: string, owner: string): Promise<void> {
    return this.writer.releaseDocId(docId, owner);
  }

  /**
   * Deletes a document. Readers see it whole until its head is removed, then not at all.
   * Works on a document whose values are corrupt.
   * @returns whether the document existed.
   */
  async deleteDocument(docId: string): Promise<boolean> {
    return this.writer.deleteDocument(docId);
  }

  /**
   * Builds the corpus catalog again from the documents' heads: for a store written by a release
   * without a catalog (done automatically on first use when no catalog exists), or one written
   * since by such a release. Reads every head and skeleton once.
   * @returns the number of documents cataloged.
   * @throws {StoreReadOnlyError} on a read-only store (nothing would reach it).
   */
  async rebuildCatalog(): Promise<number> {
    return this.janitor.rebuildCatalog();
  }

  /**
   * Deletes versions of one document that no head points to and that are older than
   * `graceMs`: leftovers of crashed or superseded writes.
   * @returns the number of keys deleted.
   */
  async removeOrphans(docId: string, graceMs?: number): Promise<number> {
    return this.janitor.removeOrphans(docId, graceMs);
  }

  /**
   * Removes every unpublished or superseded version older than `graceMs` (default: the
   * store's `orphanGraceMs`) across all documents. Keys that are not in our layout are
   * reported, never deleted; documents with an unreadable head are left alone. Markers of
   * unfinished writes and derived artifacts of versions no head points to, past the grace
   * period, go too (artifacts count in `deletedKeys`). A superseded version goes once it was
   * superseded longer than `graceMs` or `supersededGraceMs` ago, whichever is shorter. Pass
   * `graceMs: 0` only when no other process is writing or reading: it also removes versions being
   * written and those readers may have just started on. Catalog segments that cannot be read are
   * removed and the documents they listed cataloged again from their trees.
   * @throws {StoreReadOnlyError} on a read-only store (nothing would reach it).
   */
  async vacuum(options: { graceMs?: number } = {}): Promise<VacuumResult> {
    return this.janitor.vacuum(options);
  }

  /**
   * Every readable document, sorted by id. Unreadable ones are skipped and passed to
   * `onProblem`; use {@link PageIndexStore.inspectDocuments} to get them.
   */
  async listDocuments(): Promise<DocumentInfo[]>;
  /**
   * One page of documents in id order from the catalog (no listing of heads), with the total:
   * what a tool or a UI shows. Documents deleted by another process may linger until the
   * catalog's refresh (`catalogRefreshMs`); the page's own documents are checked against their heads.
   */
  async listDocuments(page: DocumentPageOptions): Promise<DocumentPage>;
  async listDocuments(page?: DocumentPageOptions): Promise<DocumentInfo[] | DocumentPage> {
    return page === undefined ? this.reader.listDocuments() : this.reader.listDocuments(page);
  }

  /**
   * Documents ranked for a query by the corpus catalog (BM25F over every document's card: name,
   * description, metadata, top-level sections and summaries, every section title, distinctive
   * terms), with the section titles that matched as evidence. Reads no head listing: the cost of
   * a query does not grow with the number of documents beyond the catalog's in-memory lookup.
   * Only documents whose head exists are returned (one read of `limit` heads; none with
   * `verifyPresence: false`).
   * @example
   * ```ts
   * const hits = await store.searchDocuments("boeing 2022 revenue", { limit: 5, filter: { year: 2022 } });
   * hits[0].card.docId; hits[0].evidence[0]?.title;
   * ```
   */
  async searchDocuments(query: string, options: SearchDocumentsOptions = {}): Promise<DocumentMatch[]> {
    return this.reader.searchDocuments(query, options);
  }

  /**
   * Documents ranked by their sections in the library index (title, ancestors' titles, summary
   * and text of every section, plus the document's card), each with its best sections: what a
   * retriever opens first. Answered by the index alone (no catalog, no skeleton read); only
   * documents whose head exists are returned (one read of `limit` heads).
   * @throws {PageIndexError} when the store has no library index (see `library` in the options).
   * @example
   * ```ts
   * const store = new PageIndexStore(new InMemoryStore(), { library: new MemoryLibraryIndex() });
   * const [best] = await store.searchLibrary("paper jam", { limit: 3, sectionsPerDocument: 2 });
   * best?.sections[0]?.title;
   * ```
   */
  async searchLibrary(query: string, options?: SearchLibraryOptions): Promise<LibraryDocumentHit[]> {
    const hits = await this.reader.searchLibrary(query, options);
    if (hits === undefined) {
      throw new PageIndexError(
        `${this.state.describe()} has no library index: pass \`library\` in the PageIndexStore options`,
      );
    }
    return hits;
  }

  /** Whether this store has a library index (see {@link PageIndexStore.searchLibrary}). */
  get hasLibrary(): boolean {
    return this.state.library !== undefined;
  }

  /**
   * Indexes in the library the versions a killed writer published but never indexed (done by
   * `fromPath` and `openPostgresStore` on open; see `StoreJanitor.indexPublishedIntents`).
   * @returns the number of documents indexed (0 without a library index or on a read-only one,
   * which reports them instead).
   */
  async indexPublishedIntents(): Promise<number> {
    return this.janitor.indexPublishedIntents();
  }

  /**
   * Makes the library index agree with the heads for every document a crashed writer left
   * announced (its pending intents): the head's version is indexed, or the document removed
   * when it has no head. Runs by itself before this handle's first write; call it to repair a
   * store only read from. `vacuum` checks every document.
   * @returns the number of documents repaired (0 without a library index).
   */
  async repairLibrary(): Promise<number> {
    return this.janitor.repairLibrary();
  }

  /**
   * Waits until this handle's catalog includes everything other handles had written before the
   * call (a listing of the catalog's segments); queries otherwise see them within `catalogRefreshMs`.
   */
  async syncCatalog(): Promise<void> {
    return this.reader.syncCatalog();
  }

  /** Like {@link PageIndexStore.listDocuments}, returning the problems instead of reporting them. */
  async inspectDocuments(): Promise<DocumentListing> {
    return this.reader.inspectDocuments();
  }

  /** The list entry of one document, or `undefined` when it is not stored. */
  async getDocumentInfo(docId: string): Promise<DocumentInfo | undefined> {
    return this.reader.getDocumentInfo(docId);
  }

  /** Whether a document is stored (also when its head is unreadable: it can be replaced or deleted). */
  async hasDocument(docId: string): Promise<boolean> {
    return this.reader.hasDocument(docId);
  }

  /** Documents matching every given field of `query` (see {@link DocumentQuery}). */
  async findDocuments(query: DocumentQuery): Promise<DocumentInfo[]> {
    return this.reader.findDocuments(query);
  }

  /**
   * The tree without node texts. Cached; each call re-reads the one-key head, so a
   * replacement by another process is seen at once. The result is shared and deeply frozen
   * (`structuredClone` it to edit).
   * @throws {DocumentNotFoundError} @throws {StoreCorruptionError}
   */
  async getSkeleton(docId: string): Promise<TreeSkeleton> {
    return this.reader.getSkeleton(docId);
  }

  /**
   * Texts of the given nodes, reading only the chunks that hold them. Unknown ids are
   * absent from the result.
   * @throws {DocumentNotFoundError} @throws {StoreCorruptionError} when a chunk is missing or bad.
   */
  async getNodeTexts(docId: string, nodeIds: readonly string[]): Promise<Map<string, string>> {
    return this.reader.getNodeTexts(docId, nodeIds);
  }

  /** Whole nodes (skeleton fields and text) in the order asked; unknown ids are skipped. */
  async getNodes(docId: string, nodeIds: readonly string[]): Promise<TreeNode[]> {
    return this.reader.getNodes(docId, nodeIds);
  }

  /** The whole tree, texts included. @throws {DocumentNotFoundError} @throws {StoreCorruptionError} */
  async getTree(docId: string): Promise<TreeDocument> {
    return this.reader.getTree(docId);
  }

  /**
   * A value derived from the document's published version (e.g. a search index over its
   * texts) stored by {@link PageIndexStore.putDerived}, or `undefined`. Removed with the version.
   * @param of the skeleton the caller works with, as {@link PageIndexStore.getSkeleton} gave it:
   *   when it is the version this handle read last, that version's value is read without reading
   *   the head again (a key less; the value may then be of a version replaced since, as the
   *   skeleton is, or gone with it: `undefined`).
   * @throws {DocumentNotFoundError} @throws {InvalidIdError} for a bad `name`.
   */
  async getDerived(docId: string, name: string, of?: TreeSkeleton): Promise<Uint8Array | undefined> {
    return this.reader.getDerived(docId, name, of);
  }

  /**
   * Stores a value derived from the document's published version, so other processes need not
   * rebuild it. The version may change between the caller's reads and this write: make the
   * value self-checking (see {@link DerivedArtifacts}).
   * @returns false when the document no longer exists. @throws {InvalidIdError} for a bad `name`.
   */
  async putDerived(docId: string, name: string, value: Uint8Array): Promise<boolean> {
    return this.writer.putDerived(docId, name, value);
  }
}
