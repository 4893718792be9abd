/**
 * Fault suite, store folder: a user's own `.tmp/` files survive, a folder opens read-only without
 * being written to, writes to a read-only store fail with a typed error, and a write that fails
 * midway (a full disk) leaves nothing behind.
 */
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PageIndexError } from "pageindex-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { FileByteStore, PageIndexStore, StoreReadOnlyError } from "../src/index.js";
import { allKeys, WrappedStore } from "./helpers/stores.js";
import { makeTree } from "./helpers/trees.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const hoursAgo = (hours: number) => new Date(Date.now() - hours * 60 * 60 * 1000);

describe("store folder faults", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-folder-"));
  });
  afterEach(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("opening a folder that has its own .tmp/ removes only the store's stale temp files", async () => {
    await mkdir(join(dir, ".tmp"));
    const userFiles = ["notes.txt", "draft.md", "k.1.zz", "backup.tar"];
    const ours = "pageindex.head.doc.4242.0123456789ab";
    for (const name of [...userFiles, ours]) {
      await writeFile(join(dir, ".tmp", name), "x");
      await utimes(join(dir, ".tmp", name), hoursAgo(3), hoursAgo(3));
    }
    await FileByteStore.fromPath(dir);
    expect((await readdir(join(dir, ".tmp"))).sort()).toEqual([...userFiles].sort());
    await writeFile(join(dir, ".tmp", ours), "x");
    await utimes(join(dir, ".tmp", ours), hoursAgo(3), hoursAgo(3));
    await FileByteStore.fromPath(dir, { readOnly: true }); // never removes anything
    expect(await readdir(join(dir, ".tmp"))).toContain(ours);
  });

  it("a store folder without .tmp/ opens read-only, reads, and is not written to", async () => {
    const writer = await PageIndexStore.fromPath(dir);
    const tree = makeTree("doc", { nodes: 12 });
    await writer.addTree(tree);
    await rm(join(dir, ".tmp"), { recursive: true }); // e.g. a store checked into git
    const before = (await readdir(dir)).sort();

    const reader = await PageIndexStore.fromPath(dir, { readOnly: true });
    expect(await reader.getTree("doc")).toEqual(tree);
    expect((await reader.listDocuments()).map((d) => d.docId)).toEqual(["doc"]);
    expect((await reader.searchDocuments(tree.nodes[3]?.title ?? "")).map((m) => m.card.docId)).toEqual([
      "doc",
    ]);
    await expect(reader.addTree(makeTree("new"))).rejects.toBeInstanceOf(StoreReadOnlyError);
    await expect(reader.deleteDocument("doc")).rejects.toBeInstanceOf(StoreReadOnlyError);
    expect((await readdir(dir)).sort()).toEqual(before);
  });

  it("an empty folder, and a store written before the catalog existed, are searched read-only without a write", async () => {
    const empty = join(dir, "empty");
    await mkdir(empty);
    const none = await PageIndexStore.fromPath(empty, { readOnly: true });
    expect(await none.searchDocuments("anything")).toEqual([]);
    expect((await none.listDocuments({ limit: 5 })).total).toBe(0);
    expect(await readdir(empty)).toEqual([]);

    const writer = await PageIndexStore.fromPath(dir);
    const tree = makeTree("doc", { nodes: 12 });
    await writer.addTree(tree);
    for (const name of await readdir(dir)) {
      if (name.startsWith("pageindex.catalog.")) await rm(join(dir, name)); // as an older release left it
    }
    const before = (await readdir(dir)).sort();
    const reader = await PageIndexStore.fromPath(dir, { readOnly: true });
    const title = tree.nodes[3]?.title ?? "";
    expect((await reader.searchDocuments(title)).map((m) => m.card.docId)).toEqual(["doc"]);
    await reader.syncCatalog(); // a listing keeps the catalog built in memory
    expect((await reader.searchDocuments(title)).map((m) => m.card.docId)).toEqual(["doc"]);
    expect((await readdir(dir)).sort()).toEqual(before);
  });

  it("a read-only open of a folder that does not exist is a clear error, and creates nothing", async () => {
    const missing = join(dir, "nope");
    await expect(FileByteStore.fromPath(missing, { readOnly: true })).rejects.toThrow(
      /Cannot open the store folder .*nope/,
    );
    await expect(FileByteStore.fromPath(missing, { readOnly: true })).rejects.toBeInstanceOf(PageIndexError);
    expect(await readdir(dir)).toEqual([]);
  });

  it.each([
    ["a new document", false],
    ["a replacement", true],
  ])("a write that fails midway (disk full) on %s leaves nothing behind", async (_name, replacing) => {
    const byteStore = await FileByteStore.fromPath(dir);
    const old = makeTree("doc", { nodes: 40, seed: 1 });
    if (replacing) await new PageIndexStore(byteStore, { chunkChars: 300 }).addTree(old);
    const documentKeys = async () => (await allKeys(byteStore)).filter((k) => !k.includes(".catalog."));
    const before = await documentKeys();
    const full = new WrappedStore(byteStore);
    full.diskFullOnMset = 3; // the pending marker, one batch, then half of the next batch
    const writer = new PageIndexStore(full, { chunkChars: 300, writeBatchSize: 4 });
    await expect(writer.addTree(makeTree("doc", { nodes: 40, seed: 2 }))).rejects.toThrow(/ENOSPC/);
    expect(await documentKeys()).toEqual(before);
    expect(await readdir(join(dir, ".tmp"))).toEqual([]);
    const reader = await PageIndexStore.fromPath(dir);
    if (replacing) expect(await reader.getTree("doc")).toEqual(old);
    else expect(await reader.hasDocument("doc")).toBe(false);
  });

  it("createIfAbsent: of concurrent calls for one key exactly one creates it, with its whole value", async () => {
    const a = await FileByteStore.fromPath(dir);
    const b = await FileByteStore.fromPath(dir);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).createIfAbsent("claim", bytes(`owner-${i}`))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = results.indexOf(true);
    expect(new TextDecoder().decode((await a.mget(["claim"]))[0])).toBe(`owner-${winner}`);
    expect(await readdir(join(dir, ".tmp"))).toEqual([]);
  });
});
