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

/** A version written and published by {@link StoreWriter.publishWave}, not yet cataloged or indexed. */
interface Published {
  info: DocumentInfo;
  previous: HeadRecord | undefined;
  /** Its pending marker (removed once its card is written). */
  pending: string;
  /** The superseded version's retirement marker, when it is kept for the grace period. */
  retired: string | undefined;
  entry: NewEntry;
  versionId: string;
}

/** A head as a writer reads it: `undefined` when absent or unreadable (it is replaced anyway). */
function quietHead(
  raw: Uint8Array | undefined | PageIndexError,
  key: string,
  docId: string,
): HeadRecord | undefined {
  if (raw === undefined || raw instanceof PageIndexError) return undefined;
  try {
    return decodeHead(raw, key, docId);
  } catch (error) {
    if (error instanceof PageIndexError) return undefined;
    throw error;
  }
}

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
    await this.assertPortableNewIds([docId]);
    const [written] = (await this.publishWave([{ tree, docId }])) as [Published];
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

  /**
   * Adds or replaces many trees, `concurrency` documents per wave: a wave's intents, pending
   * markers, values and heads are each one byte-store (and library) call, so a batch costs a few
   * round trips per wave rather than per document. One catalog segment and one library
   * transaction per batch. After a failed wave no other starts.
   */
  async addTrees(inputs: readonly TreeDocument[], options: AddTreesOptions = {}): Promise<DocumentInfo[]> {
    const trees = inputs.map((input) => parseTree(input));
    assertDistinctIds(trees);
    const concurrency = Math.max(1, options.concurrency ?? DEFAULT_BATCH_CONCURRENCY);
    await this.janitor.libraryReady();
    const written: Array<Published & { docId: string; tree: TreeDocument }> = [];
    let error: unknown;
    for (let from = 0; from < trees.length && error === undefined; from += concurrency) {
      try {
        const wave = trees
          .slice(from, from + concurrency)
          .map((tree) => ({ tree, docId: this.s.keys.assertDocId(tree.docId) }));
        await this.assertPortableNewIds(wave.map((w) => w.docId));
        const published = await this.publishWave(wave);
        published.forEach((p, i) => {
          written.push({ ...p, ...(wave[i] as { tree: TreeDocument; docId: string }) });
        });
      } catch (caught) {
        error = caught;
      }
    }
    await this.s.library?.published(written);
    const cataloged = await this.writeCatalog(
      written.map((w) => w.entry),
      `Adding ${written.length} documents to the catalog`,
    );
    if (cataloged) await this.janitor.dropPendingMarkers(written.map((w) => w.pending));
    await runBounded(written, concurrency, (w) =>
      this.janitor.afterWrite(w.docId, w.previous, undefined, w.retired),
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
   * Writes validated trees' new versions and publishes them (their heads); not yet cataloged or
   * indexed. Per document the order is that of a single write (library intent, pending marker,
   * values, head), each step one call for the whole wave. On a failure every document of the
   * wave is abandoned (see {@link StoreWriter.abandonWrite}) and the error thrown.
   */
  async publishWave(wave: ReadonlyArray<{ tree: TreeDocument; docId: string }>): Promise<Published[]> {
    const drafts = wave.map(({ tree, docId }) => {
      const versionId = newVersionId();
      const { chunkStarts, chunks } = splitTexts(tree.nodes, this.s.chunkChars);
      const skeleton = toSkeleton(tree);
      const entries: Array<[string, Uint8Array]> = chunks.map((texts, chunk) => [
        this.s.keys.text(docId, versionId, chunk),
        encodeTexts({ docId, versionId, chunk, first: chunkStarts[chunk] as number, texts }),
      ]);
      const chunkSha256 = entries.map(([, bytes]) => sha256(bytes));
      const skeletonBytes = encodeSkeleton({ docId, versionId, chunkStarts, chunkSha256, skeleton });
      entries.push([this.s.keys.skeleton(docId, versionId), skeletonBytes]);
      return {
        tree,
        docId,
        versionId,
        chunks: chunks.length,
        chunkStarts,
        chunkSha256,
        skeleton,
        skeletonBytes,
        entries,
        // Announced before any of its keys exist: should this writer die, a later write finds
        // exactly what it left, whichever document that write is for.
        pending: this.s.keys.pending(docId, versionId, chunks.length),
        info: documentInfo(tree),
        previous: undefined as HeadRecord | undefined,
        retired: undefined as string | undefined,
      };
    });
    await this.s.library?.beginAll(drafts.map((d) => ({ docId: d.docId, versionId: d.versionId })));
    try {
      // One call with the markers: the catalog learns a write began (see `KeyLayout.catalogWriting`).
      await this.s.byteStore.mset([
        ...drafts.map((d): [string, Uint8Array] => [
          d.pending,
          encodePending({ docId: d.docId, versionId: d.versionId, chunks: d.chunks }),
        ]),
        [this.s.keys.catalogWriting, new TextEncoder().encode(drafts.at(-1)?.versionId ?? "")],
      ]);
      const entries = drafts.flatMap((d) => d.entries);
      for (let i = 0; i < entries.length; i += this.s.writeBatchSize) {
        await this.s.byteStore.mset(entries.slice(i, i + this.s.writeBatchSize));
      }
      const heads = await this.s.readHeadValues(drafts.map((d) => d.docId));
      const retired: Array<[string, Uint8Array]> = [];
      drafts.forEach((d, i) => {
        d.previous = quietHead(heads[i], this.s.keys.head(d.docId), d.docId);
        if (d.previous && this.s.supersededGraceMs > 0) {
          // Marked before the switch: should this writer die right after it, a sweep still finds
          // the superseded version (a marker of a version still published only loses the marker).
          const { versionId, chunks } = d.previous;
          d.retired = this.s.keys.retired(d.docId, versionId, chunks, Date.now());
          retired.push([d.retired, encodePending({ docId: d.docId, versionId, chunks })]);
        }
      });
      if (retired.length > 0) await this.s.byteStore.mset(retired);
      // Publish: one write of the heads. Until here readers still see the previous versions.
      const writtenAt = new Date().toISOString();
      await this.s.byteStore.mset(
        drafts.map((d) => {
          const head: HeadRecord = {
            docId: d.docId,
            versionId: d.versionId,
            chunks: d.chunks,
            info: d.info,
            writtenAt,
            skeletonSha256: sha256(d.skeletonBytes),
          };
          return [this.s.keys.head(d.docId), encodeHead(head)];
        }),
      );
    } catch (error) {
      for (const d of drafts) {
        const published = await this.abandonWrite(d.docId, d.versionId, [
          ...d.entries.map(([key]) => key),
          d.retired,
          d.pending,
        ]);
        // Published after all (or unknown): the intent stays, and the next repair indexes the head.
        if (published === false) await this.s.library?.abandoned(d.docId, d.versionId);
      }
      throw error;
    }
    return drafts.map((d) => {
      // A copy, as JSON: the caller's tree stays theirs, and the cache holds what a reader of the
      // bytes gets (a Date in metadata is its ISO string). Unlike structuredClone, it cannot throw
      // (on a function in metadata) now that the version is published: encoding already did this.
      const skeleton = JSON.parse(JSON.stringify(d.skeleton));
      this.s.remember(loaded(d.docId, d.versionId, skeleton, d.chunkStarts, d.chunkSha256));
      return {
        info: d.info,
        previous: d.previous,
        pending: d.pending,
        retired: d.retired,
        entry: catalogEntry(d.tree, d.versionId),
        versionId: d.versionId,
      };
    });
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
  async assertPortableNewIds(docIds: readonly string[]): Promise<void> {
    const dotted = docIds.find((docId) => docId.endsWith("."));
    if (dotted !== undefined) {
      throw new InvalidIdError(
        `Invalid document id "${dotted}": it ends with a dot, which Windows drops from file names (toDocId() derives a portable id)`,
      );
    }
    // Through the catalog (no listing of every head): a twin another process added within the
    // catalog's refresh delay can slip through, as can one added at the same moment.
    const catalog = await this.s.catalog.view();
    for (const docId of docIds) {
      const twin = catalog.caseTwin(docId);
      if (twin !== undefined) throw new DocumentIdConflictError(docId, twin);
    }
    // A store that folds case itself lists the twin under our own key: its head names it.
    const raw = await this.s.readHeadValues([...docIds]);
    docIds.forEach((docId, i) => {
      const value = raw[i];
      const stored =
        value === undefined || value instanceof PageIndexError ? undefined : peekHeadDocId(value);
      if (stored !== undefined && stored !== docId && stored.toLowerCase() === docId.toLowerCase()) {
        throw new DocumentIdConflictError(docId, stored);
      }
    });
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
    this.s.cache.get(docId)?.prefetched?.delete(name); // what it read with the skeleton is older
    return true;
  }
}
