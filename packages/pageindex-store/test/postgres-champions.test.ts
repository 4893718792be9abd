/**
 * The PostgreSQL library index's champion lists (per term, its best sections by the term's own
 * ts_rank): kept in step with the sections on every write path, built from the stored rows on
 * the first open asking for them, and read by library-wide queries in place of every row of
 * their rarest terms; the node counts kept beside them.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresLibraryIndex } from "../src/index.js";
import { libraryEntry } from "../src/library/entry.js";
import { CARD_RANK_WEIGHTS } from "../src/postgres/library-vectors.js";
import {
  adminRows,
  dropSchema,
  POSTGRES_URL,
  postgresReachable,
  recordingPool,
  testSchema,
} from "./helpers/postgres.js";
import { expectPostgresListsAgree } from "./helpers/postgres-champions.js";
import { wordy } from "./helpers/wordy-entry.js";
import { libraryTree } from "./library.behaviour.js";

const available = await postgresReachable("postgres-champions.test.ts");

const PER_TERM = 2;
/** Rows a list keeps: twice the rows a query reads. */
const KEPT = 2 * PER_TERM;

/** Every list agrees with the rows stored (see {@link expectPostgresListsAgree}). */
const expectListsAgree = (schema: string) => expectPostgresListsAgree(schema, PER_TERM, KEPT);

describe.skipIf(!available)("PostgresLibraryIndex: champion lists", () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });
  const open = (schema: string, options: Parameters<typeof PostgresLibraryIndex.fromUrl>[1] = {}) =>
    PostgresLibraryIndex.fromUrl(POSTGRES_URL, { schema, ...options });
  const newSchema = () => {
    const schema = testSchema("champions");
    schemas.push(schema);
    return schema;
  };

  // 0: every write merges its rows into the lists; 5: some writes leave theirs pending, others
  // merge; 10,000: every row stays pending (what queries read is checked each time).
  it.each([0, 5, 10_000])(
    "stay the best rows of each term after puts, replaces, removes and a reopen (merge at %i sections)",
    async (championMergeSections) => {
      const schema = newSchema();
      let index = await open(schema, { championRows: PER_TERM, championMergeSections });
      await index.putDocuments(
        Array.from({ length: 8 }, (_, i) => wordy(`doc-${i}`, 1, "sprocket", 1 + (i % 3))),
      );
      await expectListsAgree(schema);
      await index.putDocuments([wordy("doc-1", 2, "sprocket", 4), wordy("doc-5", 2, "ratchet", 2)]);
      await expectListsAgree(schema);
      // Removing the best rows of a list leaves fewer than PER_TERM: it is rebuilt from the sections.
      for (const docId of ["doc-2", "doc-4", "doc-7", "doc-1"]) {
        await index.removeDocument(docId);
        await expectListsAgree(schema);
      }
      await index.putDocument(wordy("doc-9", 1, "sprocket", 3));
      await index.close();
      index = await open(schema, { championRows: PER_TERM, championMergeSections });
      await expectListsAgree(schema);
      // Every document gone: no list is left.
      for (const docId of (await index.indexedVersions()).keys()) await index.removeDocument(docId);
      await expectListsAgree(schema);
      await index.close();
    },
  );

  // Merged at once (0), and left pending (the default mark is far above these 73 sections).
  it.each([0, undefined])(
    "rank the answer first when a common term has more rows than its list, as without lists (merge at %s sections)",
    async (championMergeSections) => {
      const withLists = newSchema();
      const without = newSchema();
      // Each list holds 4 rows; "widget" and "gear" are in 25 sections each, "sprocket" in 1.
      const budget = { singleTermRows: 4, candidateRows: 6 };
      const lists = await open(withLists, {
        ...budget,
        championRows: PER_TERM,
        ...(championMergeSections === undefined ? {} : { championMergeSections }),
      });
      const plain = await open(without, { ...budget, championRows: 0 });
      const filler = (i: number) =>
        libraryEntry(
          libraryTree(`common-${String(i).padStart(2, "0")}`, [
            { title: "Widget widget", text: "A widget, widget and widget.", tokenCount: 6 },
            { title: "Gear", text: "A gear and a gear.", tokenCount: 6 },
            { title: "Widget and gear", text: `Part ${i}.`, tokenCount: 6 },
          ]),
          "v1",
        );
      const answer = libraryEntry(
        libraryTree("answer", [
          { title: "Sprocket", text: "Fit the sprocket to the widget gear.", tokenCount: 8 },
        ]),
        "v1",
      );
      const entries = [...Array.from({ length: 24 }, (_, i) => filler(i)), answer];
      try {
        for (const index of [lists, plain]) await index.putDocuments(entries);
        await expectListsAgree(withLists);
        // Rows holding two terms (the 24 "Widget and gear" and the answer) overflow 6: the lists
        // are not read, three terms choose, and the answer holds all three.
        const hits = await lists.searchLibrary("widget gear sprocket", { limit: 3 });
        expect(hits[0]?.docId).toBe("answer");
        expect(hits).toEqual(await plain.searchLibrary("widget gear sprocket", { limit: 3 }));
        // Two terms: only the answer holds both; the other rows come from each term's list.
        const two = await lists.searchLibrary("sprocket widget", { limit: 5 });
        expect(two[0]?.docId).toBe("answer");
        expect(two[0]?.sections[0]?.title).toBe("Sprocket");
        // Then the documents of widget's 2 best rows (its list read up to PER_TERM); documents
        // found by their card alone (the cards' lists) come after them.
        expect(two.slice(0, 3).map((h) => h.docId)).toEqual(["answer", "common-00", "common-01"]);
        // A list's row scores as the ranking scores it: the same hits, to the bit, as scoring every
        // row (the same library read without lists, with budgets holding all its rows).
        const everything = await open(without, { championRows: 0 });
        try {
          const all = await everything.searchSections("sprocket widget", { limit: 3 });
          expect(await lists.searchSections("sprocket widget", { limit: 3 })).toEqual(all);
        } finally {
          await everything.close();
        }
        // One common term, more rows than its list: its best rows first.
        const wide = await lists.searchLibrary("widget", { limit: 20 });
        expect(wide.flatMap((h) => h.sections).length).toBe(KEPT);
        expect(wide[0]?.sections[0]?.title).toBe("Widget widget");
      } finally {
        await lists.close();
        await plain.close();
      }
    },
  );

  it("are built from the stored rows on the first open asking for them, and kept by every writer", async () => {
    const schema = newSchema();
    const entries = Array.from({ length: 6 }, (_, i) =>
      wordy(`doc-${i}`, i, i % 2 ? "sprocket" : "ratchet", 2),
    );
    // Without lists (championRows 0; what an earlier release wrote too).
    const first = await open(schema, { singleTermRows: 2, candidateRows: 4, championRows: 0 });
    await first.putDocuments(entries);
    const question = "sprocket ratchet gears";
    const before = await first.searchSections(question, { limit: 5 });
    const [beforeBest] = await first.searchLibrary(question, { limit: 5 });
    await first.close();
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    const tables = async () =>
      (
        await client.query(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'library_%champion%' ORDER BY 1",
          [schema],
        )
      ).rows.map((r) => r.table_name);
    try {
      expect(await tables()).toEqual([]);
      const migrated = await open(schema, { championRows: PER_TERM, singleTermRows: 2, candidateRows: 4 });
      expect(await tables()).toEqual([
        "library_card_champion_pending",
        "library_card_champion_terms",
        "library_card_champions",
        "library_champion_pending",
        "library_champion_terms",
        "library_champions",
      ]);
      await expectListsAgree(schema);
      // The sections rank as before; so does the best document (the cards' lists may add
      // documents found by their card alone below it).
      expect(await migrated.searchSections(question, { limit: 5 })).toEqual(before);
      expect((await migrated.searchLibrary(question, { limit: 5 }))[0]).toEqual(beforeBest);
      await migrated.close();
      // A writer that does not ask keeps them in step all the same.
      const later = await open(schema);
      await later.putDocument(wordy("doc-2", 9, "sprocket", 3));
      await later.removeDocument("doc-3");
      await expectListsAgree(schema);
      await later.close();
    } finally {
      await client.end();
    }
  });

  it("of an earlier release (no pending table, cards ranked without length) are mended on the next open", async () => {
    const schema = newSchema();
    const first = await open(schema, { championRows: PER_TERM });
    await first.putDocuments(Array.from({ length: 5 }, (_, i) => wordy(`doc-${i}`, i, "sprocket", 2)));
    await first.close();
    const client = new pg.Client({ connectionString: POSTGRES_URL });
    await client.connect();
    try {
      // Merged first (the lists an earlier release kept were always merged), then as it left them.
      const merging = await open(schema, { championMergeSections: 1 });
      await merging.putDocument(wordy("doc-5", 5, "ratchet", 2));
      await merging.close();
      // No pending tables, and the cards' lists ranked without the length factor (as they were).
      await client.query(
        `DROP TABLE "${schema}".library_champion_pending, "${schema}".library_card_champion_pending;
         ALTER TABLE "${schema}".library_champion_terms DROP COLUMN pending;
         ALTER TABLE "${schema}".library_card_champion_terms DROP COLUMN pending;
         UPDATE "${schema}".library_card_champions c
           SET rank = ts_rank('${CARD_RANK_WEIGHTS}', s.tsv, ('''' || c.term || '''')::tsquery, 0)::float8
           FROM "${schema}".library_cards s WHERE s.doc_id = c.doc_id`,
      );
      const later = await open(schema);
      const { rows } = await client.query(
        "SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE '%champion_pending'",
        [schema],
      );
      expect(rows[0]?.n).toBe(2);
      await later.putDocument(wordy("doc-1", 7, "ratchet", 3));
      await later.removeDocument("doc-2");
      await expectListsAgree(schema);
      const found = await later.searchLibrary("ratchet", { limit: 10 });
      expect(found.map((hit) => hit.docId).sort()).toEqual(["doc-1", "doc-5"]);
      await later.close();
    } finally {
      await client.end();
    }
  });

  it("answer a query whose terms' rows all fit from the lists alone, with the hits and scores of reading every row", async () => {
    const withLists = newSchema();
    const without = newSchema();
    const { pool, statements } = recordingPool();
    const lists = await PostgresLibraryIndex.open(pool, {
      schema: withLists,
      championRows: PER_TERM,
      championMergeSections: 3,
    });
    const plain = await open(without, { championRows: 0 });
    try {
      // "sprocket" is in more sections than a list keeps (read as before); "ratchet" and "pawl" fit.
      const entries = [
        ...Array.from({ length: 4 }, (_, i) => wordy(`doc-${i}`, i, "sprocket", 2)),
        wordy("doc-4", 1, "ratchet", 3),
        wordy("doc-5", 2, "pawl", 1),
      ];
      for (const index of [lists, plain]) {
        await index.putDocuments(entries);
        await index.removeDocument("doc-1");
      }
      for (const question of ["ratchet pawl", "ratchet", "sprocket ratchet", "pawl gears"]) {
        statements.length = 0;
        expect(await lists.searchSections(question, { limit: 10 }), question).toEqual(
          await plain.searchSections(question, { limit: 10 }),
        );
        const read = statements.filter((sql) => sql.includes("tsv @@"));
        // Only a term in more rows than its list makes the rows themselves be read.
        expect(read.length > 0, question).toBe(question.includes("sprocket") || question.includes("gears"));
        expect(await lists.searchLibrary(question, { limit: 5 }), question).toEqual(
          await plain.searchLibrary(question, { limit: 5 }),
        );
      }
    } finally {
      await lists.close();
      await plain.close();
      await pool.end();
    }
  });

  it("are read beside the rows holding two terms, two statements sent at once, with the node counts: each list's first perTerm when a row holds two terms, then whole when none does", async () => {
    const schema = newSchema();
    const { pool, statements } = recordingPool();
    // Which round trip each statement joined: a statement sent while another is in flight joins its round.
    const rounds: number[] = [];
    let inFlight = 0;
    let round = 0;
    const query = ((sql: string, params?: unknown[]) => {
      if (inFlight === 0) round += 1;
      inFlight += 1;
      rounds.push(round);
      return pool.query(sql, params).finally(() => {
        inFlight -= 1;
      });
    }) as typeof pool.query;
    // A one-row one-term budget: the lists are read even in this small library.
    const index = await PostgresLibraryIndex.open(
      { ...pool, query },
      { schema, championRows: PER_TERM, singleTermRows: 1 },
    );
    const sectionsFound = async (question: string, listReads: number) => {
      statements.length = 0;
      rounds.length = 0;
      const hits = await index.searchLibrary(question, { limit: 20, sectionsPerDocument: 20 });
      const at = (test: (sql: string) => boolean) =>
        statements.flatMap((sql, i) => (test(sql) ? [rounds[i]] : []));
      const lists = at((sql) => sql.includes("library_champions c"));
      const cooccurring = at((sql) => sql.includes("library_sections s") && sql.includes("tsv @@"));
      expect(lists, question).toHaveLength(listReads);
      // The rows holding two terms (the GIN index's `@@`) are ranked in a statement of their own,
      // sent with the lists' first read, in one round trip…
      expect(cooccurring, question).toEqual([lists[0]]);
      // … and no statement reads node counts alone.
      expect(
        statements.filter(
          (sql) =>
            sql.includes("library_node_counts") &&
            !sql.includes("library_champions c") &&
            !sql.includes("tsv @@"),
        ),
        question,
      ).toEqual([]);
      return hits;
    };
    try {
      // "sprocket" and "ratchet" in six documents each (3 sections), never in one section.
      await index.putDocuments([
        ...Array.from({ length: 6 }, (_, i) => wordy(`s-${i}`, i, "sprocket", 3)),
        ...Array.from({ length: 6 }, (_, i) => wordy(`r-${i}`, i, "ratchet", 3)),
      ]);
      // No row holds both: the lists are read again, whole.
      const apart = await sectionsFound("sprocket ratchet", 2);
      expect(apart.flatMap((hit) => hit.sections)).toHaveLength(2 * KEPT);
      await index.putDocument(
        libraryEntry(
          libraryTree("both", [
            { title: "Sprocket ratchet", text: "A ratchet on the sprocket.", tokenCount: 6 },
          ]),
          "v1",
        ),
      );
      const together = await sectionsFound("sprocket ratchet", 1);
      expect(together[0]?.docId).toBe("both");
      // The row holding both, and each list's first PER_TERM (the row holding both may be among them).
      const found = together.flatMap((hit) => hit.sections).length;
      expect(found).toBeGreaterThanOrEqual(1 + PER_TERM);
      expect(found).toBeLessThanOrEqual(1 + 2 * PER_TERM);
    } finally {
      await index.close();
      await pool.end();
    }
  });

  it("are made for a new library unless championRows is 0, and not built unasked for one with documents", async () => {
    const listTables = async (schema: string) =>
      (
        await adminRows(
          "SELECT table_name FROM information_schema.tables WHERE table_schema = $1 AND table_name LIKE 'library_%champion%' ORDER BY 1",
          [schema],
        )
      ).map((r) => r.table_name);
    const fresh = newSchema();
    const made = await open(fresh);
    await made.putDocuments([wordy("doc-0", 1, "sprocket", 3), wordy("doc-1", 2, "ratchet", 2)]);
    await made.close();
    expect(await listTables(fresh)).toHaveLength(6);
    await expectPostgresListsAgree(fresh, 100, 200);
    const without = newSchema();
    const plain = await open(without, { championRows: 0 });
    await plain.putDocument(wordy("doc-0", 1, "sprocket", 3));
    await plain.close();
    // Reopened unasked: it holds documents, so no build.
    const reopened = await open(without);
    await reopened.putDocument(wordy("doc-1", 1, "sprocket", 2));
    await reopened.close();
    expect(await listTables(without)).toEqual([]);
  });
});
