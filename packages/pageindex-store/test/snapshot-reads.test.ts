/**
 * Fault suite, readers during writes: a reader process reads a document while this process
 * replaces it 500 times. No read may fail nor see a mix of two versions (README: "Readers during
 * writes"). The reader's store reads take 5 ms longer, as on a slower disk or network: the
 * window in which a replacement could delete what a read is about to fetch.
 */
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { fileLocation, redisLocation, type SharedLocation } from "./helpers/backends.js";
import { redisReachable } from "./helpers/redis.js";
import { startReader } from "./helpers/spawn.js";
import { allKeys } from "./helpers/stores.js";
import { makeTree } from "./helpers/trees.js";

const redisUp = await redisReachable("snapshot-reads.test.ts");
const NODES = 300;
const REPLACEMENTS = 500;

interface ReaderResult {
  reads: number;
  failed: number;
  mixed: number;
  versions: number;
  errors: string[];
}

/** Replaces the document `REPLACEMENTS` times while a reader process reads it; the reader's tally. */
async function readDuringReplacements(
  location: SharedLocation,
  supersededGraceMs?: number,
  replacements = REPLACEMENTS,
) {
  const options = { chunkChars: 2000, ...(supersededGraceMs === undefined ? {} : { supersededGraceMs }) };
  const writer = await location.open(options);
  await writer.addTree(makeTree("doc", { nodes: NODES, seed: 0 }));
  const reader = startReader({
    ...location.job,
    docId: "doc",
    nodes: NODES,
    seeds: [0, replacements],
    readDelayMs: 5,
  });
  await reader.waitFor("READY");
  for (let seed = 1; seed <= replacements; seed += 1) {
    await writer.addTree(makeTree("doc", { nodes: NODES, seed }));
  }
  reader.child.stdin?.write("stop\n");
  await reader.waitFor("RESULT");
  expect(await reader.exited).toBe(0);
  const line = reader.lines.find((l) => l.startsWith("RESULT ")) as string;
  return { result: JSON.parse(line.slice("RESULT ".length)) as ReaderResult, writer };
}

const backends: Array<[string, () => Promise<SharedLocation>, boolean]> = [
  ["folder store", fileLocation, false],
  ["Redis", () => redisLocation("snapshot"), !redisUp],
];

describe.each(backends)(
  "a reader process during %i replacements (%s)".replace("%i", String(REPLACEMENTS)),
  (_name, make, skip) => {
    let location: SharedLocation;
    beforeEach(async () => {
      if (!skip) location = await make();
    });
    afterEach(async () => {
      if (!skip) await location.cleanup();
    });

    // Hang guards, not speed checks: 500 folder-store replacements took over 180 s beside the
    // rest of the suite at load 15.
    it.skipIf(skip)(
      "never fails and never mixes versions (default grace period)",
      { timeout: 600_000 },
      async () => {
        const { result } = await readDuringReplacements(location);
        console.info(`[snapshot-reads] ${_name}: ${JSON.stringify(result)}`);
        expect(result.errors).toEqual([]);
        expect(result).toMatchObject({ failed: 0, mixed: 0 });
        expect(result.reads).toBeGreaterThan(20);
        expect(result.versions).toBeGreaterThan(1); // it did read while the document changed
      },
    );

    it.skipIf(skip)(
      "nor during 150 with a 0.5 s grace period, superseded versions being deleted meanwhile",
      { timeout: 600_000 },
      async () => {
        const { result, writer } = await readDuringReplacements(location, 500, 150);
        expect(result.errors).toEqual([]);
        expect(result).toMatchObject({ failed: 0, mixed: 0 });
        expect(result.versions).toBeGreaterThan(1);
        await new Promise((resolve) => setTimeout(resolve, 600));
        await writer.addTree(makeTree("doc", { nodes: NODES, seed: 1 })); // the grace ended: removes the rest
        const skeletons = (await allKeys(await location.byteStore(), "pageindex.doc.doc.")).filter((k) =>
          k.endsWith(".skeleton"),
        );
        expect(skeletons.length).toBeLessThan(3);
      },
    );
  },
);
