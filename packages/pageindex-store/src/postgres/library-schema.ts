import { inTransaction, type PostgresPool } from "./connection.js";

/** Table names of the library index inside its (quoted) schema. */
export interface LibraryTables {
  cards: string;
  facets: string;
  sections: string;
  terms: string;
  intents: string;
  /** The full-text (GIN) indexes of sections and cards. */
  textIndexes: string[];
}

export function libraryTables(schema: string): LibraryTables {
  return {
    cards: `${schema}.library_cards`,
    facets: `${schema}.library_facets`,
    sections: `${schema}.library_sections`,
    terms: `${schema}.library_terms`,
    intents: `${schema}.library_write_intents`,
    textIndexes: [`${schema}.library_sections_tsv`, `${schema}.library_cards_tsv`],
  };
}

/**
 * Creates the library's tables when absent (serialised by an advisory lock, as the byte table).
 * - cards: one row per document, the card as written (json keeps it exactly) and its tsvector;
 * - facets: one row per metadata value (and kind), lowercased as the catalog's filters compare;
 * - sections: one row per node, its place (pages, lines, ancestors) and a weighted tsvector (GIN);
 * - terms: how many sections and cards hold each term (the IDF that ts_rank lacks); the row of
 *   the empty term holds the totals;
 * - intents: writes announced and not yet applied (crash repair), one row per version ('' for
 *   a delete), so concurrent writers of one document each clear only their own. The
 *   one-per-document `library_intents` of an earlier release is moved into it.
 */
export async function ensureLibraryTables(
  pool: PostgresPool,
  schema: string,
  timeoutMs: number,
): Promise<LibraryTables> {
  const t = libraryTables(schema);
  await inTransaction(pool, "create library tables", timeoutMs, async (client) => {
    await client.query("SELECT pg_advisory_xact_lock(hashtext('pageindex-store schema'))");
    await client.query(`CREATE SCHEMA IF NOT EXISTS ${schema}`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${t.cards} (
      doc_id text COLLATE "C" PRIMARY KEY,
      version_id text NOT NULL,
      card json NOT NULL,
      tsv tsvector NOT NULL)`);
    await client.query(`CREATE INDEX IF NOT EXISTS library_cards_tsv ON ${t.cards} USING gin (tsv)`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${t.facets} (
      key text NOT NULL,
      value text NOT NULL,
      doc_id text COLLATE "C" NOT NULL,
      PRIMARY KEY (key, value, doc_id))`);
    await client.query(`CREATE INDEX IF NOT EXISTS library_facets_doc ON ${t.facets} (doc_id)`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${t.sections} (
      doc_id text COLLATE "C" NOT NULL,
      node_id text COLLATE "C" NOT NULL,
      title text NOT NULL,
      ancestors json NOT NULL,
      level integer NOT NULL,
      start_page integer,
      end_page integer,
      start_line integer,
      end_line integer,
      back_matter boolean NOT NULL,
      summary text NOT NULL,
      tsv tsvector NOT NULL,
      PRIMARY KEY (doc_id, node_id))`);
    await client.query(`CREATE INDEX IF NOT EXISTS library_sections_tsv ON ${t.sections} USING gin (tsv)`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${t.terms} (
      term text COLLATE "C" PRIMARY KEY,
      sections bigint NOT NULL,
      cards bigint NOT NULL)`);
    await client.query(`CREATE TABLE IF NOT EXISTS ${t.intents} (
      doc_id text COLLATE "C" NOT NULL,
      version_id text COLLATE "C" NOT NULL,
      PRIMARY KEY (doc_id, version_id))`);
    const legacy = `${schema}.library_intents`;
    const { rows } = await client.query("SELECT to_regclass($1) AS found", [legacy]);
    if (rows[0]?.found) {
      await client.query(
        `INSERT INTO ${t.intents} (doc_id, version_id)
         SELECT doc_id, coalesce(version_id, '') FROM ${legacy} ON CONFLICT DO NOTHING`,
      );
      await client.query(`DROP TABLE ${legacy}`);
    }
  });
  return t;
}
