import { DocumentNotFoundError, PageIndexError, type TreeDocument } from "pageindex-core";
import type { CatalogIndex } from "../catalog/index.js";
import { catalogEntry, type NewEntry } from "../catalog/segment.js";
import { libraryEntry } from "../library/entry.js";
import { decodeHead, type HeadRecord } from "./codec.js";
import { StoreReadOnlyError } from "./errors.js";
import { type ParsedPendingKey, type ParsedRetiredKey, versionTime } from "./keys.js";
import type { VacuumResult } from "./options.js";
import { isReadOnlyStore } from "./overlay-byte-store.js";
import { READ_BATCH, type StoreState } from "./state.js";

/** A store handle looks for unfinished writes at most this often (or every grace period, if shorter). */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The cleanup of a {@link PageIndexStore}: superseded and unfinished versions, orphaned derived
 * artifacts and id reservations, the catalog's compaction and rebuild, and the library index's
 * repair after a crash (pending intents) or a full check (vacuum).
 */
export class StoreJanitor {
  /** The first write's library repair, shared by the writes that wait for it. */
  private ready: Promise<void> | undefined;

  constructor(private readonly s: StoreState) {}

  /** Removes the pending markers of cataloged writes (one call); a failure is reported, the sweep retries. */
  async dropPendingMarkers(pending: readonly string[]): Promise<void> {
    if (pending.length === 0) return;
    try {
      await this.s.byteStore.mdelete([...pending]);
    } catch (error) {
      this.s.onProblem(
        new PageIndexError(
          `Cleanup after writing ${pending.length} documents failed (the writes succeeded)`,
          {
            cause: error,
          },
        ),
      );
    }
  }

  /**
   * Removes the superseded version (now, or once its grace period ends when `retired` names its
   * marker), superseded versions whose grace has ended, and, now and then, unfinished writes;
   * never fails the write.
   */
  async afterWrite(
    docId: string,
    previous: HeadRecord | undefined,
    pending?: string,
    retired?: string,
  ): Promise<void> {
    try {
      if (pending) await this.s.byteStore.mdelete([pending]);
      const marker = retired === undefined ? undefined : this.s.keys.parseRetired(retired);
      if (marker) {
        this.s.retiring.push({ ...marker, key: retired as string });
      } else if (previous) {
        const current = await this.s.readHeadQuietly(docId);
        if (current?.versionId !== previous.versionId) {
          await this.s.byteStore.mdelete(
            this.versionAndDerivedKeys(docId, previous.versionId, previous.chunks),
          );
        }
      }
      const due = Date.now() - this.s.supersededGraceMs;
      const ended = this.s.retiring.findIndex((entry) => entry.retiredAt > due);
      await this.removeRetired(this.s.retiring.splice(0, ended < 0 ? this.s.retiring.length : ended));
      if (this.s.cleanupOnWrite) {
        // No listing per write (a listing reads every key of a folder store): a crashed write of
        // this or any document left a marker, which the sweep below finds. Markers only become
        // stale after the grace period: listing them on every write of a busy writer would cost
        // a full key listing each time for nothing.
        if (Date.now() >= this.s.nextSweepAt) {
          this.s.nextSweepAt = Date.now() + Math.min(this.s.orphanGraceMs, SWEEP_INTERVAL_MS);
          await this.cleanUnfinishedWrites(this.s.orphanGraceMs, this.s.unfinishedWritesPerWrite);
          await this.sweepRetired(
            this.s.keys.retiredPrefix,
            this.s.supersededGraceMs,
            this.s.unfinishedWritesPerWrite,
          );
        }
      }
    } catch (error) {
      this.s.onProblem(
        new PageIndexError(`Cleanup after writing document "${docId}" failed (the write itself succeeded)`, {
          cause: error,
        }),
      );
    }
  }

  /** A version's keys and the derived values this handle knows of. */
  versionAndDerivedKeys(docId: string, versionId: string, chunks: number): string[] {
    return [
      ...this.s.keys.versionKeys(docId, versionId, chunks),
      ...[...this.s.derivedNames()].map((name) => this.s.derived.key(docId, versionId, name)),
    ];
  }

  /**
   * Deletes superseded versions whose markers are given (their grace has ended), then the markers.
   * A version a head still points to (or may: an unreadable head) keeps its keys.
   * @returns the number of version keys deleted.
   */
  async removeRetired(markers: ReadonlyArray<ParsedRetiredKey & { key: string }>): Promise<number> {
    if (markers.length === 0) return 0;
    const docIds = [...new Set(markers.map((marker) => marker.docId))];
    const values = await this.s.readHeadValues(docIds);
    const live = new Map<string, string | undefined | null>(); // null: unreadable
    docIds.forEach((docId, i) => {
      const raw = values[i];
      try {
        if (raw instanceof PageIndexError) throw raw;
        live.set(
          docId,
          raw === undefined ? undefined : decodeHead(raw, this.s.keys.head(docId), docId).versionId,
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
      await this.s.byteStore.mdelete(keys.slice(i, i + READ_BATCH));
    }
    await this.s.byteStore.mdelete(markers.map((marker) => marker.key));
    return keys.length;
  }

  /**
   * Lists retired-version markers under `prefix` and removes up to `limit` versions whose grace
   * (`graceMs`) has ended: those of writers that exited before their grace ended, or died.
   * @returns what was removed, and the versions still within their grace (`docId\nversionId`).
   */
  async sweepRetired(
    prefix: string,
    graceMs: number,
    limit: number,
    docId?: string,
  ): Promise<{ versions: number; keys: number; young: Set<string> }> {
    const cutoff = Date.now() - graceMs;
    const due: Array<ParsedRetiredKey & { key: string }> = [];
    const young = new Set<string>();
    for await (const key of this.s.byteStore.yieldKeys(prefix)) {
      const parsed = this.s.keys.parseRetired(key);
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
  async cleanUnfinishedWrites(graceMs: number, limit: number): Promise<number> {
    if (limit <= 0) return 0;
    const cutoff = Date.now() - graceMs;
    const markers: Array<ParsedPendingKey & { key: string }> = [];
    for await (const key of this.s.byteStore.yieldKeys(this.s.keys.pendingPrefix)) {
      const parsed = this.s.keys.parsePending(key);
      if (!parsed || (versionTime(parsed.versionId) ?? Number.POSITIVE_INFINITY) > cutoff) continue;
      markers.push({ key, ...parsed });
      if (markers.length >= limit) break;
    }
    if (markers.length === 0) return 0;
    // Heads are read after the markers are listed: a version published before then counts as live.
    const docIds = [...new Set(markers.map((marker) => marker.docId))];
    const live = new Map<string, string | undefined>();
    const values = await this.s.readHeadValues(docIds);
    docIds.forEach((docId, i) => {
      const raw = values[i];
      if (raw instanceof PageIndexError) return; // unreadable: may point anywhere
      try {
        live.set(
          docId,
          raw === undefined ? undefined : decodeHead(raw, this.s.keys.head(docId), docId).versionId,
        );
      } catch (error) {
        if (!(error instanceof PageIndexError)) throw error;
      }
    });
    await this.catalogPublished(markers.filter((marker) => live.get(marker.docId) === marker.versionId));
    const stale = markers
      .filter((marker) => live.has(marker.docId) && live.get(marker.docId) !== marker.versionId)
      .flatMap((marker) => this.s.keys.versionKeys(marker.docId, marker.versionId, marker.chunks));
    for (let i = 0; i < stale.length; i += READ_BATCH) {
      await this.s.byteStore.mdelete(stale.slice(i, i + READ_BATCH));
    }
    // Markers last: one left by a cleanup that died still leads the next one to its keys.
    // Those of unreadable heads go too (their keys stay): kept, they would fill every later
    // sweep's `limit` and stall the backlog; rewriting or deleting such a document (or vacuum
    // once it is readable) removes its orphans without them.
    await this.s.byteStore.mdelete(markers.map((marker) => marker.key));
    return markers.length;
  }

  /**
   * Writes the cards of published versions whose writer died (or failed) before the catalog
   * learnt of them: their pending marker outlived the head switch.
   */
  async catalogPublished(markers: ReadonlyArray<{ docId: string; versionId: string }>): Promise<void> {
    if (markers.length === 0) return;
    const view = await this.s.catalog.view();
    const entries: NewEntry[] = [];
    for (const { docId, versionId } of markers) {
      const known = view.entry(docId)?.versionId;
      if (known !== undefined && known >= versionId) continue;
      try {
        entries.push(catalogEntry(await this.s.readTree(docId), versionId));
      } catch (error) {
        if (!(error instanceof PageIndexError)) throw error;
      }
    }
    await this.s.catalog.write(entries);
  }

  /**
   * Catalog entries of published versions whose writer died before cataloging them: a pending
   * marker whose version the head points to and the catalog lacks (any age: the head switch
   * makes the version live at once). One listing of the markers, one read of their heads.
   */
  async unfinishedEntries(index: CatalogIndex): Promise<NewEntry[]> {
    const markers: ParsedPendingKey[] = [];
    for await (const key of this.s.byteStore.yieldKeys(this.s.keys.pendingPrefix)) {
      const parsed = this.s.keys.parsePending(key);
      if (parsed && (index.entry(parsed.docId)?.versionId ?? "") < parsed.versionId) markers.push(parsed);
    }
    if (markers.length === 0) return [];
    const heads = new Map<string, HeadRecord>();
    const docIds = [...new Set(markers.map((marker) => marker.docId))];
    for (let i = 0; i < docIds.length; i += READ_BATCH) {
      const batch = docIds.slice(i, i + READ_BATCH);
      const values = await this.s.readHeadValues(batch);
      batch.forEach((docId, j) => {
        const raw = values[j];
        if (raw === undefined || raw instanceof PageIndexError) return;
        try {
          heads.set(docId, decodeHead(raw, this.s.keys.head(docId), docId));
        } catch (error) {
          if (!(error instanceof PageIndexError)) throw error;
        }
      });
    }
    const published = markers.flatMap((marker) => {
      const head = heads.get(marker.docId);
      return head?.versionId === marker.versionId ? [head] : [];
    });
    return this.entriesOf(published);
  }

  /** Catalog entries of every stored document, from heads and skeletons (building a catalog). */
  async entriesFromHeads(): Promise<NewEntry[]> {
    return this.entriesOf((await this.s.readAllHeads()).heads);
  }

  /** Catalog entries of these published versions, from their skeletons; unreadable ones reported. */
  async entriesOf(heads: readonly HeadRecord[]): Promise<NewEntry[]> {
    const entries: NewEntry[] = [];
    for (const head of heads) {
      try {
        const version = await this.s.loadVersion(head);
        if (version) entries.push(catalogEntry(version.skeleton, head.versionId));
      } catch (error) {
        if (!(error instanceof PageIndexError)) throw error;
        this.s.onProblem(error);
      }
    }
    return entries;
  }

  /**
   * Refuses a repair on a read-only store: it would change only this process's in-memory view,
   * and a count of what it "removed" would report work that never reached the store.
   */
  private assertWritable(what: string): void {
    if (!isReadOnlyStore(this.s.byteStore)) return;
    const where = (this.s.byteStore as { rootPath?: unknown }).rootPath;
    throw new StoreReadOnlyError(
      typeof where === "string" ? where : this.s.describe(),
      `${what} changes the store; open it for writing to run it`,
    );
  }

  /** Builds the catalog again from every head (see {@link PageIndexStore.rebuildCatalog}). */
  async rebuildCatalog(): Promise<number> {
    this.assertWritable("rebuildCatalog");
    await this.s.catalog.sync();
    return this.s.catalog.rebuild();
  }

  /** Deletes one document's unpublished and superseded versions older than `graceMs`. */
  async removeOrphans(docId: string, graceMs = this.s.orphanGraceMs): Promise<number> {
    this.s.keys.assertDocId(docId);
    await this.libraryReady();
    const cutoff = Date.now() - graceMs;
    const retired = await this.sweepRetired(
      this.s.keys.retiredOf(docId),
      Math.min(graceMs, this.s.supersededGraceMs),
      Number.POSITIVE_INFINITY,
      docId,
    );
    const stale: string[] = [];
    let live: string | undefined;
    let liveKnown = false;
    for await (const key of this.s.byteStore.yieldKeys(this.s.keys.versionsOf(docId))) {
      const parsed = this.s.keys.parseVersionKey(key);
      if (!parsed || parsed.docId !== docId) continue;
      if (!liveKnown) {
        // Read the head after listing starts, so a version published before then counts as live.
        try {
          const [raw] = await this.s.mgetOf(docId, [this.s.keys.head(docId)]);
          if (raw !== undefined) live = decodeHead(raw, this.s.keys.head(docId), docId).versionId;
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
      await this.s.byteStore.mdelete(stale.slice(i, i + READ_BATCH));
    }
    return stale.length + retired.keys;
  }

  /** Removes every leftover across documents (see {@link PageIndexStore.vacuum}). */
  async vacuum(options: { graceMs?: number } = {}): Promise<VacuumResult> {
    this.assertWritable("vacuum");
    const graceMs = options.graceMs ?? this.s.orphanGraceMs;
    const cutoff = Date.now() - graceMs;
    this.s.retiring.length = 0; // the sweep below finds their markers
    const retired = await this.sweepRetired(
      this.s.keys.retiredPrefix,
      Math.min(graceMs, this.s.supersededGraceMs),
      Number.POSITIVE_INFINITY,
    );
    const { heads, unreadable } = await this.s.readAllHeads();
    const live = new Map(heads.map((head) => [head.docId, head.versionId]));
    const result: VacuumResult = {
      deletedKeys: 0,
      removedVersions: 0,
      youngVersions: 0,
      foreignKeys: [],
      catalogSegmentsRemoved: 0,
      libraryRepaired: 0,
    };
    const stale: string[] = [];
    const staleVersions = new Set<string>();
    const youngVersions = new Set<string>();
    for await (const key of this.s.byteStore.yieldKeys(this.s.keys.docPrefix)) {
      const parsed = this.s.keys.parseVersionKey(key);
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
      await this.s.byteStore.mdelete(stale.slice(i, i + READ_BATCH));
    }
    await this.cleanUnfinishedWrites(graceMs, Number.POSITIVE_INFINITY);
    result.deletedKeys =
      stale.length +
      retired.keys +
      (await this.s.derived.removeOrphans(live, unreadable, cutoff)) +
      (await this.removeAbandonedClaims(live, unreadable, cutoff));
    result.catalogSegmentsRemoved = await this.compactCatalog(heads);
    result.libraryRepaired = await this.reconcileLibrary(heads, unreadable);
    // After the repairs, which write to it: queries then seek one segment per term.
    await this.s.library?.index.mergeSegments?.();
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
  async removeAbandonedClaims(
    live: ReadonlyMap<string, string>,
    unreadable: ReadonlySet<string>,
    cutoff: number,
  ): Promise<number> {
    const abandoned: string[] = [];
    for await (const key of this.s.byteStore.yieldKeys(this.s.keys.claimPrefix)) {
      const docId = key.slice(this.s.keys.claimPrefix.length);
      if (live.has(docId) || unreadable.has(docId)) continue;
      const holder = await this.s.readClaim(docId, key);
      if (holder && holder.at <= cutoff) abandoned.push(key);
    }
    await this.s.byteStore.mdelete(abandoned);
    return abandoned.length;
  }

  /** Rewrites the catalog to match the heads: cards of missing documents added, stale ones dropped. */
  async compactCatalog(heads: readonly HeadRecord[]): Promise<number> {
    const live = new Map(heads.map((head) => [head.docId, head]));
    const view = await this.s.catalog.sync();
    const missing = heads.filter((head) => view.entry(head.docId)?.versionId !== head.versionId);
    const extra = await this.entriesOf(missing);
    return this.s.catalog.compact((entry) => live.get(entry.docId)?.versionId === entry.versionId, extra);
  }

  /**
   * Makes the library index agree with the heads once per handle, before its first write: the
   * documents whose writer died between announcing a write to the library and finishing it
   * (`pending()`) get their head's version indexed, or are removed when they have no head.
   * A failed repair is retried by the next write.
   */
  libraryReady(): Promise<void> {
    if (!this.s.library) return Promise.resolve();
    this.ready ??= this.repairLibrary().then(
      () => undefined,
      (error: unknown) => {
        this.ready = undefined;
        throw error;
      },
    );
    return this.ready;
  }

  /**
   * Builds the library index from the heads when it is empty and the store is not (a folder
   * written before the library index). @returns the number of documents indexed.
   */
  async buildLibraryIfEmpty(): Promise<number> {
    const library = this.s.library;
    if (!library || (await library.index.count()) > 0) return 0;
    const { heads, unreadable } = await this.s.readAllHeads();
    if (heads.length === 0) return 0;
    return this.reconcileLibrary(heads, unreadable);
  }

  /**
   * On open: indexes the versions a killed writer published but never indexed (an intent whose
   * version the head now points to, and which the index lacks), so they are found at once
   * rather than after the next write's repair. Intents of versions not published are left to
   * that repair: their writer may still be at work. A read-only index cannot be changed: the
   * documents it lacks are reported with the command that repairs them.
   * @returns the number of documents indexed.
   */
  async indexPublishedIntents(): Promise<number> {
    const library = this.s.library;
    if (!library) return 0;
    const pending = await library.index.pending();
    if (pending.size === 0) return 0;
    const due: Array<{ tree: TreeDocument; versionId: string }> = [];
    for (const [docId, versions] of pending) {
      try {
        const head = await this.s.readHead(docId);
        if (!head || !versions.includes(head.versionId)) continue;
        if ((await library.index.getCard(docId))?.versionId === head.versionId) continue;
        const read = await this.s.readTreeVersion(docId);
        if (read.versionId === head.versionId) due.push(read);
      } catch (error) {
        if (!(error instanceof PageIndexError)) throw error;
      }
    }
    if (due.length === 0) return 0;
    if (isReadOnlyStore(this.s.byteStore) || (library.index as { readOnly?: unknown }).readOnly === true) {
      this.s.onProblem(
        new PageIndexError(
          `${due.length} document(s) published by an unfinished write are missing from the library index, so searches miss them: open the store for writing (pageindex index, or pageindex vacuum) to index them`,
        ),
      );
      return 0;
    }
    await library.index.putDocuments(due.map((v) => libraryEntry(v.tree, v.versionId)));
    return due.length;
  }

  /** Processes the library's pending intents now. @returns the number of documents repaired. */
  async repairLibrary(): Promise<number> {
    const library = this.s.library;
    if (!library) return 0;
    const pending = await library.index.pending();
    return this.repairLibraryDocuments([...pending.keys()], pending);
  }

  /**
   * Indexes the published version of each document, or removes the document from the library
   * when it has no head. Documents with an unreadable head keep their intent (reported): the
   * index cannot know what they hold until they are replaced or deleted.
   * The intents listed in `settled` (those this repair was started for) are cleared afterwards:
   * the head's version now stands for them, and each would otherwise lead every later repair back.
   * @returns the number of documents whose entry was written or removed.
   */
  async repairLibraryDocuments(
    docIds: readonly string[],
    settled: ReadonlyMap<string, ReadonlyArray<string | undefined>> = new Map(),
  ): Promise<number> {
    const library = this.s.library;
    if (!library || docIds.length === 0) return 0;
    const versions: Array<{ tree: TreeDocument; versionId: string }> = [];
    const gone: string[] = [];
    for (const docId of docIds) {
      try {
        if ((await this.s.readHead(docId)) === undefined) gone.push(docId);
        else versions.push(await this.s.readTreeVersion(docId));
      } catch (error) {
        if (error instanceof DocumentNotFoundError) gone.push(docId);
        else if (error instanceof PageIndexError) this.s.onProblem(error);
        else throw error;
      }
    }
    // Repair must succeed for writes to go on: its changes are not merely reported.
    if (versions.length > 0)
      await library.index.putDocuments(versions.map((v) => libraryEntry(v.tree, v.versionId)));
    for (const docId of gone) await library.index.removeDocument(docId);
    const done = new Set([...versions.map((v) => v.tree.docId), ...gone]);
    for (const [docId, intents] of settled) {
      if (!done.has(docId)) continue; // an unreadable head keeps its intents
      for (const versionId of intents) await library.index.clear(docId, versionId);
    }
    return versions.length + gone.length;
  }

  /**
   * Full consistency check of the library against the heads (vacuum): stale or missing entries
   * are indexed again, entries without a head removed, leftover intents settled.
   * @returns the number of documents repaired.
   */
  async reconcileLibrary(heads: readonly HeadRecord[], unreadable: ReadonlySet<string>): Promise<number> {
    const library = this.s.library;
    if (!library) return 0;
    const indexed = await library.index.indexedVersions();
    const pending = await library.index.pending();
    const live = new Map(heads.map((head) => [head.docId, head.versionId]));
    const wrong = new Set<string>(pending.keys());
    for (const [docId, versionId] of live) if (indexed.get(docId) !== versionId) wrong.add(docId);
    for (const docId of indexed.keys()) if (!live.has(docId) && !unreadable.has(docId)) wrong.add(docId);
    return this.repairLibraryDocuments([...wrong].sort(), pending);
  }
}
