import { InMemoryStore } from "@langchain/core/stores";
import { DocumentNotFoundError, InvalidIdError } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { PageIndexStore } from "../src/index.js";
import { allKeys } from "./helpers/stores.js";
import { makeTree } from "./helpers/trees.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const text = (value: Uint8Array | undefined) => (value ? new TextDecoder().decode(value) : undefined);

/** Keys of document "a"'s artifacts (not those of "a.b", whose keys share the prefix). */
async function keysOfA(byteStore: InMemoryStore<Uint8Array>): Promise<string[]> {
  const out: string[] = [];
  for await (const key of byteStore.yieldKeys("pageindex.derived.a.")) {
    if (!key.startsWith("pageindex.derived.a.b.")) out.push(key);
  }
  return out;
}

describe("derived artifacts of a document version", () => {
  it("are read back for the published version and survive a fresh store over the same bytes", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    const store = new PageIndexStore(byteStore);
    await store.addTree(makeTree("a"));
    expect(await store.getDerived("a", "lexical-v1")).toBeUndefined();
    expect(await store.putDerived("a", "lexical-v1", bytes("index"))).toBe(true);
    expect(text(await new PageIndexStore(byteStore).getDerived("a", "lexical-v1"))).toBe("index");
  });

  it("are removed when the document is replaced or deleted, and only that document's", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    const store = new PageIndexStore(byteStore, { supersededGraceMs: 0 });
    await store.addTree(makeTree("a"));
    await store.addTree(makeTree("a.b")); // an id extending the other one's, dot included
    await store.putDerived("a", "idx", bytes("old"));
    await store.putDerived("a.b", "idx", bytes("other"));

    expect(await keysOfA(byteStore)).toHaveLength(1);
    await store.addTree(makeTree("a", { seed: 2 }));
    expect(await keysOfA(byteStore)).toEqual([]);
    expect(await store.getDerived("a", "idx")).toBeUndefined();
    expect(text(await store.getDerived("a.b", "idx"))).toBe("other");
    await store.putDerived("a", "idx", bytes("new"));
    expect(text(await store.getDerived("a", "idx"))).toBe("new");

    await store.deleteDocument("a");
    expect(await keysOfA(byteStore)).toEqual([]);
    expect(text(await store.getDerived("a.b", "idx"))).toBe("other");
  });

  it("are invisible to vacuum and listing, and checked", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    const store = new PageIndexStore(byteStore);
    await store.addTree(makeTree("a"));
    await store.putDerived("a", "idx", bytes("x"));
    expect((await store.vacuum({ graceMs: 0 })).foreignKeys).toEqual([]);
    expect((await store.listDocuments()).map((d) => d.docId)).toEqual(["a"]);
    await expect(store.putDerived("a", "bad.name", bytes("x"))).rejects.toThrow(InvalidIdError);
    await expect(store.getDerived("missing", "idx")).rejects.toThrow(DocumentNotFoundError);
    expect(await store.putDerived("missing", "idx", bytes("x"))).toBe(false);
    // A bad name is the caller's bug whether or not the document exists.
    await expect(store.getDerived("missing", "bad.name")).rejects.toThrow(InvalidIdError);
    await expect(store.putDerived("missing", "bad.name", bytes("x"))).rejects.toThrow(InvalidIdError);
  });

  it("that no write could remove (a delete over an unreadable head) are removed by vacuum after the grace period", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    const store = new PageIndexStore(byteStore, { onProblem: () => {} });
    for (const id of ["a", "b", "c"]) {
      await store.addTree(makeTree(id));
      await store.putDerived(id, "idx", bytes(id));
    }
    await byteStore.mset([["pageindex.head.a", bytes("garbage")]]);
    expect(await store.deleteDocument("a")).toBe(true); // its version is unknown: artifacts stay
    await byteStore.mset([["pageindex.head.c", bytes("garbage")]]); // unreadable, not deleted
    expect(await keysOfA(byteStore)).toHaveLength(1);

    expect((await store.vacuum()).deletedKeys).toBe(0); // the version is younger than 15 minutes
    expect(await keysOfA(byteStore)).toHaveLength(1);
    expect((await store.vacuum({ graceMs: 0 })).deletedKeys).toBeGreaterThanOrEqual(1);
    expect(await keysOfA(byteStore)).toEqual([]);
    expect(text(await store.getDerived("b", "idx"))).toBe("b");
    expect(await allKeys(byteStore, "pageindex.derived.c.")).toHaveLength(1);
  });

  it("are read without the head when the caller gives the skeleton it read from the handle", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    const read: string[] = [];
    const mget = byteStore.mget.bind(byteStore);
    byteStore.mget = async (keys: string[]) => {
      read.push(...keys);
      return mget(keys);
    };
    const store = new PageIndexStore(byteStore, { supersededGraceMs: 0 });
    await store.addTree(makeTree("a"));
    await store.putDerived("a", "idx", bytes("first"));
    const skeleton = await store.getSkeleton("a");
    read.length = 0;
    expect(text(await store.getDerived("a", "idx", skeleton))).toBe("first");
    expect(read.filter((key) => key.includes(".head."))).toEqual([]);
    // Another skeleton object (not this handle's last read): the head says which version.
    read.length = 0;
    expect(text(await store.getDerived("a", "idx", structuredClone(skeleton)))).toBe("first");
    expect(read.filter((key) => key.includes(".head."))).toHaveLength(1);
    // Replaced by another handle (which removes the old version's): the old skeleton's version
    // is read, never the new one's value.
    const writer = new PageIndexStore(byteStore, { supersededGraceMs: 0, derivedNames: ["idx"] });
    await writer.addTree(makeTree("a", { seed: 2 }));
    await writer.putDerived("a", "idx", bytes("second"));
    expect(await store.getDerived("a", "idx", skeleton)).toBeUndefined();
    expect(text(await store.getDerived("a", "idx"))).toBe("second");
  });
});
