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
      expect(statements.filter((sql) => sql.includes("byte_values"))).toHaveLength(2);
    } finally {
      await pool.end();
      await dropSchema(schema);
    }
  });
});
