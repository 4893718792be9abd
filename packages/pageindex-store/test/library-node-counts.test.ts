import { copyFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { libraryEntry } from "../src/library/entry.js";
import { LIBRARY_FILE, SqliteLibraryIndex } from "../src/library/sqlite/sqlite-library-index.js";
import { tempFolders } from "./helpers/temp-folders.js";
import { libraryTree } from "./library.behaviour.js";

const folder = tempFolders("library-node-counts-");

/** Runs statements on the index file through another connection. */
async function onFile<T>(dir: string, work: (db: import("libsql").Database) => T): Promise<T> {
  const { default: Sqlite } = await import("libsql");
  const db = new Sqlite(join(dir, LIBRARY_FILE));
  try {
    return work(db);
  } finally {
    db.close();
  }
}

/** The node-count table's rows and the sections' own counts, by document row. */
function counts(db: import("libsql").Database): { table: unknown[]; sections: unknown[] } {
  return {
    table: db.prepare("SELECT doc, nodes FROM document_nodes ORDER BY doc").raw(true).all(),
    sections: db
      .prepare("SELECT id / 2097152 AS doc, count(*) FROM sections GROUP BY id / 2097152 ORDER BY doc")
      .raw(true)
      .all(),
  };
}

/** A document of `size` sections sharing the words the queries ask for, fewer as `i` grows. */
const entry = (i: number, size: number, version = "v1") =>
  libraryEntry(
    libraryTree(
      `doc-${i}`,
      Array.from({ length: size }, (_, s) => ({
        title: s === 0 ? `Gasket valve ${i}` : `Part ${s}`,
        text: s % 3 === 0 ? "The gasket seals the valve housing." : `Notes ${i} ${s} pump.`,
        tokenCount: 6,
      })),
    ),
    version,
  );
const QUERIES = ["gasket valve", "valve housing pump", "notes pump", "gasket"];

describe("SqliteLibraryIndex: node counts kept per document", () => {
  it("keeps each document's count with its sections through puts, replaces and removes", async () => {
    const dir = await folder();
    const index = await SqliteLibraryIndex.open(dir);
    await index.putDocuments(Array.from({ length: 24 }, (_, i) => entry(i, 1 + ((i * 7) % 11))));
    for (let i = 0; i < 6; i += 1) await index.putDocument(entry(i, 12 - i, "v2"));
    for (let i = 20; i < 24; i += 1) await index.removeDocument(`doc-${i}`);
    const rows = await onFile(dir, counts);
    expect(rows.table).toEqual(rows.sections);
    expect(rows.table).toHaveLength(20);
    // The length prior reads them: the same ranking as counting every document's sections.
    const ranked = await Promise.all(QUERIES.map((q) => index.searchLibrary(q, { limit: 10 })));
    await index.close();
    const old = await folder();
    await copyFile(join(dir, LIBRARY_FILE), join(old, LIBRARY_FILE));
    await onFile(old, (db) => db.exec("DROP TABLE document_nodes"));
    const counting = await SqliteLibraryIndex.open(old, { readOnly: true });
    expect(await Promise.all(QUERIES.map((q) => counting.searchLibrary(q, { limit: 10 })))).toEqual(ranked);
    expect(ranked.flat().length).toBeGreaterThan(10);
    await counting.close();
  });

  it("fills the table of a file written without it on the first writable open", async () => {
    const dir = await folder();
    const index = await SqliteLibraryIndex.open(dir);
    await index.putDocuments(Array.from({ length: 10 }, (_, i) => entry(i, 1 + i)));
    await index.close();
    await onFile(dir, (db) => db.exec("DROP TABLE document_nodes"));
    // Read-only, the file stays as it is (its ranges are counted).
    const reader = await SqliteLibraryIndex.open(dir, { readOnly: true });
    const before = await reader.searchLibrary("gasket valve", { limit: 10 });
    await reader.close();
    const writer = await SqliteLibraryIndex.open(dir);
    const rows = await onFile(dir, counts);
    expect(rows.table).toEqual(rows.sections);
    expect(rows.table).toHaveLength(10);
    expect(await writer.searchLibrary("gasket valve", { limit: 10 })).toEqual(before);
    await writer.close();
  });
});
