import { BaseStore, InMemoryStore } from "@langchain/core/stores";

/**
 * Wraps a byte store and records what it is asked: the keys read (in order), the prefixes listed
 * and the keys those listings returned, and writes (optionally slowed down, so overlapping writes
 * show). Tests and benchmarks count stored-key work with it.
 */
export class CountingByteStore extends BaseStore<string, Uint8Array> {
  lc_namespace = ["pageindex", "test"];
  /** Every key `mget` was asked for, in order. */
  readKeys: string[] = [];
  /** The prefix of every `yieldKeys` call ("" for none). */
  listings: string[] = [];
  /** Keys the listings returned. */
  keysListed = 0;
  writes = 0;
  /** Most `mset` calls in flight at once. */
  maxConcurrentWrites = 0;
  private writing = 0;

  constructor(
    readonly inner: BaseStore<string, Uint8Array> = new InMemoryStore<Uint8Array>(),
    /** Delay of each write, so overlapping writes show. */
    readonly writeDelayMs = 0,
  ) {
    super();
  }

  /** Zeroes the counters. */
  reset(): void {
    this.readKeys = [];
    this.listings = [];
    this.keysListed = 0;
    this.writes = 0;
    this.maxConcurrentWrites = 0;
  }

  /** How many keys were read. */
  get keysRead(): number {
    return this.readKeys.length;
  }

  mget(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    this.readKeys.push(...keys);
    return this.inner.mget(keys);
  }

  async mset(pairs: [string, Uint8Array][]): Promise<void> {
    this.writes += 1;
    this.writing += 1;
    this.maxConcurrentWrites = Math.max(this.maxConcurrentWrites, this.writing);
    try {
      if (this.writeDelayMs > 0) await new Promise((done) => setTimeout(done, this.writeDelayMs));
      await this.inner.mset(pairs);
    } finally {
      this.writing -= 1;
    }
  }

  mdelete(keys: string[]): Promise<void> {
    return this.inner.mdelete(keys);
  }

  async *yieldKeys(prefix?: string): AsyncGenerator<string> {
    this.listings.push(prefix ?? "");
    for await (const key of this.inner.yieldKeys(prefix)) {
      this.keysListed += 1;
      yield String(key);
    }
  }
}
