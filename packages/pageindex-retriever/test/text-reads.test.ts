import { InMemoryStore } from "@langchain/core/stores";
import type { TreeSkeleton } from "pageindex-core";
import { LEXICAL_INDEX_ARTIFACT, LexicalIndexes, PageIndexRetriever } from "pageindex-retriever";
import { PageIndexStore, StoreReadOnlyError } from "pageindex-store";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import type { PackedNodeFields } from "../src/lexical/packed-fields.js";
import { decodeNodeFields } from "../src/lexical/persisted.js";
import { annualReport, ID, judgeByTitle, offeredNodes, TAX_PATH } from "./support/fixtures.js";

/** A byte store that counts the node-text chunk keys read (`….text.<n>`). */
class CountingStore extends InMemoryStore<Uint8Array> {
  textKeysRead = 0;
  override async mget(keys: string[]) {
    this.textKeysRead += keys.filter((k) => /\.text\.\d+$/.test(k)).length;
    return super.mget(keys);
  }
}

const QUERY = "What was the effective tax rate in 2023?";
const TOTAL_NODES = 15;

/** The annual report in a store with one node text per chunk, so chunks read = texts read. */
async function setup() {
  const bytes = new CountingStore();
  const store = new PageIndexStore(bytes, { chunkChars: 1 });
  await store.addTree(annualReport());
  bytes.textKeysRead = 0;
  return { bytes, store, fresh: () => new PageIndexStore(bytes, { chunkChars: 1 }) };
}

/**
 * A copy of a saved lexical index whose every block's first list claims 127 postings: it loads
 * (postings are checked when used), and whichever block a query decodes is damaged.
 */
function damagedInEveryBlock(skeleton: TreeSkeleton, saved: Uint8Array): Uint8Array {
  const damaged = new Uint8Array(saved); // a copy at offset 0, as decodeNodeFields reads it in place
  const { postings, blockStarts } = (decodeNodeFields(skeleton, damaged) as PackedNodeFields).arrays;
  for (const start of blockStarts.subarray(0, -1)) damaged[postings.byteOffset + start] = 0x7f;
  return damaged;
}

describe("a query reads the skeleton and the selected nodes' texts, not every text", () => {
  it("with a model judge: only the chunks of the returned sections", async () => {
    const { bytes, store } = await setup();
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    const retriever = new PageIndexRetriever({ reader: store, model });
    const docs = await retriever.invoke(QUERY);
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12]);
    expect(bytes.textKeysRead).toBe(1);
    expect(retriever.lastRun?.stats).toMatchObject({ textsFetched: 1, indexTextsRead: 0 });
  });

  it("with a model judge at a large dead end: ranks inside it without reading every text", async () => {
    const { bytes, store } = await setup();
    // Item 8 is judged relevant, none of its children is, and no step is left for a second look.
    const judge = (prompt: string) =>
      offeredNodes(prompt).some((n) => n.id === ID.income)
        ? JSON.stringify({ relevant: [] })
        : judgeByTitle(/^(Part II|Item 8\.)/)(prompt);
    const model = new ScriptedChatModel([], { fallback: judge });
    const retriever = new PageIndexRetriever({
      reader: store,
      model,
      strategy: "expand",
      k: 2,
      maxSteps: 3,
      deadEndMaxTokens: 10,
    });
    const docs = await retriever.invoke("balance sheet total assets");
    expect(docs.length).toBeGreaterThan(0);
    expect(docs.every((d) => d.metadata.deadEnd)).toBe(true);
    expect(bytes.textKeysRead).toBe(retriever.lastRun?.stats.textsFetched);
    expect(bytes.textKeysRead).toBeLessThan(TOTAL_NODES);
    expect(retriever.lastRun?.stats.indexTextsRead).toBe(0);
  });

  it("offline: the first query indexes every text once; a fresh process reads the saved index", async () => {
    const { bytes, store, fresh } = await setup();
    const first = new PageIndexRetriever({ reader: store });
    const firstDocs = await first.invoke(QUERY);
    const selected = first.lastRun?.stats.textsFetched ?? 0;
    expect(bytes.textKeysRead).toBe(TOTAL_NODES + selected);
    expect(first.lastRun?.stats.indexTextsRead).toBe(TOTAL_NODES);

    bytes.textKeysRead = 0;
    await first.invoke("operating cash flow");
    expect(bytes.textKeysRead).toBe(first.lastRun?.stats.textsFetched); // same process: in memory

    bytes.textKeysRead = 0;
    const again = new PageIndexRetriever({ reader: fresh() }); // as a new `pageindex ask` would
    const againDocs = await again.invoke(QUERY);
    expect(bytes.textKeysRead).toBe(selected);
    expect(again.lastRun?.stats.indexTextsRead).toBe(0);
    expect(againDocs.map((d) => [d.metadata.nodeId, d.metadata.score])).toEqual(
      firstDocs.map((d) => [d.metadata.nodeId, d.metadata.score]),
    );
  });

  it("offline: a saved index damaged in a block a query decodes is rebuilt, as one found damaged on load", async () => {
    const { bytes, store, fresh } = await setup();
    const reference = new PageIndexRetriever({ reader: store });
    const expected = await reference.invoke(QUERY);
    const savedIndex = (await store.getDerived("acme-10k", LEXICAL_INDEX_ARTIFACT)) as Uint8Array;
    const damaged = damagedInEveryBlock(await store.getSkeleton("acme-10k"), savedIndex);
    for (const [what, value] of [
      ["damaged in a block", damaged],
      ["unreadable on load", savedIndex.slice(0, 40)],
    ] as const) {
      await store.putDerived("acme-10k", LEXICAL_INDEX_ARTIFACT, value);
      bytes.textKeysRead = 0;
      const retriever = new PageIndexRetriever({ reader: fresh() });
      const docs = await retriever.invoke(QUERY);
      expect(
        docs.map((d) => [d.metadata.nodeId, d.metadata.score]),
        what,
      ).toEqual(expected.map((d) => [d.metadata.nodeId, d.metadata.score]));
      expect(retriever.lastRun?.stats.indexTextsRead, what).toBe(TOTAL_NODES);
      expect(retriever.lastRun?.warnings, what).toEqual([]);
      // Saved again whole: the next process reads it and no text.
      const next = new PageIndexRetriever({ reader: fresh() });
      await next.invoke(QUERY);
      expect(next.lastRun?.stats.indexTextsRead, what).toBe(0);
    }
  });

  it("a damaged saved index met while ranking: the skeleton's index, as on load, no text read", async () => {
    const { bytes, store, fresh } = await setup();
    const skeleton = await store.getSkeleton("acme-10k");
    await new LexicalIndexes(store).get(skeleton, "judge"); // built and saved
    const savedIndex = (await store.getDerived("acme-10k", LEXICAL_INDEX_ARTIFACT)) as Uint8Array;
    await store.putDerived("acme-10k", LEXICAL_INDEX_ARTIFACT, damagedInEveryBlock(skeleton, savedIndex));
    bytes.textKeysRead = 0;
    const reader = fresh();
    const indexes = new LexicalIndexes(reader);
    const scored = await indexes.read(await reader.getSkeleton("acme-10k"), "rank", (index) => ({
      withText: index.withText,
      own: [...index.score(QUERY).own],
    }));
    const skeletonOnly = await new LexicalIndexes(reader, "skeleton").get(skeleton, "rank");
    expect(scored).toEqual({ withText: false, own: [...skeletonOnly.score(QUERY).own] });
    expect(bytes.textKeysRead).toBe(0);
  });

  it("offline: concurrent first queries share one index build", async () => {
    const { bytes, store } = await setup();
    const stats: Array<{ indexTextsRead: number; textsFetched: number }> = [];
    const retriever = new PageIndexRetriever({ reader: store, onRun: (run) => stats.push(run.stats) });
    await Promise.all([QUERY, "operating cash flow", "revenue"].map((q) => retriever.invoke(q)));
    const fetched = stats.reduce((sum, s) => sum + s.textsFetched, 0);
    expect(bytes.textKeysRead).toBe(TOTAL_NODES + fetched);
    expect(stats.map((s) => s.indexTextsRead).sort()).toEqual([0, 0, TOTAL_NODES]);
  });

  it("reads an index another process saved after this one found none, not every text", async () => {
    const { bytes, store, fresh } = await setup();
    const skeleton = await store.getSkeleton("acme-10k");
    const indexes = new LexicalIndexes(store);
    expect((await indexes.get(skeleton, "rank")).withText).toBe(false); // none saved yet
    await new LexicalIndexes(fresh()).get(skeleton, "judge"); // another process builds and saves it
    bytes.textKeysRead = 0;
    let read = 0;
    const index = await indexes.get(skeleton, "judge", (nodes) => {
      read += nodes;
    });
    expect(index.withText).toBe(true);
    expect([read, bytes.textKeysRead]).toEqual([0, 0]);
  });

  it("stops encoding indexes for a store that refused to save one as read-only", async () => {
    /** A store whose derived artifacts cannot be written, as a folder opened read-only. */
    class RefusingStore extends PageIndexStore {
      saves = 0;
      override async putDerived(): Promise<boolean> {
        this.saves += 1;
        throw new StoreReadOnlyError("memory", "it was opened read-only");
      }
    }
    const store = new RefusingStore(new InMemoryStore<Uint8Array>());
    await store.addTrees([annualReport("first"), annualReport("second"), annualReport("third")]);
    const indexes = new LexicalIndexes(store);
    for (const docId of ["first", "second", "third"]) {
      const index = await indexes.get(await store.getSkeleton(docId), "judge");
      expect(index.withText).toBe(true); // built from the texts all the same
    }
    expect(store.saves).toBe(1);
  });

  it("rebuilds the saved index when the document is replaced", async () => {
    const { bytes, store, fresh } = await setup();
    await new PageIndexRetriever({ reader: store }).invoke(QUERY);
    const tree = annualReport();
    const note12 = tree.nodes.find((n) => n.nodeId === ID.note12);
    if (!note12) throw new Error("fixture changed");
    note12.text = `${note12.text} The uncertain tax positions grew.`;
    note12.tokenCount += 6;
    await store.addTree(tree);
    bytes.textKeysRead = 0;
    const retriever = new PageIndexRetriever({ reader: fresh() });
    await retriever.invoke(QUERY);
    expect(bytes.textKeysRead).toBe(TOTAL_NODES + (retriever.lastRun?.stats.textsFetched ?? 0));
  });
});
