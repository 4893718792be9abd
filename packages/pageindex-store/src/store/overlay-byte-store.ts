import { BaseStore } from "@langchain/core/stores";

/** A byte store that refuses writes, e.g. a {@link FileByteStore} opened with `readOnly`. */
export function isReadOnlyStore(store: object): boolean {
  return (store as { readOnly?: unknown }).readOnly === true;
}

/**
 * A read-only byte store seen through an in-memory layer that takes this process's writes: what
 * the store derives for itself on reading (the corpus catalog of a store that has none yet) works
 * in memory instead of failing, and nothing reaches the underlying store.
 */
export class MemoryOverlayStore extends BaseStore<string, Uint8Array> {
  lc_namespace = ["pageindex", "storage", "overlay"];
  /** Values written here, or `undefined` for keys deleted here. */
  private readonly layer = new Map<string, Uint8Array | undefined>();

  constructor(private readonly inner: BaseStore<string, Uint8Array>) {
    super();
  }

  async mget(keys: string[]): Promise<(Uint8Array | undefined)[]> {
    const below = keys.filter((key) => !this.layer.has(key));
    const values = below.length > 0 ? await this.inner.mget(below) : [];
    let next = 0;
    return keys.map((key) => (this.layer.has(key) ? this.layer.get(key) : values[next++]));
  }

  async mset(pairs: [string, Uint8Array][]): Promise<void> {
    for (const [key, value] of pairs) this.layer.set(key, value);
  }

  async mdelete(keys: string[]): Promise<void> {
    for (const key of keys) this.layer.set(key, undefined);
  }

  async *yieldKeys(prefix = ""): AsyncGenerator<string> {
    for await (const key of this.inner.yieldKeys(prefix)) {
      if (!this.layer.has(key)) yield key;
    }
    for (const [key, value] of this.layer) {
      if (value !== undefined && key.startsWith(prefix)) yield key;
    }
  }
}
