import type { BaseStore } from "@langchain/core/stores";
import {
  DocumentNotFoundError,
  PageIndexError,
  type SkeletonNode,
  type TreeDocument,
  type TreeSkeleton,
} from "pageindex-core";
import type { CatalogIndex } from "../catalog/index.js";
import { DEFAULT_MERGE_POLICY } from "../catalog/merge.js";
import type { NewEntry } from "../catalog/segment.js";
import { StoreCatalog } from "../catalog/store-catalog.js";
import { LibrarySync } from "../library/sync.js";
import { decodeHead, decodeSkeleton, decodeTexts, type HeadRecord, type VerifyMode } from "./codec.js";
import { DerivedArtifacts, registeredDerivedArtifacts } from "./derived.js";
import { StoreCorruptionError, StoreReadConflictError } from "./errors.js";
import { deepFreeze } from "./freeze.js";
import { KeyLayout, type ParsedRetiredKey } from "./keys.js";
import { type PageIndexStoreOptions, warnProblem } from "./options.js";
import { isReadOnlyStore, MemoryOverlayStore } from "./overlay-byte-store.js";

/** A published version as held in memory. */
export interface LoadedVersion {
  docId: string;
  versionId: string;
  skeleton: TreeSkeleton;
  chunkStarts: number[];
  chunkSha256: string[];
  positions: Map<string, number>;
  /**
   * Derived artifacts of this version read with its skeleton (the names this handle reads, see
   * `StoreState.noteDerivedRead`), each handed out once by `getDerived` for that skeleton and
   * dropped at the document's next head read or artifact write: a reader meeting a document for
   * the first time gets both in one round trip instead of two in sequence, no staler than the
   * skeleton it holds.
   */
  prefetched?: Map<string, Uint8Array>;
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
};
/** Keys per read or delete call when many are handled at once. */
export const READ_BATCH = 500;
/** A read that finds a version deleted under it retries with the new head this many times. */
const READ_ATTEMPTS = 5;

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

/** A published version to cache: frozen, so one caller's edit cannot corrupt later reads. */
export function loaded(
  docId: string,
  versionId: string,
  skeleton: TreeSkeleton,
  chunkStarts: number[],
  chunkSha256: string[],
): LoadedVersion {
  const positions = new Map(skeleton.nodes.map((node, i) => [node.nodeId, i]));
  return { docId, versionId, skeleton: deepFreeze(skeleton), chunkStarts, chunkSha256, positions };
}

/**
 * What the writer, reader and janitor of one {@link PageIndexStore} share: the byte store and key
 * layout, the settings, the skeleton cache, the catalog, the library index, and the reads of
 * heads, skeletons and texts every part needs (one consistent version per read).
 */
export class StoreState {
  readonly byteStore: BaseStore<string, Uint8Array>;
  readonly keys: KeyLayout;
  readonly chunkChars: number;
  readonly orphanGraceMs: number;
  readonly supersededGraceMs: number;
  /** Versions this handle superseded, oldest first, deleted by its writes once their grace ends. */
  readonly retiring: Array<ParsedRetiredKey & { key: string }> = [];
  readonly cacheSize: number;
  readonly writeBatchSize: number;
  readonly cleanupOnWrite: boolean;
  readonly unfinishedWritesPerWrite: number;
  /** When this handle next looks for unfinished writes (see `afterWrite`). */
  nextSweepAt = 0;
  readonly verifyOnRead: VerifyMode;
  readonly onProblem: (problem: Error) => void;
  readonly cache = new Map<string, LoadedVersion>();
  readonly derived: DerivedArtifacts;
  readonly catalog: StoreCatalog;
  /** Derived artifact names this handle read, wrote or was given (see `derivedNames`). */
  private readonly handleDerivedNames: Set<string>;
  /** Derived artifact names this handle's readers asked for: read with each new skeleton. */
  private readonly derivedRead = new Set<string>();
  /** The library index kept in step with the heads, when the store has one. */
  readonly library: LibrarySync | undefined;

  /**
   * @param catalogEntries `all`: every stored document's catalog entry (to build a missing
   *   catalog); `unfinished`: those of published versions a killed writer left uncataloged.
   */
  constructor(
    byteStore: BaseStore<string, Uint8Array>,
    options: PageIndexStoreOptions,
    catalogEntries: {
      all: () => Promise<NewEntry[]>;
      unfinished: (index: CatalogIndex) => Promise<NewEntry[]>;
    },
  ) {
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
    this.verifyOnRead = options.verifyOnRead ?? "checksum";
    this.onProblem = options.onProblem ?? warnProblem;
    this.handleDerivedNames = new Set(options.derivedNames ?? []);
    this.library = options.library ? new LibrarySync(options.library, this.onProblem) : undefined;
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
      catalogEntries.all,
      catalogEntries.unfinished,
    );
  }

  /** Remembers a derived artifact name this handle used, so its values go with superseded versions. */
  noteDerivedName(name: string): void {
    this.handleDerivedNames.add(name);
  }

  /** Remembers a derived artifact name a reader asked for (see `LoadedVersion.prefetched`). */
  noteDerivedRead(name: string): void {
    this.derivedRead.add(name);
  }

  /** Derived artifact names removed with a superseded version: registered ones and this handle's. */
  derivedNames(): Set<string> {
    return new Set([...registeredDerivedArtifacts(), ...this.handleDerivedNames]);
  }

  describe(): string {
    return `the store (namespace "${this.keys.namespace}")`;
  }

  /** `byteStore.mget` for keys of one document: a byte store's corruption error names it. */
  async mgetOf(docId: string, keys: string[]): Promise<(Uint8Array | undefined)[]> {
    try {
      return await this.byteStore.mget(keys);
    } catch (error) {
      throw naming(error, docId);
    }
  }

  /** One value, or `undefined` when absent or unreadable by the byte store. */
  async readQuietly(docId: string, key: string): Promise<Uint8Array | undefined> {
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
  async readHeadValues(docIds: string[]): Promise<Array<Uint8Array | undefined | PageIndexError>> {
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

  async readHead(docId: string): Promise<HeadRecord | undefined> {
    const key = this.keys.head(docId);
    const [raw] = await this.mgetOf(docId, [key]);
    return raw === undefined ? undefined : decodeHead(raw, key, docId);
  }

  /** The head, or `undefined` when absent or unreadable (for writers, who replace it anyway). */
  async readHeadQuietly(docId: string): Promise<HeadRecord | undefined> {
    try {
      return await this.readHead(docId);
    } catch (error) {
      if (error instanceof PageIndexError) return undefined;
      throw error;
    }
  }

  async readAllHeads(): Promise<{
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

  remember(version: LoadedVersion): void {
    this.cache.delete(version.docId);
    if (this.cacheSize === 0) return;
    this.cache.set(version.docId, version);
    while (this.cache.size > this.cacheSize) {
      this.cache.delete(this.cache.keys().next().value as string);
    }
  }

  /** The published version's skeleton: from the cache when the head still points at it. */
  async loadVersion(head: HeadRecord): Promise<LoadedVersion | undefined> {
    const cached = this.cache.get(head.docId);
    if (cached?.versionId === head.versionId) {
      // Artifacts read with the skeleton are as fresh as that read: a later one starts over.
      cached.prefetched = undefined;
      this.remember(cached);
      return cached;
    }
    const key = this.keys.skeleton(head.docId, head.versionId);
    const names = [...this.derivedRead];
    const derivedKeys = names.map((name) => this.derived.key(head.docId, head.versionId, name));
    const [raw, ...derived] = await this.mgetOf(head.docId, [key, ...derivedKeys]);
    if (raw === undefined) return undefined;
    const record = decodeSkeleton(raw, key, head, this.verifyOnRead);
    const version = loaded(
      head.docId,
      head.versionId,
      record.skeleton,
      record.chunkStarts,
      record.chunkSha256,
    );
    const prefetched = new Map<string, Uint8Array>();
    derived.forEach((value, i) => {
      if (value !== undefined) prefetched.set(names[i] as string, value);
    });
    if (prefetched.size > 0) version.prefetched = prefetched;
    this.remember(version);
    return version;
  }

  async requireHead(docId: string): Promise<HeadRecord> {
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
  async withVersion<T>(docId: string, read: (version: LoadedVersion) => Promise<T | Missing>): Promise<T> {
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

  currentVersion(docId: string): Promise<LoadedVersion> {
    return this.withVersion(docId, async (version) => version);
  }

  /** Texts of `nodeIds` (all nodes when `undefined`) from one consistent version. */
  async readTexts(
    docId: string,
    nodeIds: readonly string[] | undefined,
  ): Promise<{ version: LoadedVersion; texts: Map<string, string> }> {
    const guessed = await this.readTextsOfCached(docId, nodeIds);
    if (guessed) return guessed;
    return this.withVersion(docId, async (version) => {
      const { wanted, chunks, keys } = this.textKeys(version, nodeIds);
      const texts = new Map<string, string>();
      for (let i = 0; i < chunks.length; i += READ_BATCH) {
        const values = await this.mgetOf(docId, keys.slice(i, i + READ_BATCH));
        const missing = this.decodeChunks(version, wanted, chunks.slice(i), keys.slice(i), values, texts);
        if (missing) return missing;
      }
      return { version, texts };
    });
  }

  /**
   * The texts read with the head, in one read, on the guess that the head still names the cached
   * version (versions never change, so its keys hold its texts); `undefined` when the guess was
   * wrong or anything is amiss, for the careful path to read (and report) again.
   */
  private async readTextsOfCached(
    docId: string,
    nodeIds: readonly string[] | undefined,
  ): Promise<{ version: LoadedVersion; texts: Map<string, string> } | undefined> {
    const version = this.cache.get(docId);
    if (!version) return undefined;
    const { wanted, chunks, keys } = this.textKeys(version, nodeIds);
    if (keys.length >= READ_BATCH) return undefined;
    const headKey = this.keys.head(docId);
    let values: (Uint8Array | undefined)[];
    let head: HeadRecord;
    try {
      values = await this.mgetOf(docId, [headKey, ...keys]);
      const raw = values[0];
      if (raw === undefined) return undefined;
      head = decodeHead(raw, headKey, docId);
    } catch (error) {
      if (error instanceof StoreCorruptionError) return undefined;
      throw error;
    }
    if (head.versionId !== version.versionId) return undefined;
    const texts = new Map<string, string>();
    if (this.decodeChunks(version, wanted, chunks, keys, values.slice(1), texts)) return undefined;
    await this.loadVersion(head); // as the careful path would: the version is the most recently used
    return { version, texts };
  }

  /** Which nodes of a version are wanted, the chunks holding them and those chunks' keys. */
  private textKeys(
    version: LoadedVersion,
    nodeIds: readonly string[] | undefined,
  ): { wanted: Set<number>; chunks: number[]; keys: string[] } {
    const { docId, skeleton, chunkStarts, positions, versionId } = version;
    const wanted = new Set<number>(
      nodeIds === undefined
        ? skeleton.nodes.keys()
        : nodeIds.flatMap((id) => {
            const position = positions.get(id);
            return position === undefined ? [] : [position];
          }),
    );
    const chunks = [...new Set([...wanted].map((i) => chunkOf(chunkStarts, i)))].sort((a, b) => a - b);
    return { wanted, chunks, keys: chunks.map((chunk) => this.keys.text(docId, versionId, chunk)) };
  }

  /** Decodes read chunks into `texts` (the wanted nodes'); the first absent one as `Missing`. */
  private decodeChunks(
    version: LoadedVersion,
    wanted: Set<number>,
    chunks: readonly number[],
    keys: readonly string[],
    values: readonly (Uint8Array | undefined)[],
    texts: Map<string, string>,
  ): Missing | undefined {
    const { docId, skeleton, chunkStarts, chunkSha256, versionId } = version;
    for (let j = 0; j < values.length; j += 1) {
      const chunk = chunks[j] as number;
      const key = keys[j] as string;
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
    return undefined;
  }

  /** A reservation's holder; an unreadable one counts as an unknown owner reserved long ago. */
  async readClaim(docId: string, key: string): Promise<{ owner: string; at: number } | undefined> {
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

  /** The whole tree, texts included. @throws {DocumentNotFoundError} @throws {StoreCorruptionError} */
  async readTree(docId: string): Promise<TreeDocument> {
    return (await this.readTreeVersion(docId)).tree;
  }

  /** The whole tree of the published version, and that version's id (one consistent read). */
  async readTreeVersion(docId: string): Promise<{ tree: TreeDocument; versionId: string }> {
    const { version, texts } = await this.readTexts(this.keys.assertDocId(docId), undefined);
    const copy = structuredClone(version.skeleton); // the caller's to edit, unlike the cached skeleton
    const nodes = copy.nodes.map((node) => ({ ...node, text: texts.get(node.nodeId) as string }));
    return { tree: { ...copy, nodes }, versionId: version.versionId };
  }
}
