/**
 * The store's own files under attack or damage (issue 28): a head, catalog segment or library
 * file that is a FIFO, a link to /dev/zero or a directory is refused without blocking; damaged
 * or missing catalog segments are reported with the command that repairs them and never hide
 * documents; vacuum repairs them; read-only stores report nothing they did not do; a killed
 * batch's documents are found on the next open; a full disk is a typed store error.
 */
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InMemoryStore } from "@langchain/core/stores";
import type { TreeDocument } from "pageindex-core";
import { afterEach, describe, expect, it } from "vitest";
import {
  FileByteStore,
  LibraryIndexError,
  PageIndexStore,
  StoreCorruptionError,
  StoreReadOnlyError,
  StoreWriteError,
} from "../src/index.js";
import { LIBRARY_FOLDER } from "../src/library/sqlite/folder-library.js";
import { LIBRARY_FILE, SqliteLibraryIndex } from "../src/library/sqlite/sqlite-library-index.js";
import type { LibraryEntry } from "../src/library/types.js";
import { allKeys, WrappedStore } from "./helpers/stores.js";
import { topicTree } from "./helpers/trees.js";

const folders: string[] = [];
const stores: PageIndexStore[] = [];
afterEach(async () => {
  for (const store of stores.splice(0)) await store.close();
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), "pageindex-faults-"));
  folders.push(dir);
  return dir;
}

/** A made-up topic word per number (letters only). */
const word = (i: number) => `zq${"abcdefghij"[i % 10]}${"klmnopqrst"[Math.floor(i / 10) % 10]}v`;
const batch = (count: number): TreeDocument[] =>
  Array.from({ length: count }, (_, i) => topicTree(`doc-${i}`, [word(i), "granite"]));

async function open(dir: string, options: Parameters<typeof PageIndexStore.fromPath>[1] = {}) {
  const problems: Error[] = [];
  const store = await PageIndexStore.fromPath(dir, { onProblem: (p) => problems.push(p), ...options });
  stores.push(store);
  return { store, problems };
}

const found = async (store: PageIndexStore, query = "granite") =>
  (await store.searchDocuments(query, { limit: 50 })).map((m) => m.card.docId).sort();

/** A store folder without a library index, so searches and pages go through the catalog. */
async function catalogStore(count: number, options: { segmentDocs?: number } = {}): Promise<string> {
  const dir = folder();
  const { store } = await open(dir, {
    library: false,
    ...(options.segmentDocs ? { catalogSegmentDocs: options.segmentDocs } : {}),
  });
  await store.addTrees(batch(count));
  return dir;
}

const segments = (dir: string) => readdirSync(dir).filter((name) => name.includes(".catalog.seg."));

/** Replaces a file by a FIFO, a link to /dev/zero, a directory or garbage. */
function damage(path: string, how: "fifo" | "zero" | "directory" | "garbage"): void {
  unlinkSync(path);
  if (how === "fifo") execFileSync("mkfifo", [path]);
  else if (how === "zero") symlinkSync("/dev/zero", path);
  else if (how === "directory") mkdirSync(path);
  else writeFileSync(path, "not gzip at all");
}

describe("the store's own files are read bounded and type-checked", () => {
  for (const how of ["fifo", "zero", "directory"] as const) {
    it(`a head that is a ${how} is a corrupt document, reported by list and refused by reads`, async () => {
      const dir = folder();
      const { store: writer } = await open(dir);
      await writer.addTrees(batch(3));
      damage(join(dir, "pageindex.head.doc-1"), how);
      const { store, problems } = await open(dir, { readOnly: true });
      expect((await store.listDocuments()).map((d) => d.docId)).toEqual(["doc-0", "doc-2"]);
      expect(problems.map((p) => p.message).join("\n")).toMatch(/pageindex\.head\.doc-1.*not a regular file/);
      await expect(store.getSkeleton("doc-1")).rejects.toBeInstanceOf(StoreCorruptionError);
    });
  }

  it("a value over maxValueBytes is refused as corrupt, not read whole", async () => {
    const dir = folder();
    const bytes = new FileByteStore(dir, { maxValueBytes: 16 });
    writeFileSync(join(dir, "big"), "x".repeat(17));
    writeFileSync(join(dir, "small"), "x".repeat(16));
    await expect(bytes.mget(["big"])).rejects.toThrow(/over the 16-byte limit/);
    expect((await bytes.mget(["small", "absent"]))[1]).toBeUndefined();
  });

  for (const how of ["fifo", "zero"] as const) {
    it(`a library index file that is a ${how} is a LibraryIndexError naming it`, async () => {
      const dir = folder();
      const { store } = await open(dir);
      await store.addTrees(batch(2));
      await store.close();
      const file = join(dir, LIBRARY_FOLDER, LIBRARY_FILE);
      damage(file, how);
      for (const readOnly of [false, true]) {
        const error = await PageIndexStore.fromPath(dir, { readOnly }).catch((e: unknown) => e);
        expect(error).toBeInstanceOf(LibraryIndexError);
        expect((error as Error).message).toMatch(/library\.sqlite.*not a regular file/);
      }
    });
  }
});

describe("catalog damage is visible and repaired", () => {
  for (const how of ["fifo", "zero", "directory", "garbage"] as const) {
    it(`a catalog segment that is a ${how} hides nothing and names the fix; vacuum removes it`, async () => {
      const dir = await catalogStore(6);
      const [first] = segments(dir);
      damage(join(dir, first as string), how);

      const { store, problems } = await open(dir, { library: false, readOnly: true });
      expect(await found(store)).toEqual(["doc-0", "doc-1", "doc-2", "doc-3", "doc-4", "doc-5"]);
      expect((await store.listDocuments({ limit: 10 })).total).toBe(6);
      const messages = problems.map((p) => p.message).join("\n");
      expect(messages).toContain(first);
      expect(messages).toMatch(/pageindex vacuum/);
      expect(messages).not.toMatch(/Add the document again/);

      const { store: writer } = await open(dir, { library: false });
      const result = await writer.vacuum();
      expect(result.catalogSegmentsRemoved).toBeGreaterThan(0);
      expect(segments(dir)).not.toContain(first);
      const { store: after, problems: later } = await open(dir, { library: false, readOnly: true });
      expect(await found(after)).toHaveLength(6);
      expect(later).toEqual([]);
    });
  }

  it("every segment deleted while trees are stored: not 'empty', reported, rebuilt by vacuum", async () => {
    const dir = await catalogStore(5);
    for (const name of segments(dir)) unlinkSync(join(dir, name));
    const { store, problems } = await open(dir, { library: false, readOnly: true });
    expect((await store.listDocuments({ limit: 10 })).total).toBe(5);
    expect(await found(store)).toHaveLength(5);
    expect(problems.map((p) => p.message).join("\n")).toMatch(/lists no document.*pageindex vacuum/s);

    const { store: writer } = await open(dir, { library: false });
    await writer.vacuum();
    expect(segments(dir).length).toBeGreaterThan(0);
    const { store: after, problems: later } = await open(dir, { library: false, readOnly: true });
    expect(await found(after)).toHaveLength(5);
    expect(later).toEqual([]);
  });

  it("rebuildCatalog removes a damaged segment too", async () => {
    const dir = await catalogStore(4);
    const [first] = segments(dir);
    damage(join(dir, first as string), "garbage");
    const { store } = await open(dir, { library: false });
    expect(await store.rebuildCatalog()).toBe(4);
    expect(segments(dir)).not.toContain(first);
  });
});

describe("read-only stores report nothing they did not do", () => {
  it("vacuum and rebuildCatalog refuse, and no file changes", async () => {
    const dir = await catalogStore(6, { segmentDocs: 1 });
    const before = readdirSync(dir).sort();
    const { store } = await open(dir, { library: false, readOnly: true });
    await expect(store.vacuum()).rejects.toBeInstanceOf(StoreReadOnlyError);
    await expect(store.rebuildCatalog()).rejects.toBeInstanceOf(StoreReadOnlyError);
    expect(readdirSync(dir).sort()).toEqual(before);
  });
});

describe("a killed batch's documents are found on the next open", () => {
  it("catalog: the cards it never wrote are written when the catalog is loaded", async () => {
    const byteStore = new InMemoryStore<Uint8Array>();
    await new PageIndexStore(byteStore).addTree(topicTree("first", ["quartz"]));
    const failing = new WrappedStore(byteStore);
    failing.failOnCatalogMset = 1;
    const dying = new PageIndexStore(failing, { onProblem: () => undefined });
    await dying.addTrees(batch(5)); // published; the catalog segment could not be written
    // A fresh handle that only reads (the sweep's grace period has not passed).
    const reader = new PageIndexStore(byteStore);
    expect(await found(reader)).toEqual(["doc-0", "doc-1", "doc-2", "doc-3", "doc-4"]);
    expect((await reader.listDocuments({ limit: 10 })).total).toBe(6);
  });

  it("SQLite library: the versions it published are indexed when the folder is opened", async () => {
    const dir = folder();
    mkdirSync(join(dir, LIBRARY_FOLDER));
    const index = await SqliteLibraryIndex.open(join(dir, LIBRARY_FOLDER));
    let killed = false;
    const crash = async () => {
      if (killed) throw new Error("simulated crash: killed before indexing");
    };
    // The writer dies after publishing the heads, before indexing them in the library.
    const dying = Object.assign(Object.create(index) as SqliteLibraryIndex, {
      putDocuments: async (entries: readonly LibraryEntry[]) => {
        await crash();
        await index.putDocuments(entries);
      },
      putDocument: async (entry: LibraryEntry) => {
        await crash();
        await index.putDocument(entry);
      },
    });
    const writer = new PageIndexStore(await FileByteStore.fromPath(dir), {
      library: dying,
      onProblem: () => undefined,
    });
    await writer.addTree(topicTree("first", ["quartz"]));
    killed = true;
    await writer.addTrees(batch(4));
    expect((await index.pending()).size).toBe(4);
    expect(await index.count()).toBe(1);
    await index.close();

    // Read-only: the index cannot change; the gap is reported with the command that fills it.
    const { problems } = await open(dir, { readOnly: true });
    expect(problems.map((p) => p.message).join("\n")).toMatch(
      /4 document\(s\).*pageindex index, or pageindex vacuum/,
    );

    const { store } = await open(dir);
    const hits = await store.searchLibrary("granite", { limit: 10 });
    expect(hits.map((hit) => hit.docId).sort()).toEqual(["doc-0", "doc-1", "doc-2", "doc-3"]);
    expect(await store.repairLibrary()).toBe(0);
  });
});

describe("store write errors are typed", () => {
  it("ENOSPC from the file system is StoreWriteError, and nothing half-written is published", async () => {
    const dir = mountTmpfs("64k");
    if (dir === undefined) {
      console.warn("[faults] tmpfs not mountable here (needs root): the full-disk case is skipped");
      return;
    }
    try {
      const { store } = await open(dir, { library: false });
      await store.addTree(topicTree("small", ["basalt"]));
      const big = topicTree("big", ["granite"]);
      for (const node of big.nodes) node.text = "granite ".repeat(20_000);
      const error = await store.addTree(big).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(StoreWriteError);
      expect((error as StoreWriteError).code).toBe("ENOSPC");
      expect((error as Error).message).toMatch(/disk is full/);
      expect((await store.listDocuments()).map((d) => d.docId)).toEqual(["small"]);
      expect(await allKeys(await FileByteStore.fromPath(dir), "pageindex.head.")).toEqual([
        "pageindex.head.small",
      ]);
      await store.close();
    } finally {
      execFileSync("umount", ["-l", dir], { stdio: "ignore" });
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Mounts a small tmpfs (root only) on a new folder; `undefined` when it cannot. */
function mountTmpfs(size: string): string | undefined {
  const dir = mkdtempSync(join(tmpdir(), "pageindex-tmpfs-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size}`, "tmpfs", dir], { stdio: "ignore" });
    return dir;
  } catch {
    rmSync(dir, { recursive: true, force: true });
    return undefined;
  }
}
