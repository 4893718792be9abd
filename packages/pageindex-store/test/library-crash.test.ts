/**
 * A writer process SIGKILLed at a chosen step of each write path (it kills itself there, see
 * fixtures/library-crash-writer.ts), on a folder store's SQLite index and on PostgreSQL. Reopened:
 * searches return only readable documents, every document is the old or the new one as the kill
 * point dictates, and after the first write (or `repairLibrary`) the index holds exactly the
 * heads' versions with no intent left; `vacuum` keeps it so.
 */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DocumentNotFoundError, type TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { PageIndexStore, SqliteLibraryIndex } from "../src/index.js";
import { libraryEntry } from "../src/library/entry.js";
import { CHAMPIONS } from "../src/library/sqlite/champions.js";
import { LIBRARY_FOLDER } from "../src/library/sqlite/folder-library.js";
import type { LibraryIndex } from "../src/library/types.js";
import { openPostgresStore, PostgresLibraryIndex } from "../src/postgres/index.js";
import type { CrashAction, CrashDoc, CrashJob, KillStep } from "./fixtures/library-crash-writer.js";
import { expectChampionsAgree } from "./helpers/champions.js";
import { dropSchema, postgresReachable, testSchema } from "./helpers/postgres.js";
import { expectPostgresListsAgree } from "./helpers/postgres-champions.js";
import { startFixture } from "./helpers/spawn.js";
import { topicTree } from "./helpers/trees.js";

const WRITER = fileURLToPath(new URL("./fixtures/library-crash-writer.ts", import.meta.url));
const PG_URL = process.env.PAGEINDEX_TEST_POSTGRES_URL;
if (PG_URL === undefined) {
  console.warn("[library-crash.test] PostgreSQL cases SKIPPED: PAGEINDEX_TEST_POSTGRES_URL is not set.");
}
const pgUp = PG_URL !== undefined && (await postgresReachable("library-crash.test.ts"));

/** Where a case's store lives: a fresh folder or a fresh schema. */
interface Place {
  job: Pick<CrashJob, "engine" | "location" | "schema">;
  open(): Promise<PageIndexStore>;
  /** The store's index, opened beside the store to read its versions and intents. */
  index(): Promise<LibraryIndex>;
  cleanup(): Promise<void>;
}

async function folderPlace(): Promise<Place> {
  const dir = await mkdtemp(join(tmpdir(), "pageindex-libcrash-"));
  return {
    job: { engine: "sqlite", location: dir },
    // With champion lists (the default): the writer process keeps them in step.
    open: () => PageIndexStore.fromPath(dir),
    index: () => SqliteLibraryIndex.open(join(dir, LIBRARY_FOLDER)),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
}

async function postgresPlace(): Promise<Place> {
  const url = PG_URL as string;
  const schema = testSchema("libcrash");
  return {
    job: { engine: "postgres", location: url, schema },
    // With champion lists too, merged every 2 sections: a killed write may leave rows pending or
    // die in a merge (the writer process, opened without asking, keeps them in step).
    open: () => openPostgresStore(url, { schema, championRows: CHAMPIONS.perTerm, championMergeSections: 2 }),
    index: () => PostgresLibraryIndex.fromUrl(url, { schema }),
    cleanup: () => dropSchema(schema),
  };
}

const doc = (docId: string, ...topics: string[]): CrashDoc => ({ docId, topics });
const tree = (d: CrashDoc): TreeDocument => topicTree(d.docId, d.topics);

// Every document has a topic of its own (to find it by) and "ledger" (to find them all).
const SEED = [
  doc("alpha", "aardvark", "ledger"),
  doc("beta", "bison", "ledger"),
  doc("gamma", "gecko", "ledger"),
];
const BETA2 = doc("beta", "bobcat", "ledger");
const NEW = doc("delta", "dingo", "ledger");
const BATCH = [doc("echo", "emu", "ledger"), doc("fox", "ferret", "ledger"), doc("golf", "gnu", "ledger")];
const SENTINEL = doc("zulu", "zebra", "ledger");

interface Case {
  name: string;
  action: CrashAction;
  whileIndexFails?: CrashAction[];
  kill: { step: KillStep; nth?: number };
  /** The documents there must be afterwards (the kill point decides which version). */
  after: CrashDoc[];
  /** Reopen's repair: the first write, or `repairLibrary()`. */
  repairBy: "write" | "repairLibrary";
}

const [ALPHA, BETA, GAMMA] = SEED as [CrashDoc, CrashDoc, CrashDoc];
const add: CrashAction = { op: "addTree", doc: NEW };
const replace: CrashAction = { op: "addTree", doc: BETA2 };
const batch: CrashAction = { op: "addTrees", docs: BATCH };
const remove: CrashAction = { op: "deleteDocument", docId: "beta" };
const vacuum: CrashAction = { op: "vacuum" };
/** Writes the vacuum's writer makes first while every index change fails (their intents stay). */
const unsynced: CrashAction[] = [replace, { op: "deleteDocument", docId: "gamma" }, add];

/** A case: its name, the action, where it dies, the documents afterwards, how reopening repairs. */
const crashCase = (
  name: string,
  action: CrashAction,
  kill: KillStep | { step: KillStep; nth: number },
  after: CrashDoc[],
  repairBy: Case["repairBy"],
): Case => ({
  name,
  action,
  kill: typeof kill === "string" ? { step: kill } : kill,
  after,
  repairBy,
  ...(action.op === "vacuum" ? { whileIndexFails: unsynced } : {}),
});

const CASES: Case[] = [
  crashCase("addTree (new) after its keys, before the head", add, "bytes", SEED, "write"),
  crashCase("addTree (new) after the head, before the index", add, "head", [...SEED, NEW], "repairLibrary"),
  crashCase("addTree (replace) after its keys, before the head", replace, "bytes", SEED, "repairLibrary"),
  crashCase(
    "addTree (replace) after the head, before the index",
    replace,
    "head",
    [ALPHA, BETA2, GAMMA],
    "write",
  ),
  crashCase(
    "addTree (replace) after the index put",
    replace,
    "indexed",
    [ALPHA, BETA2, GAMMA],
    "repairLibrary",
  ),
  crashCase(
    "addTrees after the 2nd of 3 heads",
    batch,
    { step: "head", nth: 2 },
    [...SEED, ...BATCH.slice(0, 2)],
    "write",
  ),
  crashCase(
    "addTrees after every head, before the index",
    batch,
    "index",
    [...SEED, ...BATCH],
    "repairLibrary",
  ),
  crashCase("deleteDocument after its intent", remove, "begin", SEED, "repairLibrary"),
  crashCase("deleteDocument after the head, before the index", remove, "head", [ALPHA, GAMMA], "write"),
  // Before the vacuum, the writer replaced beta, deleted gamma and added delta while the index failed.
  crashCase("vacuum after removing stale versions", vacuum, "swept", [ALPHA, BETA2, NEW], "write"),
  crashCase("vacuum after its first index repair", vacuum, "indexed", [ALPHA, BETA2, NEW], "repairLibrary"),
];

/** Head version of each stored document. */
async function headVersions(store: PageIndexStore): Promise<Map<string, string>> {
  const docIds = (await store.listDocuments()).map((info) => info.docId);
  const raw = await store.byteStore.mget(docIds.map((docId) => store.keys.head(docId)));
  const decoder = new TextDecoder();
  return new Map(
    docIds.map((docId, i) => [
      docId,
      (JSON.parse(decoder.decode(raw[i] as Uint8Array)) as { versionId: string }).versionId,
    ]),
  );
}

/** Every search hit can be read, and is the document expected. */
async function searchesReadable(
  store: PageIndexStore,
  expected: Map<string, TreeDocument>,
): Promise<Set<string>> {
  const found = new Set<string>();
  const words = ["ledger", ...[...SEED, BETA2, NEW, ...BATCH, SENTINEL].flatMap((d) => d.topics)];
  for (const word of new Set(words)) {
    const hits = [
      ...(await store.searchLibrary(word, { limit: 20 })).map((hit) => hit.docId),
      ...(await store.searchDocuments(word, { limit: 20 })).map((match) => match.card.docId),
    ];
    for (const docId of hits) {
      expect(expected.has(docId), `search "${word}" returned "${docId}"`).toBe(true);
      expect(await store.getTree(docId)).toEqual(expected.get(docId));
      found.add(docId);
    }
  }
  return found;
}

/**
 * Index and heads agree: same documents, same versions, no intent left; each term's champion
 * list (with its pending rows) is the best of the sections the heads' documents hold.
 */
async function agree(store: PageIndexStore, index: LibraryIndex, schema: string | undefined): Promise<void> {
  expect(await index.pending()).toEqual(new Map());
  const heads = await headVersions(store);
  expect(await index.indexedVersions()).toEqual(heads);
  if (index instanceof SqliteLibraryIndex) {
    const entries = await Promise.all(
      [...heads].map(async ([docId, versionId]) => libraryEntry(await store.getTree(docId), versionId)),
    );
    await expectChampionsAgree(index.path, entries, CHAMPIONS.perTerm);
  } else if (schema !== undefined) {
    await expectPostgresListsAgree(schema, CHAMPIONS.perTerm, CHAMPIONS.kept);
  }
}

const engines: Array<[string, () => Promise<Place>, boolean]> = [
  ["SQLite folder", folderPlace, false],
  ["PostgreSQL", postgresPlace, !pgUp],
];

describe.each(engines)("library index after a SIGKILL (%s)", (_engine, makePlace, skip) => {
  it.skipIf(skip).concurrent.each(CASES.map((c) => [c.name, c] as const))(
    "%s",
    async (_name, c) => {
      const place = await makePlace();
      try {
        const seeding = await place.open();
        await seeding.addTrees(SEED.map(tree));
        await seeding.close();

        const job: CrashJob = {
          ...place.job,
          action: c.action,
          kill: c.kill,
          ...(c.whileIndexFails ? { whileIndexFails: c.whileIndexFails } : {}),
        };
        const writer = startFixture(WRITER, job);
        await writer.waitFor("ARMED");
        expect(await writer.exited).toBe("SIGKILL");
        expect(writer.lines).not.toContain("SURVIVED");

        const expected = new Map(c.after.map((d) => [d.docId, tree(d)]));
        const store = await place.open();
        const index = await place.index();
        try {
          // Before any repair: whatever the index says, searches only return whole documents.
          await searchesReadable(store, expected);
          expect((await store.listDocuments()).map((info) => info.docId)).toEqual(
            [...expected.keys()].sort(),
          );
          for (const [docId, want] of expected) expect(await store.getTree(docId)).toEqual(want);
          for (const d of [NEW, ...BATCH, BETA]) {
            if (!expected.has(d.docId))
              await expect(store.getTree(d.docId)).rejects.toThrow(DocumentNotFoundError);
          }

          if (c.repairBy === "write") {
            await store.addTree(tree(SENTINEL));
            expected.set(SENTINEL.docId, tree(SENTINEL));
          } else {
            await store.repairLibrary();
          }
          await agree(store, index, place.job.schema);
          // Nothing lost: each document is found by its own topic.
          expect(await searchesReadable(store, expected)).toEqual(new Set(expected.keys()));

          await store.vacuum({ graceMs: 0 });
          await agree(store, index, place.job.schema);
          for (const [docId, want] of expected) expect(await store.getTree(docId)).toEqual(want);
        } finally {
          await index.close();
          await store.close();
        }
      } finally {
        await place.cleanup();
      }
    },
    // A hang guard, not a speed check: the cases run concurrently, each starting a tsx child,
    // and at load 8 a child took over 30 s to start (one minute was too short).
    600_000,
  );
});
