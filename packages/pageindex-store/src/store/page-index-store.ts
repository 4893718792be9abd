import type { BaseStore } from "@langchain/core/stores";
import {
  type DocumentInfo,
  DocumentNotFoundError,
  documentInfo,
  InvalidIdError,
  PageIndexError,
  parseTree,
  type SkeletonNode,
  type TreeDocument,
  type TreeNode,
  type TreeReader,
  type TreeSkeleton,
  toSkeleton,
} from "pageindex-core";
import type {
  DocumentMatch,
  DocumentPage,
  DocumentPageOptions,
  SearchDocumentsOptions,
} from "../catalog/index.js";
import { DEFAULT_MERGE_POLICY } from "../catalog/merge.js";
import { catalogEntry, type NewEntry } from "../catalog/segment.js";
import { StoreCatalog } from "../catalog/store-catalog.js";
import {
  type AddTreesOptions,
  assertDistinctIds,
  DEFAULT_BATCH_CONCURRENCY,
  runBounded,
} from "./batch-write.js";
import {
  decodeHead,
  decodeSkeleton,
  decodeTexts,
  encodeHead,
  encodePending,
  encodeSkeleton,
  encodeTexts,
  type HeadRecord,
  peekHeadDocId,
  sha256,
  splitTexts,
  type VerifyMode,
} from "./codec.js";
import { createIfAbsent } from "./create-if-absent.js";
import { assertDerivedName, DerivedArtifacts } from "./derived.js";
import { DocumentIdConflictError, StoreCorruptionError, StoreReadConflictError } from "./errors.js";
import { FileByteStore, type FileByteStoreOptions } from "./file-byte-store.js";
import { deepFreeze } from "./freeze.js";
import {
  KeyLayout,
  newVersionId,
  type ParsedPendingKey,
  type ParsedRetiredKey,
  versionTime,
} from "./keys.js";
import { isReadOnlyStore, MemoryOverlayStore } from "./overlay-byte-store.js";
import { RedisByteStore, type RedisByteStoreOptions, type RedisCommandClient } from "./redis-byte-store.js";

/** Options of {@link PageIndexStore}. */
export interface PageIndexStoreOptions {
  /** First part of every key (default `"pageindex"`), so several indexes can share a byte store. */
  namespace?: string;
  /** Target characters of node text per text chunk (default 64,000). */
  chunkChars?: number;
  /**
   * Unpublished versions younger than this are left alone by cleanup, because another process
   * may still be writing them (default 15 minutes). A write taking longer than this could lose
   * its keys to the cleanup after another process's write of any document (its pending marker
   * looks abandoned) or to `vacuum`.
   */
  orphanGraceMs?: number;
  /**
   * How long a superseded version stays readable after a replacement switched the head away from
   * it (default 60 s), so a reader that had just read the old head finishes on the old version
   * instead of finding its keys gone. It is deleted by this handle's next write after the grace
   * period, by any writer's periodic sweep, or by `vacuum`. `0` deletes it right after the switch
   * (readers then retry on the new version, see the README).
   */
  supersededGraceMs?: number;
  /** How many skeletons to keep in memory (default 64). */
  cacheSize?: number;
  /** Keys per `mset` call when writing a version (default 64). */
  writeBatchSize?: number;
  /**
   * How a skeleton read from the byte store is checked (default `"full"`): see {@link VerifyMode}.
   * Text chunks and heads are always checked against their checksums and shapes.
   */
  verifyOnRead?: VerifyMode;
  /**
   * Clean up after every write (default true): this document's orphaned versions, and
   * unfinished writes of any document (see `unfinishedWritesPerWrite`).
   */
  cleanupOnWrite?: boolean;
  /**
   * How many unfinished writes (a writer died between announcing a version and publishing it)
   * of any document a write cleans up once they are older than `orphanGraceMs` (default 16).
   * A store handle looks for them after a write at most once a minute (or once per grace
   * period, if shorter): bounded extra work per write, while later writes clear any backlog.
   */
  unfinishedWritesPerWrite?: number;
  /**
   * How often (ms) a handle lists the catalog's segments to see documents other processes wrote
   * (default 2000). Queries never wait for it, except a process's first (see the README's
   * consistency model).
   */
  catalogRefreshMs?: number;
  /** Catalog segments of one size tier merged at once (default 8). */
  catalogMergeFactor?: number;
  /** Largest catalog segment a merge makes, in documents (default 20,000). */
  catalogSegmentDocs?: number;
  /**
   * Names of derived artifacts (see `putDerived`) removed with a superseded version without
   * listing keys, besides those this handle read or wrote (default `["lexical-index-v1"]`);
   * `vacuum` removes any others.
   */
  derivedNames?: string[];
  /**
   * Receives problems that do not stop an operation: a corrupt document skipped by
   * `listDocuments`, a failed cleanup after a successful write. Default: `console.warn`.
   */
  onProblem?: (problem: Error) => void;
}

/** What {@link PageIndexStore.findDocuments} matches; all given fields must match. */
export interface DocumentQuery {
  /** The document name (`docName`). */
  name?: string;
  /** Where the document came from (`source`). */
  source?: string;
  /** SHA-256 of the source bytes. */
  contentHash?: string;
  /**
   * `"exact"` (default): equal strings. `"contains"`: case-insensitive substring
   * (for `name` and `source`; `contentHash` is always compared exactly).
   */
  match?: "exact" | "contains";
}

/** The documents that could be read, and the problems met with the others. */
export interface DocumentListing {
  documents: DocumentInfo[];
  /** One error per unreadable document or foreign key under the namespace. */
  problems: PageIndexError[];
}

/** What {@link PageIndexStore.vacuum} did. */
export interface VacuumResult {
  /** Keys deleted. */
  deletedKeys: number;
  /** Unpublished or superseded versions removed. */
  removedVersions: number;
  /** Unpublished versions younger than the grace period, and superseded ones still within theirs: kept. */
  youngVersions: number;
  /** Keys under the namespace that are not in our layout; left untouched. */
  foreignKeys: string[];
  /**
   * Catalog segments replaced by a compaction holding exactly the stored documents' cards
   * (tombstones, superseded cards and segments left by an interrupted merge go).
   */
  catalogSegmentsRemoved: number;
}

/** What {@link PageIndexStore.reserveDocId} found. */
export type DocIdReservation =
  /** The id is this owner's: newly reserved, or already reserved by the same owner. */
  | { reserved: true }
  /** Another owner holds the id (a stored document, or a process about to store one). */
  | { reserved: false; owner: string };

/** A published version as held in memory. */
interface LoadedVersion {
  docId: string;
  versionId: string;
  skeleton: TreeSkeleton;
  chunkStarts: number[];
  chunkSha256: string[];
  positions: Map<string, number>;
}

const DEFAULTS = {
  namespace: "pageindex",
  chunkChars: 64_000,
  orphanGraceMs: 15 * 60 * 1000,
  supersededGraceMs: 60 * 1000,
  cacheSize: 64,
  writeBatchSize: 64,
  unfinishedWritesPerWrite: 16,
  catalogRefreshMs: 2000,
  derivedNames: ["lexical-index-v1"],
};
const READ_BATCH = 500;
/** A store handle looks for unfinished writes at most this often (or every grace period, if shorter). */
const SWEEP_INTERVAL_MS = 60_000;
/** A read that finds a version deleted under it retries with the new head this many times. */
const READ_ATTEMPTS = 5;
const encoder = new TextEncoder();

/** A value a read needed was absent (the version may have been replaced meanwhile). */
class Missing {
  constructor(readonly key: string) {}
}

/** Index of the chunk holding node `index`: the last chunk starting at or before it. */
function chunkOf(chunkStarts: readonly number[], index: number): number {
  let lo = 0;
  let hi = chunkStarts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((chunkStarts[mid] as number) <= index) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** A byte store's corruption error (it knows only the key) with the document named. */
function naming(error: unknown, docId: string): unknown {
  return error instanceof StoreCorruptionError && error.docId === undefined
    ? new StoreCorruptionError(error.key, error.reason, docId, { cause: error })
    : error;
}

function loaded(
  docId: string,
  versionId: string,
  skeleton: TreeSkeleton,
  chunkStarts: number[],
  chunkSha256: string[],
): LoadedVersion {
  const positions = new Map(skeleton.nodes.map((node, i) => [node.nodeId, i]));
  // Callers share the cached skeleton: frozen, one caller's edit cannot corrupt later reads.
  return { docId, versionId, skeleton: deepFreeze(skeleton), chunkStarts, chunkSha256, positions };
}

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
 */
export class PageIndexStore implements TreeReader {
  /** The byte store holding the keys. */
  readonly byteStore: BaseStore<string, Uint8Array>;
  readonly keys: KeyLayout;
  private readonly chunkChars: number;
  private readonly orphanGraceMs: number;
  private readonly supersededGraceMs: number;
  /** Versions this handle superseded, oldest first, deleted by its writes once their grace ends. */
  private readonly retiring: Array<ParsedRetiredKey & { key: string }> = [];
  private readonly cacheSize: number;
  private readonly writeBatchSize: number;
  private readonly cleanupOnWrite: boolean;
  private readonly unfinishedWritesPerWrite: number;
  private nextSweepAt = 0;
  private readonly verifyOnRead: VerifyMode;
  private readonly onProblem: (problem: Error) => void;
  private readonly cache = new Map<string, LoadedVersion>();
  private readonly derived: DerivedArtifacts;
  private readonly catalog: StoreCatalog;
  /** Derived artifact names removed with a superseded version (see `derivedNames`). */
  private readonly derivedNames: Set<string>;
  private closer: (() => Promise<void>) | undefined;

  constructor(byteStore: BaseStore<string, Uint8Array>, options: PageIndexStoreOptions = {}) {
    this.byteStore = byteStore;
    this.keys = new KeyLayout(options.namespace ?? DEFAULTS.namespace);
    this.derived = new DerivedArtifacts(byteStore, this.keys.namespace);
    this.chunkChars = Math.max(1, options.chunkChars ?? DEFAULTS.chunkChars);
    this.orphanGraceMs = Math.max(0, options.orphanGraceMs ?? DEFAULTS.orphanGraceMs);
    this.supersededGraceMs = Math.max(0, options.supersededGraceMs ?? DEFAULTS.supersededGraceMs);
    this.cacheSize = Math.max(0, options.cacheSize ?? DEFAULTS.cacheSize);
    this.writeBatchSize = Math.max(1, options.writeBatchSize ?? DEFAULTS.writeBatchSize);
    this.cleanupOnWrite = options.cleanupOnWrite ?? true;
    this.unfinishedWritesPerWrite = Math.max(
      0,
      options.unfinishedWritesPerWrite ?? DEFAULTS.unfinishedWritesPerWrite,
    );
    this.verifyOnRead = options.verifyOnRead ?? "full";
    this.onProblem = options.onProblem ?? ((problem) => console.warn(`[pageindex-store] ${problem.message}`));
    this.derivedNames = new Set(options.derivedNames ?? DEFAULTS.derivedNames);
    this.catalog = new StoreCatalog(
      // A read-only store still gets a catalog (built in memory when the store has none yet).
      isReadOnlyStore(byteStore) ? new MemoryOverlayStore(byteStore) : byteStore,
      this.keys,
      {
        refreshMs: Math.max(0, options.catalogRefreshMs ?? DEFAULTS.catalogRefreshMs),
        factor: Math.max(2, options.catalogMergeFactor ?? DEFAULT_MERGE_POLICY.factor),
        maxSegmentDocs: Math.max(1, options.catalogSegmentDocs ?? DEFAULT_MERGE_POLICY.maxSegmentDocs),
        onProblem: this.onProblem,
      },
      () => this.entriesFromHeads(),
    );
  }

  /** A store in a folder on disk (created if needed): the embedded default. */
  static async fromPath(
    dir: string,
    options: PageIndexStoreOptions & FileByteStoreOptions = {},
  ): Promise<PageIndexStore> {
    return new PageIndexStore(await FileByteStore.fromPath(dir, options), options);
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
    this.cache.clear();
    await closer?.();
  }

  // ---- writing -------------------------------------------------------------------------

  /**
   * Adds a tree, or replaces the document with the same `docId` all-or-nothing.
   * The tree is validated first.
   * @throws {TreeValidationError} for an invalid tree. @throws {InvalidIdError} for an unusable id
   * (also one ending in a dot). @throws {DocumentIdConflictError} for an id equal to a stored
   * document's but for letter case.
   */
  async addTree(input: TreeDocument): Promise<DocumentInfo> {
    const tree = parseTree(input);
    const docId = this.keys.assertDocId(tree.docId);
    await this.assertPortableNewId(docId);
    const written = await this.publish(tree, docId);
    // The catalog learns of the version after it is published. Should that fail (or this writer
    // die here), the pending marker stays: the next sweep finds the published version and
    // writes its card (see cleanUnfinishedWrites).
    const cataloged = await this.writeCatalog([written.entry], `Adding document "${docId}" to the catalog`);
    await this.afterWrite(docId, written.previous, cataloged ? written.pending : undefined, written.retired);
    return written.info;
  }

  /**
   * Adds or replaces many trees: documents are written `concurrency` at a time, each published
   * all-or-nothing as by {@link PageIndexStore.addTree}, and the catalog gets one segment per
   * batch (not one per document, then merged), which makes building a large library several
   * times faster. Every tree is validated before anything is written. Should the batch be
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
    const trees = inputs.map((input) => parseTree(input));
    assertDistinctIds(trees);
    const concurrency = Math.max(1, options.concurrency ?? DEFAULT_BATCH_CONCURRENCY);
    const { results, error } = await runBounded(trees, concurrency, async (tree) => {
      const docId = this.keys.assertDocId(tree.docId);
      await this.assertPortableNewId(docId);
      return { docId, ...(await this.publish(tree, docId)) };
    });
    const written = results.filter((r): r is NonNullable<typeof r> => r !== undefined);
    const cataloged = await this.writeCatalog(
      written.map((w) => w.entry),
      `Adding ${written.length} documents to the catalog`,
    );
    await runBounded(written, concurrency, (w) =>
      this.afterWrite(w.docId, w.previous, cataloged ? w.pending : undefined, w.retired),
    );
    if (error !== undefined) throw error;
    return written.map((w) => w.info);
  }

  /** Writes catalog entries; reports (does not throw) a failure, which the sweep repairs. */
  private async writeCatalog(entries: NewEntry[], what: string): Promise<boolean> {
    try {
      await this.catalog.write(entries);
      return true;
    } catch (error) {
      this.onProblem(new PageIndexError(`${what} failed`, { cause: error }));
      return false;
    }
  }

  /** Writes a validated tree's new version and publishes it (its head); not yet cataloged. */
  private async publish(
    tree: TreeDocument,
    docId: string,
  ): Promise<{
    info: DocumentInfo;
    previous: HeadRecord | undefined;
    pending: string;
    /** The superseded version's retirement marker, when it is kept for the grace period. */
    retired: string | undefined;
    entry: NewEntry;
  }> {
    const versionId = newVersionId();
    const { chunkStarts, chunks } = splitTexts(tree.nodes, this.chunkChars);
    const skeleton = toSkeleton(tree);

    const entries: Array<[string, Uint8Array]> = chunks.map((texts, chunk) => [
      this.keys.text(docId, versionId, chunk),
      encodeTexts({ docId, versionId, chunk, first: chunkStarts[chunk] as number, texts }),
    ]);
    const chunkSha256 = entries.map(([, bytes]) => sha256(bytes));
    const skeletonBytes = encodeSkeleton({ docId, versionId, chunkStarts, chunkSha256, skeleton });
    entries.push([this.keys.skeleton(docId, versionId), skeletonBytes]);
    // Announced before any of its keys exist: should this writer die, a later write finds
    // exactly what it left, whichever document that write is for.
    const pending = this.keys.pending(docId, versionId, chunks.length);
    const info = documentInfo(tree);
    let previous: HeadRecord | undefined;
    let retired: string | undefined;
    try {
      await this.byteStore.mset([[pending, encodePending({ docId, versionId, chunks: chunks.length })]]);
      for (let i = 0; i < entries.length; i += this.writeBatchSize) {
        await this.byteStore.mset(entries.slice(i, i + this.writeBatchSize));
      }
      previous = await this.readHeadQuietly(docId);
      if (previous && this.supersededGraceMs > 0) {
        // Marked before the switch: should this writer die right after it, a sweep still finds
        // the superseded version (a marker of a version still published only loses the marker).
        retired = this.keys.retired(docId, previous.versionId, previous.chunks, Date.now());
        await this.byteStore.mset([
          [retired, encodePending({ docId, versionId: previous.versionId, chunks: previous.chunks })],
        ]);
      }
      // Publish: one single-key write. Until here readers still see the previous version.
      const head: HeadRecord = {
        docId,
        versionId,
        chunks: chunks.length,
        info,
        writtenAt: new Date().toISOString(),
        skeletonSha256: sha256(skeletonBytes),
      };
      await this.byteStore.mset([[this.keys.head(docId), encodeHead(head)]]);
    } catch (error) {
      await this.abandonWrite(docId, versionId, [...entries.map(([key]) => key), retired, pending]);
      throw error;
    }
    // A copy, as JSON: the caller's tree stays theirs, and the cache holds what a reader of the
    // bytes gets (a Date in metadata is its ISO string). Unlike structuredClone, it cannot throw
    // (on a function in metadata) now that the version is published: encoding already did this.
    this.remember(loaded(docId, versionId, JSON.parse(JSON.stringify(skeleton)), chunkStarts, chunkSha256));
    return { info, previous, pending, retired, entry: catalogEntry(tree, versionId) };
  }

  /**
   * After a failed write (a full disk, a lost connection): removes what it wrote, so nothing is
   * left behind, unless the head switch went through after all. Best effort: when even this
   * fails, the pending marker (removed last) leads a later sweep or `vacuum` to the keys.
   */
  private async abandonWrite(
    docId: string,
    versionId: string,
    keys: ReadonlyArray<string | undefined>,
  ): Promise<void> {
    try {
      if ((await this.readHead(docId))?.versionId === versionId) return;
      const written = keys.filter((key): key is string => key !== undefined);
      for (let i = 0; i < written.length; i += READ_BATCH) {
        await this.byteStore.mdelete(written.slice(i, i + READ_BATCH));
      }
    } catch {
      // The write's own error is what the caller needs to see.
    }
  }

  /**
   * Refuses ids that would share files with another document on some disks: Windows drops a
   * trailing dot from file names, and macOS and Windows ignore letter case. (Two writers adding
   * case twins at the same moment can both pass; the check guards the common mistake.)
   */
  private async assertPortableNewId(docId: string): Promise<void> {
    if (docId.endsWith(".")) {
      throw new InvalidIdError(
        `Invalid document id "${docId}": it ends with a dot, which Windows drops from file names (toDocId() derives a portable id)`,
      );
    }
    const lower = docId.toLowerCase();
    // Through the catalog (no listing of every head): a twin another process added within the
    // catalog's refresh delay can slip through, as can one added at the same moment.
    const twin = (await this.catalog.view()).caseTwin(docId);
    if (twin !== undefined) throw new DocumentIdConflictError(docId, twin);
    // A store that folds case itself lists the twin under our own key: its head names it.
    const raw = await this.readQuietly(docId, this.keys.head(docId));
    const stored = raw === undefined ? undefined : peekHeadDocId(raw);
    if (stored !== undefined && stored !== docId && stored.toLowerCase() === lower) {
      throw new DocumentIdConflictError(docId, stored);
    }
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
    const key = this.keys.claim(this.keys.assertDocId(docId));
    const value = encoder.encode(JSON.stringify({ owner, at: Date.now() }));
    let holder: { owner: string; at: number } | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (await createIfAbsent(this.byteStore, key, value)) return { reserved: true };
      holder = await this.readClaim(docId, key);
      if (holder === undefined) continue; // released in between
      if (holder.owner === owner) return { reserved: true };
      const abandoned = Date.now() - holder.at > this.orphanGraceMs && !(await this.hasDocument(docId));
      if (!abandoned) break;
      await this.byteStore.mdelete([key]);
    }
    return { reserved: false, owner: holder?.owner ?? "(unknown)" };
  }

  /** Gives up a reservation made by {@link PageIndexStore.reserveDocId} if `owner` holds it. */
  async releaseDocId(docId: string, owner: string): Promise<void> {
    const key = this.keys.claim(this.keys.assertDocId(docId));
    if ((await this.readClaim(docId, key))?.owner === owner) await this.byteStore.mdelete([key]);
  }

  /** A reservation's holder; an unreadable one counts as an unknown owner reserved long ago. */
  private async readClaim(docId: string, key: string): Promise<{ owner: string; at: number } | undefined> {
    const raw = await this.readQuietly(docId, key);
    if (raw === undefined) return undefined;
    try {
      const parsed = JSON.parse(new TextDecoder().decode(raw)) as { owner?: unknown; at?: unknown };
      if (typeof parsed.owner === "string" && typeof parsed.at === "number") {
        return { owner: parsed.owner, at: parsed.at };
      }
    } catch {
      // fall through
    }
    return { owner: "(unreadable reservation)", at: 0 };
  }

  /**
   * Deletes a document. Readers see it whole until its head is removed, then not at all.
   * Works on a document whose values are corrupt.
   * @returns whether the document existed.
   */
  async deleteDocument(docId: string): Promise<boolean> {
    this.keys.assertDocId(docId);
    const headKey = this.keys.head(docId);
    let previous: HeadRecord | undefined;
    try {
      const [raw] = await this.mgetOf(docId, [headKey]);
      if (raw === undefined) return false;
      previous = decodeHead(raw, headKey, docId);
    } catch (error) {
      if (!(error instanceof PageIndexError)) throw error;
      // A corrupt head can still be deleted; its version keys become orphans for cleanup.
    }
    await this.byteStore.mdelete([headKey, this.keys.claim(docId)]);
    this.cache.delete(docId);
    try {
      await this.catalog.write([{ docId, versionId: newVersionId() }]);
    } catch (error) {
      // Searches check heads, so the stale card is never returned; vacuum drops it.
      this.onProblem(
        new PageIndexError(`Removing document "${docId}" from the catalog failed`, { cause: error }),
      );
    }
    await this.afterWrite(docId, previous);
    return true;
  }

  /**
   * Removes the superseded version (now, or once its grace period ends when `retired` names its
   * marker), superseded versions whose grace has ended, and, now and then, unfinished writes;
   * never fails the write.
   */
  private async afterWrite(
    docId: string,
    previous: HeadRecord | undefined,
    pending?: string,
    retired?: string,
  ): Promise<void> {
    try {
      if (pending) await this.byteStore.mdelete([pending]);
      const marker = retired === undefined ? undefined : this.keys.parseRetired(retired);
      if (marker) {
        this.retiring.push({ ...marker, key: retired as string });
      } else if (previous) {
        const current = await this.readHeadQuietly(docId);
        if (current?.versionId !== previous.versionId) {
          await this.byteStore.mdelete(
            this.versionAndDerivedKeys(docId, previous.versionId, previous.chunks),
          );
        }
      }
      const due = Date.now() - this.supersededGraceMs;
      const ended = this.retiring.findIndex((entry) => entry.retiredAt > due);
      await this.removeRetired(this.retiring.splice(0, ended < 0 ? this.retiring.length : ended));
      if (this.cleanupOnWrite) {
        // No listing per write (a listing reads every key of a folder store): a crashed write of
        // this or any document left a marker, which the sweep below finds. Markers only become
        // stale after the grace period: listing them on every write of a busy writer would cost
        // a full key listing each time for nothing.
        if (Date.now() >= this.nextSweepAt) {
          this.nextSweepAt = Date.now() + Math.min(this.orphanGraceMs, SWEEP_INTERVAL_MS);
          await this.cleanUnfinishedWrites(this.orphanGraceMs, this.unfinishedWritesPerWrite);
          await this.sweepRetired(
            this.keys.retiredPrefix,
            this.supersededGraceMs,
            this.unfinishedWritesPerWrite,
          );
        }
      }
    } catch (error) {
      this.onProblem(
        new PageIndexError(`Cleanup after writing document "${docId}" failed (the write itself succeeded)`, {
          cause: error,
        }),
      );
    }
  }

  /** A version's keys and the derived values this handle knows of. */
  private versionAndDerivedKeys(docId: string, versionId: string, chunks: number): string[] {
    return [
      ...this.keys.versionKeys(docId, versionId, chunks),
      ...[...this.derivedNames].map((name) => this.derived.key(docId, versionId, name)),
    ];
  }

  /**
   * Deletes superseded versions whose markers are given (their grace has ended), then the markers.
   * A version a head still points to (or may: an unreadable head) keeps its keys.
   * @returns the number of version keys deleted.
   */
  private async removeRetired(markers: ReadonlyArray<ParsedRetiredKey & { key: string }>): Promise<number> {
    if (markers.length === 0) return 0;
    const docIds = [...new Set(markers.map((marker) => marker.docId))];
    const values = await this.readHeadValues(docIds);
    const live = new Map<string, string | undefined | null>(); // null: unreadable
    docIds.forEach((docId, i) => {
      const raw = values[i];
      try {
        if (raw instanceof PageIndexError) throw raw;
        live.set(
          docId,
          raw === undefined ? undefined : decodeHead(raw, this.keys.head(docId), docId).versionId,
        );
      } catch (error) {
        if (!(error instanceof PageIndexError)) throw error;
        live.set(docId, null);
      }
    });
    const keys = markers
      .filter((marker) => {
        const head = live.get(marker.docId);
        return head !== null && head !== marker.versionId;
      })
      .flatMap((marker) => this.versionAndDerivedKeys(marker.docId, marker.versionId, marker.chunks));
    for (let i = 0; i < keys.length; i += READ_BATCH) {
      await this.byteStore.mdelete(keys.slice(i, i + READ_BATCH));
    }
    await this.byteStore.mdelete(markers.map((marker) => marker.key));
    return keys.length;
  }

  /**
   * Lists retired-version markers under `prefix` and removes up to `limit` versions whose grace
   * (`graceMs`) has ended: those of writers that exited before their grace ended, or died.
   * @returns what was removed, and the versions still within their grace (`docId\nversionId`).
   */
  private async sweepRetired(
    prefix: string,
    graceMs: number,
    limit: number,
    docId?: string,
  ): Promise<{ versions: number; keys: number; young: Set<string> }> {
    const cutoff = Date.now() - graceMs;
    const due: Array<ParsedRetiredKey & { key: string }> = [];
    const young = new Set<string>();
    for await (const key of this.byteStore.yieldKeys(prefix)) {
      const parsed = this.keys.parseRetired(key);
      if (!parsed || (docId !== undefined && parsed.docId !== docId)) continue;
      if (parsed.retiredAt > cutoff) young.add(`${parsed.docId}\n${parsed.versionId}`);
      else if (due.length < limit) due.push({ key, ...parsed });
    }
    const keys = await this.removeRetired(due);
    return { versions: new Set(due.map((m) => `${m.docId}\n${m.versionId}`)).size, keys, young };
  }

  /**
   * Removes the keys of up to `limit` versions whose writer announced them (pending marker)
   * more than `graceMs` ago and never removed the marker, then the markers. A version that
   * did get published keeps its keys; so do all versions of a document with an unreadable head.
   * @returns the number of markers handled.
   */
  private async cleanUnfinishedWrites(graceMs: number, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const cutoff = Date.now() - graceMs;
    const markers: Array<ParsedPendingKey & { key: string }> = [];
    for await (const key of this.byteStore.yieldKeys(this.keys.pendingPrefix)) {
      const parsed = this.keys.parsePending(key);
      if (!parsed || (versionTime(parsed.versionId) ?? Number.POSITIVE_INFINITY) > cutoff) continue;
      markers.push({ key, ...parsed });
      if (markers.length >= limit) break;
    }
    if (markers.length === 0) return 0;
    // Heads are read after the markers are listed: a version published before then counts as live.
    const docIds = [...new Set(markers.map((marker) => marker.docId))];
    const live = new Map<string, string | undefined>();
    const values = await this.readHeadValues(docIds);
    docIds.forEach((docId, i) => {
      const raw = values[i];
      if (raw instanceof PageIndexError) return; // unreadable: may point anywhere
      try {
        live.set(
          docId,
          raw === undefined ? undefined : decodeHead(raw, this.keys.head(docId), docId).versionId,
        );
      } catch (error) {
        if (!(error instanceof PageIndexError)) throw error;
      }
    });
    await this.catalogPublished(markers.filter((marker) => live.get(marker.docId) === marker.versionId));
    const stale = markers
      .filter((marker) => live.has(marker.docId) && live.get(marker.docId) !== marker.versionId)
      .flatMap((marker) => this.keys.versionKeys(marker.docId, marker.versionId, marker.chunks));
    for (let i = 0; i < stale.length; i += READ_BATCH) {
      await this.byteStore.mdelete(stale.slice(i, i + READ_BATCH));
    }
    // Markers last: one left by a cleanup that died still leads the next one to its keys.
    // Those of unreadable heads go too (their keys stay): kept, they would fill every later
    // sweep's `limit` and stall the backlog; rewriting or deleting such a document (or vacuum
    // once it is readable) removes its orphans without them.
    await this.byteStore.mdelete(markers.map((marker) => marker.key));
    return markers.length;
  }

  /**
   * Writes the cards of published versions whose writer died (or failed) before the catalog
   * learnt of them: their pending marker outlived the head switch.
   */
  private async catalogPublished(
    markers: ReadonlyArray<{ docId: string; versionId: string }>,
  ): Promise<void> {
    if (markers.length === 0) return;
    const view = await this.catalog.view();
    const entries: NewEntry[] = [];
    for (const { docId, versionId } of markers) {
      const known = view.entry(docId)?.versionId;
      if (known !== undefined && known >= versionId) continue;
      try {
        entries.push(catalogEntry(await this.getTree(docId), versionId));
      } catch (error) {
        if (!(error instanceof PageIndexError)) throw error;
      }
    }
    await this.catalog.write(entries);
  }

  /** Catalog entries of every stored document, from heads and skeletons (building a catalog). */
  private async entriesFromHeads(): Promise<NewEntry[]> {
    return this.entriesOf((await this.readAllHeads()).heads);
  }

  /** Catalog entries of these published versions, from their skeletons; unreadable ones reported. */
  private async entriesOf(heads: readonly HeadRecord[]): Promise<NewEntry[]> {
    const entries: NewEntry[] = [];
    for (const head of heads) {
      try {
        const version = await this.loadVersion(head);
        if (version) entries.push(catalogEntry(version.skeleton, head.versionId));
      } catch (error) {
        if (!(error instanceof PageIndexError)) throw error;
        this.onProblem(error);
      }
    }
    return entries;
  }

  /**
   * Builds the corpus catalog again from the documents' heads: for a store written by a release
   * without a catalog (done automatically on first use when no catalog exists), or one written
   * since by such a release. Reads every head and skeleton once.
   * @returns the number of documents cataloged.
   */
  async rebuildCatalog(): Promise<number> {
    await this.catalog.sync();
    return this.catalog.rebuild();
  }

  /**
   * Deletes versions of one document that no head points to and that are older than
   * `graceMs`: leftovers of crashed or superseded writes.
   * @returns the number of keys deleted.
   */
  async removeOrphans(docId: string, graceMs = this.orphanGraceMs): Promise<number> {
    this.keys.assertDocId(docId);
    const cutoff = Date.now() - graceMs;
    const retired = await this.sweepRetired(
      this.keys.retiredOf(docId),
      Math.min(graceMs, this.supersededGraceMs),
      Number.POSITIVE_INFINITY,
      docId,
    );
    const stale: string[] = [];
    let live: string | undefined;
    let liveKnown = false;
    for await (const key of this.byteStore.yieldKeys(this.keys.versionsOf(docId))) {
      const parsed = this.keys.parseVersionKey(key);
      if (!parsed || parsed.docId !== docId) continue;
      if (!liveKnown) {
        // Read the head after listing starts, so a version published before then counts as live.
        try {
          const [raw] = await this.mgetOf(docId, [this.keys.head(docId)]);
          if (raw !== undefined) live = decodeHead(raw, this.keys.head(docId), docId).versionId;
        } catch (error) {
          if (error instanceof PageIndexError) return 0; // An unreadable head may point anywhere: delete nothing.
          throw error;
        }
        liveKnown = true;
      }
      if (parsed.versionId === live || retired.young.has(`${docId}\n${parsed.versionId}`)) continue;
      if ((versionTime(parsed.versionId) ?? Number.POSITIVE_INFINITY) <= cutoff) stale.push(key);
    }
    for (let i = 0; i < stale.length; i += READ_BATCH) {
      await this.byteStore.mdelete(stale.slice(i, i + READ_BATCH));
    }
    return stale.length + retired.keys;
  }

  /**
   * Removes every unpublished or superseded version older than `graceMs` (default: the
   * store's `orphanGraceMs`) across all documents. Keys that are not in our layout are
   * reported, never deleted; documents with an unreadable head are left alone. Markers of
   * unfinished writes and derived artifacts of versions no head points to, past the grace
   * period, go too (artifacts count in `deletedKeys`). A superseded version goes once it was
   * superseded longer than `graceMs` or `supersededGraceMs` ago, whichever is shorter. Pass
   * `graceMs: 0` only when no other process is writing or reading: it also removes versions being
   * written and those readers may have just started on.
   */
  async vacuum(options: { graceMs?: number } = {}): Promise<VacuumResult> {
    const graceMs = options.graceMs ?? this.orphanGraceMs;
    const cutoff = Date.now() - graceMs;
    this.retiring.length = 0; // the sweep below finds their markers
    const retired = await this.sweepRetired(
      this.keys.retiredPrefix,
      Math.min(graceMs, this.supersededGraceMs),
      Number.POSITIVE_INFINITY,
    );
    const { heads, unreadable } = await this.readAllHeads();
    const live = new Map(heads.map((head) => [head.docId, head.versionId]));
    const result: VacuumResult = {
      deletedKeys: 0,
      removedVersions: 0,
      youngVersions: 0,
      foreignKeys: [],
      catalogSegmentsRemoved: 0,
    };
    const stale: string[] = [];
    const staleVersions = new Set<string>();
    const youngVersions = new Set<string>();
    for await (const key of this.byteStore.yieldKeys(this.keys.docPrefix)) {
      const parsed = this.keys.parseVersionKey(key);
      if (!parsed) {
        result.foreignKeys.push(key);
        continue;
      }
      if (unreadable.has(parsed.docId) || live.get(parsed.docId) === parsed.versionId) continue;
      const version = `${parsed.docId}\n${parsed.versionId}`;
      if (retired.young.has(version)) {
        youngVersions.add(version);
      } else if ((versionTime(parsed.versionId) ?? Number.POSITIVE_INFINITY) <= cutoff) {
        stale.push(key);
        staleVersions.add(version);
      } else {
        youngVersions.add(version);
      }
    }
    for (let i = 0; i < stale.length; i += READ_BATCH) {
      await this.byteStore.mdelete(stale.slice(i, i + READ_BATCH));
    }
    await this.cleanUnfinishedWrites(graceMs, Number.POSITIVE_INFINITY);
    result.deletedKeys =
      stale.length +
      retired.keys +
      (await this.derived.removeOrphans(live, unreadable, cutoff)) +
      (await this.removeAbandonedClaims(live, unreadable, cutoff));
    result.catalogSegmentsRemoved = await this.compactCatalog(heads);
    result.removedVersions = staleVersions.size + retired.versions;
    result.youngVersions = youngVersions.size;
    result.foreignKeys.sort();
    return result;
  }

  /**
   * Removes id reservations made before `cutoff` whose document was never stored (the reserving
   * process died or its load failed). Reservations of stored or unreadable documents stay.
   * @returns the number removed.
   */
  private async removeAbandonedClaims(
    live: ReadonlyMap<string, string>,
    unreadable: ReadonlySet<string>,
    cutoff: number,
  ): Promise<number> {
    const abandoned: string[] = [];
    for await (const key of this.byteStore.yieldKeys(this.keys.claimPrefix)) {
      const docId = key.slice(this.keys.claimPrefix.length);
      if (live.has(docId) || unreadable.has(docId)) continue;
      const holder = await this.readClaim(docId, key);
      if (holder && holder.at <= cutoff) abandoned.push(key);
    }
    await this.byteStore.mdelete(abandoned);
    return abandoned.length;
  }

  /** Rewrites the catalog to match the heads: cards of missing documents added, stale ones dropped. */
  private async compactCatalog(heads: readonly HeadRecord[]): Promise<number> {
    const live = new Map(heads.map((head) => [head.docId, head]));
    const view = await this.catalog.sync();
    const missing = heads.filter((head) => view.entry(head.docId)?.versionId !== head.versionId);
    const extra = await this.entriesOf(missing);
    return this.catalog.compact((entry) => live.get(entry.docId)?.versionId === entry.versionId, extra);
  }

  // ---- reading -------------------------------------------------------------------------

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
    if (page !== undefined) {
      const result = (await this.catalog.view()).page(page);
      const present = await this.presentDocuments(result.documents.map((d) => d.docId));
      return { ...result, documents: result.documents.filter((d) => present.has(d.docId)) };
    }
    const { documents, problems } = await this.inspectDocuments();
    for (const problem of problems) this.onProblem(problem);
    return documents;
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
    const matches = (await this.catalog.view()).search(query, options);
    if (options.verifyPresence === false) return matches;
    const present = await this.presentDocuments(matches.map((m) => m.card.docId));
    return matches.filter((m) => present.has(m.card.docId));
  }

  /**
   * Waits until this handle's catalog includes everything other handles had written before the
   * call (a listing of the catalog's segments); queries otherwise see them within `catalogRefreshMs`.
   */
  async syncCatalog(): Promise<void> {
    await this.catalog.sync();
  }

  /** Which of these documents have a head (one read): the catalog may lag a delete by another process. */
  private async presentDocuments(docIds: string[]): Promise<Set<string>> {
    if (docIds.length === 0) return new Set();
    const values = await this.readHeadValues(docIds);
    return new Set(docIds.filter((_, i) => values[i] !== undefined));
  }

  /** Like {@link PageIndexStore.listDocuments}, returning the problems instead of reporting them. */
  async inspectDocuments(): Promise<DocumentListing> {
    const { heads, problems } = await this.readAllHeads();
    return { documents: heads.map((head) => head.info), problems };
  }

  /** The list entry of one document, or `undefined` when it is not stored. */
  async getDocumentInfo(docId: string): Promise<DocumentInfo | undefined> {
    return (await this.readHead(this.keys.assertDocId(docId)))?.info;
  }

  /** Whether a document is stored (also when its head is unreadable: it can be replaced or deleted). */
  async hasDocument(docId: string): Promise<boolean> {
    try {
      const [raw] = await this.mgetOf(docId, [this.keys.head(this.keys.assertDocId(docId))]);
      return raw !== undefined;
    } catch (error) {
      if (error instanceof StoreCorruptionError) return true;
      throw error;
    }
  }

  /** Documents matching every given field of `query` (see {@link DocumentQuery}). */
  async findDocuments(query: DocumentQuery): Promise<DocumentInfo[]> {
    const contains = query.match === "contains";
    const matches = (value: string | undefined, wanted: string | undefined): boolean => {
      if (wanted === undefined) return true;
      if (value === undefined) return false;
      return contains ? value.toLowerCase().includes(wanted.toLowerCase()) : value === wanted;
    };
    const { documents } = await this.inspectDocuments();
    return documents.filter(
      (info) =>
        matches(info.docName, query.name) &&
        matches(info.source, query.source) &&
        (query.contentHash === undefined || info.contentHash === query.contentHash),
    );
  }

  /**
   * The tree without node texts. Cached; each call re-reads the one-key head, so a
   * replacement by another process is seen at once. The result is shared and deeply frozen
   * (`structuredClone` it to edit).
   * @throws {DocumentNotFoundError} @throws {StoreCorruptionError}
   */
  async getSkeleton(docId: string): Promise<TreeSkeleton> {
    return (await this.currentVersion(this.keys.assertDocId(docId))).skeleton;
  }

  /**
   * Texts of the given nodes, reading only the chunks that hold them. Unknown ids are
   * absent from the result.
   * @throws {DocumentNotFoundError} @throws {StoreCorruptionError} when a chunk is missing or bad.
   */
  async getNodeTexts(docId: string, nodeIds: readonly string[]): Promise<Map<string, string>> {
    return (await this.readTexts(this.keys.assertDocId(docId), nodeIds)).texts;
  }

  /** Whole nodes (skeleton fields and text) in the order asked; unknown ids are skipped. */
  async getNodes(docId: string, nodeIds: readonly string[]): Promise<TreeNode[]> {
    const { version, texts } = await this.readTexts(this.keys.assertDocId(docId), nodeIds);
    const out: TreeNode[] = [];
    for (const id of nodeIds) {
      const position = version.positions.get(id);
      const text = texts.get(id);
      if (position === undefined || text === undefined) continue;
      out.push({ ...structuredClone(version.skeleton.nodes[position] as SkeletonNode), text });
    }
    return out;
  }

  /** The whole tree, texts included. @throws {DocumentNotFoundError} @throws {StoreCorruptionError} */
  async getTree(docId: string): Promise<TreeDocument> {
    const { version, texts } = await this.readTexts(this.keys.assertDocId(docId), undefined);
    const copy = structuredClone(version.skeleton); // the caller's to edit, unlike the cached skeleton
    const nodes = copy.nodes.map((node) => ({ ...node, text: texts.get(node.nodeId) as string }));
    return { ...copy, nodes };
  }

  /**
   * A value derived from the document's published version (e.g. a search index over its
   * texts) stored by {@link PageIndexStore.putDerived}, or `undefined`. Removed with the version.
   * @throws {DocumentNotFoundError} @throws {InvalidIdError} for a bad `name`.
   */
  async getDerived(docId: string, name: string): Promise<Uint8Array | undefined> {
    assertDerivedName(name); // before the head read: a bad name is an error even for a missing document
    this.derivedNames.add(name);
    const head = await this.requireHead(this.keys.assertDocId(docId));
    return this.derived.get(docId, head.versionId, name);
  }

  /**
   * Stores a value derived from the document's published version, so other processes need not
   * rebuild it. The version may change between the caller's reads and this write: make the
   * value self-checking (see {@link DerivedArtifacts}).
   * @returns false when the document no longer exists. @throws {InvalidIdError} for a bad `name`.
   */
  async putDerived(docId: string, name: string, value: Uint8Array): Promise<boolean> {
    assertDerivedName(name);
    this.derivedNames.add(name);
    const head = await this.readHead(this.keys.assertDocId(docId));
    if (!head) return false;
    await this.derived.put(docId, head.versionId, name, value);
    return true;
  }

  // ---- internals -----------------------------------------------------------------------

  private describe(): string {
    return `the store (namespace "${this.keys.namespace}")`;
  }

  /** `byteStore.mget` for keys of one document: a byte store's corruption error names it. */
  private async mgetOf(docId: string, keys: string[]): Promise<(Uint8Array | undefined)[]> {
    try {
      return await this.byteStore.mget(keys);
    } catch (error) {
      throw naming(error, docId);
    }
  }

  /** One value, or `undefined` when absent or unreadable by the byte store. */
  private async readQuietly(docId: string, key: string): Promise<Uint8Array | undefined> {
    try {
      return (await this.mgetOf(docId, [key]))[0];
    } catch (error) {
      if (error instanceof StoreCorruptionError) return undefined;
      throw error;
    }
  }

  /**
   * Heads of `docIds` in one read; when the byte store rejects one key (e.g. Redis holding a
   * hash there), key by key, so that value's error costs only its own document.
   */
  private async readHeadValues(docIds: string[]): Promise<Array<Uint8Array | undefined | PageIndexError>> {
    try {
      return await this.byteStore.mget(docIds.map((docId) => this.keys.head(docId)));
    } catch (error) {
      if (!(error instanceof StoreCorruptionError)) throw error;
    }
    const values: Array<Uint8Array | undefined | PageIndexError> = [];
    for (const docId of docIds) {
      try {
        values.push((await this.mgetOf(docId, [this.keys.head(docId)]))[0]);
      } catch (error) {
        if (!(error instanceof StoreCorruptionError)) throw error;
        values.push(error);
      }
    }
    return values;
  }

  private async readHead(docId: string): Promise<HeadRecord | undefined> {
    const key = this.keys.head(docId);
    const [raw] = await this.mgetOf(docId, [key]);
    return raw === undefined ? undefined : decodeHead(raw, key, docId);
  }

  /** The head, or `undefined` when absent or unreadable (for writers, who replace it anyway). */
  private async readHeadQuietly(docId: string): Promise<HeadRecord | undefined> {
    try {
      return await this.readHead(docId);
    } catch (error) {
      if (error instanceof PageIndexError) return undefined;
      throw error;
    }
  }

  private async readAllHeads(): Promise<{
    heads: HeadRecord[];
    problems: PageIndexError[];
    unreadable: Set<string>;
  }> {
    const problems: PageIndexError[] = [];
    const unreadable = new Set<string>();
    const found = new Map<string, string>();
    for await (const key of this.byteStore.yieldKeys(this.keys.headPrefix)) {
      const docId = this.keys.parseHead(key);
      if (docId === undefined) {
        problems.push(new StoreCorruptionError(key, "not a valid head key (written by another program?)"));
      } else {
        found.set(docId, key);
      }
    }
    const docIds = [...found.keys()].sort();
    const heads: HeadRecord[] = [];
    for (let i = 0; i < docIds.length; i += READ_BATCH) {
      const batch = docIds.slice(i, i + READ_BATCH);
      const values = await this.readHeadValues(batch);
      batch.forEach((docId, j) => {
        const raw = values[j];
        if (raw === undefined) return; // deleted since listed
        try {
          if (raw instanceof PageIndexError) throw raw;
          heads.push(decodeHead(raw, found.get(docId) as string, docId));
        } catch (error) {
          if (!(error instanceof PageIndexError)) throw error;
          problems.push(error);
          unreadable.add(docId);
        }
      });
    }
    return { heads, problems, unreadable };
  }

  private remember(version: LoadedVersion): void {
    this.cache.delete(version.docId);
    if (this.cacheSize === 0) return;
    this.cache.set(version.docId, version);
    while (this.cache.size > this.cacheSize) {
      this.cache.delete(this.cache.keys().next().value as string);
    }
  }

  /** The published version's skeleton: from the cache when the head still points at it. */
  private async loadVersion(head: HeadRecord): Promise<LoadedVersion | undefined> {
    const cached = this.cache.get(head.docId);
    if (cached?.versionId === head.versionId) {
      this.remember(cached);
      return cached;
    }
    const key = this.keys.skeleton(head.docId, head.versionId);
    const [raw] = await this.mgetOf(head.docId, [key]);
    if (raw === undefined) return undefined;
    const record = decodeSkeleton(raw, key, head, this.verifyOnRead);
    const version = loaded(
      head.docId,
      head.versionId,
      record.skeleton,
      record.chunkStarts,
      record.chunkSha256,
    );
    this.remember(version);
    return version;
  }

  private async requireHead(docId: string): Promise<HeadRecord> {
    const head = await this.readHead(docId);
    if (!head) {
      this.cache.delete(docId);
      throw new DocumentNotFoundError(docId, this.describe());
    }
    return head;
  }

  /**
   * Runs `read` against the published version. A value missing under a head that has since
   * moved means a writer replaced the document mid-read: retry on the new version. Missing
   * under an unchanged head, it is corruption.
   */
  private async withVersion<T>(
    docId: string,
    read: (version: LoadedVersion) => Promise<T | Missing>,
  ): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      const head = await this.requireHead(docId);
      const version = await this.loadVersion(head);
      const outcome = version ? await read(version) : new Missing(this.keys.skeleton(docId, head.versionId));
      if (!(outcome instanceof Missing)) return outcome;
      const now = await this.requireHead(docId);
      if (now.versionId === head.versionId)
        throw new StoreCorruptionError(outcome.key, "value is missing", docId);
      if (attempt >= READ_ATTEMPTS) throw new StoreReadConflictError(docId, attempt);
    }
  }

  private currentVersion(docId: string): Promise<LoadedVersion> {
    return this.withVersion(docId, async (version) => version);
  }

  /** Texts of `nodeIds` (all nodes when `undefined`) from one consistent version. */
  private readTexts(
    docId: string,
    nodeIds: readonly string[] | undefined,
  ): Promise<{ version: LoadedVersion; texts: Map<string, string> }> {
    return this.withVersion(docId, async (version) => {
      const { skeleton, chunkStarts, chunkSha256, positions, versionId } = version;
      const wanted = new Set<number>(
        nodeIds === undefined
          ? skeleton.nodes.keys()
          : nodeIds.flatMap((id) => {
              const position = positions.get(id);
              return position === undefined ? [] : [position];
            }),
      );
      const chunks = [...new Set([...wanted].map((i) => chunkOf(chunkStarts, i)))].sort((a, b) => a - b);
      const keys = chunks.map((chunk) => this.keys.text(docId, versionId, chunk));
      const texts = new Map<string, string>();
      for (let i = 0; i < chunks.length; i += READ_BATCH) {
        const values = await this.mgetOf(docId, keys.slice(i, i + READ_BATCH));
        for (let j = 0; j < values.length; j += 1) {
          const chunk = chunks[i + j] as number;
          const key = keys[i + j] as string;
          const raw = values[j];
          if (raw === undefined) return new Missing(key);
          const first = chunkStarts[chunk] as number;
          const end = chunkStarts[chunk + 1] ?? skeleton.nodes.length;
          const record = decodeTexts(raw, key, {
            docId,
            versionId,
            chunk,
            first,
            count: end - first,
            sha256: chunkSha256[chunk] as string,
          });
          record.texts.forEach((text, k) => {
            if (wanted.has(first + k)) texts.set((skeleton.nodes[first + k] as SkeletonNode).nodeId, text);
          });
        }
      }
      return { version, texts };
    });
  }
}
