import type { BaseStore } from "@langchain/core/stores";
import { PageIndexError } from "../errors.js";
import type { KeyLayout } from "../store/keys.js";
import { newVersionId } from "../store/keys.js";
import { CatalogIndex } from "./index.js";
import { compactSegments, type MergePolicy, mergeSegments, nextMerge } from "./merge.js";
import { CATALOG_FORMAT, type NewEntry, Segment, type SegmentEntry } from "./segment.js";

const READ_BATCH = 64;
const encoder = new TextEncoder();

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
 * exist are harmless: the latest entry of a document wins). Readers keep decoded segments in
 * memory and list the segment prefix at most every `refreshMs`, in the background once loaded
 * (stale-while-revalidate): only a process's first catalog read waits for a listing.
 */
export class StoreCatalog {
  private readonly byteStore: BaseStore<string, Uint8Array>;
  private readonly keys: KeyLayout;
  private readonly options: StoreCatalogOptions;
  private readonly rebuildEntries: () => Promise<NewEntry[]>;
  private index = new CatalogIndex();
  private loading: Promise<void> | undefined;
  private refreshing: Promise<void> | undefined;
  private listedAt = 0;
  private merging: Promise<void> = Promise.resolve();

  /**
   * @param rebuildEntries the entries of every stored document, read from the heads: used once
   *   when the store was written before it had a catalog (or by `rebuild`).
   */
  constructor(
    byteStore: BaseStore<string, Uint8Array>,
    keys: KeyLayout,
    options: StoreCatalogOptions,
    rebuildEntries: () => Promise<NewEntry[]>,
  ) {
    this.byteStore = byteStore;
    this.keys = keys;
    this.options = options;
    this.rebuildEntries = rebuildEntries;
  }

  /**
   * The catalog as this handle knows it: loaded on first use (waits), then refreshed in the
   * background when the last listing is older than `refreshMs` (does not wait).
   */
  async view(): Promise<CatalogIndex> {
    await this.loaded();
    if (Date.now() - this.listedAt >= this.options.refreshMs && !this.refreshing) {
      this.refreshing = this.refresh()
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
    const [ready] = await this.byteStore.mget([this.keys.catalogReady]);
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
  }

  private async markReady(): Promise<void> {
    await this.byteStore.mset([
      [this.keys.catalogReady, encoder.encode(JSON.stringify({ format: CATALOG_FORMAT }))],
    ]);
  }

  /** Lists the segments and applies what changed since the last listing. */
  async refresh(): Promise<void> {
    for (let attempt = 0; attempt < 2; attempt += 1) {
      const started = Date.now();
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
        const values = await this.byteStore.mget(ids.map((id) => this.keys.segment(id)));
        ids.forEach((id, j) => {
          const raw = values[j];
          if (raw === undefined) {
            vanished = true; // merged away since listed: its merge output is newer than the listing
            return;
          }
          try {
            added.push(Segment.decode(raw, this.keys.segment(id), id));
          } catch (error) {
            this.options.onProblem(error as Error);
          }
        });
      }
      const removed = [...known].filter((id) => !listed.has(id));
      this.index.apply(added, removed);
      this.listedAt = started;
      if (!vanished) return;
    }
  }

  /** Writes a segment holding `entries`, then merges a full tier if there is one. */
  async write(entries: readonly NewEntry[]): Promise<void> {
    if (entries.length === 0) return;
    await this.loaded();
    const segment = Segment.fromEntries(newVersionId(), entries);
    await this.byteStore.mset([[this.keys.segment(segment.id), segment.encode()]]);
    this.index.apply([segment], []);
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
    await this.replace(written, [...before]);
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
    const segments = compactSegments(this.index, keepDoc, this.options.maxSegmentDocs);
    if (extra.length > 0) segments.push(Segment.fromEntries(newVersionId(), extra));
    for (const segment of segments) {
      await this.byteStore.mset([[this.keys.segment(segment.id), segment.encode()]]);
    }
    await this.replace(segments, before);
    return before.length;
  }

  private async replace(added: Segment[], removed: string[]): Promise<void> {
    this.index.apply(added, removed);
    for (let i = 0; i < removed.length; i += READ_BATCH) {
      await this.byteStore.mdelete(removed.slice(i, i + READ_BATCH).map((id) => this.keys.segment(id)));
    }
  }
}
