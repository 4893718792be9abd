import { mkdtemp, readdir, rm, stat, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InvalidIdError } from "pageindex-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileByteStore, PageIndexStore } from "../src/index.js";
import { makeTree } from "./helpers/trees.js";
import { describeStoreBehaviour } from "./store.behaviour.js";

describeStoreBehaviour("FileByteStore", async () => {
  const dir = await mkdtemp(join(tmpdir(), "pageindex-file-"));
  return {
    byteStore: await FileByteStore.fromPath(dir),
    reopen: () => FileByteStore.fromPath(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

describe("FileByteStore", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-fbs-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const bytes = (text: string) => new TextEncoder().encode(text);

  it("stores one file per key and round-trips bytes", async () => {
    const store = await FileByteStore.fromPath(join(dir, "nested", "store"));
    await store.mset([
      ["a.b-c_d", bytes("one")],
      ["x", new Uint8Array([0, 255, 7])],
      ["a.b-c_d", bytes("last wins")],
    ]);
    const [a, x, missing] = await store.mget(["a.b-c_d", "x", "nope"]);
    expect(new TextDecoder().decode(a)).toBe("last wins");
    expect([...(x as Uint8Array)]).toEqual([0, 255, 7]);
    expect(missing).toBeUndefined();
    expect((await readdir(store.rootPath)).sort()).toEqual([".tmp", "a.b-c_d", "x"]);
    const keys: string[] = [];
    for await (const key of store.yieldKeys("a.")) keys.push(key);
    expect(keys).toEqual(["a.b-c_d"]);
    await store.mdelete(["x", "never-existed"]);
    expect(await store.mget(["x"])).toEqual([undefined]);
  });

  it("rejects keys that could leave the folder or hide files", async () => {
    const store = await FileByteStore.fromPath(dir);
    for (const key of ["../escape", "a/b", "..", ".", ".hidden", "", "a\\b", "a:b", "k".repeat(241)]) {
      await expect(store.mset([[key, bytes("x")]])).rejects.toBeInstanceOf(InvalidIdError);
      await expect(store.mget([key])).rejects.toBeInstanceOf(InvalidIdError);
      await expect(store.mdelete([key])).rejects.toBeInstanceOf(InvalidIdError);
    }
    expect((await readdir(dir)).sort()).toEqual([".tmp"]);
  });

  it("accepts only keys whose temp and final file names fit 255 bytes", async () => {
    const store = await FileByteStore.fromPath(dir);
    const longest = "k".repeat(231);
    await store.mset([[longest, bytes("x")]]);
    expect(new TextDecoder().decode((await store.mget([longest]))[0])).toBe("x");
    await expect(store.mset([[`${longest}k`, bytes("x")]])).rejects.toThrow(/use 1-231 characters/);
  });

  it("writes through a temp file and leaves none behind", async () => {
    const store = await FileByteStore.fromPath(dir, { durable: true });
    await store.mset(Array.from({ length: 50 }, (_, i): [string, Uint8Array] => [`k${i}`, bytes(`v${i}`)]));
    expect(await readdir(join(dir, ".tmp"))).toEqual([]);
    expect(await readdir(dir)).toHaveLength(51);
  });

  it("removes stale temp files of crashed writers on open, but not fresh ones", async () => {
    await FileByteStore.fromPath(dir);
    const stale = join(dir, ".tmp", "k.123.0123456789ab");
    const fresh = join(dir, ".tmp", "k.456.abcdefabcdef");
    await writeFile(stale, "half");
    await writeFile(fresh, "half");
    const old = new Date(Date.now() - 2 * 60 * 60 * 1000);
    await utimes(stale, old, old);
    await FileByteStore.fromPath(dir);
    expect(await readdir(join(dir, ".tmp"))).toEqual(["k.456.abcdefabcdef"]);
    expect((await stat(fresh)).isFile()).toBe(true);
  });

  it("PageIndexStore.fromPath opens the embedded default store", async () => {
    const store = await PageIndexStore.fromPath(join(dir, "index"));
    const tree = makeTree("doc", { nodes: 12 });
    await store.addTree(tree);
    const again = await PageIndexStore.fromPath(join(dir, "index"));
    expect(await again.getTree("doc")).toEqual(tree);
    expect((await readdir(join(dir, "index"))).filter((f) => f.startsWith("pageindex.head."))).toEqual([
      "pageindex.head.doc",
    ]);
  });
});
