import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { BaseStore } from "@langchain/core/stores";
import {
  FileByteStore,
  PageIndexStore,
  type PageIndexStoreOptions,
  RedisByteStore,
} from "../../src/index.js";
import { REDIS_URL, testPrefix } from "./redis.js";

/** A shared location that writer processes and the test both open. */
export interface SharedLocation {
  /** Fields of a writer job that point it at this location. */
  job: { backend: "file" | "redis"; location: string; prefix?: string };
  /** A fresh reader, as a new process would open it (nothing cached). */
  open(options?: PageIndexStoreOptions): Promise<PageIndexStore>;
  /** The raw byte store, for counting keys. */
  byteStore(): Promise<BaseStore<string, Uint8Array>>;
  cleanup(): Promise<void>;
}

export async function fileLocation(): Promise<SharedLocation> {
  const dir = await mkdtemp(join(tmpdir(), "pageindex-proc-"));
  return {
    job: { backend: "file", location: dir },
    open: async (options = {}) => new PageIndexStore(await FileByteStore.fromPath(dir), options),
    byteStore: () => FileByteStore.fromPath(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

export async function redisLocation(label: string): Promise<SharedLocation> {
  const prefix = testPrefix(label);
  const handles: RedisByteStore[] = [];
  const connect = async () => {
    const store = await RedisByteStore.fromUrl(REDIS_URL, { prefix });
    handles.push(store);
    return store;
  };
  return {
    job: { backend: "redis", location: REDIS_URL, prefix },
    open: async (options = {}) => new PageIndexStore(await connect(), options),
    byteStore: connect,
    cleanup: async () => {
      const store = await connect();
      const keys: string[] = [];
      for await (const key of store.yieldKeys()) keys.push(key);
      await store.mdelete(keys);
      await Promise.all(handles.map((h) => h.close()));
    },
  };
}
