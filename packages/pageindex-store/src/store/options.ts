import type { DocumentInfo, PageIndexError } from "pageindex-core";
import type { LibraryIndex } from "../library/types.js";
import type { VerifyMode } from "./codec.js";

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
   * How a skeleton read from the byte store is checked (default `"checksum"`: checksum and the
   * structure navigation relies on; `"full"` adds the schema validation of every field): see
   * {@link VerifyMode}. Text chunks and heads are always checked against their checksums and shapes.
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
   * listing keys, besides those registered with `registerDerivedArtifact` and those this handle
   * read or wrote; `vacuum` removes any others.
   */
  derivedNames?: string[];
  /**
   * The library index (a search engine over every section of every document) kept in step with
   * the trees on every write path, and answering `searchDocuments`, `listDocuments(page)` and
   * `searchLibrary` instead of the catalog. Its pending intents are repaired before this handle's
   * first write (or by `repairLibrary()`). `MemoryLibraryIndex` is the in-memory one.
   */
  library?: LibraryIndex;
  /**
   * Receives problems that do not stop an operation: a corrupt document skipped by
   * `listDocuments`, a failed cleanup after a successful write. Default: `console.warn`.
   */
  onProblem?: (problem: Error) => void;
}

/** The default `onProblem`: a warning on the console naming the store. */
export function warnProblem(problem: Error): void {
  console.warn(`[pageindex-store] ${problem.message}`);
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
  /** Documents whose library entry was written again or removed to match the heads (0 without a library). */
  libraryRepaired: number;
}

/** What {@link PageIndexStore.reserveDocId} found. */
export type DocIdReservation =
  /** The id is this owner's: newly reserved, or already reserved by the same owner. */
  | { reserved: true }
  /** Another owner holds the id (a stored document, or a process about to store one). */
  | { reserved: false; owner: string };
