/**
 * The SQLite library index's champion lists (per term, its best sections by the term's own
 * BM25 contribution): kept in step with the sections on every write path, built on the first
 * writable open of a file that has none, and read by library-wide queries in place of every row
 * of their rarest terms.
 */
import { join } from "node:path";
import Sqlite from "libsql";
import { describe, expect, it, vi } from "vitest";
import { libraryEntry } from "../src/library/entry.js";
import { sectionFieldTerms } from "../src/library/query.js";
import { type ChampionBuildProgress, ChampionLists } from "../src/library/sqlite/champions.js";
import { openConnection } from "../src/library/sqlite/open.js";
import { LIBRARY_FILE, SqliteLibraryIndex } from "../src/library/sqlite/sqlite-library-index.js";
import type { LibraryEntry } from "../src/library/types.js";
import { expectChampionsAgree } from "./helpers/champions.js";
import { tempFolders } from "./helpers/temp-folders.js";
import { wordy } from "./helpers/wordy-entry.js";
import { libraryTree } from "./library.behaviour.js";

const folder = tempFolders("library-champions-");

const PER_TERM = 2;

describe("SqliteLibraryIndex: champion lists", () => {
  it.each([
    ["merged by every write", 1],
    ["pending until close", 1_000_000],
  ])(
    "stay the best rows of each term after puts, replaces, removes and a reopen (%s)",
    async (_name, mergeSections) => {
      const dir = await folder();
      const file = join(dir, LIBRARY_FILE);
      const options = { championRows: PER_TERM, championMergeSections: mergeSections };
      let index = await SqliteLibraryIndex.open(dir, options);
      const held = new Map<string, LibraryEntry>();
      const put = async (entries: LibraryEntry[]) => {
        await index.putDocuments(entries);
        for (const e of entries) held.set(e.card.docId, e);
        await expectChampionsAgree(file, [...held.values()], PER_TERM);
      };
      await put(Array.from({ length: 8 }, (_, i) => wordy(`doc-${i}`, 1, "sprocket", 1 + (i % 3))));
      await put([wordy("doc-1", 2, "sprocket", 4), wordy("doc-5", 2, "ratchet", 2)]);
      // Removing the best rows of a list leaves fewer than PER_TERM: it is rebuilt from the index.
      for (const docId of ["doc-2", "doc-4", "doc-7", "doc-1"]) {
        await index.removeDocument(docId);
        held.delete(docId);
        await expectChampionsAgree(file, [...held.values()], PER_TERM);
      }
      await put([wordy("doc-9", 1, "sprocket", 3)]);
      await index.close();
      index = await SqliteLibraryIndex.open(dir, options);
      await expectChampionsAgree(file, [...held.values()], PER_TERM);
      // Every document gone: no list is left.
      for (const docId of [...held.keys()]) await index.removeDocument(docId);
      await expectChampionsAgree(file, [], PER_TERM);
      await index.close();
    },
  );

  it("answers the same once its backlog is merged, or as without lists while a list is short", async () => {
    // The same writes to an index with lists and a backlog, and to one without lists.
    // Lists of 2 rows (4 kept); "sprocket" is in most sections, "ratchet" in a few.
    const shape = { singleTermRows: 4, candidateRows: 6 };
    const dir = await folder();
    const options = { ...shape, championRows: 2, championMergeSections: 1_000_000 };
    let lists = await SqliteLibraryIndex.open(dir, { ...options, championMergeSections: 1 });
    const plain = await SqliteLibraryIndex.open(await folder(), { ...shape, championRows: 0 });
    const docs = Array.from({ length: 10 }, (_, i) => wordy(`doc-${i}`, i, "sprocket", 1 + (i % 4)));
    for (const index of [lists, plain]) await index.putDocuments(docs);
    await lists.close();
    lists = await SqliteLibraryIndex.open(dir, options);
    for (const index of [lists, plain])
      await index.putDocuments([wordy("doc-10", 1, "ratchet", 3), wordy("doc-11", 2, "sprocket", 2)]);
    // The best "sprocket" rows leave: its list keeps fewer than 2 above its floor until a merge.
    for (const { docId } of await plain.searchLibrary("sprocket", { limit: 6 }))
      for (const index of [lists, plain]) await index.removeDocument(docId);
    const queries = ["sprocket", "sprocket ratchet", "ratchet gears", "sprocket notes gears", "notes"];
    const read = vi.spyOn(ChampionLists.prototype, "best");
    const short = new Set<string>();
    const before = new Map<string, unknown>();
    for (const query of queries) {
      read.mockClear();
      before.set(query, await lists.searchLibrary(query, { limit: 5 }));
      if (read.mock.results.some((r) => r.value === undefined)) short.add(query);
    }
    read.mockRestore();
    expect([...short]).toContain("sprocket");
    expect(short.size).toBeLessThan(queries.length);
    // A writer's close merges the backlog.
    await lists.close();
    const db = await openConnection(join(dir, LIBRARY_FILE), true);
    expect(db.prepare("SELECT count(*) FROM champion_pending").raw(true).get()).toEqual([0]);
    expect(db.prepare("SELECT count(*) FROM champion_gone").raw(true).get()).toEqual([0]);
    db.close();
    lists = await SqliteLibraryIndex.open(dir, options);
    for (const query of queries) {
      const expected = short.has(query)
        ? plain.searchLibrary(query, { limit: 5 })
        : lists.searchLibrary(query, { limit: 5 });
      expect(before.get(query), query).toEqual(await expected);
    }
    await lists.close();
    await plain.close();
  });

  it("are off with championRows 0: none built, a file's lists not read, but kept in step by a writer", async () => {
    const shape = { singleTermRows: 4, candidateRows: 6 };
    const docs = Array.from({ length: 10 }, (_, i) => wordy(`doc-${i}`, i, "sprocket", 1 + (i % 4)));
    const plainDir = await folder();
    const plain = await SqliteLibraryIndex.open(plainDir, { ...shape, championRows: 0 });
    await plain.putDocuments(docs);
    const db = await openConnection(join(plainDir, LIBRARY_FILE), true);
    expect(ChampionLists.present(db)).toBe(false);
    db.close();
    const dir = await folder();
    const listed = await SqliteLibraryIndex.open(dir, { ...shape, championRows: PER_TERM });
    await listed.putDocuments(docs);
    await listed.close();
    const off = await SqliteLibraryIndex.open(dir, { ...shape, championRows: 0 });
    const read = vi.spyOn(ChampionLists.prototype, "best");
    for (const query of ["sprocket", "sprocket notes gears", "notes"])
      expect(await off.searchLibrary(query, { limit: 5 }), query).toEqual(
        await plain.searchLibrary(query, { limit: 5 }),
      );
    expect(read).not.toHaveBeenCalled();
    read.mockRestore();
    const replaced = wordy("doc-4", 7, "sprocket", 4);
    await off.putDocument(replaced);
    await off.removeDocument("doc-1");
    await off.close();
    await expectChampionsAgree(
      join(dir, LIBRARY_FILE),
      docs.filter((d) => d.card.docId !== "doc-1").map((d) => (d.card.docId === "doc-4" ? replaced : d)),
      PER_TERM,
    );
    await plain.close();
  });

  it("reads a list's rows above its floor, or every row of a complete list", async () => {
    // "sprocket" in 19 sections: its list keeps the best 4 (lists of 2), not every row.
    const dir = await folder();
    const index = await SqliteLibraryIndex.open(dir, { championRows: 2, championMergeSections: 1 });
    await index.putDocuments(
      Array.from({ length: 10 }, (_, i) => wordy(`doc-${i}`, i, "sprocket", 1 + (i % 4))),
    );
    await index.close();
    const db = await openConnection(join(dir, LIBRARY_FILE), false);
    const listed = db
      .prepare("SELECT impact, id FROM champions WHERE term = 'sprocket' ORDER BY impact DESC, id DESC")
      .raw(true)
      .all() as Array<[number, number]>;
    expect(listed).toHaveLength(4);
    const lists = new ChampionLists(db, (source) => db.prepare(source), 2);
    const setFloor = (complete: number, [impact, id]: [number, number]) =>
      db
        .prepare("UPDATE champion_terms SET complete = ?, floor = ?, floor_id = ? WHERE term = 'sprocket'")
        .run(complete, impact, id);
    const ids = () => lists.best([{ term: "sprocket" }])?.map((row) => row.id);
    const [first, second] = listed as [[number, number], [number, number]];
    // The floor at the second row: the two rows at or above it, as a filter of the list keeps them.
    setFloor(0, second);
    expect(ids()).toEqual([first[1], second[1]]);
    // Just past the second row (its impact, a later row id): one row left, fewer than 2, so unknown.
    setFloor(0, [second[0], second[1] + 1]);
    expect(ids()).toBeUndefined();
    // A complete list holds every row of its term: its floor is not applied.
    setFloor(1, first);
    expect(ids()).toEqual([first[1], second[1]]);
    db.close();
  });

  it("ranks the answer first when a common term has more rows than its list", async () => {
    const dir = await folder();
    // Each list holds 2 rows; "widget" is in 13 sections, "sprocket" in 1, "gear" in 13.
    const index = await SqliteLibraryIndex.open(dir, {
      championRows: 2,
      singleTermRows: 4,
      candidateRows: 6,
    });
    const filler = (i: number) =>
      libraryEntry(
        libraryTree(`common-${i}`, [
          { title: "Widget widget", text: "A widget, widget and widget.", tokenCount: 6 },
          { title: "Gear", text: "A gear and a gear.", tokenCount: 6 },
        ]),
        "v1",
      );
    await index.putDocuments(Array.from({ length: 12 }, (_, i) => filler(i)));
    const answer = libraryEntry(
      libraryTree("answer", [
        { title: "Sprocket", text: "Fit the sprocket to the widget gear.", tokenCount: 8 },
      ]),
      "v1",
    );
    await index.putDocument(answer);
    // The rows holding two terms (the answer alone holds widget and gear besides sprocket) and
    // each term's 2 champions are scored; the answer holds all three terms.
    const hits = await index.searchLibrary("widget gear sprocket", { limit: 3 });
    expect(hits[0]?.docId).toBe("answer");
    // A term found in more rows than its list: its best rows come first, scored as FTS5 does.
    const alone = await index.searchSections("widget", { limit: 3 });
    expect(alone.map((h) => h.docId)).toHaveLength(3);
    const wide = await index.searchLibrary("widget", { limit: 20 });
    expect(wide[0]?.sections[0]?.title).toBe("Widget widget");
    await index.close();
  });

  it("keep their terms' row counts: exact once merged, stale after a removal until vacuum, read in place of counting", async () => {
    const dir = await folder();
    const file = join(dir, LIBRARY_FILE);
    const options = {
      championRows: PER_TERM,
      championMergeSections: 1_000_000,
      singleTermRows: 4,
      candidateRows: 6,
    };
    let index = await SqliteLibraryIndex.open(dir, options);
    const held = new Map<string, LibraryEntry>();
    const put = async (entries: LibraryEntry[]) => {
      await index.putDocuments(entries);
      for (const e of entries) held.set(e.card.docId, e);
    };
    // A term's probe: FTS5 counting the rows holding it (one quoted term), up to the budget.
    const value = vi.spyOn(
      SqliteLibraryIndex.prototype as unknown as { value(source: string, ...params: unknown[]): unknown },
      "value",
    );
    const probes = () =>
      value.mock.calls.filter(
        ([source, match]) =>
          /^SELECT count\(\*\) FROM \(SELECT 1/.test(source) && /^"[^"]*"$/.test(String(match)),
      ).length;
    const state = async (to: string) => {
      const db = await openConnection(file, false);
      db.prepare("UPDATE library_meta SET value = ? WHERE key = 'term_rows'").run(to);
      db.close();
    };
    /** The probes of a search; its answer is the one FTS5's counts give (the stored ones set aside). */
    const search = async (query: string) => {
      value.mockClear();
      const hits = await index.searchLibrary(query, { limit: 5 });
      const counted = probes();
      const reader = await openConnection(file, true);
      const [before] = reader
        .prepare("SELECT value FROM library_meta WHERE key = 'term_rows'")
        .raw(true)
        .get() as [string];
      reader.close();
      await state("stale");
      expect(hits, query).toEqual(await index.searchLibrary(query, { limit: 5 }));
      await state(before);
      return counted;
    };
    await put(Array.from({ length: 8 }, (_, i) => wordy(`doc-${i}`, 1, "sprocket", 1 + (i % 3))));
    // Pending until a merge: the counts are not read ("sprocket", "notes", "gears": 3 probes).
    expect(await search("sprocket notes gears")).toBe(3);
    await index.close(); // merges the backlog
    expectTermRows(file, [...held.values()], "exact");
    index = await SqliteLibraryIndex.open(dir, options);
    expect(await search("sprocket notes gears")).toBe(0);
    expect(await search("sprocket okapi")).toBe(1); // a word in no section is counted as before
    await put([wordy("doc-9", 2, "ratchet", 3)]);
    await index.close();
    expectTermRows(file, [...held.values()], "exact");
    index = await SqliteLibraryIndex.open(dir, options);
    await index.removeDocument("doc-1");
    held.delete("doc-1");
    await index.close();
    // Which terms the removed sections held is not known: the counts stay stale until a vacuum.
    expectTermRows(file, [...held.values()], "stale");
    index = await SqliteLibraryIndex.open(dir, options);
    expect(await search("sprocket notes gears")).toBe(3);
    await index.mergeSegments();
    expectTermRows(file, [...held.values()], "exact");
    expect(await search("sprocket notes gears ratchet")).toBe(0);
    await index.close();
    // A write this release did not make (an earlier one's, which keeps no counts): not read, and
    // stale from this release's next write on.
    const foreign = await openConnection(file, false);
    foreign
      .prepare("INSERT INTO section_terms (rowid, title, ancestors, summary, text) VALUES (?, ?, '', '', ?)")
      .run(999 * 2 ** 21, "sprocket", "sprocket gears");
    foreign.close();
    index = await SqliteLibraryIndex.open(dir, { ...options, readOnly: true });
    expect(await search("sprocket notes gears")).toBe(3);
    await index.close();
    index = await SqliteLibraryIndex.open(dir, options);
    await index.putDocuments([wordy("doc-10", 1, "ratchet", 1)]);
    await index.close();
    expectTermRows(file, [...held.values()], "stale");
    const repair = await openConnection(file, false);
    repair.prepare("DELETE FROM section_terms WHERE rowid = ?").run(999 * 2 ** 21);
    repair.close();
    held.set("doc-10", wordy("doc-10", 1, "ratchet", 1));
    index = await SqliteLibraryIndex.open(dir, options);
    await index.mergeSegments();
    expectTermRows(file, [...held.values()], "exact");
    await index.close();
    // A file written without them gets them on its first writable open.
    const db = await openConnection(file, false);
    db.exec("DROP TABLE term_rows; DELETE FROM library_meta WHERE key = 'term_rows'");
    db.close();
    index = await SqliteLibraryIndex.open(dir, { ...options, readOnly: true });
    value.mockClear();
    await index.searchLibrary("sprocket notes gears", { limit: 5 });
    expect(probes()).toBe(3);
    await index.close();
    index = await SqliteLibraryIndex.open(dir, options);
    expectTermRows(file, [...held.values()], "exact");
    expect(await search("sprocket notes gears")).toBe(0);
    await index.close();
    value.mockRestore();
  });

  it("are built from the stored rows on the first writable open not turning them off, with progress", async () => {
    const dir = await folder();
    const file = join(dir, LIBRARY_FILE);
    const entries = Array.from({ length: 6 }, (_, i) =>
      wordy(`doc-${i}`, i, i % 2 ? "sprocket" : "ratchet", 2),
    );
    // With lists off, a file has none (what an earlier release wrote too).
    const first = await SqliteLibraryIndex.open(dir, { championRows: 0 });
    await first.putDocuments(entries);
    const before = await first.searchLibrary("sprocket ratchet gears", { limit: 5 });
    await first.close();
    const db = await openConnection(file, true);
    expect(db.prepare("SELECT name FROM sqlite_master WHERE name LIKE 'champion%'").all()).toEqual([]);
    db.close();

    const reader = await SqliteLibraryIndex.open(dir, { readOnly: true, championRows: PER_TERM });
    expect(await reader.searchLibrary("sprocket ratchet gears", { limit: 5 })).toEqual(before);
    await reader.close();

    const steps: ChampionBuildProgress[] = [];
    const writer = await SqliteLibraryIndex.open(dir, {
      championRows: PER_TERM,
      onChampionBuild: (step) => steps.push(step),
    });
    await expectChampionsAgree(file, entries, PER_TERM);
    // Each phase from nothing done to all done (12 sections; the common terms' lists).
    expect(steps.filter((s) => s.phase === "lengths")).toEqual([
      { phase: "lengths", done: 0, total: 12 },
      { phase: "lengths", done: 12, total: 12 },
    ]);
    const lists = steps.filter((s) => s.phase === "lists");
    expect(lists[0]?.done).toBe(0);
    expect(lists.at(-1)).toEqual({ phase: "lists", done: lists[0]?.total, total: lists[0]?.total });
    expect(await writer.searchLibrary("sprocket ratchet gears", { limit: 5 })).toEqual(before);
    await writer.close();
    // A writer that does not ask keeps them in step all the same.
    const later = await SqliteLibraryIndex.open(dir);
    const replaced = wordy("doc-2", 9, "sprocket", 3);
    await later.putDocument(replaced);
    await later.removeDocument("doc-3");
    await expectChampionsAgree(
      file,
      entries.filter((e) => e.card.docId !== "doc-3").map((e) => (e.card.docId === "doc-2" ? replaced : e)),
      PER_TERM,
    );
    await later.close();
  });
});

/**
 * Checks a file's stored term counts against the entries: with `state` exact, every term in more
 * than PER_TERM sections (its list's terms) is stored with the sections holding it, counted here.
 */
function expectTermRows(file: string, entries: readonly LibraryEntry[], state: "exact" | "stale"): void {
  const sections = new Map<string, number>();
  for (const entry of entries)
    for (const section of entry.sections) {
      const terms = new Set(sectionFieldTerms(section).flatMap((field) => field.split(" ").filter(Boolean)));
      for (const term of terms) sections.set(term, (sections.get(term) ?? 0) + 1);
    }
  const db = new Sqlite(file, { readonly: true });
  try {
    expect(db.prepare("SELECT value FROM library_meta WHERE key = 'term_rows'").raw(true).get()).toEqual([
      state,
    ]);
    if (state === "stale") return;
    const stored = new Map(
      (db.prepare("SELECT term, rows FROM term_rows").raw(true).all() as Array<[string, number]>).map(
        ([term, rows]) => [term, Number(rows)],
      ),
    );
    const common = [...sections].filter(([, rows]) => rows > PER_TERM);
    expect(common.length).toBeGreaterThan(3);
    expect(stored).toEqual(new Map(common));
  } finally {
    db.close();
  }
}
