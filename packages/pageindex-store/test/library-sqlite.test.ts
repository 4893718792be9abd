import { chmod, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createTree, PageIndexError } from "pageindex-core";
import { describe, expect, it, vi } from "vitest";
import { LibraryIndexError } from "../src/index.js";
import { libraryEntry } from "../src/library/entry.js";
import { LIBRARY_FILE, SqliteLibraryIndex } from "../src/library/sqlite/sqlite-library-index.js";
import type { SectionHit } from "../src/library/types.js";
import { StoreReadOnlyError } from "../src/store/errors.js";
import { startFixture, type Writer } from "./helpers/spawn.js";
import { tempFolders } from "./helpers/temp-folders.js";
import { crowdedLibrary, libraryBehaviour, libraryTree, pairedLibrary } from "./library.behaviour.js";

const FIXTURE = fileURLToPath(new URL("./fixtures/library-process.ts", import.meta.url));
const folder = tempFolders("library-sqlite-");

/** The JSON a fixture printed on its `RESULT` line, once it exited cleanly. */
async function result(process: Writer): Promise<Record<string, unknown>> {
  await process.waitFor("RESULT");
  expect(await process.exited).toBe(0);
  const line = process.lines.find((l) => l.startsWith("RESULT ")) as string;
  return JSON.parse(line.slice("RESULT ".length)) as Record<string, unknown>;
}

describe("SqliteLibraryIndex: the library index contract", () => {
  libraryBehaviour(async () => SqliteLibraryIndex.open(await folder()));
});

describe("SqliteLibraryIndex: files and processes", () => {
  it("scores the sections holding several terms and each term's best when its terms are found in many", async () => {
    const index = await SqliteLibraryIndex.open(await folder(), { candidateRows: 10, championRows: 1 });
    const common = (i: number) =>
      libraryEntry(libraryTree(`common-${i}`, [{ title: "Widget", text: "A widget.", tokenCount: 2 }]), "v1");
    await index.putDocuments(Array.from({ length: 12 }, (_, i) => common(i)));
    const rare = libraryTree("rare", [
      { title: "Widget sprocket", text: "A sprocket widget.", tokenCount: 3 },
    ]);
    await index.putDocument(libraryEntry(rare, "v1"));
    // "widget" is in 13 sections (> 10): the section holding both words is scored, and the best
    // of each word's champion list (1 row; among equals the later one), not the 11 others.
    expect((await index.searchLibrary("widget sprocket", { limit: 20 })).map((h) => h.docId)).toEqual([
      "rare",
      "common-11",
    ]);
    expect((await index.searchSections("widget sprocket", { limit: 20 })).map((h) => h.docId)).toEqual([
      "rare",
      "common-11",
    ]);
    // Alone, a common term is searched in its whole list (twice the rows read per term).
    expect(await index.searchSections("widget", { limit: 20 })).toHaveLength(2);
    await index.close();
  });

  it("scores a candidate on every query term, exactly as a search of every match does", async () => {
    const dir = await folder();
    const all = await SqliteLibraryIndex.open(dir);
    const tree = (i: number) =>
      libraryTree(`doc-${i}`, [
        {
          title: `Gasket ${i % 3 === 0 ? "valve" : "pump"}`,
          text: "The gasket seals the housing.",
          tokenCount: 5,
        },
        {
          title: "Housing",
          text: i === 7 ? "A cracked flange leaks." : "The housing holds the pump.",
          tokenCount: 5,
        },
      ]);
    await all.putDocuments(Array.from({ length: 12 }, (_, i) => libraryEntry(tree(i), "v1")));
    const query = "gasket housing flange leaks";
    const everything = await all.searchSections(query, { limit: 100 });
    await all.close();
    const few = await SqliteLibraryIndex.open(dir, { readOnly: true, candidateRows: 2, championRows: 1 });
    const candidates = await few.searchSections(query, { limit: 100 });
    await few.close();
    // "flange" and "leaks" are in one section each: doc-7's section holding them is scored, and
    // with the weight of "housing" it also matches, as when every match is scored. Beside it, the
    // best row of each term's list, scored on that term at least.
    expect(candidates[0] && [candidates[0].docId, candidates[0].title]).toEqual(["doc-7", "Housing"]);
    const scoreOf = (h: { docId: string; title: string }) =>
      everything.find((e) => e.docId === h.docId && e.title === h.title)?.score ?? Number.NaN;
    expect(candidates[0]?.score).toBeCloseTo(scoreOf(candidates[0] as SectionHit), 9);
    expect(candidates.length).toBeLessThanOrEqual(1 + 4);
    for (const hit of candidates) expect(hit.score).toBeLessThanOrEqual(scoreOf(hit) + 1e-9);
    expect(everything.length).toBeGreaterThan(20);
  });

  it("scores the sections holding several query terms, not every section holding one of them", async () => {
    const dir = await folder();
    const all = await SqliteLibraryIndex.open(dir, { championRows: 2 });
    await all.putDocuments(crowdedLibrary());
    const everything = await all.searchSections("widget sprocket", { limit: 100 });
    await all.close();
    const few = await SqliteLibraryIndex.open(dir, {
      readOnly: true,
      candidateRows: 10,
      singleTermRows: 5,
      championRows: 2,
    });
    // "widget" and "sprocket" are in 13 sections each (more than 5): the section holding both is
    // scored, and the 2 best of each word's list, each with the score it has when every section
    // is (a row outside the two-term query holds one of the words only).
    const candidates = await few.searchSections("widget sprocket", { limit: 100 });
    expect(candidates[0] && [candidates[0].docId, candidates[0].title]).toEqual(["both", "Widget alignment"]);
    expect(candidates).toHaveLength(1 + 2 + 2);
    for (const hit of candidates) {
      const same = everything.find((e) => e.docId === hit.docId && e.title === hit.title);
      expect(hit.score).toBeCloseTo(same?.score ?? Number.NaN, 9);
    }
    expect(everything[0]?.docId).toBe("both");
    expect(everything.length).toBe(25);
    expect((await few.searchLibrary("widget sprocket", { limit: 1 })).map((h) => h.docId)).toEqual(["both"]);
    // A rare word's best sections are scored beside them; most of the common words' are not.
    const rare = await few.searchSections("widget sprocket okapi", { limit: 100 });
    expect(rare.map((h) => h.docId)).toEqual(expect.arrayContaining(["both", "okapi-1", "okapi-2"]));
    expect(rare.length).toBeLessThanOrEqual(1 + 3 * 2);
    await few.close();
  });

  it("scores the rows holding two terms without counting them first when they cannot outgrow the budget", async () => {
    // "sprocket" and "ratchet" are in 4 sections each (more than singleTermRows): at most 4 rows
    // hold both, within candidateRows, so a library-wide search counts each term's rows only. A
    // filter allowing every document takes the counted path: the answers are the same, whether a
    // row holds both words or none does (then the search is the one for rows holding one word).
    const shape = { candidateRows: 10, singleTermRows: 2 };
    const doc = (docId: string, text: string) =>
      libraryEntry(libraryTree(docId, [{ title: `Part ${docId}`, text, tokenCount: 6 }]), "v1");
    const apart = [
      ...Array.from({ length: 4 }, (_, i) => doc(`s-${i}`, `The sprocket turns ${"fast ".repeat(i)}`)),
      ...Array.from({ length: 4 }, (_, i) => doc(`r-${i}`, `A ratchet clicks ${"twice ".repeat(i)}`)),
    ];
    const together = [...apart.slice(1, 8), doc("both", "The sprocket drives the ratchet.")];
    const sql = vi.spyOn(SqliteLibraryIndex.prototype as unknown as { sql(source: string): unknown }, "sql");
    const probes = () =>
      sql.mock.calls.filter(([source]) => /^SELECT count\(\*\) FROM \(SELECT 1/.test(source)).length;
    for (const [name, entries, championRows] of [
      ["apart", apart, 0],
      ["apart", apart, 2],
      ["together", together, 0],
    ] as const) {
      const index = await SqliteLibraryIndex.open(await folder(), { ...shape, championRows });
      await index.putDocuments(entries);
      sql.mockClear();
      const wide = await index.searchLibrary("sprocket ratchet", { limit: 5 });
      expect(probes(), name).toBe(2);
      sql.mockClear();
      const counted = await index.searchLibrary("sprocket ratchet", {
        limit: 5,
        filter: { kind: "markdown" },
      });
      expect(probes(), name).toBe(3);
      expect(wide, `${name}, lists of ${championRows}`).toEqual(counted);
      expect(wide[0]?.docId).toBe(name === "apart" ? "s-0" : "both");
      await index.close();
    }
    sql.mockRestore();
  });

  it("asks for rows holding more of the terms while those holding fewer overflow the budget", async () => {
    const index = await SqliteLibraryIndex.open(await folder(), {
      candidateRows: 2,
      singleTermRows: 0,
      championRows: 1,
    });
    await index.putDocuments(pairedLibrary());
    // Five sections hold two of the words (more than 2): the one holding all three is scored; the
    // lists are not read (a row of one may hold two of the words, scored on one).
    const hits = await index.searchSections("widget sprocket okapi", { limit: 10 });
    expect(hits.map((h) => h.docId)).toEqual(["all-three"]);
    await index.close();
  });

  it("keeps what it indexed across a reopen", async () => {
    const dir = await folder();
    const index = await SqliteLibraryIndex.open(dir);
    const tree = libraryTree("kept", [
      { title: "Okapi habitat", text: "Okapis live in forests.", tokenCount: 6 },
    ]);
    await index.putDocument(libraryEntry(tree, "v1"));
    await index.begin("pending-doc", "v7");
    await index.close();
    const again = await SqliteLibraryIndex.open(dir);
    expect((await again.searchLibrary("okapi")).map((h) => h.docId)).toEqual(["kept"]);
    expect(await again.pending()).toEqual(new Map([["pending-doc", ["v7"]]]));
    await again.close();
  });

  it("moves the one-per-document intents of an earlier release to per-version ones on a writable open", async () => {
    const dir = await folder();
    await (await SqliteLibraryIndex.open(dir)).close();
    const { default: Sqlite } = await import("libsql");
    const old = new Sqlite(join(dir, LIBRARY_FILE));
    old.exec(
      "DROP TABLE write_intents; CREATE TABLE intents (doc_id TEXT PRIMARY KEY, version_id TEXT) WITHOUT ROWID; " +
        "INSERT INTO intents VALUES ('written', 'v3'), ('deleted', NULL);",
    );
    old.close();
    const reader = await SqliteLibraryIndex.open(dir, { readOnly: true });
    expect(await reader.pending()).toEqual(
      new Map([
        ["deleted", [undefined]],
        ["written", ["v3"]],
      ]),
    );
    await reader.close();
    const writer = await SqliteLibraryIndex.open(dir);
    expect(await writer.pending()).toEqual(
      new Map([
        ["deleted", [undefined]],
        ["written", ["v3"]],
      ]),
    );
    await writer.clear("written", "v3");
    expect(await writer.pending()).toEqual(new Map([["deleted", [undefined]]]));
    await writer.close();
  });

  it("lets one writer add documents while two reader processes search: no error, never half a document", async () => {
    const dir = await folder();
    const job = { folder: dir, documents: 40, sections: 8 };
    const writer = startFixture(FIXTURE, { ...job, role: "writer" });
    await writer.waitFor("READY");
    const readers = [
      startFixture(FIXTURE, { ...job, role: "reader" }),
      startFixture(FIXTURE, { ...job, role: "reader", readOnly: true }),
    ];
    await writer.waitFor("DONE");
    expect(await writer.exited).toBe(0);
    for (const reader of readers) {
      const seen = await result(reader);
      expect(seen).toMatchObject({ partial: 0, shrank: 0, seen: 40 });
      expect(seen.searches).toBeGreaterThan(0);
    }
  });

  it("names the file when it is not a library index: garbage, another program's database, an empty file read-only", async () => {
    const garbage = await folder();
    await writeFile(join(garbage, LIBRARY_FILE), "this is not a database, just some text ".repeat(200));
    for (const readOnly of [false, true]) {
      const error = await SqliteLibraryIndex.open(garbage, { readOnly }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(LibraryIndexError);
      expect(error).toBeInstanceOf(PageIndexError);
      expect((error as LibraryIndexError).path).toBe(join(garbage, LIBRARY_FILE));
      expect((error as Error).message).toContain(join(garbage, LIBRARY_FILE));
      expect((error as Error).message).toMatch(/not a readable SQLite library index/);
    }

    const foreign = await folder();
    const other = await SqliteLibraryIndex.openFile(join(foreign, "other.sqlite"));
    await other.close();
    // A database with tables of its own at the index path.
    const { default: Sqlite } = await import("libsql");
    const db = new Sqlite(join(foreign, LIBRARY_FILE));
    db.exec("CREATE TABLE invoices (id INTEGER PRIMARY KEY, total REAL)");
    db.close();
    await expect(SqliteLibraryIndex.open(foreign)).rejects.toThrow(/not a pageindex library index/);

    const empty = await folder();
    await writeFile(join(empty, LIBRARY_FILE), "");
    await expect(SqliteLibraryIndex.open(empty, { readOnly: true })).rejects.toBeInstanceOf(
      LibraryIndexError,
    );
    const missing = await folder();
    await expect(SqliteLibraryIndex.open(missing, { readOnly: true })).rejects.toThrow(
      /no library index file/,
    );
    expect(await readdir(missing)).toEqual([]);
  });

  it("opens read-only without writing: searches work, writes are refused", async () => {
    const dir = await folder();
    const writer = await SqliteLibraryIndex.open(dir);
    await writer.putDocument(
      libraryEntry(libraryTree("zoo", [{ title: "Quagga", text: "Quagga.", tokenCount: 2 }]), "v1"),
    );
    const reader = await SqliteLibraryIndex.open(dir, { readOnly: true });
    expect((await reader.searchLibrary("quagga")).map((h) => h.docId)).toEqual(["zoo"]);
    const tree = createTree(
      { docId: "new", docName: "new.md", kind: "markdown", build: { loader: "test", structure: "headings" } },
      [{ title: "New", text: "New", tokenCount: 1 }],
    );
    await expect(reader.putDocument(libraryEntry(tree, "v1"))).rejects.toBeInstanceOf(StoreReadOnlyError);
    await expect(reader.removeDocument("zoo")).rejects.toBeInstanceOf(StoreReadOnlyError);
    await expect(reader.begin("zoo", "v2")).rejects.toBeInstanceOf(StoreReadOnlyError);
    // What the writer adds later is seen by the open reader (it shares the write-ahead log).
    await writer.putDocument(
      libraryEntry(libraryTree("zoo2", [{ title: "Quagga two", text: "Q", tokenCount: 1 }]), "v1"),
    );
    expect((await reader.searchLibrary("quagga")).map((h) => h.docId).sort()).toEqual(["zoo", "zoo2"]);
    await reader.close();
    await writer.close();
  });

  it("reads a store folder its user cannot write (no -wal or -shm file can be made there)", async () => {
    const dir = await folder();
    const writer = await SqliteLibraryIndex.open(dir);
    const { quagga } = {
      quagga: libraryTree("doc-1", [{ title: "Quagga", text: "Quagga herd.", tokenCount: 2 }]),
    };
    await writer.putDocument(libraryEntry(quagga, "v1"));
    await writer.close();
    const before = (await readdir(dir)).sort();
    expect(before).toContain(LIBRARY_FILE);
    // A writer that closed leaves every commit in the file (its log, if any, is empty).
    for (const name of before) if (name.endsWith("-wal")) expect((await stat(join(dir, name))).size).toBe(0);
    for (const name of before) await chmod(join(dir, name), 0o444);
    await chmod(dir, 0o555);
    try {
      // Root ignores permissions: read as an unprivileged user then.
      const as = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : undefined;
      const reader = startFixture(FIXTURE, { role: "read-only", folder: dir, documents: 1, sections: 1 }, as);
      expect(await result(reader)).toEqual({ found: 1, writeError: "StoreReadOnlyError" });
      expect((await readdir(dir)).sort()).toEqual(before);
    } finally {
      await chmod(dir, 0o755);
    }
  });
});
