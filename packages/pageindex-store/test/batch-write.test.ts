import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryStore } from "@langchain/core/stores";
import { type TreeDocument, TreeValidationError } from "pageindex-core";
import { afterEach, describe, expect, it } from "vitest";
import {
  DocumentIdConflictError,
  DuplicateBatchDocumentError,
  FileByteStore,
  PageIndexStore,
  SqliteLibraryIndex,
} from "../src/index.js";
import { allKeys, WrappedStore } from "./helpers/stores.js";
import { topicTree } from "./helpers/trees.js";

const ids = async (store: PageIndexStore, query: string) =>
  (await store.searchDocuments(query, { limit: 50 })).map((m) => m.card.docId).sort();

/** A made-up topic word per number (letters only). */
const word = (i: number) => `zq${"abcdefghij"[i % 10]}${"klmnopqrst"[Math.floor(i / 10) % 10]}v`;

const batch = (count: number, from = 0): TreeDocument[] =>
  Array.from({ length: count }, (_, i) => topicTree(`doc-${from + i}`, [word(from + i), "granite"]));

const folders: string[] = [];
const tempFolder = async () => {
  const folder = mkdtempSync(join(tmpdir(), "pageindex-batch-"));
  folders.push(folder);
  return folder;
};

/** A SQLite library index that counts its `beginAll` calls (documents per call). */
class SqliteLibraryIndexCounting {
  readonly beginAlls: number[] = [];
  constructor(readonly index: SqliteLibraryIndex) {
    const beginAll = index.beginAll.bind(index);
    index.beginAll = async (intents) => {
      this.beginAlls.push(intents.length);
      await beginAll(intents);
    };
  }
}
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe("addTrees", () => {
  it("writes every document, readable and found, with one catalog segment per batch", async () => {
    const folder = mkdtempSync(join(tmpdir(), "pageindex-batch-"));
    folders.push(folder);
    const counting = new WrappedStore(await FileByteStore.fromPath(folder));
    const store = new PageIndexStore(counting);
    const trees = batch(20);
    const infos = await store.addTrees(trees, { concurrency: 4 });
    expect(infos.map((info) => info.docId)).toEqual(trees.map((t) => t.docId));
    // The ready marker, one segment and the change marker: no segment per document, no merge.
    expect(counting.catalogMsets).toBe(3);
    expect(await allKeys(counting, "pageindex.catalog.seg.")).toHaveLength(1);
    expect(await allKeys(counting, "pageindex.pending.")).toEqual([]);

    const reader = new PageIndexStore(await FileByteStore.fromPath(folder));
    expect(await ids(reader, "granite")).toHaveLength(20);
    expect(await ids(reader, word(7))).toEqual(["doc-7"]);
    expect((await reader.getTree("doc-3")).nodes).toEqual(trees[3]?.nodes);
  });

  it("writes a wave of documents with one call per step: intents, pending markers, values, heads", async () => {
    const byteStore = new WrappedStore(new InMemoryStore<Uint8Array>());
    const library = new SqliteLibraryIndexCounting(await SqliteLibraryIndex.open(await tempFolder()));
    const store = new PageIndexStore(byteStore, { library: library.index });
    const trees = batch(12);
    await store.addTrees(trees, { concurrency: 5 });
    // Three waves (5, 5, 2), three document msets each; one intent call per wave.
    expect(byteStore.msets).toBe(9);
    expect(library.beginAlls).toEqual([5, 5, 2]);
    expect(await allKeys(byteStore, "pageindex.pending.")).toEqual([]);
    expect(await library.index.pending()).toEqual(new Map());
    const reader = new PageIndexStore(byteStore.inner, { library: library.index });
    expect(await ids(reader, "granite")).toHaveLength(12);
    for (const tree of trees) expect((await reader.getTree(tree.docId)).nodes).toEqual(tree.nodes);
    // Replacing in waves: each document keeps one version, the new one, found by its new word.
    await store.addTrees([topicTree("doc-1", ["basalt"]), topicTree("doc-7", ["basalt"])], {
      concurrency: 5,
    });
    expect((await reader.searchLibrary("basalt")).map((hit) => hit.docId).sort()).toEqual(["doc-1", "doc-7"]);
    expect((await reader.searchLibrary(word(7))).map((hit) => hit.docId)).toEqual([]);
    await library.index.close();
  });

  it("replaces stored documents and removes their superseded versions", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    const store = new PageIndexStore(byteStore);
    await store.addTrees(batch(3));
    await store.addTrees([topicTree("doc-1", ["basalt"])]);
    expect(await ids(store, "basalt")).toEqual(["doc-1"]);
    expect(await ids(store, word(1))).toEqual([]);
    const versions = new Set((await allKeys(byteStore, "pageindex.doc.doc-1.")).map((k) => k.split(".")[3]));
    expect(versions.size).toBe(1);
  });

  it("writes nothing when a tree is invalid or two trees name the same document", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    const store = new PageIndexStore(byteStore);
    const invalid = { ...topicTree("bad", ["x"]), nodes: [] } as unknown as TreeDocument;
    await expect(store.addTrees([...batch(2), invalid])).rejects.toBeInstanceOf(TreeValidationError);
    await expect(store.addTrees([...batch(2), topicTree("doc-0", ["y"])])).rejects.toBeInstanceOf(
      DuplicateBatchDocumentError,
    );
    await expect(store.addTrees([...batch(2), topicTree("DOC-1", ["y"])])).rejects.toBeInstanceOf(
      DocumentIdConflictError,
    );
    expect(await allKeys(byteStore, "pageindex.head.")).toEqual([]);
  });

  it("a batch failing midway leaves what it published readable and cataloged", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    const failing = new WrappedStore(byteStore);
    // Per document: pending marker, values, head. The fifth mset is the second document's values:
    // the disk fills up there (the process lives on; a dying one is the sweep's case below).
    failing.diskFullOnMset = 5;
    const store = new PageIndexStore(failing);
    await expect(store.addTrees(batch(4), { concurrency: 1 })).rejects.toThrow(/ENOSPC/);
    const reader = new PageIndexStore(byteStore);
    expect(await ids(reader, "granite")).toEqual(["doc-0"]);
    expect((await reader.listDocuments()).map((d) => d.docId)).toEqual(["doc-0"]);
  });

  it("cards a dying batch could not write are written by the next cleanup sweep", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    await new PageIndexStore(byteStore).addTree(topicTree("first", ["quartz"]));
    const failing = new WrappedStore(byteStore);
    failing.failOnCatalogMset = 1;
    const problems: Error[] = [];
    const dying = new PageIndexStore(failing, { onProblem: (p) => problems.push(p) });
    await dying.addTrees(batch(5)); // published; the catalog segment could not be written
    expect(problems.map((p) => p.message)).toEqual(["Adding 5 documents to the catalog failed"]);
    expect(await dying.getDocumentInfo("doc-4")).toMatchObject({ docId: "doc-4" });
    expect(await allKeys(byteStore, "pageindex.pending.")).toHaveLength(5);

    const cleaner = new PageIndexStore(byteStore, { orphanGraceMs: 0 });
    await cleaner.addTree(topicTree("other", ["slate"]));
    expect(await ids(cleaner, "granite")).toEqual(["doc-0", "doc-1", "doc-2", "doc-3", "doc-4"]);
    expect(await allKeys(byteStore, "pageindex.pending.")).toEqual([]);
  });
});
