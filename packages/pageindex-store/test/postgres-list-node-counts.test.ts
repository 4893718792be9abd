/**
 * The PostgreSQL sections' champion lists carry each row's document node count (the length
 * prior), so a library-wide query looks up only the counts no list row carries. A library whose
 * lists an earlier release wrote (no `nodes` column) answers the same, read as it is; an open
 * that asks for lists (or finds them small) gives them the counts in one transaction, which a
 * failure leaves undone; a row an earlier writer added without a count is looked up.
 */
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { PostgresLibraryIndex } from "../src/index.js";
import { libraryEntry } from "../src/library/entry.js";
import { ADD_NODES_UNASKED } from "../src/postgres/library-index.js";
import {
  adminQuery,
  adminRows,
  dropSchema,
  POSTGRES_URL,
  postgresReachable,
  testSchema,
} from "./helpers/postgres.js";
import { expectPostgresListsAgree } from "./helpers/postgres-champions.js";
import { wordy } from "./helpers/wordy-entry.js";
import { libraryTree } from "./library.behaviour.js";

const available = await postgresReachable("postgres-list-node-counts.test.ts");

const PER_TERM = 2;
const LIST_TABLES = ["library_champions", "library_champion_pending"];
const QUESTIONS = ["sprocket ratchet", "sprocket", "ratchet gears", "notes sprocket"];

/** Of one run of the sections' lists statement: the documents its list rows name, and those whose counts it looked up. */
interface CountsRead {
  listed: Set<string>;
  lookedUp: string[];
}

/**
 * A pool that records what each run of the sections' lists statement read (see {@link CountsRead}),
 * and fails the first statement matching `failOn`, when given.
 */
function countingPool(failOn?: RegExp) {
  const inner = new pg.Pool({ connectionString: POSTGRES_URL });
  const reads: CountsRead[] = [];
  let failed = false;
  const failing = (sql: string) => {
    if (!failOn || failed || !failOn.test(sql)) return false;
    failed = true;
    return true;
  };
  const query = (async (sql: string, params?: unknown[]) => {
    if (failing(sql)) throw new Error("simulated failure");
    const answer = await inner.query(sql, params);
    if (sql.includes("library_champions c") && sql.includes("library_node_counts")) {
      const listed = new Set<string>();
      let lookedUp: string[] = [];
      for (const row of answer.rows) {
        const part = Number(row.part);
        if (part !== 1 && part !== 2) continue; // 0: a row holding two terms, its score
        const [docIds] = JSON.parse(row.value) as [string[] | null];
        if (part === 1) for (const docId of docIds ?? []) listed.add(docId);
        else lookedUp = docIds ?? [];
      }
      reads.push({ listed, lookedUp });
    }
    return answer;
  }) as pg.Pool["query"];
  const connect = async () => {
    const client = await inner.connect();
    return {
      query: (async (sql: string, params?: unknown[]) => {
        if (failing(sql)) throw new Error("simulated failure");
        return client.query(sql, params);
      }) as pg.PoolClient["query"],
      release: (destroy?: boolean | Error) => client.release(destroy),
    };
  };
  return { pool: { query, connect, end: () => inner.end() }, reads };
}

/** Whether each of the sections' list tables has the `nodes` column. */
async function carried(schema: string): Promise<boolean[]> {
  return Promise.all(
    LIST_TABLES.map(
      async (table) =>
        (
          await adminRows(
            "SELECT 1 FROM pg_attribute WHERE attrelid = to_regclass($1) AND attname = 'nodes' AND NOT attisdropped",
            [`"${schema}".${table}`],
          )
        ).length > 0,
    ),
  );
}

/** The lists as an earlier release left them: no `nodes` column, its list index as it was. */
async function toEarlierShape(schema: string): Promise<void> {
  for (const table of LIST_TABLES)
    await adminQuery(
      `ALTER TABLE "${schema}".${table} DROP COLUMN nodes;
       CREATE INDEX ${table}_list ON "${schema}".${table} (term, rank DESC, doc_id, node_id) INCLUDE (back_matter)`,
    );
}

describe.skipIf(!available)(
  "PostgresLibraryIndex: node counts carried in the champion lists",
  { timeout: 20_000 },
  () => {
    const schemas: string[] = [];
    afterAll(async () => {
      for (const schema of schemas) await dropSchema(schema);
    });

    /** Opens `schema` on a counting pool: a one-row one-term budget, so even this library reads its lists. */
    const open = async (schema: string, options: { championRows?: number; failOn?: RegExp } = {}) => {
      const { pool, reads } = countingPool(options.failOn);
      try {
        const index = await PostgresLibraryIndex.open(pool, {
          schema,
          singleTermRows: 1,
          championMergeSections: 8,
          ...(options.championRows === undefined ? {} : { championRows: options.championRows }),
        });
        const ask = () =>
          Promise.all(QUESTIONS.map((q) => index.searchLibrary(q, { limit: 20, sectionsPerDocument: 20 })));
        const close = async () => {
          await index.close();
          await pool.end();
        };
        /** Whether no run looked up a count a list row carried (else: every run looked up every listed document). */
        const listedCounted = () =>
          reads.every((read) => read.lookedUp.every((docId) => !read.listed.has(docId)));
        const listedLookedUp = () =>
          reads.every((read) => [...read.listed].every((d) => read.lookedUp.includes(d)));
        return { index, ask, reads, listedCounted, listedLookedUp, close };
      } catch (error) {
        await pool.end();
        throw error;
      }
    };

    it("are looked up only where no list row carries them; lists without them answer the same and get them when asked", async () => {
      const schema = testSchema("listnodes");
      schemas.push(schema);
      // Six documents for each word, never in one section, and one whose section holds both.
      const fresh = await open(schema, { championRows: PER_TERM });
      await fresh.index.putDocuments([
        ...Array.from({ length: 6 }, (_, i) => wordy(`s-${i}`, i, "sprocket", 1 + (i % 4))),
        ...Array.from({ length: 6 }, (_, i) => wordy(`r-${i}`, i, "ratchet", 1 + (i % 3))),
      ]);
      await fresh.index.putDocument(
        libraryEntry(
          libraryTree("both", [
            { title: "Sprocket ratchet", text: "A ratchet on the sprocket.", tokenCount: 6 },
          ]),
          "v1",
        ),
      );
      await expectPostgresListsAgree(schema, PER_TERM, 2 * PER_TERM);
      expect(await carried(schema)).toEqual([true, true]);
      const answers = await fresh.ask();
      expect(answers.flat().length).toBeGreaterThan(QUESTIONS.length);
      // Only documents no list row names (found by rows holding two terms) are looked up.
      expect(fresh.reads.length).toBeGreaterThan(0);
      expect(fresh.listedCounted()).toBe(true);
      expect(fresh.listedLookedUp()).toBe(false);
      await fresh.close();

      // An earlier release's lists, read as they are (too big to change unasked): the same
      // answers, every document met looked up, the lists left without the column.
      await toEarlierShape(schema);
      const most = ADD_NODES_UNASKED.rows;
      ADD_NODES_UNASKED.rows = 0;
      try {
        const earlier = await open(schema);
        expect(await earlier.ask()).toEqual(answers);
        expect(earlier.listedLookedUp()).toBe(true);
        // Its writes keep that shape, and the lists in step.
        await earlier.index.putDocument(wordy("s-1", 9, "sprocket", 3));
        await expectPostgresListsAgree(schema, PER_TERM, 2 * PER_TERM);
        expect(await carried(schema)).toEqual([false, false]);
        const written = await earlier.ask();
        await earlier.close();

        // A failure while the counts are added leaves the lists as they were.
        await expect(
          open(schema, { championRows: PER_TERM, failOn: /RENAME TO library_champion_pending/ }),
        ).rejects.toThrow("simulated failure");
        expect(await carried(schema)).toEqual([false, false]);

        // Asked for lists: the counts are added; the same answers, from the lists' own counts.
        const asked = await open(schema, { championRows: PER_TERM });
        expect(await carried(schema)).toEqual([true, true]);
        await expectPostgresListsAgree(schema, PER_TERM, 2 * PER_TERM);
        expect(await asked.ask()).toEqual(written);
        expect(asked.listedCounted()).toBe(true);
        await asked.close();

        // A row an earlier release's writer added carries no count: that document is looked up.
        await adminQuery(`UPDATE "${schema}".library_champions SET nodes = NULL WHERE doc_id = 's-2'`);
        await adminQuery(`UPDATE "${schema}".library_champion_pending SET nodes = NULL WHERE doc_id = 's-2'`);
        const mixed = await open(schema);
        expect(await mixed.ask()).toEqual(written);
        expect(mixed.reads.some((read) => read.listed.has("s-2") && read.lookedUp.includes("s-2"))).toBe(
          true,
        );
        expect(mixed.listedCounted()).toBe(false);
        await mixed.close();
      } finally {
        ADD_NODES_UNASKED.rows = most;
      }
    });

    it("are added unasked to small lists on open", async () => {
      const schema = testSchema("listnodes");
      schemas.push(schema);
      const first = await open(schema, { championRows: PER_TERM });
      await first.index.putDocuments(Array.from({ length: 5 }, (_, i) => wordy(`s-${i}`, i, "sprocket", 2)));
      const answers = await first.ask();
      await first.close();
      await toEarlierShape(schema);
      const later = await open(schema);
      expect(await carried(schema)).toEqual([true, true]);
      await expectPostgresListsAgree(schema, PER_TERM, 2 * PER_TERM);
      expect(await later.ask()).toEqual(answers);
      await later.close();
    });
  },
);
