import { CARD_INDEX_FIELDS, SECTION_FIELDS } from "../query.js";

/** Version of the index file's layout; a file of another version is rebuilt, not misread. */
/**
 * Write intents, one per announced version ('' for a delete): concurrent writers of one document
 * each clear only their own. Replaces the `intents` table keyed by document alone (migrated on
 * the first writable open, see `migrateIntents`).
 */
export const INTENTS_TABLE =
  "CREATE TABLE IF NOT EXISTS write_intents (doc_id TEXT NOT NULL, version_id TEXT NOT NULL, PRIMARY KEY (doc_id, version_id)) WITHOUT ROWID;";

export const SCHEMA_VERSION = "1";

/**
 * FTS5 tables hold terms the project's tokenizer already produced (stemmed, stop words dropped),
 * so FTS5 only splits on spaces: no second stemmer can disagree with the query's. They are
 * contentless (the terms are not stored twice) with `contentless_delete`, so a replaced
 * document's rows are deleted by rowid.
 */
const FTS_OPTIONS = "content='', contentless_delete=1, tokenize='unicode61 remove_diacritics 0'";

const bm25 = (fields: ReadonlyArray<{ weight: number }>) => `bm25(${fields.map((f) => f.weight).join(", ")})`;

/**
 * A section's row id says whose it is: document row × 2²¹ + back matter × 2²⁰ + its index in
 * the document. Ranking then reads nothing but the FTS5 index (no lookup per scored row), and
 * a document's sections are one row-id range (deleted, or searched alone, by range).
 */
export const SECTION_ID = {
  perDocument: 2 ** 21,
  backMatter: 2 ** 20,
  /** Sections of one document indexed at most (the first ones). */
  maxSections: 2 ** 20,
} as const;

/** The row id of section `index` of document row `doc`. */
export function sectionId(doc: number, index: number, backMatter: boolean): number {
  return doc * SECTION_ID.perDocument + (backMatter ? SECTION_ID.backMatter : 0) + index;
}

/** The document row and back-matter mark of a section row id. */
export function sectionOwner(id: number): { doc: number; backMatter: boolean } {
  const doc = Math.floor(id / SECTION_ID.perDocument);
  return { doc, backMatter: id - doc * SECTION_ID.perDocument >= SECTION_ID.backMatter };
}

/**
 * The champion lists' backlog (see `ChampionLists.merge`): `champion_pending`, an FTS5 table,
 * holds every section written since the last merge (see pending.ts; read beside the lists, so a
 * write adds to this small index only);
 * `champion_gone` the documents removed since, whose rows are still in the lists or pending
 * (queries skip them; their row ids are not given again before the merge).
 */
export const CHAMPION_BACKLOG_SCHEMA = `
CREATE VIRTUAL TABLE IF NOT EXISTS champion_pending USING fts5 (
  ${SECTION_FIELDS.map((f) => f.name).join(", ")}, ${FTS_OPTIONS}
);
CREATE TABLE IF NOT EXISTS champion_gone (doc INTEGER PRIMARY KEY);
INSERT OR IGNORE INTO library_meta (key, value) VALUES ('champion_backlog', '0');
`;

/**
 * The champion lists' tables (see champions.ts; created when absent). `champions` holds each
 * list (its key in reverse is best first: impact, then the later row);
 * `champion_terms` how many rows each list holds, whether they are every row of the term, and
 * its last row (what a new row must beat once the list is short of its term's rows);
 * `section_lengths` each section's length in tokens (FTS5's document size), which a refill reads.
 */
export const CHAMPION_SCHEMA = `
CREATE TABLE IF NOT EXISTS champions (
  term TEXT NOT NULL,
  impact REAL NOT NULL,
  id INTEGER NOT NULL,
  wf REAL NOT NULL,
  len INTEGER NOT NULL,
  PRIMARY KEY (term, impact, id)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS champions_id ON champions (id);
CREATE TABLE IF NOT EXISTS champion_terms (
  term TEXT PRIMARY KEY,
  kept INTEGER NOT NULL,
  complete INTEGER NOT NULL,
  floor REAL NOT NULL,
  floor_id INTEGER NOT NULL
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS section_lengths (id INTEGER PRIMARY KEY, len INTEGER NOT NULL);
${CHAMPION_BACKLOG_SCHEMA}`;

/**
 * Each document's node count, one row a document (see node-counts.ts; added to a file written
 * without it by `migrateNodeCounts`).
 */
export const NODE_COUNTS_SCHEMA =
  "CREATE TABLE IF NOT EXISTS document_nodes (doc INTEGER PRIMARY KEY, nodes INTEGER NOT NULL);";

/** The tables of a library index file (created when absent). */
export const SCHEMA = `
CREATE TABLE IF NOT EXISTS library_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS documents (
  doc INTEGER PRIMARY KEY,
  doc_id TEXT NOT NULL UNIQUE,
  version_id TEXT NOT NULL,
  card TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS facets (
  facet TEXT NOT NULL,
  doc INTEGER NOT NULL,
  PRIMARY KEY (facet, doc)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS facets_doc ON facets (doc);
CREATE TABLE IF NOT EXISTS sections (
  id INTEGER PRIMARY KEY,
  node_id TEXT NOT NULL,
  title TEXT NOT NULL,
  ancestors TEXT NOT NULL,
  level INTEGER NOT NULL,
  summary TEXT NOT NULL,
  start_page INTEGER,
  end_page INTEGER,
  start_line INTEGER,
  end_line INTEGER
);
CREATE VIRTUAL TABLE IF NOT EXISTS section_terms USING fts5 (
  ${SECTION_FIELDS.map((f) => f.name).join(", ")}, ${FTS_OPTIONS}
);
CREATE VIRTUAL TABLE IF NOT EXISTS card_terms USING fts5 (
  ${CARD_INDEX_FIELDS.map((f) => f.name).join(", ")}, ${FTS_OPTIONS}
);
${INTENTS_TABLE}
${NODE_COUNTS_SCHEMA}
INSERT INTO section_terms (section_terms, rank) VALUES ('rank', '${bm25(SECTION_FIELDS)}');
INSERT INTO card_terms (card_terms, rank) VALUES ('rank', '${bm25(CARD_INDEX_FIELDS)}');
INSERT OR IGNORE INTO library_meta (key, value) VALUES ('schema', '${SCHEMA_VERSION}');
`;
