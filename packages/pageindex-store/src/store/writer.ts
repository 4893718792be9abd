import {
  type DocumentInfo,
  documentInfo,
  InvalidIdError,
  PageIndexError,
  parseTree,
  type TreeDocument,
  toSkeleton,
} from "pageindex-core";
import { catalogEntry, type NewEntry } from "../catalog/segment.js";
import {
  type AddTreesOptions,
  assertDistinctIds,
  DEFAULT_BATCH_CONCURRENCY,
  runBounded,
} from "./batch-write.js";
import {
  decodeHead,
  encodeHead,
  encodePending,
  encodeSkeleton,
  encodeTexts,
  type HeadRecord,
  peekHeadDocId,
  sha256,
  splitTexts,
} from "./codec.js";
import { createIfAbsent } from "./create-if-absent.js";
import { assertDerivedName } from "./derived.js";
import { DocumentIdConflictError } from "./errors.js";
import type { StoreJanitor } from "./janitor.js";
import { newVersionId } from "./keys.js";
import type { DocIdReservation } from "./options.js";
import { loaded, READ_BATCH, type StoreState } from "./state.js";

const encoder = new TextEncoder();

/**
 * The write paths of a {@link PageIndexStore}: adding, replacing and deleting documents, id
 * reservations and derived artifacts. Each write announces itself (pending marker, library
 * intent) before its first key, publishes with one head write, then tells the catalog and the
 * library index, and leaves cleanup to the {@link StoreJanitor}.
 */
export class StoreWriter {
  constructor(
    private readonly s: StoreState,
    private readonly janitor: StoreJanitor,
  ) {}

  /** Adds or replaces one tree (see {@link PageIndexStore.addTree}). */
  async addTree(input: TreeDocument): Promise<DocumentInfo> {
    const tree = parseTree(input);
    const docId = this.s.keys.assertDocId(tree.docId);
    await this.janitor.libraryReady();
    await this.assertPortableNewId(docId);
    const written = await this.publish(tree, docId);
    await this.s.library?.published([{ tree, versionId: written.versionId }]);
    // The catalog learns of the version after it is published. Should that fail (or this writer
    // die here), the pending marker stays: the next sweep finds the published version and
    // writes its card (see cleanUnfinishedWrites).
    const cataloged = await this.writeCatalog([written.entry], `Adding document "${docId}" to the catalog`);
    await this.janitor.afterWrite(
      docId,
      written.previous,
      cataloged ? written.pending : undefined,
      written.retired,
    );
    return written.info;
  }

  /** Adds or replaces many trees, one catalog segment and one library transaction per batch. */
  async addTrees(inputs: readonly TreeDocument[], options: AddTreesOptions = {}): Promise<DocumentInfo[]> {
    const trees = inputs.map((input) => parseTree(input));
    assertDistinctIds(trees);
    const concurrency = Math.max(1, options.concurrency ?? DEFAULT_BATCH_CONCURRENCY);
    await this.janitor.libraryReady();
    const { results, error } = await runBounded(trees, concurrency, async (tree) => {
      const docId = this.s.keys.assertDocId(tree.docId);
      await this.assertPortableNewId(docId);
      return { docId, tree, ...(await this.publish(tree, docId)) };
    });
    const written = results.filter((r): r is NonNullable<typeof r> => r !== undefined);
    await this.s.library?.published(written);
    const cataloged = await this.writeCatalog(
      written.map((w) => w.entry),
      `Adding ${written.length} documents to the catalog`,
    );
    await runBounded(written, concurrency, (w) =>
      this.janitor.afterWrite(w.docId, w.previous, cataloged ? w.pending : undefined, w.retired),
    );
    if (error !== undefined) throw error;
    return written.map((w) => w.info);
  }

  /** Writes catalog entries; reports (does not throw) a failure, which the sweep repairs. */
  async writeCatalog(entries: NewEntry[], what: string): Promise<boolean> {
    try {
      await this.s.catalog.write(entries);
      return true;
    } catch (error) {
      this.s.onProblem(new PageIndexError(`${what} failed`, { cause: error }));
      return false;
    }
  }

  /**
   * Writes a validated tree's new version and publishes it (its head); not yet cataloged or
   * indexed. The library's intent is recorded before the first key is written.
   */
  async publish(
    tree: TreeDocument,
    docId: string,
  ): Promise<{
    info: DocumentInfo;
    previous: HeadRecord | undefined;
    pending: string;
    /** The superseded version's retirement marker, when it is kept for the grace period. */
    retired: string | undefined;
    entry: NewEntry;
    versionId: string;
  }> {
    const versionId = newVersionId();
    await this.s.library?.begin(docId, versionId);
    const { chunkStarts, chunks } = splitTexts(tree.nodes, this.s.chunkChars);
    const skeleton = toSkeleton(tree);

    const entries: Array<[string, Uint8Array]> = chunks.map((texts, chunk) => [
      this.s.keys.text(docId, versionId, chunk),
      encodeTexts({ docId, versionId, chunk, first: chunkStarts[chunk] as number, texts }),
    ]);
    const chunkSha256 = entries.map(([, bytes]) => sha256(bytes));
    const skeletonBytes = encodeSkeleton({ docId, versionId, chunkStarts, chunkSha256, skeleton });
    entries.push([this.s.keys.skeleton(docId, versionId), skeletonBytes]);
    // Announced before any of its keys exist: should this writer die, a later write finds
    // exactly what it left, whichever document that write is for.
    const pending = this.s.keys.pending(docId, versionId, chunks.length);
    const info = documentInfo(tree);
    let previous: HeadRecord | undefined;
    let retired: string | undefined;
    try {
      // One call with the marker: the catalog learns a write began (see `KeyLayout.catalogWriting`).
      await this.s.byteStore.mset([
        [pending, encodePending({ docId, versionId, chunks: chunks.length })],
        [this.s.keys.catalogWriting, new TextEncoder().encode(versionId)],
      ]);
      for (let i = 0; i < entries.length; i += this.s.writeBatchSize) {
        await this.s.byteStore.mset(entries.slice(i, i + this.s.writeBatchSize));
      }
      previous = await this.s.readHeadQuietly(docId);
      if (previous && this.s.supersededGraceMs > 0) {
        // Marked before the switch: should this writer die right after it, a sweep still finds
        // the superseded version (a marker of a version still published only loses the marker).
        retired = this.s.keys.retired(docId, previous.versionId, previous.chunks, Date.now());
        await this.s.byteStore.mset([
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
      await this.s.byteStore.mset([[this.s.keys.head(docId), encodeHead(head)]]);
    } catch (error) {
      const published = await this.abandonWrite(docId, versionId, [
        ...entries.map(([key]) => key),
        retired,
        pending,
      ]);
      // Published after all (or unknown): the intent stays, and the next repair indexes the head.
      if (published === false) await this.s.library?.abandoned(docId, versionId);
      throw error;
    }
    // A copy, as JSON: the caller's tree stays theirs, and the cache holds what a reader of the
    // bytes gets (a Date in metadata is its ISO string). Unlike structuredClone, it cannot throw
    // (on a function in metadata) now that the version is published: encoding already did this.
    this.s.remember(loaded(docId, versionId, JSON.parse(JSON.stringify(skeleton)), chunkStarts, chunkSha256));
    return { info, previous, pending, retired, entry: catalogEntry(tree, versionId), versionId };
  }

  /**
   * After a failed write (a full disk, a lost connection): removes what it wrote, so nothing is
   * left behind, unless the head switch went through after all. Best effort: when even this
   * fails, the pending marker (removed last) leads a later sweep or `vacuum` to the keys.
   * @returns whether the version was published: false when it was not, undefined when unknown.
   */
  async abandonWrite(
    docId: string,
    versionId: string,
    keys: ReadonlyArray<string | undefined>,
  ): Promise<boolean | undefined> {
    try {
      if ((await this.s.readHead(docId))?.versionId === versionId) return true;
      const written = keys.filter((key): key is string => key !== undefined);
      for (let i = 0; i < written.length; i += READ_BATCH) {
        await this.s.byteStore.mdelete(written.slice(i, i + READ_BATCH));
      }
      return false;
    } catch {
      // The write's own error is what the caller needs to see.
      return undefined;
    }
  }

  /**
   * Refuses ids that would share files with another document on some disks: Windows drops a
   * trailing dot from file names, and macOS and Windows ignore letter case. (Two writers adding
   * case twins at the same moment can both pass; the check guards the common mistake.)
   */
  async assertPortableNewId(docId: string): Promise<void> {
    if (docId.endsWith(".")) {
      throw new InvalidIdError(
        `Invalid document id "${docId}": it ends with a dot, which Windows drops from file names (toDocId() derives a portable id)`,
      );
    }
    const lower = docId.toLowerCase();
    // Through the catalog (no listing of every head): a twin another process added within the
    // catalog's refresh delay can slip through, as can one added at the same moment.
    const twin = (await this.s.catalog.view()).caseTwin(docId);
    if (twin !== undefined) throw new DocumentIdConflictError(docId, twin);
    // A store that folds case itself lists the twin under our own key: its head names it.
    const raw = await this.s.readQuietly(docId, this.s.keys.head(docId));
    const stored = raw === undefined ? undefined : peekHeadDocId(raw);
    if (stored !== undefined && stored !== docId && stored.toLowerCase() === lower) {
      throw new DocumentIdConflictError(docId, stored);
    }
  }

  /** One create-if-absent write of the id's claim (see {@link PageIndexStore.reserveDocId}). */
  async reserveDocId(docId: string, owner: string): Promise<DocIdReservation> {
    const key = this.s.keys.claim(this.s.keys.assertDocId(docId));
    const value = encoder.encode(JSON.stringify({ owner, at: Date.now() }));
    let holder: { owner: string; at: number } | undefined;
    for (let attempt = 0; attempt < 3; attempt += 1) {
      if (await createIfAbsent(this.s.byteStore, key, value)) return { reserved: true };
      holder = await this.s.readClaim(docId, key);
      if (holder === undefined) continue; // released in between
      if (holder.owner === owner) return { reserved: true };
      const abandoned = Date.now() - holder.at > this.s.orphanGraceMs && !(await this.s.hasDocument(docId));
      if (!abandoned) break;
      await this.s.byteStore.mdelete([key]);
    }
    return { reserved: false, owner: holder?.owner ?? "(unknown)" };
  }

  /** Gives up a reservation made by {@link PageIndexStore.reserveDocId} if `owner` holds it. */
  async releaseDocId(docId: string, owner: string): Promise<void> {
    const key = this.s.keys.claim(this.s.keys.assertDocId(docId));
    if ((await this.s.readClaim(docId, key))?.owner === owner) await this.s.byteStore.mdelete([key]);
  }

  /** Deletes a document: head first, then catalog card, library entry and version keys. */
  async deleteDocument(docId: string): Promise<boolean> {
    this.s.keys.assertDocId(docId);
    const headKey = this.s.keys.head(docId);
    let previous: HeadRecord | undefined;
    try {
      const [raw] = await this.s.mgetOf(docId, [headKey]);
      if (raw === undefined) return false;
      previous = decodeHead(raw, headKey, docId);
    } catch (error) {
      if (!(error instanceof PageIndexError)) throw error;
      // A corrupt head can still be deleted; its version keys become orphans for cleanup.
    }
    await this.janitor.libraryReady();
    await this.s.library?.begin(docId);
    try {
      await this.s.byteStore.mdelete([headKey, this.s.keys.claim(docId)]);
    } catch (error) {
      // The head may or may not be gone: make the index agree with whatever is there.
      await this.janitor.repairLibraryDocuments([docId]);
      throw error;
    }
    this.s.cache.delete(docId);
    await this.s.library?.removed(docId);
    try {
      await this.s.catalog.write([{ docId, versionId: newVersionId() }]);
    } catch (error) {
      // Searches check heads, so the stale card is never returned; vacuum drops it.
      this.s.onProblem(
        new PageIndexError(`Removing document "${docId}" from the catalog failed`, { cause: error }),
      );
    }
    await this.janitor.afterWrite(docId, previous);
    return true;
  }

  /** Stores a derived artifact of the published version (see {@link PageIndexStore.putDerived}). */
  async putDerived(docId: string, name: string, value: Uint8Array): Promise<boolean> {
    assertDerivedName(name);
    this.s.noteDerivedName(name);
    const head = await this.s.readHead(this.s.keys.assertDocId(docId));
    if (!head) return false;
    await this.s.derived.put(docId, head.versionId, name, value);
    return true;
  }
}
