/**
 * A writer process is SIGKILLed while replacing a large tree; afterwards a reader must get
 * the old tree or the new one, intact, and vacuum must remove what the writer left behind.
 */

import type { TreeDocument } from "pageindex-core";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileLocation, redisLocation, type SharedLocation } from "./helpers/backends.js";
import { redisReachable } from "./helpers/redis.js";
import { kill, startWriter } from "./helpers/spawn.js";
import { allKeys } from "./helpers/stores.js";
import { makeTree } from "./helpers/trees.js";

const redisUp = await redisReachable("crash.test.ts");

const NODES = 4000;
const TEXT = 400;
const CHUNK = 16_000;
const big = (seed: number): TreeDocument => makeTree("big", { nodes: NODES, seed, textChars: TEXT });
const writerDoc = (seed: number) => ({ docId: "big", nodes: NODES, seed, textChars: TEXT });

/** Version ids present under the document's keys. */
async function versions(location: SharedLocation): Promise<Set<string>> {
  const keys = await allKeys(await location.byteStore(), "pageindex.doc.big.v.");
  return new Set(keys.map((key) => key.split(".")[4] as string));
}

const backends: Array<[string, () => Promise<SharedLocation>, boolean]> = [
  ["file store", fileLocation, false],
  ["Redis", () => redisLocation("crash"), !redisUp],
];

describe.each(backends)("crash while replacing a large tree (%s)", (_name, make, skip) => {
  let location: SharedLocation;
  beforeEach(async () => {
    if (skip) return;
    location = await make();
    await (await location.open({ chunkChars: CHUNK })).addTree(big(1));
  });
  afterEach(async () => {
    if (!skip) await location.cleanup();
  });

  it.skipIf(skip)("killed while writing the new version: readers get the old tree", async () => {
    const writer = startWriter({
      ...location.job,
      docs: [writerDoc(2)],
      chunkChars: CHUNK,
      writeBatchSize: 8,
      pauseAt: { mset: 7 }, // the pending marker, then 5 batches of 8 keys
    });
    await writer.waitFor("PAUSED");
    await kill(writer);

    expect((await versions(location)).size).toBe(2); // the old one and the half-written one
    const reader = await location.open();
    expect(await reader.getTree("big")).toEqual(big(1));
    expect((await reader.listDocuments()).map((d) => d.docId)).toEqual(["big"]);
    expect(await reader.vacuum({ graceMs: 0 })).toMatchObject({ removedVersions: 1, deletedKeys: 40 });
    expect((await versions(location)).size).toBe(1);
    expect(await (await location.open()).getTree("big")).toEqual(big(1));
  });

  it.skipIf(skip)("killed after the switch, before cleanup: readers get the new tree", async () => {
    const writer = startWriter({
      ...location.job,
      docs: [writerDoc(2)],
      chunkChars: CHUNK,
      pauseAt: "mdelete",
    });
    await writer.waitFor("PAUSED");
    await kill(writer);

    const reader = await location.open();
    expect(await reader.getTree("big")).toEqual(big(2));
    expect((await versions(location)).size).toBe(2);
    expect((await reader.vacuum({ graceMs: 0 })).removedVersions).toBe(1);
    expect(await (await location.open()).getTree("big")).toEqual(big(2));
  });

  // The bound below is a hang guard, not a speed check: seven writer processes start under tsx,
  // about 25 s each at load 12 (the suite's 180 s default ran out there).
  it.skipIf(skip)(
    "killed at random moments: always the old or the new tree, whole",
    async () => {
      // How long one replacement takes in a writer process, to spread the kills over it.
      const timing = startWriter({ ...location.job, docs: [writerDoc(2)], chunkChars: CHUNK });
      expect(await timing.exited).toBe(0);
      const at = (line: string) => timing.lineTimes[timing.lines.indexOf(line)] as number;
      const writeMs = at("DONE") - at("START big");
      expect(await (await location.open()).getTree("big")).toEqual(big(2));

      let current = 2;
      const outcomes = { old: 0, new: 0 };
      for (let round = 0; round < 6; round += 1) {
        const seed = round + 3;
        const writer = startWriter({ ...location.job, docs: [writerDoc(seed)], chunkChars: CHUNK });
        await writer.waitFor("START");
        // From early in the write to past its end, with jitter.
        const delay = writeMs * (0.2 + 0.35 * round) * (0.85 + 0.3 * Math.random());
        await new Promise((resolve) => setTimeout(resolve, delay));
        const finished = writer.lines.includes("DONE");
        await kill(writer);

        const tree = await (await location.open()).getTree("big");
        if (tree.nodes[0]?.title === big(seed).nodes[0]?.title) {
          expect(tree).toEqual(big(seed));
          current = seed;
          outcomes.new += 1;
        } else {
          expect(finished).toBe(false);
          expect(tree).toEqual(big(current));
          outcomes.old += 1;
        }
      }
      console.info(
        `[crash.test] ${_name}: a replacement takes ${writeMs.toFixed(0)} ms; ${outcomes.old} kills left the old tree, ${outcomes.new} the new one`,
      );
      await (await location.open()).vacuum({ graceMs: 0 });
      expect((await versions(location)).size).toBe(1);
      expect(await (await location.open()).getTree("big")).toEqual(big(current));
    },
    600_000,
  );
});
