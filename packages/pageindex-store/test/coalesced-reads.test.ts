import { describe, expect, it } from "vitest";
import { PageIndexStore, PostgresByteStore } from "../src/index.js";
import { CoalescedReads } from "../src/store/coalesced-reads.js";
import { dropSchema, postgresReachable, recordingPool, testSchema } from "./helpers/postgres.js";
import { makeTree } from "./helpers/trees.js";

/** A key-value source that records each read it is asked for. */
function recordingSource(values: Record<string, string>) {
  const reads: string[][] = [];
  const reads$ = new CoalescedReads<string>(async (keys) => {
    reads.push([...keys].sort());
    return new Map(keys.flatMap((key) => (key in values ? [[key, values[key] as string]] : [])));
  });
  return { reads, reads$ };
}

describe("CoalescedReads", () => {
  it("merges reads started together into one read of their distinct keys, each caller getting its own values", async () => {
    const { reads, reads$ } = recordingSource({ a: "1", b: "2", c: "3" });
    const [first, second, third] = await Promise.all([
      reads$.get(["a", "b"]),
      reads$.get(["b", "missing"]),
      (async () => reads$.get(["c", "a"]))(),
    ]);
    expect(first).toEqual(["1", "2"]);
    expect(second).toEqual(["2", undefined]);
    expect(third).toEqual(["3", "1"]);
    expect(reads).toEqual([["a", "b", "c", "missing"]]);
  });

  it("reads again for a call made after the last read started (never an older value)", async () => {
    const { reads, reads$ } = recordingSource({ a: "1" });
    await reads$.get(["a"]);
    await reads$.get(["a"]);
    expect(reads).toEqual([["a"], ["a"]]);
    expect(await reads$.get([])).toEqual([]);
    expect(reads).toHaveLength(2);
  });

  it("fails every caller of a merged read that failed, and the next read goes on", async () => {
    let fail = true;
    const reads$ = new CoalescedReads<string>(async (keys) => {
      if (fail) throw new Error("server gone");
      return new Map(keys.map((key) => [key, key.toUpperCase()]));
    });
    const outcomes = await Promise.allSettled([reads$.get(["a"]), reads$.get(["b"])]);
    expect(outcomes.map((o) => o.status)).toEqual(["rejected", "rejected"]);
    fail = false;
    expect(await reads$.get(["b"])).toEqual(["B"]);
  });
});

const available = await postgresReachable("coalesced-reads.test.ts");

describe.skipIf(!available)("PostgresByteStore reads several documents at once", () => {
  it("opens three documents' skeletons and texts in one statement a step", async () => {
    const schema = testSchema("coalesce");
    const { pool, statements } = recordingPool();
    try {
      const byteStore = await PostgresByteStore.open(pool, { schema });
      const store = new PageIndexStore(byteStore);
      const trees = ["one", "two", "three"].map((docId) => makeTree(docId));
      await store.addTrees(trees);
      // Another handle: the writer's cache holds the skeletons it wrote.
      const reader = new PageIndexStore(byteStore);
      statements.length = 0;
      const skeletons = await Promise.all(trees.map((t) => reader.getSkeleton(t.docId)));
      expect(skeletons.map((s) => s.docId)).toEqual(["one", "two", "three"]);
      // The heads in one statement, then the three skeletons in one (not two statements a document).
      expect(statements.filter((sql) => sql.includes("byte_values"))).toHaveLength(2);
      statements.length = 0;
      const texts = await Promise.all(
        trees.map((t) => reader.getNodeTexts(t.docId, [t.nodes[0]?.nodeId as string])),
      );
      expect(texts.map((m) => [...m.values()])).toEqual(trees.map((t) => [t.nodes[0]?.text]));
      // The cached skeletons name the versions: heads and texts in one statement.
      expect(statements.filter((sql) => sql.includes("byte_values"))).toHaveLength(1);
    } finally {
      await pool.end();
      await dropSchema(schema);
    }
  });

  it("reads the derived artifacts a handle reads with each skeleton it meets, as fresh as a read", async () => {
    const schema = testSchema("prefetch");
    const { pool, statements } = recordingPool();
    const bytes = (text: string) => new TextEncoder().encode(text);
    const text = (value: Uint8Array | undefined) => value && new TextDecoder().decode(value);
    try {
      const byteStore = await PostgresByteStore.open(pool, { schema });
      const store = new PageIndexStore(byteStore);
      const trees = ["one", "two", "three"].map((docId) => makeTree(docId));
      await store.addTrees(trees);
      for (const t of trees) await store.putDerived(t.docId, "terms", bytes(`terms of ${t.docId}`));
      const reader = new PageIndexStore(byteStore);
      expect(text(await reader.getDerived("one", "terms"))).toBe("terms of one"); // the handle reads "terms"
      statements.length = 0;
      const skeletons = await Promise.all(["two", "three"].map((docId) => reader.getSkeleton(docId)));
      const derived = await Promise.all(skeletons.map((s) => reader.getDerived(s.docId, "terms", s)));
      expect(derived.map(text)).toEqual(["terms of two", "terms of three"]);
      // The heads, then the skeletons with their artifacts: not a third statement for those.
      expect(statements.filter((sql) => sql.includes("byte_values"))).toHaveLength(2);
      // Read again, or after a write, the artifact comes from the store.
      const [two] = skeletons;
      if (!two) throw new Error("no skeleton");
      expect(text(await reader.getDerived("two", "terms", two))).toBe("terms of two");
      const three = await reader.getSkeleton("three"); // a head read: what came with the skeleton is dropped
      await store.putDerived("three", "terms", bytes("new terms of three"));
      expect(text(await reader.getDerived("three", "terms", three))).toBe("new terms of three");
    } finally {
      await pool.end();
      await dropSchema(schema);
    }
  });
});
