import type { BaseStore } from "@langchain/core/stores";
import { PageIndexError } from "pageindex-core";
import { StoreCorruptionError } from "../store/errors.js";
import type { KeyLayout } from "../store/keys.js";
import { newVersionId } from "../store/keys.js";
import { CatalogIndex } from "./index.js";
import { compactSegments, type MergePolicy, mergeSegments, nextMerge } from "./merge.js";
import { CATALOG_FORMAT, type NewEntry, Segment, type SegmentEntry } from "./segment.js";

const READ_BATCH = 64;
/** A handle lists the segments at least once per this many refresh periods, changed marker or not. */
const LISTING_EVERY = 30;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Options of {@link StoreCatalog}. */
export interface StoreCatalogOptions extends MergePolicy {
  /** A handle looks for segments written by others at most this often (ms). */
  refreshMs: number;
  onProblem: (problem: Error) => void;
}

/**
 * The corpus catalog of one store, persisted as immutable segments under
 * `<ns>.catalog.seg.<id>` (ids sortable by time). Every write adds a segment; a writer merges a
 * full size tier into one segment and deletes the inputs afterwards (duplicates while both
 * exist are harmless: the latest entry of a document wins). Every change of the segments is
 * followed by a new value of the `<ns>.catalog.changed` marker. Readers keep decoded segments in
 * memory and read the marker at most every `refreshMs`, in the background once loaded
 * (stale-while-revalidate): they list the segment prefix only when it changed (or once per
 * `LISTING_EVERY` periods, for writers that do not set it), so a query never waits for a listing
 * of a large store (a folder store lists its whole directory, Redis scans its keys) and only a
 * process's first catalog read waits at all. The marker is read before the listing and written
 * after the segment: a listing made after reading a marker value sees every segment written
 * before that value.
 */
export class StoreCatalog {
  private readonly byteStore: BaseStore<string, Uint8Array>;
  private readonly keys: KeyLayout;
  private readonly options: StoreCatalogOptions;
  private readonly rebuildEntries: () => Promise<NewEntry[]>;
  private readonly unfinishedEntries: (index: CatalogIndex) => Promise<NewEntry[]>;
  private index = new CatalogIndex();
  private loading: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private listedAt = 0;
  /** When the marker was last read, and its value then (`null`: absent). */
  private checkedAt = 0;
  private marker: string | null | undefined;
  private merging: Promise<void> = Promise.resolve();
  /** Segments listed but unreadable (id → why), reported once each and removed by `compact`. */
  private readonly damaged = new Map<string, string>();
  /**
   * Ids of segments held in memory only: cards rebuilt from the trees for documents a damaged or
   * missing segment would hide. Kept across refreshes (they are never listed).
   */
  private readonly local = new Set<string>();

  /**
   * @param rebuildEntries the entries of every stored document, read from the heads: used once
   *   when the store was written before it had a catalog (or by `rebuild`).
   * @param unfinishedEntries the entries of published versions the catalog lacks because their
   *   writer was killed before writing their cards (read once, when the catalog is loaded).
   */
  constructor(
    byteStore: BaseStore<string, Uint8Array>,
    keys: KeyLayout,
    options: StoreCatalogOptions,
    rebuildEntries: () => Promise<NewEntry[]>,
    unfinishedEntries: (index: CatalogIndex) => Promise<NewEntry[]> = async () => [],
  ) {
    this.byteStore = byteStore;
    this.keys = keys;
    this.options = options;
    this.rebuildEntries = rebuildEntries;
    this.unfinishedEntries = unfinishedEntries;
  }

  /**
   * The catalog as this handle knows it: loaded on first use (waits), then refreshed in the
   * background when the last listing is older than `refreshMs` (does not wait).
   */
  async view(): Promise<CatalogIndex> {
    await this.loaded();
    if (Date.now() - this.checkedAt >= this.options.refreshMs && !this.refreshing) {
      this.refreshing = this.refreshIfChanged()
        .catch((error: unknown) =>
          this.options.onProblem(new PageIndexError("Refreshing the catalog failed", { cause: error })),
        )
        .finally(() => {
          this.refreshing = undefined;
        });
    }
    return this.index;
  }

  /** Waits for a listing started now: what every other handle had written before this call is seen. */
  async sync(): Promise<CatalogIndex> {
    await this.loaded();
    await this.refreshing;
    await this.refresh();
    return this.index;
  }

  /** Forgets the in-memory segments (the next read loads them again). */
  reset(): void {
    this.index = new CatalogIndex();
    this.loading = undefined;
    this.listedAt = 0;
    this.checkedAt = 0;
    this.marker = undefined;
    this.damaged.clear();
    this.local.clear();
  }

  /** Reads the change marker; lists the segments only when it changed (or a listing is overdue). */
  private async refreshIfChanged(): Promise<void> {
    const checked = Date.now();
    const marker = await this.readMarker();
    this.checkedAt = checked;
    const overdue = checked - this.listedAt >= LISTING_EVERY * this.options.refreshMs;
    if (marker !== this.marker || overdue) await this.refresh(marker);
  }

  private async readMarker(): Promise<string | null> {
    const [raw] = await this.byteStore.mget([this.keys.catalogChanged]);
    return raw === undefined ? null : decoder.decode(raw);
  }

  /** Gives the change marker a new value: after segments were written or deleted. */
  private async markChanged(): Promise<void> {
    await this.byteStore.mset([[this.keys.catalogChanged, encoder.encode(newVersionId())]]);
  }

  private loaded(): Promise<void> {
    if (!this.loading) {
      this.loading = this.load();
      this.loading.catch(() => {
        this.loading = undefined;
      });
    }
    return this.loading;
  }

  private async load(): Promise<void> {
    const [ready, writing] = await this.byteStore.mget([this.keys.catalogReady, this.keys.catalogWriting]);
    if (ready === undefined) {
      // No catalog yet: a new store, or one written before the catalog existed (heads, no segments).
      let hasHeads = false;
      for await (const _key of this.byteStore.yieldKeys(this.keys.headPrefix)) {
        hasHeads = true;
        break;
      }
      if (hasHeads) {
        await this.refresh();
        await this.rebuild();
        return;
      }
      await this.markReady();
    }
    await this.refresh();
    // A catalog just started has no segments by right; one that was ready must list some.
    await this.healDamage(ready !== undefined);
    // A write announced after the newest segment may have been killed before cataloging.
    const newest = this.index.segmentIds().sort().at(-1) ?? "";
    if (writing !== undefined && decoder.decode(writing) > newest) await this.catalogUnfinished();
  }

  /**
   * Writes the cards of documents a killed batch published without cataloging (its pending
   * markers outlived the head switch), so they are found on the next open rather than after the
   * cleanup sweep. A failure to write them is reported: they stay readable, and the sweep retries.
   */
  private async catalogUnfinished(): Promise<void> {
    try {
      const entries = await this.unfinishedEntries(this.index);
      if (entries.length === 0) return;
      const segment = Segment.fromEntries(newVersionId(), entries);
      await this.byteStore.mset([[this.keys.segment(segment.id), segment.encode()]]);
      this.index.apply([segment], []);
      await this.markChanged();
    } catch (error) {
      if (!(error instanceof PageIndexError)) throw error;
      this.options.onProblem(
        new PageIndexError(
          "Cataloging the documents of an unfinished write failed (they stay readable; `pageindex vacuum` catalogs them)",
          { cause: error },
        ),
      );
    }
  }

  /** Unreadable segments found by the listings so far (id → why). */
  damage(): ReadonlyMap<string, string> {
    return this.damaged;
  }

  /**
   * A damaged segment hides the documents it lists, and a catalog that lists no document while
   * heads exist (every segment deleted) would call the store empty: either way the cards of the
   * documents it misses are rebuilt from the trees, in memory only (a read never writes), and
   * the damage reported with the command that repairs it for good.
   */
  private async healDamage(wasReady: boolean): Promise<void> {
    let reason: string | undefined;
    if (this.damaged.size > 0) {
      reason = `${this.damaged.size} unreadable catalog segment(s)`;
    } else if (wasReady && this.index.segmentIds().length === 0) {
      for await (const _key of this.byteStore.yieldKeys(this.keys.headPrefix)) {
        reason = "the catalog lists no document while documents are stored (its segments are missing)";
        break;
      }
    }
    if (reason === undefined) return;
    const missing = (await this.rebuildEntries()).filter(
      (entry) => (this.index.entry(entry.docId)?.versionId ?? "") < entry.versionId,
    );
    if (missing.length > 0) {
      const segment = Segment.fromEntries(newVersionId(), missing);
      this.local.add(segment.id);
      this.index.apply([segment], []);
    }
    this.options.onProblem(
      new PageIndexError(
        `Damaged catalog: ${reason}; ${missing.length} document(s) it missed were read from their trees for this session. Run \`pageindex vacuum\` (PageIndexStore.vacuum) to rebuild the catalog from the trees and remove the damaged segments.`,
      ),
    );
  }

  private async markReady(): Promise<void> {
    await this.byteStore.mset([
      [this.keys.catalogReady, encoder.encode(JSON.stringify({ format: CATALOG_FORMAT }))],
    ]);
  }

  /**
   * Lists the segments and applies what changed since the last listing.
   * @param marker the change marker read just before (read now when not given).
   */
  async refresh(marker?: string | null): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const started = Date.now();
      const seen = attempt === 0 && marker !== undefined ? marker : await this.readMarker();
      const listed = new Set<string>();
      for await (const key of this.byteStore.yieldKeys(this.keys.segmentPrefix)) {
        const id = this.keys.parseSegment(key);
        if (id !== undefined) listed.add(id);
      }
      const known = new Set(this.index.segmentIds());
      const wanted = [...listed].filter((id) => !known.has(id)).sort();
      const added: Segment[] = [];
      let vanished = false;
      for (let i = 0; i < wanted.length; i += READ_BATCH) {
        const ids = wanted.slice(i, i + READ_BATCH);
        const values = await this.readSegments(ids);
        ids.forEach((id, j) => {
          const raw = values[j];
          if (raw === undefined) {
            vanished = true; // merged away since listed: its merge output is newer than the listing
            return;
          }
          try {
            if (raw instanceof PageIndexError) throw raw;
            added.push(Segment.decode(raw, this.keys.segment(id), id));
            this.damaged.delete(id);
          } catch (error) {
            if (!(error instanceof PageIndexError)) throw error;
            this.noteDamage(id, error);
          }
        });
      }
      const removed = [...known].filter((id) => !listed.has(id) && !this.local.has(id));
      for (const id of this.damaged.keys()) if (!listed.has(id)) this.damaged.delete(id);
      this.index.apply(added, removed);
      this.listedAt = started;
      this.checkedAt = started;
      this.marker = seen;
      if (!vanished) return;
    }
  }

  /**
   * Segment values in one read; when the byte store refuses one (a FIFO or directory in a
   * folder store, a Redis key of another type), key by key, so one bad segment costs only itself.
   */
  private async readSegments(
    ids: readonly string[],
  ): Promise<Array<Uint8Array | undefined | PageIndexError>> {
    const keys = ids.map((id) => this.keys.segment(id));
    try {
      return await this.byteStore.mget(keys);
    } catch (error) {
      if (!(error instanceof StoreCorruptionError)) throw error;
    }
    const values: Array<Uint8Array | undefined | PageIndexError> = [];
    for (const key of keys) {
      try {
        values.push((await this.byteStore.mget([key]))[0]);
      } catch (error) {
        if (!(error instanceof StoreCorruptionError)) throw error;
        values.push(error);
      }
    }
    return values;
  }

  /** Records an unreadable segment; reported once per handle, with the command that repairs it. */
  private noteDamage(id: string, error: PageIndexError): void {
    if (this.damaged.has(id)) return;
    const reason = error instanceof StoreCorruptionError ? error.reason : error.message;
    this.damaged.set(id, reason);
    this.options.onProblem(
      new PageIndexError(
        `Unreadable catalog segment "${this.keys.segment(id)}" (${reason}): the documents it lists are read from their trees instead. Run \`pageindex vacuum\` (PageIndexStore.vacuum) to rebuild the catalog and remove it.`,
        { cause: error },
      ),
    );
  }

  /**
   * Writes segments holding `entries` (one per `maxSegmentDocs`: a batch writer's many entries
   * make one segment, not one each), then merges a full tier if there is one.
   */
  async write(entries: readonly NewEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.loaded();
    for (let i = 0; i < entries.length; i += this.options.maxSegmentDocs) {
      const segment = Segment.fromEntries(newVersionId(), entries.slice(i, i + this.options.maxSegmentDocs));
      await this.byteStore.mset([[this.keys.segment(segment.id), segment.encode()]]);
      this.index.apply([segment], []);
    }
    await this.markChanged();
    await this.mergeFullTiers();
  }

  /** One merge pass at a time per handle: concurrent writes would otherwise merge the same tier twice. */
  private mergeFullTiers(): Promise<void> {
    const next = this.merging.then(() => this.mergePass());
    this.merging = next.catch(() => undefined);
    return next;
  }

  private async mergePass(): Promise<void> {
    for (let group = nextMerge(this.index.segmentList(), this.options); group; ) {
      const merged = mergeSegments(group);
      await this.byteStore.mset([[this.keys.segment(merged.id), merged.encode()]]);
      this.index.apply(
        [merged],
        group.map((s) => s.id),
      );
      // Inputs go only once the output is stored: a reader listing in between sees both (harmless).
      await this.byteStore.mdelete(group.map((s) => this.keys.segment(s.id)));
      await this.markChanged();
      group = nextMerge(this.index.segmentList(), this.options);
    }
  }

  /**
   * Rebuilds the catalog from the documents' heads, for a store written before it had one:
   * new segments first, then the old ones go. Entries written meanwhile by others keep winning
   * where they are newer.
   */
  async rebuild(): Promise<number> {
    const before = new Set(this.index.segmentIds());
    const entries = await this.rebuildEntries();
    const written: Segment[] = [];
    for (let i = 0; i < entries.length; i += this.options.maxSegmentDocs) {
      const segment = Segment.fromEntries(newVersionId(), entries.slice(i, i + this.options.maxSegmentDocs));
      await this.byteStore.mset([[this.keys.segment(segment.id), segment.encode()]]);
      written.push(segment);
    }
    await this.markReady();
    const damaged = [...this.damaged.keys()];
    await this.replace(written, [...before, ...damaged]);
    for (const id of damaged) this.damaged.delete(id);
    this.local.clear();
    this.listedAt = Date.now();
    return entries.length;
  }

  /**
   * Rewrites the catalog as the fewest segments holding only live cards the caller keeps
   * (tombstones and superseded entries dropped), after a fresh listing, then adds `extra`
   * entries (documents missing from it). For `vacuum`, when no other process should be writing.
   * @returns segments removed.
   */
  async compact(keepDoc: (entry: SegmentEntry) => boolean, extra: readonly NewEntry[]): Promise<number> {
    await this.sync();
    const before = this.index.segmentIds();
    const damaged = [...this.damaged.keys()];
    const segments = compactSegments(this.index, keepDoc, this.options.maxSegmentDocs);
    if (extra.length > 0) segments.push(Segment.fromEntries(newVersionId(), extra));
    for (const segment of segments) {
      await this.byteStore.mset([[this.keys.segment(segment.id), segment.encode()]]);
    }
    await this.replace(segments, [...before, ...damaged]);
    const removed = before.filter((id) => !this.local.has(id)).length + damaged.length;
    for (const id of damaged) this.damaged.delete(id);
    this.local.clear();
    return removed;
  }

  private async replace(added: Segment[], removed: string[]): Promise<void> {
    this.index.apply(added, removed);
    for (let i = 0; i < removed.length; i += READ_BATCH) {
      await this.byteStore.mdelete(removed.slice(i, i + READ_BATCH).map((id) => this.keys.segment(id)));
    }
    await this.markChanged();
  }
}
