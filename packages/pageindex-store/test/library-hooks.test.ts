import { InMemoryStore } from "@langchain/core/stores";
import { describe, expect, it } from "vitest";
import {
  isLibraryReader,
  MemoryLibraryIndex,
  MemoryTreeReader,
  PageIndexStore,
  type PageIndexStoreOptions,
  registerDerivedArtifact,
} from "../src/index.js";
import { libraryEntry } from "../src/library/entry.js";
import type { LibraryEntry } from "../src/library/types.js";
import { allKeys, WrappedStore } from "./helpers/stores.js";
import { topicTree } from "./helpers/trees.js";
import { libraryBehaviour } from "./library.behaviour.js";

describe("MemoryLibraryIndex", () => {
  libraryBehaviour(async () => new MemoryLibraryIndex());
});

/** A memory index that records its calls and can be told to fail, as a crashed engine would. */
class ScriptedIndex extends MemoryLibraryIndex {
  readonly calls: string[] = [];
  failPuts = false;
  failRemoves = false;

  override async begin(docId: string, versionId?: string): Promise<void> {
    this.calls.push(`begin ${docId}${versionId === undefined ? " (delete)" : ""}`);
    await super.begin(docId, versionId);
  }

  override async putDocument(entry: LibraryEntry): Promise<void> {
    this.calls.push(`put ${entry.card.docId}`);
    if (this.failPuts) throw new Error("simulated crash: the index process died");
    await super.putDocument(entry);
  }

  override async putDocuments(entries: readonly LibraryEntry[]): Promise<void> {
    this.calls.push(`putMany ${entries.map((e) => e.card.docId).join(",")}`);
    if (this.failPuts) throw new Error("simulated crash: the index process died");
    await super.putDocuments(entries);
  }

  override async removeDocument(docId: string): Promise<void> {
    this.calls.push(`remove ${docId}`);
    if (this.failRemoves) throw new Error("simulated crash: the index process died");
    await super.removeDocument(docId);
  }
}

function open(byteStore: InMemoryStore | WrappedStore, library: MemoryLibraryIndex, problems: Error[] = []) {
  const options: PageIndexStoreOptions = { library, onProblem: (problem) => problems.push(problem) };
  return new PageIndexStore(byteStore, options);
}

async function headVersion(store: PageIndexStore, docId: string): Promise<string | undefined> {
  const [raw] = await store.byteStore.mget([store.keys.head(docId)]);
  return raw === undefined
    ? undefined
    : (JSON.parse(new TextDecoder().decode(raw)) as { versionId: string }).versionId;
}

describe("PageIndexStore with a library index", () => {
  it("announces every write before its first key and indexes it once published: add, replace, batch, delete", async () => {
    const library = new ScriptedIndex();
    const byteStore = new InMemoryStore();
    const store = open(byteStore, library);
    await store.addTree(topicTree("printer", ["paper jams", "toner"]));
    expect(library.calls).toEqual(["begin printer", "put printer"]);
    expect((await library.indexedVersions()).get("printer")).toBe(await headVersion(store, "printer"));

    await store.addTree(topicTree("printer", ["paper jams", "duplex printing"]));
    expect((await library.indexedVersions()).get("printer")).toBe(await headVersion(store, "printer"));
    expect((await library.getCard("printer"))?.sections.map((s) => s.title)).toContain(
      "About duplex printing",
    );

    library.calls.length = 0;
    await store.addTrees([topicTree("a", ["alpha"]), topicTree("b", ["beta"]), topicTree("c", ["gamma"])]);
    expect(library.calls.filter((c) => c.startsWith("put"))).toEqual(["putMany a,b,c"]);
    expect(library.calls.filter((c) => c.startsWith("begin")).sort()).toEqual([
      "begin a",
      "begin b",
      "begin c",
    ]);
    expect(await library.count()).toBe(4);

    library.calls.length = 0;
    expect(await store.deleteDocument("b")).toBe(true);
    expect(library.calls).toEqual(["begin b (delete)", "remove b"]);
    expect(await library.getCard("b")).toBeUndefined();
    expect(await library.pending()).toEqual(new Map());
  });

  it("answers searchDocuments, listDocuments(page) and searchLibrary from the index, reading no catalog segment", async () => {
    const library = new MemoryLibraryIndex();
    const writer = open(new InMemoryStore(), library);
    await writer.addTrees([
      topicTree("printer", ["paper jams", "toner"], { metadata: { team: "hardware" } }),
      topicTree("garden", ["roses", "compost"], { metadata: { team: "outdoor" } }),
    ]);
    const wrapped = new WrappedStore(writer.byteStore);
    const reader = open(wrapped, library);
    const hits = await reader.searchLibrary("paper jams", { limit: 2 });
    expect(hits[0]?.docId).toBe("printer");
    expect(hits[0]?.sections[0]?.title).toBe("About paper jams");
    expect((await reader.searchDocuments("compost"))[0]?.card.docId).toBe("garden");
    const page = await reader.listDocuments({ limit: 1, filter: { team: "outdoor" } });
    expect(page.documents.map((d) => d.docId)).toEqual(["garden"]);
    expect(page.total).toBe(1);
    expect(wrapped.reads.filter((key) => key.includes(".catalog."))).toEqual([]);
    expect(wrapped.listings.filter((prefix) => prefix.includes(".catalog."))).toEqual([]);
    // A document deleted behind the index's back (another process, before its repair) is not returned.
    await writer.byteStore.mdelete([writer.keys.head("garden")]);
    expect(await reader.searchDocuments("compost")).toEqual([]);
  });

  it("searchLibrary reads the heads of documents with an unfinished write only: a delete the index missed is not returned", async () => {
    const library = new ScriptedIndex();
    const byteStore = new InMemoryStore();
    const writer = open(byteStore, library, []);
    await writer.addTrees([
      topicTree("printer", ["paper jams"]),
      topicTree("copier", ["paper jams", "toner"]),
    ]);
    const wrapped = new WrappedStore(byteStore);
    const reader = open(wrapped, library);
    expect((await reader.searchLibrary("paper jams")).map((h) => h.docId).sort()).toEqual([
      "copier",
      "printer",
    ]);
    expect(wrapped.reads.filter((key) => key.includes(".head."))).toEqual([]);
    // The printer's head is deleted, its index removal fails (a crash between the two): its
    // intent stays, so its head is read and the hit dropped; the copier's is not read.
    library.failRemoves = true;
    await writer.deleteDocument("printer");
    expect((await reader.searchLibrary("paper jams")).map((h) => h.docId)).toEqual(["copier"]);
    expect(wrapped.reads.filter((key) => key.includes(".head."))).toEqual([reader.keys.head("printer")]);
    // A write under way (announced, head still there) keeps its hit.
    await library.begin("copier", "next-version");
    expect((await reader.searchLibrary("toner")).map((h) => h.docId)).toEqual(["copier"]);
  });

  it("repairs on reopening after the index failed between the announcement and the change (a crash)", async () => {
    const library = new ScriptedIndex();
    const byteStore = new InMemoryStore();
    const problems: Error[] = [];
    const store = open(byteStore, library, problems);
    await store.addTree(topicTree("printer", ["paper jams"]));
    library.failPuts = true;
    await store.addTree(topicTree("printer", ["paper jams", "toner"])); // published; the index missed it
    await store.addTree(topicTree("garden", ["roses"]));
    library.failRemoves = true;
    await store.deleteDocument("printer");
    expect(problems.map((p) => p.message).join("\n")).toMatch(/library \(memory\) failed/);
    expect([...(await library.pending()).keys()].sort()).toEqual(["garden", "printer"]);
    expect(await library.getCard("printer")).toBeDefined(); // stale: deleted in the store

    library.failPuts = false;
    library.failRemoves = false;
    const reopened = open(byteStore, library);
    expect(await reopened.repairLibrary()).toBe(2);
    expect(await library.pending()).toEqual(new Map());
    expect(await library.getCard("printer")).toBeUndefined();
    expect((await library.indexedVersions()).get("garden")).toBe(await headVersion(reopened, "garden"));
    expect((await reopened.searchLibrary("roses"))[0]?.docId).toBe("garden");
  });

  it("repairs by itself before a reopened handle's first write", async () => {
    const library = new ScriptedIndex();
    const byteStore = new InMemoryStore();
    const store = open(byteStore, library, []);
    library.failPuts = true;
    await store.addTree(topicTree("printer", ["paper jams"]));
    library.failPuts = false;
    await open(byteStore, library).addTree(topicTree("garden", ["roses"]));
    expect(await library.pending()).toEqual(new Map());
    expect((await library.indexedVersions()).get("printer")).toBe(await headVersion(store, "printer"));
  });

  it("clears the announcement when the byte-store write fails: nothing half-visible, the old version stays indexed", async () => {
    const library = new ScriptedIndex();
    const wrapped = new WrappedStore(new InMemoryStore());
    const store = open(wrapped, library);
    await store.addTree(topicTree("printer", ["paper jams"]));
    const before = await headVersion(store, "printer");
    wrapped.diskFullOnMset = wrapped.msets + 2; // the pending marker lands, the texts do not
    await expect(store.addTree(topicTree("printer", ["paper jams", "toner"]))).rejects.toThrow(/ENOSPC/);
    wrapped.diskFullOnMset = wrapped.msets + 2;
    await expect(store.addTree(topicTree("garden", ["roses"]))).rejects.toThrow(/ENOSPC/);
    expect(await library.pending()).toEqual(new Map());
    expect(await headVersion(store, "printer")).toBe(before);
    expect((await library.indexedVersions()).get("printer")).toBe(before);
    expect(await library.getCard("garden")).toBeUndefined();
    expect(await allKeys(wrapped, `${store.keys.namespace}.doc.garden`)).toEqual([]);
    expect((await store.searchLibrary("toner")).map((hit) => hit.docId)).toEqual([]);
  });

  it("fails a write whose announcement cannot be recorded, before writing anything", async () => {
    const library = new MemoryLibraryIndex();
    library.begin = async () => {
      throw new Error("database is locked");
    };
    const byteStore = new InMemoryStore();
    await expect(open(byteStore, library).addTree(topicTree("printer", ["paper jams"]))).rejects.toThrow(
      /database is locked/,
    );
    // Only the (empty) catalog's marker: no document key, no head.
    expect((await allKeys(byteStore)).filter((key) => !key.includes(".catalog."))).toEqual([]);
  });

  it("vacuum makes the index agree with the heads: stale, missing and foreign entries", async () => {
    const library = new MemoryLibraryIndex();
    const byteStore = new InMemoryStore();
    const store = open(byteStore, library);
    await store.addTrees([topicTree("a", ["alpha"]), topicTree("b", ["beta"])]);
    library.set(libraryEntry(topicTree("ghost", ["boo"]), "v-ghost"));
    library.delete("a");
    const result = await store.vacuum();
    expect(result.libraryRepaired).toBe(2);
    expect([...(await library.indexedVersions()).keys()].sort()).toEqual(["a", "b"]);
  });

  it("is a library reader only with an index behind it; MemoryTreeReader always is", async () => {
    expect(isLibraryReader(open(new InMemoryStore(), new MemoryLibraryIndex()))).toBe(true);
    const plain = new PageIndexStore(new InMemoryStore());
    expect(isLibraryReader(plain)).toBe(false);
    await expect(plain.searchLibrary("x")).rejects.toThrow(/no library index/);
    const memory = new MemoryTreeReader([topicTree("printer", ["paper jams", "toner"])]);
    expect(isLibraryReader(memory)).toBe(true);
    memory.add(topicTree("garden", ["roses"]));
    expect((await memory.searchLibrary("roses"))[0]?.sections[0]?.title).toBe("About roses");
  });
});

describe("derived artifacts registered by their owner", () => {
  it("removes a registered artifact with the superseded version, also from a handle that never used it", async () => {
    registerDerivedArtifact("test-registered-v1");
    const byteStore = new InMemoryStore();
    const reader = new PageIndexStore(byteStore);
    const writer = new PageIndexStore(byteStore, { supersededGraceMs: 0 });
    await writer.addTree(topicTree("a", ["alpha"]));
    expect(await reader.putDerived("a", "test-registered-v1", new Uint8Array([1]))).toBe(true);
    await writer.addTree(topicTree("a", ["alpha", "beta"]));
    expect(await allKeys(byteStore, `${writer.keys.namespace}.derived.`)).toEqual([]);
    expect(() => registerDerivedArtifact("bad.name")).toThrow(/Invalid derived artifact name/);
  });
});
