import { BaseStore } from "@langchain/core/stores";

/** Wraps a byte store, recording every key read and optionally failing the n-th mset. */
export class WrappedStore extends BaseStore<string, Uint8Array> {
  lc_namespace = ["pageindex", "test"];
  readonly reads: string[] = [];
  /** The prefix of every `yieldKeys` call. */
  readonly listings: string[] = [];
  /** `mset` calls so far, not counting those of catalog keys only (see `failOnCatalogMset`). */
  msets = 0;
  /**
   * Throw on this mset call (1-based), simulating a writer that dies midway: every later call
   * fails too, so the dead writer cannot clean up after itself.
   */
  failOnMset: number | undefined;
  /** Throw an ENOSPC error on this mset call (1-based) only: a full disk; the process lives on. */
  diskFullOnMset: number | undefined;
  private dead = false;
  /** Catalog `mset` calls (segments, the ready marker) so far. */
  catalogMsets = 0;
  /** Throw on this catalog mset call (1-based): a writer dying after publishing, before cataloging. */
  failOnCatalogMset: number | undefined;
  /** Runs before each mget reaches the inner store (to interleave another writer). */
  beforeMget: ((keys: string[]) => Promise<void>) | undefined;

  constructor(readonly inner: BaseStore<string, Uint8Array>) {
    super();
  }

  private assertAlive(): void {
    if (this.dead) throw new Error("simulated crash: the writer is gone");
  }

  async mget(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    this.assertAlive();
    this.reads.push(...keys);
    await this.beforeMget?.(keys);
    return this.inner.mget(keys);
  }

  async mset(pairs: [string, Uint8Array][]): Promise<void> {
    this.assertAlive();
    if (pairs.length > 0 && pairs.every(([key]) => key.includes(".catalog."))) {
      this.catalogMsets += 1;
      if (this.failOnCatalogMset === this.catalogMsets)
        throw new Error("simulated crash during catalog mset");
      return this.inner.mset(pairs);
    }
    this.msets += 1;
    if (this.failOnMset === this.msets) {
      this.dead = true;
      throw new Error("simulated crash during mset");
    }
    if (this.diskFullOnMset === this.msets) {
      // Half the batch lands before the disk fills up, as concurrent file writes would.
      await this.inner.mset(pairs.slice(0, Math.floor(pairs.length / 2)));
      throw Object.assign(new Error("ENOSPC: no space left on device, write"), { code: "ENOSPC" });
    }
    return this.inner.mset(pairs);
  }

  async mdelete(keys: string[]): Promise<void> {
    this.assertAlive();
    return this.inner.mdelete(keys);
  }

  yieldKeys(prefix?: string): AsyncGenerator<string> {
    this.listings.push(prefix ?? "");
    return this.inner.yieldKeys(prefix) as AsyncGenerator<string>;
  }
}

/** All keys of a byte store under a prefix, sorted. */
export async function allKeys(store: BaseStore<string, Uint8Array>, prefix = ""): Promise<string[]> {
  const keys: string[] = [];
  for await (const key of store.yieldKeys(prefix)) keys.push(String(key));
  return keys.sort();
}

/**
 * Emulates a byte store on a case-insensitive disk (macOS, Windows): keys differing only in
 * case name the same value; keys are listed as lower case.
 */
export class CaseFoldingStore extends BaseStore<string, Uint8Array> {
  lc_namespace = ["pageindex", "test"];

  constructor(readonly inner: BaseStore<string, Uint8Array>) {
    super();
  }

  mget(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    return this.inner.mget(keys.map((k) => k.toLowerCase()));
  }

  mset(pairs: [string, Uint8Array][]): Promise<void> {
    return this.inner.mset(pairs.map(([k, v]): [string, Uint8Array] => [k.toLowerCase(), v]));
  }

  mdelete(keys: string[]): Promise<void> {
    return this.inner.mdelete(keys.map((k) => k.toLowerCase()));
  }

  yieldKeys(prefix = ""): AsyncGenerator<string> {
    return this.inner.yieldKeys(prefix.toLowerCase()) as AsyncGenerator<string>;
  }
}
