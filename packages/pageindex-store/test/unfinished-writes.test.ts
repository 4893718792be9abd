import { InMemoryStore } from "@langchain/core/stores";
import { expect, it } from "vitest";
import { PageIndexStore } from "../src/index.js";
import { allKeys, WrappedStore } from "./helpers/stores.js";
import { makeTree } from "./helpers/trees.js";

/** Starts replacing `docId` and dies after the pending marker and one batch. */
async function crash(byteStore: InMemoryStore<Uint8Array>, docId: string): Promise<void> {
  const failing = new WrappedStore(byteStore);
  failing.failOnMset = 3;
  const writer = new PageIndexStore(failing, { chunkChars: 300, writeBatchSize: 2 });
  await expect(writer.addTree(makeTree(docId, { seed: 4 }))).rejects.toThrow(/simulated crash/);
}

it("markers of documents with an unreadable head do not stall the cleanup of the others", async () => {
  const byteStore = new InMemoryStore<Uint8Array>();
  await new PageIndexStore(byteStore).addTree(makeTree("broken"));
  await crash(byteStore, "broken"); // listed first: InMemoryStore keeps insertion order
  await byteStore.mset([["pageindex.head.broken", new TextEncoder().encode("garbage")]]);
  await crash(byteStore, "lost");
  expect(await allKeys(byteStore, "pageindex.pending.")).toHaveLength(2);
  const brokenKeys = await allKeys(byteStore, "pageindex.doc.broken.");

  const cleaner = new PageIndexStore(byteStore, {
    orphanGraceMs: 0,
    unfinishedWritesPerWrite: 1,
    onProblem: () => {},
  });
  for (const id of ["other-1", "other-2"]) await cleaner.addTree(makeTree(id, { nodes: 2 }));
  expect(await allKeys(byteStore, "pageindex.pending.")).toEqual([]);
  expect(await allKeys(byteStore, "pageindex.doc.lost.")).toEqual([]);
  // The unreadable head may point at any of its versions: they all stay.
  expect(await allKeys(byteStore, "pageindex.doc.broken.")).toEqual(brokenKeys);
});
