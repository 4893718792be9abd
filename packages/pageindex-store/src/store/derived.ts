import type { BaseStore } from "@langchain/core/stores";
import { InvalidIdError } from "pageindex-core";
import { MAX_DERIVED_NAME_LENGTH, versionTime } from "./keys.js";

/** Keys per `mdelete` call when removing orphans across documents. */
const DELETE_BATCH = 500;

/** Names of derived artifacts: short (keys must fit file names), dot-free, within the key alphabet. */
const NAME_PATTERN = new RegExp(`^[A-Za-z0-9_-]{1,${MAX_DERIVED_NAME_LENGTH}}$`);

/** Checks the name of a derived artifact. @throws {InvalidIdError} */
export function assertDerivedName(name: string): string {
  if (!NAME_PATTERN.test(name)) {
    throw new InvalidIdError(
      `Invalid derived artifact name "${name}": use 1-${MAX_DERIVED_NAME_LENGTH} characters from A-Z a-z 0-9 _ - (no dots)`,
    );
  }
  return name;
}

/**
 * Values derived from one stored version of a document (e.g. a search index built from its
 * texts): computed by a reader once, kept next to the version and removed with it, so a fresh
 * process reads one key instead of every text chunk.
 *
 * Keys: `<ns>.derived.<docId>.<versionId>.<name>`. They live under their own prefix, so listing
 * documents never meets them; the owner store removes the artifacts of superseded or deleted
 * versions after each write, and {@link PageIndexStore.vacuum} those no write could (a delete
 * over an unreadable head, a reader's `put` landing after the write that superseded it).
 *
 * An artifact is an optimisation, never the source of truth: a writer may publish a new
 * version between a reader's reads and its `put`, so values should carry their own check (e.g.
 * a fingerprint of the skeleton they were built from) and be rebuilt when it does not match.
 */
export class DerivedArtifacts {
  private readonly byteStore: BaseStore<string, Uint8Array>;
  private readonly prefix: string;
  private readonly keyPattern: RegExp;

  /** @param namespace an already validated store namespace (dot-free). */
  constructor(byteStore: BaseStore<string, Uint8Array>, namespace: string) {
    this.byteStore = byteStore;
    this.prefix = `${namespace}.derived.`;
    this.keyPattern = new RegExp(
      `^${namespace}\\.derived\\.(.+)\\.([0-9a-z]{9}-[0-9a-f]{8})\\.([A-Za-z0-9_-]{1,${MAX_DERIVED_NAME_LENGTH}})$`,
    );
  }

  /** The key of one artifact of one version. */
  key(docId: string, versionId: string, name: string): string {
    return `${this.prefix}${docId}.${versionId}.${assertDerivedName(name)}`;
  }

  /** The artifact's bytes, or `undefined` when absent. */
  async get(docId: string, versionId: string, name: string): Promise<Uint8Array | undefined> {
    const [value] = await this.byteStore.mget([this.key(docId, versionId, name)]);
    return value;
  }

  /** Stores (or replaces) an artifact. */
  async put(docId: string, versionId: string, name: string, value: Uint8Array): Promise<void> {
    await this.byteStore.mset([[this.key(docId, versionId, name), value]]);
  }

  /**
   * Deletes the artifacts of a document's versions other than `liveVersionId` (all of them
   * when it is `undefined`, e.g. after a delete). Document ids may contain dots: a key is parsed
   * from the right, so another document whose id extends this one is never touched.
   * @returns the number of keys deleted.
   */
  async removeStale(docId: string, liveVersionId: string | undefined): Promise<number> {
    const stale: string[] = [];
    for await (const key of this.byteStore.yieldKeys(`${this.prefix}${docId}.`)) {
      const match = this.keyPattern.exec(key);
      if (!match || match[1] !== docId || match[2] === liveVersionId) continue;
      stale.push(key);
    }
    if (stale.length > 0) await this.byteStore.mdelete(stale);
    return stale.length;
  }

  /**
   * Deletes, across all documents, the artifacts of versions that are not live (`live`: docId →
   * published version) and were created before `cutoff` (ms since the epoch; a younger version
   * may have been published after `live` was read). Documents in `unreadable` are left alone.
   * @returns the number of keys deleted.
   */
  async removeOrphans(
    live: ReadonlyMap<string, string>,
    unreadable: ReadonlySet<string>,
    cutoff: number,
  ): Promise<number> {
    const stale: string[] = [];
    for await (const key of this.byteStore.yieldKeys(this.prefix)) {
      const match = this.keyPattern.exec(key);
      if (!match) continue;
      const [, docId, versionId] = match as unknown as [string, string, string];
      if (unreadable.has(docId) || live.get(docId) === versionId) continue;
      if ((versionTime(versionId) ?? Number.POSITIVE_INFINITY) <= cutoff) stale.push(key);
    }
    for (let i = 0; i < stale.length; i += DELETE_BATCH) {
      await this.byteStore.mdelete(stale.slice(i, i + DELETE_BATCH));
    }
    return stale.length;
  }
}

/** Artifact names registered by the packages that own them (see {@link registerDerivedArtifact}). */
const registered = new Set<string>();

/**
 * Registers the name of a derived artifact (see `PageIndexStore.putDerived`) so that every store
 * handle of this process removes it with a superseded or deleted version, also a handle that
 * never read or wrote it (a writer that only indexes). The package that owns an artifact
 * registers it when it is loaded; the store names none itself. `vacuum` removes unregistered
 * ones too.
 * @throws {InvalidIdError} for a bad name.
 * @example
 * ```ts
 * registerDerivedArtifact("my-index-v2");
 * ```
 */
export function registerDerivedArtifact(name: string): void {
  registered.add(assertDerivedName(name));
}

/** The names registered so far. */
export function registeredDerivedArtifacts(): ReadonlySet<string> {
  return registered;
}
