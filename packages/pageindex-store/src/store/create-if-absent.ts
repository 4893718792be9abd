import type { BaseStore } from "@langchain/core/stores";

/**
 * A byte store that can create a key only when it is absent, atomically across processes:
 * {@link FileByteStore} (a hard link that fails when the name exists) and {@link RedisByteStore}
 * (`SET NX`) have it.
 */
export interface CreateIfAbsentStore {
  /** Stores `value` under `key` unless the key exists. @returns whether this call created it. */
  createIfAbsent(key: string, value: Uint8Array): Promise<boolean>;
}

/** Whether the byte store has an atomic create-if-absent (see {@link CreateIfAbsentStore}). */
export function hasCreateIfAbsent(store: object): store is CreateIfAbsentStore {
  return typeof (store as Partial<CreateIfAbsentStore>).createIfAbsent === "function";
}

/** The tail of each byte store's chain of create-if-absent calls in this process. */
const queues = new WeakMap<object, Promise<unknown>>();

/**
 * Creates `key` unless it exists: atomically across processes when the byte store supports it;
 * otherwise (InMemoryStore, LangChain's LocalFileStore, any other byte store) read-then-write
 * serialised within this process only, which is exact for a store only this process uses.
 * @returns whether this call created the key.
 */
export async function createIfAbsent(
  store: BaseStore<string, Uint8Array>,
  key: string,
  value: Uint8Array,
): Promise<boolean> {
  if (hasCreateIfAbsent(store)) return store.createIfAbsent(key, value);
  const run = async () => {
    const [existing] = await store.mget([key]);
    if (existing !== undefined) return false;
    await store.mset([[key, value]]);
    return true;
  };
  const next = (queues.get(store) ?? Promise.resolve()).then(run, run);
  queues.set(
    store,
    next.catch(() => undefined),
  );
  return next;
}
