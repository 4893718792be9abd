/**
 * Corpus-catalog behaviour every backend must show; run from {@link describeStoreBehaviour}.
 */
import type { BaseStore } from "@langchain/core/stores";
import { expect, it } from "vitest";
import type { PageIndexStore, PageIndexStoreOptions } from "../src/index.js";
import { allKeys, WrappedStore } from "./helpers/stores.js";
import { topicTree } from "./helpers/trees.js";

type ByteStore = BaseStore<string, Uint8Array>;

/** The backend of one test and how to open a store on it. */
export interface CatalogBackend {
  byteStore: () => ByteStore;
  reopen: () => Promise<ByteStore>;
  storeOn: (byteStore: ByteStore, options?: PageIndexStoreOptions) => PageIndexStore;
}

const ids = async (store: PageIndexStore, query: string, filter?: Record<string, string | number>) =>
  (await store.searchDocuments(query, { limit: 10, ...(filter ? { filter } : {}) })).map((m) => m.card.docId);

/** A made-up word per number, letters only (the tokenizer splits "word3" into "word" and "3"). */
const word = (i: number) => `zq${"abcdefghij"[i % 10]}${"klmnopqrst"[Math.floor(i / 10) % 10]}x`;

/** Polls `check` until true; the bound only catches a hang (a loaded machine can take seconds). */
async function eventually(check: () => Promise<boolean>, timeoutMs = 120_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

export function catalogBehaviour(backend: CatalogBackend): void {
  it("finds documents by what is inside them, and follows add, replace and delete", async () => {
    const store = backend.storeOn(backend.byteStore());
    await store.addTree(topicTree("alpha", ["volcano", "magma"]));
    await store.addTree(topicTree("beta", ["glacier", "moraine"]));
    await store.addTree(topicTree("gamma", ["volcano", "tephra"]));
    expect(await ids(store, "magma chambers")).toEqual(["alpha"]);
    expect((await ids(store, "volcano")).sort()).toEqual(["alpha", "gamma"]);
    const [hit] = await store.searchDocuments("moraine deposits");
    expect(hit?.card).toMatchObject({ docId: "beta", docName: "beta.md", kind: "markdown" });
    expect(hit?.evidence.map((e) => e.title)).toEqual(["About moraine"]);

    await store.addTree(topicTree("beta", ["desert", "dune"]));
    expect(await ids(store, "moraine")).toEqual([]);
    expect(await ids(store, "dune")).toEqual(["beta"]);
    expect(await store.deleteDocument("alpha")).toBe(true);
    expect(await ids(store, "magma")).toEqual([]);
    expect(await ids(store, "volcano")).toEqual(["gamma"]);

    const fresh = backend.storeOn(await backend.reopen());
    expect(await ids(fresh, "volcano dune")).toEqual(expect.arrayContaining(["gamma", "beta"]));
    expect(await ids(fresh, "magma moraine")).toEqual([]);
  });

  it("explains a match by the section titles holding the query's words, whatever their form", async () => {
    const store = backend.storeOn(backend.byteStore());
    await store.addTree(
      topicTree("handbook", ["companies", "FY2023 outlook", "Études cliniques", "weather"]),
    );
    const [plural] = await store.searchDocuments("company etudes");
    expect(plural?.evidence.map((e) => e.title)).toEqual(["About companies", "About Études cliniques"]);
    expect(plural?.matched.sort()).toEqual(["company", "etud"]);
    const [abbreviated] = await store.searchDocuments("fiscal");
    expect(abbreviated?.evidence.map((e) => e.title)).toEqual(["About FY2023 outlook"]);
    expect(await store.searchDocuments("handbooks weathering", { verifyPresence: false })).toMatchObject([
      { card: { docId: "handbook" }, evidence: [{ title: "About weather" }] },
    ]);
  });

  it("pages documents in id order with the total, and narrows by metadata filters", async () => {
    const store = backend.storeOn(backend.byteStore());
    const companies = ["Boeing", "Airbus", "Boeing", "Embraer", "Boeing", "Airbus", "Bombardier"];
    for (const [i, company] of companies.entries()) {
      await store.addTree(
        topicTree(`doc-${i}`, ["aircraft", "revenue"], {
          metadata: { frontMatter: { company, year: 2020 + (i % 3) } },
        }),
      );
    }
    const page = await store.listDocuments({ limit: 3, offset: 3 });
    expect(page.total).toBe(7);
    expect(page.documents.map((d) => d.docId)).toEqual(["doc-3", "doc-4", "doc-5"]);
    expect((await store.listDocuments({ limit: 10, offset: 6 })).documents.map((d) => d.docId)).toEqual([
      "doc-6",
    ]);
    expect((await ids(store, "aircraft revenue", { company: "boeing" })).sort()).toEqual([
      "doc-0",
      "doc-2",
      "doc-4",
    ]);
    expect(await ids(store, "aircraft", { company: "Boeing", year: 2022 })).toEqual(["doc-2"]);
    expect(await ids(store, "aircraft", { company: "Cessna" })).toEqual([]);
    const filtered = await store.listDocuments({ limit: 10, filter: { company: "Airbus" } });
    expect(filtered).toMatchObject({ total: 2 });
    expect(filtered.documents.map((d) => d.docId)).toEqual(["doc-1", "doc-5"]);
    expect(filtered.documents[0]?.metadata).toEqual({ frontMatter: { company: "Airbus", year: 2021 } });
  });

  it("a document added through one handle is found through another within the refresh delay", async () => {
    const writer = backend.storeOn(backend.byteStore());
    const reader = backend.storeOn(await backend.reopen(), { catalogRefreshMs: 100 });
    await writer.addTree(topicTree("first", ["lighthouse"]));
    expect(await ids(reader, "lighthouse")).toEqual(["first"]); // first query: waits for the listing
    await writer.addTree(topicTree("second", ["harbour"]));
    await eventually(async () => (await ids(reader, "harbour")).includes("second"));
    await writer.deleteDocument("first");
    // Deleted: hidden at once (heads are checked), and gone from the catalog after a refresh.
    expect(await ids(reader, "lighthouse")).toEqual([]);
  });

  it("a reader lists the segments only after the catalog changed, not on every refresh", async () => {
    const writer = backend.storeOn(backend.byteStore());
    const recording = new WrappedStore(await backend.reopen());
    // Refresh periods of 500 ms: a listing is overdue only after 15 s, which three periods do not
    // reach on a loaded machine either (with 10 ms, a slow step made it overdue: a lost race).
    const reader = backend.storeOn(recording, { catalogRefreshMs: 500 });
    await writer.addTree(topicTree("first", ["lighthouse"]));
    expect(await ids(reader, "lighthouse")).toEqual(["first"]);
    const segmentListings = () => recording.listings.filter((p) => p === "pageindex.catalog.seg.").length;
    const afterLoad = segmentListings();
    for (let i = 0; i < 3; i += 1) {
      await ids(reader, "lighthouse");
      await new Promise((resolve) => setTimeout(resolve, 550)); // a refresh period: the marker is read
    }
    expect(segmentListings()).toBe(afterLoad); // the change marker was read, nothing listed
    await writer.addTree(topicTree("second", ["harbour"]));
    await eventually(async () => (await ids(reader, "harbour")).includes("second"));
    expect(segmentListings()).toBeGreaterThan(afterLoad);
  });

  it("keeps the segment count logarithmic by merging, across two writers", async () => {
    const a = backend.storeOn(backend.byteStore(), { catalogMergeFactor: 3 });
    const b = backend.storeOn(await backend.reopen(), { catalogMergeFactor: 3, catalogRefreshMs: 0 });
    for (let i = 0; i < 30; i += 1) {
      await (i % 2 === 0 ? a : b).addTree(
        topicTree(`doc-${String(i).padStart(2, "0")}`, [word(i), "shared"]),
      );
    }
    const segments = await allKeys(backend.byteStore(), "pageindex.catalog.seg.");
    expect(segments.length).toBeLessThanOrEqual(12);
    const reader = backend.storeOn(await backend.reopen());
    expect((await reader.listDocuments({ limit: 100 })).total).toBe(30);
    expect(await ids(reader, word(17))).toEqual(["doc-17"]);
    expect((await reader.searchDocuments("shared", { limit: 100 })).length).toBe(30);
  });

  it("a writer dying after publishing, before cataloging: repaired by a later write's sweep", async () => {
    const store = backend.storeOn(backend.byteStore());
    await store.addTree(topicTree("kept", ["orchard"]));
    const failing = new WrappedStore(backend.byteStore());
    failing.failOnCatalogMset = 1;
    const dying = backend.storeOn(failing);
    await dying.addTree(topicTree("late", ["vineyard"])); // published; its card could not be written
    expect(await dying.getDocumentInfo("late")).toMatchObject({ docId: "late" });
    expect(await allKeys(backend.byteStore(), "pageindex.pending.")).toHaveLength(1);
    const cleaner = backend.storeOn(await backend.reopen(), { orphanGraceMs: 0 });
    await cleaner.addTree(topicTree("other", ["meadow"]));
    expect(await ids(cleaner, "vineyard")).toEqual(["late"]);
    expect(await allKeys(backend.byteStore(), "pageindex.pending.")).toEqual([]);
  });

  it("a write that dies before publishing leaves nothing visible in the catalog", async () => {
    const store = backend.storeOn(backend.byteStore());
    await store.addTree(topicTree("doc", ["canyon"]));
    for (const docId of ["doc", "new"]) {
      const failing = new WrappedStore(backend.byteStore());
      failing.failOnMset = 2; // marker written, then the writer dies before any version key or head
      await expect(backend.storeOn(failing).addTree(topicTree(docId, ["plateau"]))).rejects.toThrow(
        /simulated/,
      );
    }
    const reader = backend.storeOn(await backend.reopen());
    expect(await ids(reader, "plateau")).toEqual([]);
    expect(await ids(reader, "canyon")).toEqual(["doc"]);
  });

  it("builds the catalog once from heads for a store written before it had one", async () => {
    const store = backend.storeOn(backend.byteStore());
    await store.addTree(topicTree("old-1", ["granite"]));
    await store.addTree(topicTree("old-2", ["basalt"]));
    const catalogKeys = await allKeys(backend.byteStore(), "pageindex.catalog.");
    await backend.byteStore().mdelete(catalogKeys); // as an older release left it: heads only
    const recording = new WrappedStore(await backend.reopen());
    const upgraded = backend.storeOn(recording);
    expect(await ids(upgraded, "basalt")).toEqual(["old-2"]);
    expect(recording.reads.filter((k) => k.includes(".skeleton"))).toHaveLength(2);
    const again = new WrappedStore(await backend.reopen());
    expect(await ids(backend.storeOn(again), "granite")).toEqual(["old-1"]);
    expect(again.reads.filter((k) => k.includes(".skeleton"))).toEqual([]); // built once, then read
  });

  it("writes and searches without listing every head; vacuum compacts the catalog", async () => {
    const recording = new WrappedStore(backend.byteStore());
    const store = backend.storeOn(recording);
    for (let i = 0; i < 12; i += 1) await store.addTree(topicTree(`d${i}`, [word(i)]));
    await store.deleteDocument("d3");
    await ids(store, word(5));
    await store.listDocuments({ limit: 5 });
    expect(recording.listings.filter((p) => p === "pageindex.head." || p === "pageindex.doc.")).toEqual([
      "pageindex.head.", // once: checking whether an old store needs its catalog built
    ]);
    const result = await store.vacuum({ graceMs: 0 });
    expect(result.catalogSegmentsRemoved).toBeGreaterThan(0);
    expect(await allKeys(backend.byteStore(), "pageindex.catalog.seg.")).toHaveLength(1);
    const fresh = backend.storeOn(await backend.reopen());
    expect(await ids(fresh, word(3))).toEqual([]);
    expect(await ids(fresh, word(11))).toEqual(["d11"]);
    expect((await fresh.listDocuments({ limit: 100 })).total).toBe(11);
  });
}
