/** Several processes write to one store at once; nothing may be lost or mixed. */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileLocation, redisLocation, type SharedLocation } from "./helpers/backends.js";
import { redisReachable } from "./helpers/redis.js";
import { startWriter, type Writer } from "./helpers/spawn.js";
import { allKeys } from "./helpers/stores.js";
import { makeTree } from "./helpers/trees.js";

const redisUp = await redisReachable("concurrency.test.ts");

/** Starts writers, waits until all are ready, then releases them together. */
async function runTogether(jobs: object[]): Promise<Writer[]> {
  const writers = jobs.map((job) => startWriter({ ...job, waitForGo: true }));
  await Promise.all(writers.map((w) => w.waitFor("READY")));
  for (const writer of writers) writer.child.stdin?.write("go\n");
  const codes = await Promise.all(writers.map((w) => w.exited));
  expect(codes).toEqual(writers.map(() => 0));
  return writers;
}

const backends: Array<[string, () => Promise<SharedLocation>, boolean]> = [
  ["file store", fileLocation, false],
  ["Redis", () => redisLocation("concurrency"), !redisUp],
];

describe.each(backends)("concurrent writer processes (%s)", (_name, make, skip) => {
  let location: SharedLocation;
  beforeEach(async () => {
    if (!skip) location = await make();
  });
  afterEach(async () => {
    if (!skip) await location.cleanup();
  });

  it.skipIf(skip)("N processes adding different documents at once: all present after", async () => {
    const processes = 6;
    const perProcess = 3;
    const doc = (p: number, d: number) => ({ docId: `p${p}-d${d}`, nodes: 300, seed: p * 10 + d });
    await runTogether(
      Array.from({ length: processes }, (_, p) => ({
        ...location.job,
        chunkChars: 4000,
        docs: Array.from({ length: perProcess }, (_, d) => doc(p, d)),
      })),
    );
    const reader = await location.open();
    const expected = Array.from({ length: processes }, (_, p) =>
      Array.from({ length: perProcess }, (_, d) => doc(p, d)),
    ).flat();
    expect((await reader.listDocuments()).map((d) => d.docId)).toEqual(expected.map((d) => d.docId).sort());
    for (const d of expected) {
      expect(await reader.getTree(d.docId)).toEqual(makeTree(d.docId, { nodes: d.nodes, seed: d.seed }));
    }
  });

  it.skipIf(skip)("processes replacing the same document at once: one of them wins, intact", async () => {
    const seeds = [11, 12, 13, 14];
    await runTogether(
      seeds.map((seed) => ({
        ...location.job,
        chunkChars: 4000,
        docs: [{ docId: "shared", nodes: 1500, seed }],
      })),
    );
    const reader = await location.open();
    const tree = await reader.getTree("shared");
    const winner = seeds.find(
      (seed) => tree.nodes[0]?.title === makeTree("shared", { nodes: 1, seed }).nodes[0]?.title,
    );
    expect(winner).toBeDefined();
    expect(tree).toEqual(makeTree("shared", { nodes: 1500, seed: winner as number }));
    // Losers' versions stay until they pass the grace period (they might be mid-write); vacuum(0) clears them.
    await reader.vacuum({ graceMs: 0 });
    const skeletons = (await allKeys(await location.byteStore(), "pageindex.doc.shared.")).filter((k) =>
      k.endsWith(".skeleton"),
    );
    expect(skeletons).toHaveLength(1);
    expect(await (await location.open()).getTree("shared")).toEqual(tree);
  });
});
