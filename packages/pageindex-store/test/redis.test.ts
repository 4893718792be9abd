import { createClient } from "redis";
import { describe, expect, it } from "vitest";
import { PageIndexError, PageIndexStore, RedisByteStore, type RedisCommandClient } from "../src/index.js";
import { REDIS_URL, redisReachable, testPrefix } from "./helpers/redis.js";
import { makeTree } from "./helpers/trees.js";
import { describeStoreBehaviour } from "./store.behaviour.js";

const available = await redisReachable("redis.test.ts");

it("RedisByteStore.fromUrl fails fast with a clear error, password hidden, when no server answers", async () => {
  const error = await RedisByteStore.fromUrl("redis://:hunter2@127.0.0.1:1", {
    connectTimeoutMs: 2000,
  }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(PageIndexError);
  expect((error as Error).message).toMatch(/Cannot connect to Redis at redis:\/\/:\*\*\*@127\.0\.0\.1:1/);
  expect((error as Error).message).not.toContain("hunter2");
});

describeStoreBehaviour(
  "RedisByteStore (real redis-server)",
  async () => {
    const prefix = testPrefix("behaviour");
    const byteStore = await RedisByteStore.fromUrl(REDIS_URL, { prefix });
    const handles = [byteStore];
    return {
      byteStore,
      reopen: async () => {
        const other = await RedisByteStore.fromUrl(REDIS_URL, { prefix });
        handles.push(other);
        return other;
      },
      cleanup: async () => {
        const keys: string[] = [];
        for await (const key of byteStore.yieldKeys()) keys.push(key);
        await byteStore.mdelete(keys);
        await Promise.all(handles.map((h) => h.close()));
      },
    };
  },
  !available,
);

describe.skipIf(!available)("RedisByteStore", () => {
  it("round-trips binary values, scans by prefix literally and stays inside its prefix", async () => {
    const prefix = testPrefix("glob*?[x]");
    const store = await RedisByteStore.fromUrl(REDIS_URL, { prefix, batchSize: 3 });
    const neighbour = await RedisByteStore.fromUrl(REDIS_URL, { prefix: `${prefix}x` });
    try {
      const pairs = Array.from({ length: 10 }, (_, i): [string, Uint8Array] => [
        `k.${i}`,
        new Uint8Array([i, 0, 255]),
      ]);
      await store.mset(pairs);
      await neighbour.mset([["k.99", new Uint8Array([1])]]);
      const values = await store.mget([...pairs.map(([k]) => k), "missing"]);
      expect(values.slice(0, 10).map((v) => [...(v as Uint8Array)])).toEqual(pairs.map(([, v]) => [...v]));
      expect(values[10]).toBeUndefined();
      const keys: string[] = [];
      for await (const key of store.yieldKeys("k.")) keys.push(key);
      expect(keys.sort()).toEqual(pairs.map(([k]) => k).sort());
      await store.mdelete(keys);
      expect(await store.mget(["k.1"])).toEqual([undefined]);
    } finally {
      await neighbour.mdelete(["k.99"]);
      await store.close();
      await neighbour.close();
    }
  });

  it("PageIndexStore.fromRedis works with a URL or with the caller's connected client", async () => {
    const prefix = testPrefix("from");
    const tree = makeTree("doc", { nodes: 25 });
    const byUrl = await PageIndexStore.fromRedis(REDIS_URL, { prefix });
    await byUrl.addTree(tree);
    await byUrl.close();

    const client = createClient({ url: REDIS_URL });
    await expect(
      PageIndexStore.fromRedis(client as unknown as RedisCommandClient, { prefix }),
    ).rejects.toBeInstanceOf(PageIndexError);
    await client.connect();
    try {
      const byClient = await PageIndexStore.fromRedis(client, { prefix });
      expect(await byClient.getTree("doc")).toEqual(tree);
      expect(await byClient.deleteDocument("doc")).toBe(true);
      await byClient.close(); // does not close a client it did not open
      expect(client.isOpen).toBe(true);
    } finally {
      await client.close();
    }
  });
});
