import { PageIndexError } from "pageindex-core";
import { createClient } from "redis";
import { describe, expect, it } from "vitest";
import {
  PageIndexStore,
  RedisByteStore,
  type RedisCommandClient,
  RedisStoreError,
  StoreCorruptionError,
} from "../src/index.js";
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

it("PageIndexStore.fromRedis names a URL that is not redis:// or rediss:// before connecting", async () => {
  for (const url of ["http://:hunter2@127.0.0.1:6379", "127.0.0.1:6379", ""]) {
    const error = await PageIndexStore.fromRedis(url).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(RedisStoreError);
    expect((error as Error).message).toMatch(
      /^Not a Redis URL: .* \(use redis:\/\/host:6379, or rediss:\/\/ for TLS\)$/,
    );
    expect((error as Error).message).not.toContain("hunter2");
  }
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

  it("a hash or list under our prefix is reported as a foreign value naming the key; the rest stays usable", async () => {
    const prefix = testPrefix("types");
    const store = await PageIndexStore.fromRedis(REDIS_URL, { prefix, chunkChars: 300, onProblem: () => {} });
    const raw = createClient({ url: REDIS_URL });
    await raw.connect();
    try {
      for (const id of ["bad", "good", "listy"]) await store.addTree(makeTree(id, { nodes: 20 }));
      const listyHead = JSON.parse((await raw.get(`${prefix}pageindex.head.listy`)) as string);
      const textKey = `pageindex.doc.listy.v.${listyHead.versionId as string}.text.0`;
      await raw.del([`${prefix}pageindex.head.bad`, prefix + textKey]);
      await raw.hSet(`${prefix}pageindex.head.bad`, "field", "value");
      await raw.lPush(prefix + textKey, "item");

      const fresh = await PageIndexStore.fromRedis(REDIS_URL, { prefix });
      const listing = await fresh.inspectDocuments();
      expect(listing.documents.map((d) => d.docId)).toEqual(["good", "listy"]);
      expect(listing.problems).toHaveLength(1);
      expect(listing.problems[0]).toBeInstanceOf(StoreCorruptionError);
      expect(listing.problems[0]).toMatchObject({ key: "pageindex.head.bad", docId: "bad" });
      expect(listing.problems[0]?.message).toMatch(/holds a hash, not a string value/);

      const head = await fresh.getSkeleton("bad").catch((e: unknown) => e);
      expect(head).toMatchObject({ key: "pageindex.head.bad", docId: "bad" });
      expect(await fresh.hasDocument("bad")).toBe(true);
      const text = await fresh.getNodeTexts("listy", ["0000"]).catch((e: unknown) => e);
      expect(text).toBeInstanceOf(StoreCorruptionError);
      expect(text).toMatchObject({ key: textKey, docId: "listy" });
      expect((text as Error).message).toMatch(/holds a list/);

      expect(await fresh.getTree("good")).toEqual(makeTree("good", { nodes: 20 }));
      expect((await fresh.vacuum({ graceMs: 0 })).deletedKeys).toBe(0);
      const replacement = makeTree("bad", { nodes: 3, seed: 5 });
      await fresh.addTree(replacement);
      expect(await fresh.getTree("bad")).toEqual(replacement);
      expect(await fresh.deleteDocument("listy")).toBe(true);
      await fresh.close();
    } finally {
      const keys = await raw.keys(`${prefix.replace(/[*?[\]]/g, "\\$&")}*`);
      if (keys.length > 0) await raw.del(keys);
      await raw.close();
      await store.close();
    }
  });

  it("RedisByteStore.mget names a key holding another Redis type; missing keys stay undefined", async () => {
    const prefix = testPrefix("mget-types");
    const store = await RedisByteStore.fromUrl(REDIS_URL, { prefix });
    const raw = createClient({ url: REDIS_URL });
    await raw.connect();
    try {
      await store.mset([["str", new Uint8Array([1])]]);
      await raw.sAdd(`${prefix}set`, "member");
      const [missing, str] = await store.mget(["missing", "str"]);
      expect(missing).toBeUndefined();
      expect([...(str as Uint8Array)]).toEqual([1]);
      const error = await store.mget(["str", "set", "missing"]).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreCorruptionError);
      expect(error).toMatchObject({ key: "set" });
      expect((error as Error).message).toContain(`Redis key "${prefix}set" holds a set`);
    } finally {
      await raw.del([`${prefix}set`, `${prefix}str`]);
      await raw.close();
      await store.close();
    }
  });
});
