// What a document met for the first time costs a warm process in CPU, without the byte store's
// I/O: the values of documents with a saved lexical index (head, skeleton, index) are copied from
// a library the scale bench built (scripts/bench-library-scale.ts) into memory, then, per
// document, timed: reading and checking its skeleton (`getSkeleton` on a handle that never read
// it, `verifyOnRead` "checksum" and "full" on the same documents, alternating which goes first)
// and loading its saved index (`LexicalIndexes.get`, "judge"). Every round meets every copied
// document once per mode, each time on new handles (nothing is served from a handle's cache).
//
// Usage (on the built packages): npx tsx scripts/profile-first-reads.ts --docs 100000
//   [--backend folder|postgres] [--count 500] [--rounds 8]
// Reads the kept libraries (~/.cache/pageindex-bench/scale/folder-<docs> or under XDG_CACHE_HOME;
// PostgreSQL schema scale_<docs>) read-only.
import { InMemoryStore } from "@langchain/core/stores";
import { LEXICAL_INDEX_ARTIFACT, LexicalIndexes } from "pageindex-retriever";
import { openPostgresStore, PageIndexStore } from "pageindex-store";
import { option } from "./cli-option.js";
import { SCALE_POSTGRES_URL, scaleFolder } from "./scale-libraries.js";

const BACKEND = option("backend", "folder");
const DOCS = Number(option("docs", "100000"));
const COUNT = Number(option("count", "500"));
const ROUNDS = Number(option("rounds", "8"));
const MODES = ["checksum", "full"] as const;

const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

async function openLibrary(): Promise<PageIndexStore> {
  if (BACKEND === "postgres") return openPostgresStore(SCALE_POSTGRES_URL, { schema: `scale_${DOCS}` });
  return PageIndexStore.fromPath(scaleFolder(DOCS), { readOnly: true });
}

/** The documents with a saved index: their ids, and their head, skeleton and index values in memory. */
async function copyDocuments(
  count: number,
): Promise<{ docIds: string[]; values: InMemoryStore<Uint8Array> }> {
  const library = await openLibrary();
  const values = new InMemoryStore<Uint8Array>();
  const docIds: string[] = [];
  try {
    const suffix = `.${LEXICAL_INDEX_ARTIFACT}`;
    for await (const key of library.byteStore.yieldKeys("pageindex.derived.")) {
      if (!key.endsWith(suffix)) continue;
      const [, , docId, ...rest] = key.split(".");
      const versionId = rest[0] as string;
      const keys = [`pageindex.head.${docId}`, `pageindex.doc.${docId}.v.${versionId}.skeleton`, key];
      const read = await library.byteStore.mget(keys);
      if (read.some((v) => v === undefined)) continue;
      await values.mset(keys.map((k, i) => [k, read[i] as Uint8Array]));
      docIds.push(docId as string);
      if (docIds.length >= count) break;
    }
  } finally {
    await library.close();
  }
  return { docIds, values };
}

async function main(): Promise<void> {
  const { docIds, values } = await copyDocuments(COUNT);
  console.log(`${docIds.length} documents with a saved index copied`);
  const meet = async (store: PageIndexStore, ids: readonly string[]) => {
    const indexes = new LexicalIndexes(store);
    let skeletonMs = 0;
    let indexMs = 0;
    let textsRead = 0;
    for (const id of ids) {
      let started = process.cpuUsage();
      const skeleton = await store.getSkeleton(id);
      skeletonMs += cpuMs(process.cpuUsage(started));
      started = process.cpuUsage();
      await indexes.get(skeleton, "judge", (nodes) => {
        textsRead += nodes;
      });
      indexMs += cpuMs(process.cpuUsage(started));
    }
    if (textsRead > 0) throw new Error(`${textsRead} texts read: a saved index was not used`);
    return { skeleton: skeletonMs / ids.length, index: indexMs / ids.length };
  };
  // Untimed: every path warmed up.
  for (const mode of MODES) await meet(new PageIndexStore(values, { verifyOnRead: mode }), docIds);
  for (let round = 1; round <= ROUNDS; round += 1) {
    const order = round % 2 === 0 ? MODES : [...MODES].reverse();
    const shown: string[] = [];
    for (const mode of order) {
      const { skeleton, index } = await meet(new PageIndexStore(values, { verifyOnRead: mode }), docIds);
      shown.push(`${mode}: skeleton ${skeleton.toFixed(3)}, lexical index ${index.toFixed(3)}`);
    }
    console.log(`round ${round}, CPU ms a document met first: ${shown.join("; ")}`);
  }
}

await main();
