import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { PageIndexStore } from "../src/index.js";
import { libraryEntry } from "../src/library/entry.js";
import { LIBRARY_FILE, SqliteLibraryIndex } from "../src/library/sqlite/sqlite-library-index.js";
import { StoreReadOnlyError } from "../src/store/errors.js";
import { tempFolders } from "./helpers/temp-folders.js";
import { libraryTree } from "./library.behaviour.js";

const folder = tempFolders("library-segments-");

/** A value read from the index file by another connection. */
async function peek(dir: string, source: string): Promise<unknown> {
  const { default: Sqlite } = await import("libsql");
  const db = new Sqlite(join(dir, LIBRARY_FILE), { readonly: true });
  try {
    return (db.prepare(source).raw(true).get() as unknown[] | undefined)?.[0];
  } finally {
    db.close();
  }
}

/** FTS5 segments of an index table (each has at least one `_idx` row). */
async function segments(dir: string, table: "section_terms" | "card_terms"): Promise<number> {
  return Number(await peek(dir, `SELECT count(DISTINCT segid) FROM ${table}_idx`));
}

/** Sections and cards written or removed since the writer's last merge (undefined before any). */
async function writtenSince(dir: string): Promise<number | undefined> {
  const value = await peek(dir, "SELECT value FROM library_meta WHERE key = 'segments_written'");
  return value === undefined ? undefined : Number(value);
}

const WORDS = ["gasket", "valve", "pump", "flange", "housing", "sprocket", "widget", "okapi"];
/** A document of three sections, its words varying with `i`. */
const tree = (i: number, version = "v1") =>
  libraryTree(`doc-${i}`, [
    {
      title: `${WORDS[i % 8]} care`,
      text: `Clean the ${WORDS[(i + 1) % 8]} and the ${WORDS[(i * 3) % 8]}.`,
      tokenCount: 6,
    },
    {
      title: "Parts",
      text: `A ${WORDS[(i + 5) % 8]} holds the ${WORDS[(i + 2) % 8]} ${version}.`,
      tokenCount: 6,
    },
    { title: "Faults", text: `A cracked ${WORDS[(i * 5) % 8]} leaks.`, tokenCount: 4 },
  ]);
const entry = (i: number, version = "v1") => libraryEntry(tree(i, version), version);
const QUERIES = [
  "gasket valve leaks",
  "cracked flange",
  "widget okapi parts",
  "pump housing care",
  "sprocket",
];

describe("SqliteLibraryIndex: merged FTS5 segments", () => {
  it("merges the indexes as a writer's transactions add segments, and ranks as before the merge", async () => {
    const dir = await folder();
    const index = await SqliteLibraryIndex.open(dir);
    const merged: number[] = [];
    const between: number[] = [];
    for (let i = 0; i < 40; i += 1) {
      await index.putDocument(entry(i));
      // One transaction a document adds a segment each. The writer merges them into one once the
      // sections written since the last merge reach half the index (its count then starts again).
      if ((await writtenSince(dir)) === 0) merged.push(await segments(dir, "section_terms"));
      else between.push(await segments(dir, "section_terms"));
    }
    expect(merged.length).toBeGreaterThanOrEqual(5);
    expect(new Set(merged)).toEqual(new Set([1]));
    expect(Math.max(...between)).toBeGreaterThan(1);
    // At most a third of the index's rows were written since the last merge.
    const rows = 40 * 3;
    expect(
      Number(await peek(dir, "SELECT value FROM library_meta WHERE key = 'segments_merged_rows'")),
    ).toBeGreaterThanOrEqual((2 * rows) / 3);
    const before = await Promise.all(QUERIES.map((q) => index.searchSections(q, { limit: 50 })));
    const libraryBefore = await Promise.all(QUERIES.map((q) => index.searchLibrary(q, { limit: 10 })));
    await index.mergeSegments();
    expect(await segments(dir, "section_terms")).toBe(1);
    expect(await segments(dir, "card_terms")).toBe(1);
    expect(await Promise.all(QUERIES.map((q) => index.searchSections(q, { limit: 50 })))).toEqual(before);
    expect(await Promise.all(QUERIES.map((q) => index.searchLibrary(q, { limit: 10 })))).toEqual(
      libraryBefore,
    );
    expect(before.flat().length).toBeGreaterThan(20);
    await index.close();
  });

  it("counts replaces and removes as writes, and a merged index answers as a fresh handle does", async () => {
    const dir = await folder();
    const writer = await SqliteLibraryIndex.open(dir);
    await writer.putDocuments(Array.from({ length: 30 }, (_, i) => entry(i)));
    await writer.mergeSegments();
    const mergedRows = () =>
      peek(dir, "SELECT value FROM library_meta WHERE key = 'segments_merged_rows'").then(Number);
    const atMerge = await mergedRows();
    // Replacing and removing documents grows no rows, yet adds segments (and tombstones).
    for (let i = 0; i < 10; i += 1) await writer.putDocument(entry(i, "v2"));
    for (let i = 10; i < 20; i += 1) await writer.removeDocument(`doc-${i}`);
    // Merged again since, the last time after some removes (fewer rows than at the explicit merge).
    expect(await writtenSince(dir)).toBeLessThan(atMerge);
    expect(await mergedRows()).toBeLessThan(atMerge);
    const reader = await SqliteLibraryIndex.open(dir, { readOnly: true });
    for (const q of QUERIES) {
      expect(await reader.searchSections(q, { limit: 50 })).toEqual(
        await writer.searchSections(q, { limit: 50 }),
      );
    }
    expect(
      (await reader.searchSections("gasket valve leaks v2", { limit: 50 })).some((h) => h.docId === "doc-3"),
    ).toBe(true);
    await expect(reader.mergeSegments()).rejects.toBeInstanceOf(StoreReadOnlyError);
    await reader.close();
    await writer.close();
  });

  it("merges a file written without the count on its first writable open, not on a read-only one", async () => {
    const dir = await folder();
    const writer = await SqliteLibraryIndex.open(dir);
    await writer.putDocuments(Array.from({ length: 40 }, (_, i) => entry(i)));
    // A few documents a transaction each, well under half the index: segments, no merge.
    for (let i = 40; i < 44; i += 1) await writer.putDocument(entry(i));
    await writer.close();
    expect(await segments(dir, "section_terms")).toBeGreaterThan(1);
    // As an earlier release left it: no count.
    const { default: Sqlite } = await import("libsql");
    const db = new Sqlite(join(dir, LIBRARY_FILE));
    db.exec("DELETE FROM library_meta WHERE key LIKE 'segments_%'");
    db.close();
    const reader = await SqliteLibraryIndex.open(dir, { readOnly: true });
    const before = await reader.searchSections("gasket valve leaks", { limit: 50 });
    await reader.close();
    expect(await segments(dir, "section_terms")).toBeGreaterThan(1);
    const reopened = await SqliteLibraryIndex.open(dir);
    expect(await segments(dir, "section_terms")).toBe(1);
    expect(await segments(dir, "card_terms")).toBe(1);
    expect(await writtenSince(dir)).toBe(0);
    expect(await reopened.searchSections("gasket valve leaks", { limit: 50 })).toEqual(before);
    await reopened.close();
  });

  it("leaves one segment per index after the store's vacuum", async () => {
    const dir = await folder();
    const store = await PageIndexStore.fromPath(dir);
    for (let i = 0; i < 12; i += 1) await store.addTree(tree(i));
    await store.vacuum();
    await store.close();
    expect(await segments(join(dir, ".library"), "section_terms")).toBe(1);
    expect(await segments(join(dir, ".library"), "card_terms")).toBe(1);
  });
});
