import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresLibraryIndex, type PostgresPool } from "../src/index.js";
import { libraryEntry } from "../src/library/entry.js";
import { dropSchema, POSTGRES_URL, postgresReachable, testSchema } from "./helpers/postgres.js";
import { crowdedLibrary, libraryBehaviour, libraryTree, pairedLibrary } from "./library.behaviour.js";

const available = await postgresReachable("postgres-library.test.ts");

// The conformance suite, with the search's statements sent unnamed (the default) and named.
for (const preparedStatements of [false, true])
  describe.skipIf(!available)(
    `PostgresLibraryIndex (real PostgreSQL server${preparedStatements ? ", prepared statements" : ""})`,
    () => {
      const schemas: string[] = [];
      afterAll(async () => {
        for (const schema of schemas) await dropSchema(schema);
      });
      libraryBehaviour(async () => {
        const schema = testSchema("library");
        schemas.push(schema);
        return PostgresLibraryIndex.fromUrl(POSTGRES_URL, { schema, preparedStatements });
      });

      // Only where statements are named: declared, not skipped, in the other run.
      if (preparedStatements)
        it("sends a search's statements named, one name per text, and answers as unnamed ones do", async () => {
          const schema = testSchema("prepared");
          schemas.push(schema);
          const inner = new pg.Pool({ connectionString: POSTGRES_URL });
          const names: Array<string | undefined> = [];
          // The statements sent, as node-postgres takes them: a text, or a query config with a name.
          const query = ((statement: string | { name?: string }, values?: unknown[]) => {
            names.push(typeof statement === "string" ? undefined : statement.name);
            return inner.query(statement as string, values);
          }) as pg.Pool["query"];
          const pool = {
            query,
            connect: () => inner.connect(),
            end: () => inner.end(),
          } as unknown as PostgresPool;
          const plain = await PostgresLibraryIndex.fromUrl(POSTGRES_URL, { schema });
          try {
            await plain.putDocuments(crowdedLibrary());
            const prepared = await PostgresLibraryIndex.open(pool, { schema, preparedStatements: true });
            const asked = ["widget sprocket", "okapi alignment", "widget"];
            for (const question of asked) {
              names.length = 0;
              const hits = await prepared.searchLibrary(question, { limit: 5, sectionsPerDocument: 3 });
              const first = [...names];
              expect(await prepared.searchLibrary(question, { limit: 5, sectionsPerDocument: 3 })).toEqual(
                hits,
              );
              expect(names.slice(first.length)).toEqual(first);
              expect(first.length).toBeGreaterThan(0);
              expect(first.every((name) => name?.startsWith("pageindex_"))).toBe(true);
              expect(hits).toEqual(await plain.searchLibrary(question, { limit: 5, sectionsPerDocument: 3 }));
            }
          } finally {
            await plain.close();
            await inner.end();
          }
        });
    },
  );

describe.skipIf(!available)("PostgresLibraryIndex candidates", () => {
  const schemas: string[] = [];
  afterAll(async () => {
    for (const schema of schemas) await dropSchema(schema);
  });
  const open = async (options: { candidateRows?: number; singleTermRows?: number }) => {
    const schema = testSchema("candidates");
    schemas.push(schema);
    // Without champion lists: these are the GIN index's candidates (the lists' tests are in
    // postgres-champions.test.ts).
    return PostgresLibraryIndex.fromUrl(POSTGRES_URL, { schema, championRows: 0, ...options });
  };

  it("reads the rows holding several query terms first, so a small budget still finds the answer", async () => {
    const all = await open({});
    const few = await open({ candidateRows: 10, singleTermRows: 5 });
    try {
      await all.putDocuments(crowdedLibrary());
      await few.putDocuments(crowdedLibrary());
      const everything = await all.searchSections("widget sprocket", { limit: 100 });
      expect(everything.length).toBe(25);
      // "widget" and "sprocket" are in 13 sections each: 10 rows of one of them, read in the order
      // written, would miss the section holding both; it is read first, and scored as before.
      const candidates = await few.searchSections("widget sprocket", { limit: 100 });
      expect(candidates.map((h) => [h.docId, h.title])).toEqual([["both", "Widget alignment"]]);
      expect(candidates[0]?.score).toBeCloseTo(everything[0]?.score ?? Number.NaN, 9);
      expect((await few.searchLibrary("widget sprocket", { limit: 1 })).map((h) => h.docId)).toEqual([
        "both",
      ]);
      // A rare word's sections (3, at most 5) are read beside them; the common words' are not.
      const rare = await few.searchSections("widget sprocket okapi", { limit: 100 });
      expect(rare.map((h) => h.docId).sort()).toEqual(["both", "okapi-0", "okapi-1", "okapi-2"]);
    } finally {
      await all.close();
      await few.close();
    }
  });

  it("discounts a long section's frequencies by its length, as BM25 does (FTS5 ranks the same way)", async () => {
    const index = await open({});
    // 180 distinct filler words: a long section mentioning "sprocket" twice among them.
    const filler = Array.from({ length: 180 }, (_, i) => `filler${i.toString(36)}word`).join(" ");
    try {
      await index.putDocuments([
        libraryEntry(
          libraryTree("long", [{ title: "Notes", text: `sprocket ${filler} sprocket`, tokenCount: 200 }]),
          "v1",
        ),
        libraryEntry(
          libraryTree("short", [{ title: "Notes", text: "Fit the sprocket.", tokenCount: 4 }]),
          "v1",
        ),
      ]);
      // Without length normalisation twice the occurrences wins; with it the short section does.
      const hits = await index.searchSections("sprocket", { limit: 2 });
      expect(hits.map((h) => h.docId)).toEqual(["short", "long"]);
    } finally {
      await index.close();
    }
  });

  it("asks for rows holding more of the terms while those holding fewer overflow the budget", async () => {
    const index = await open({ candidateRows: 2, singleTermRows: 0 });
    try {
      await index.putDocuments(pairedLibrary());
      const hits = await index.searchSections("widget sprocket okapi", { limit: 10 });
      expect(hits.map((h) => h.docId)).toEqual(["all-three"]);
      // No section holds two of these words: the rarest word's rows are read, at most the budget.
      const single = await index.searchSections("widget zebra", { limit: 10 });
      expect(single.map((h) => h.title)).toEqual([
        expect.stringMatching(/widget/),
        expect.stringMatching(/widget/),
      ]);
    } finally {
      await index.close();
    }
  });
});

/** A pool whose clients fail the first statement matching `failOn` (a writer dying mid-transaction). */
function failingPool(pool: pg.Pool, failOn: RegExp): PostgresPool {
  let armed = true;
  return {
    query: (text, values) => pool.query(text, values as unknown[]),
    end: () => pool.end(),
    connect: async () => {
      const client = await pool.connect();
      return {
        query: (text: string, values?: readonly unknown[]) => {
          if (armed && failOn.test(text)) {
            armed = false;
            return Promise.reject(new Error("injected failure"));
          }
          return client.query(text, values as unknown[]);
        },
        release: (destroy?: boolean | Error) => client.release(destroy),
      };
    },
  };
}

describe.skipIf(!available)("PostgresLibraryIndex reads what it shows", () => {
  it("reads the returned documents' cards and the shown sections' details as two statements in one round trip", async () => {
    const schema = testSchema("shown");
    const inner = new pg.Pool({ connectionString: POSTGRES_URL });
    // Which round trip each statement joined: one sent while another is in flight joins its round.
    const sent: Array<{ sql: string; round: number }> = [];
    let inFlight = 0;
    let round = 0;
    const query = ((sql: string, values?: unknown[]) => {
      if (inFlight === 0) round += 1;
      inFlight += 1;
      sent.push({ sql, round });
      return inner.query(sql, values).finally(() => {
        inFlight -= 1;
      });
    }) as pg.Pool["query"];
    const index = await PostgresLibraryIndex.open(
      { query, connect: () => inner.connect(), end: () => inner.end() } as PostgresPool,
      { schema },
    );
    try {
      await index.putDocuments(crowdedLibrary());
      sent.length = 0;
      const hits = await index.searchLibrary("widget sprocket", { limit: 3, sectionsPerDocument: 2 });
      expect(hits.length).toBeGreaterThan(1);
      expect(hits.every((hit) => hit.card.docId === hit.docId && hit.sections.length > 0)).toBe(true);
      const cards = sent.filter(({ sql }) => sql.includes("json_build_array(doc_id, card)"));
      const details = sent.filter(({ sql }) => sql.includes("json_build_array(s.doc_id"));
      expect(cards).toHaveLength(1);
      expect(details).toHaveLength(1);
      // Sent at once, and after every statement ranking them (the search's last round).
      expect(details[0]?.round).toBe(cards[0]?.round);
      expect(Math.max(...sent.map((s) => s.round))).toBe(cards[0]?.round);
      expect(cards[0]?.sql).not.toContain("library_sections");
    } finally {
      await index.close();
      await inner.end();
      await dropSchema(schema);
    }
  });
});

describe.skipIf(!available)("PostgresLibraryIndex writes", () => {
  const entry = (docId: string, version: string, words: string) =>
    libraryEntry(
      libraryTree(docId, [
        { title: `${words} overview`, text: `All about ${words}.`, tokenCount: 5 },
        { title: "Details", text: `More ${words} and the rest.`, tokenCount: 5 },
      ]),
      version,
    );

  /** The stored frequencies, and the same counted afresh from the stored vectors. */
  async function frequencies(
    db: pg.Pool,
    schema: string,
  ): Promise<{ stored: unknown[]; recounted: unknown[] }> {
    const stored = await db.query(
      `SELECT term, sections::int, cards::int FROM "${schema}".library_terms WHERE sections > 0 OR cards > 0 ORDER BY term`,
    );
    const recounted = await db.query(
      `SELECT term, sum(s)::int AS sections, sum(c)::int AS cards FROM (
         SELECT unnest(tsvector_to_array(tsv)) AS term, 1 AS s, 0 AS c FROM "${schema}".library_sections
         UNION ALL SELECT '', 1, 0 FROM "${schema}".library_sections
         UNION ALL SELECT unnest(tsvector_to_array(tsv)), 0, 1 FROM "${schema}".library_cards
         UNION ALL SELECT '', 0, 1 FROM "${schema}".library_cards) x GROUP BY term ORDER BY term`,
    );
    return { stored: stored.rows, recounted: recounted.rows };
  }

  it("keeps the term frequencies equal to what is indexed through puts, replacements and removals", async () => {
    const schema = testSchema("freq");
    const db = new pg.Pool({ connectionString: POSTGRES_URL });
    const index = await PostgresLibraryIndex.open(db, { schema });
    try {
      await index.putDocuments([entry("a", "1", "walrus"), entry("b", "1", "narwhal walrus")]);
      await index.putDocument(entry("a", "2", "beluga"));
      await index.removeDocument("b");
      await index.putDocuments([entry("c", "1", "orca"), entry("c", "2", "orca beluga")]);
      const { stored, recounted } = await frequencies(db, schema);
      expect(stored).toEqual(recounted);
      expect(stored).not.toContainEqual(expect.objectContaining({ term: "narwhal" }));
      expect(stored).toContainEqual({ term: "", sections: 4, cards: 2 });
    } finally {
      await dropSchema(schema);
      await db.end();
    }
  });

  it("leaves nothing in the full-text indexes' pending lists after a write (every search would read them)", async () => {
    const schema = testSchema("gin");
    const db = new pg.Pool({ connectionString: POSTGRES_URL });
    const index = await PostgresLibraryIndex.open(db, { schema });
    // Pages a clean finds left to move: 0 when the writer emptied the list.
    const left = async () =>
      (
        await db.query(
          `SELECT gin_clean_pending_list(i::regclass)::int AS pages FROM unnest($1::text[]) AS i`,
          [[`"${schema}".library_sections_tsv`, `"${schema}".library_cards_tsv`]],
        )
      ).rows.map((row) => row.pages);
    try {
      await index.putDocuments([entry("a", "1", "walrus"), entry("b", "1", "narwhal walrus")]);
      expect(await left()).toEqual([0, 0]);
      await index.putDocument(entry("a", "2", "beluga"));
      expect(await left()).toEqual([0, 0]);
      expect((await index.searchLibrary("beluga")).map((hit) => hit.docId)).toEqual(["a"]);
    } finally {
      await dropSchema(schema);
      await db.end();
    }
  });

  it("indexes a document whose text holds NUL characters (PostgreSQL text cannot hold them)", async () => {
    const schema = testSchema("nul");
    const index = await PostgresLibraryIndex.fromUrl(POSTGRES_URL, { schema });
    try {
      // A PDF's extracted text can carry U+0000: the whole write used to fail (invalid byte sequence).
      await index.putDocument(
        libraryEntry(
          libraryTree("pdf-nul", [
            { title: "Figure\u0000 export", text: "Export\u0000 the figure as walrus PNG.", tokenCount: 8 },
          ]),
          "v1",
        ),
      );
      const [hit] = await index.searchSections("walrus export");
      expect(hit?.docId).toBe("pdf-nul");
      expect(hit?.title).toBe("Figure export");
      // The card's JSON too: json operators (its node count) refuse an escaped NUL.
      const [doc] = await index.searchLibrary("walrus export");
      expect(doc?.card.outline[0]?.title).toBe("Figure export");
    } finally {
      await index.close();
      await dropSchema(schema);
    }
  });

  it("a write that fails midway changes nothing: the old version, frequencies and intent stay", async () => {
    const schema = testSchema("atomic");
    const db = new pg.Pool({ connectionString: POSTGRES_URL });
    const index = await PostgresLibraryIndex.open(db, { schema });
    const dying = await PostgresLibraryIndex.open(failingPool(db, /INSERT INTO \S+\.library_sections/), {
      schema,
    });
    try {
      await index.putDocument(entry("a", "1", "walrus"));
      const before = await frequencies(db, schema);
      await index.begin("a", "2");
      await expect(dying.putDocuments([entry("a", "2", "beluga"), entry("b", "1", "orca")])).rejects.toThrow(
        /injected failure/,
      );
      expect(await index.indexedVersions()).toEqual(new Map([["a", "1"]]));
      expect((await index.searchLibrary("walrus")).map((h) => h.docId)).toEqual(["a"]);
      expect(await index.searchLibrary("beluga orca")).toEqual([]);
      expect(await frequencies(db, schema)).toEqual(before);
      expect(await index.pending()).toEqual(new Map([["a", ["2"]]]));
      // The same handle works on: the failed transaction was rolled back, its client released.
      await dying.putDocument(entry("a", "2", "beluga"));
      expect((await index.searchLibrary("beluga")).map((h) => h.docId)).toEqual(["a"]);
      expect(await index.pending()).toEqual(new Map());
    } finally {
      await dropSchema(schema);
      await db.end();
    }
  });
});
