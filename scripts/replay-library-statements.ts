// The folder library index's statements alone, as a library-wide query runs them, on a library
// the scale bench built: each of the bench's questions (past its warm-up) is searched once at the
// retriever's limits (20 documents × 12 sections) while every statement the index runs is
// recorded with its parameters; the statements are then run again, question by question (one
// read transaction each, as a search), on a fresh read-only connection, and each one's CPU time,
// runs and rows a query are printed. No JavaScript of the index runs in the replay, so two sizes
// (or two settings) compare statement by statement; rows are what a statement returns.
//
// `--pragma "PRAGMA mmap_size = 2147483648"` (`;`-separated) sets the replay connection up first;
// `--fts` splits each FTS5 ranked statement: the same MATCH unranked (the boolean query's own
// evaluation), each of its phrases counted alone (bm25 counts every row of each phrase for its
// idf, each time a statement runs), and the rows those phrases hold; `--plan` prints each
// statement's EXPLAIN QUERY PLAN.
//
// Usage (on the built packages): npx tsx scripts/replay-library-statements.ts --docs 100000
//   [--queries 40] [--fts] [--plan] [--pragma "PRAGMA …"]
// Reads ~/.cache/pageindex-bench/scale/folder-<docs> (or under XDG_CACHE_HOME) read-only.
import { createRequire } from "node:module";
import { join } from "node:path";
import { LIBRARY_FILE, SqliteLibraryIndex } from "pageindex-store";
import { option } from "./cli-option.js";
import { libraryQuestions } from "./generated-library.js";
import { scaleFolder } from "./scale-libraries.js";

const DOCS = Number(option("docs", "100000"));
const QUERIES = Number(option("queries", "40"));
/** Questions asked first, unrecorded (the bench's warm-up). */
const WARM_UP = 10;
const LIMITS = { limit: 20, sectionsPerDocument: 12 };
const FOLDER = join(scaleFolder(DOCS), ".library");
/** The store package's manifest, which `libsql` is resolved from. */
const STORE_MANIFEST = new URL("../packages/pageindex-store/package.json", import.meta.url).pathname;

/** A prepared statement as libsql hands it out (better-sqlite3's API). */
interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
  raw(on?: boolean): Statement;
}

interface Connection {
  prepare(source: string): Statement;
  exec(source: string): void;
  close(): void;
}

/** One statement run: its SQL and parameters. */
interface Run {
  source: string;
  params: unknown[];
}

const cpuMs = () => {
  const used = process.cpuUsage();
  return (used.user + used.system) / 1000;
};
const label = (source: string) =>
  source
    .replace(/\s+/g, " ")
    .replace(/^SELECT json_group_array\(json_array\((.*?)\)\) FROM \(/, "JSON[$1] ← (")
    .slice(0, 110);

/** Records the statements of each question's `searchLibrary` (the index's statement cache is where they all come from). */
async function record(questions: readonly string[]): Promise<Run[][]> {
  const index = SqliteLibraryIndex.prototype as unknown as { sql(source: string): Statement };
  const prepare = index.sql;
  const wrapped = new WeakSet<Statement>();
  let runs: Run[] | undefined;
  index.sql = function (this: unknown, source: string): Statement {
    const statement = prepare.call(this, source);
    if (wrapped.has(statement)) return statement;
    wrapped.add(statement);
    for (const method of ["get", "all", "run"] as const) {
      const original = statement[method].bind(statement) as (...params: unknown[]) => unknown;
      Object.assign(statement, {
        [method]: (...params: unknown[]) => {
          runs?.push({ source, params });
          return original(...params);
        },
      });
    }
    return statement;
  };
  const library = await SqliteLibraryIndex.open(FOLDER, { readOnly: true });
  try {
    for (const q of libraryQuestions(100, true, WARM_UP)) await library.searchLibrary(q.query, LIMITS);
    const out: Run[][] = [];
    for (const question of questions) {
      runs = [];
      await library.searchLibrary(question, LIMITS);
      out.push(runs);
    }
    return out;
  } finally {
    runs = undefined;
    index.sql = prepare;
    await library.close();
  }
}

/** Rows a statement returned: a JSON array's length, else the rows themselves. */
function rowsOf(result: unknown[]): number {
  const first = (result[0] as unknown[] | undefined)?.[0];
  if (result.length === 1 && typeof first === "string" && first.startsWith("[")) {
    return (JSON.parse(first) as unknown[]).length;
  }
  return result.length;
}

/** An FTS5 ranked statement's MATCH split: its evaluation unranked, each phrase's own walk. */
interface FtsSplit {
  ranked: number;
  unranked: number;
  walks: number;
  phrases: number;
  phraseRows: number;
  runs: number;
}

function replay(db: Connection, questions: readonly Run[][], fts: boolean): void {
  const prepared = new Map<string, Statement>();
  const prepare = (source: string) => {
    let statement = prepared.get(source);
    if (!statement) {
      statement = db.prepare(source).raw(true);
      prepared.set(source, statement);
    }
    return statement;
  };
  const spent = new Map<string, { ms: number; runs: number; rows: number }>();
  const splits = new Map<string, FtsSplit>();
  let total = 0;
  for (const runs of questions) {
    const started = cpuMs();
    db.exec("BEGIN");
    for (const { source, params } of runs) {
      const before = cpuMs();
      const rows = rowsOf(prepare(source).all(...params));
      const entry = spent.get(label(source)) ?? { ms: 0, runs: 0, rows: 0 };
      entry.ms += cpuMs() - before;
      entry.runs += 1;
      entry.rows += rows;
      spent.set(label(source), entry);
    }
    db.exec("COMMIT");
    total += cpuMs() - started;
  }
  const n = questions.length;
  console.log(`folder-${DOCS}: statements ${(total / n).toFixed(3)} ms of CPU a query (${n} questions)`);
  console.log("ms a query  runs  rows  statement");
  for (const [name, { ms, runs, rows }] of [...spent].sort((a, b) => b[1].ms - a[1].ms)) {
    console.log(
      `${(ms / n).toFixed(3).padStart(10)}  ${(runs / n).toFixed(1).padStart(4)}  ${(rows / n).toFixed(0).padStart(4)}  ${name}`,
    );
  }
  if (!fts) return;
  // Each in a transaction of its own, after the replay above: these are its pages asked again.
  for (const runs of questions) {
    for (const { source, params } of runs) {
      const table = /FROM (\w+_terms) WHERE \1 MATCH \?/.exec(source)?.[1];
      if (!table || !source.includes("rank") || params.length !== 1) continue;
      const match = String(params[0]);
      const phrases = match.match(/"(?:[^"]|"")*"/g) ?? [];
      const count = prepare(`SELECT count(*) FROM ${table} WHERE ${table} MATCH ?`);
      const split = splits.get(table) ?? {
        ranked: 0,
        unranked: 0,
        walks: 0,
        phrases: 0,
        phraseRows: 0,
        runs: 0,
      };
      db.exec("BEGIN");
      let at = cpuMs();
      prepare(source).all(...params);
      split.ranked += cpuMs() - at;
      at = cpuMs();
      count.all(match);
      split.unranked += cpuMs() - at;
      at = cpuMs();
      for (const phrase of phrases) split.phraseRows += Number((count.all(phrase)[0] as unknown[])[0]);
      split.walks += cpuMs() - at;
      db.exec("COMMIT");
      split.phrases += phrases.length;
      split.runs += 1;
      splits.set(table, split);
    }
  }
  console.log(
    "\nFTS5 ranked statements again (ms a query): ranked / its MATCH unranked / its phrases counted alone",
  );
  for (const [table, s] of splits) {
    console.log(
      `${table}: ${(s.ranked / n).toFixed(3)} / ${(s.unranked / n).toFixed(3)} / ${(s.walks / n).toFixed(3)}; ${(s.runs / n).toFixed(1)} statements, ${(s.phrases / n).toFixed(1)} phrases and ${(s.phraseRows / n).toFixed(0)} rows in them a query`,
    );
  }
}

function plans(db: Connection, questions: readonly Run[][]): void {
  const seen = new Set<string>();
  for (const { source, params } of questions.flat()) {
    if (seen.has(source)) continue;
    seen.add(source);
    const plan = db
      .prepare(`EXPLAIN QUERY PLAN ${source}`)
      .raw(true)
      .all(...params) as unknown[][];
    console.log(`\n${label(source)}`);
    for (const row of plan) console.log(`  ${String(row[3])}`);
  }
}

async function main(): Promise<void> {
  const questions = libraryQuestions(100, true, QUERIES, WARM_UP).map((q) => q.query);
  const recorded = await record(questions);
  // libsql, resolved from the store package that depends on it (the root does not).
  const Sqlite = createRequire(STORE_MANIFEST)("libsql") as new (path: string) => Connection;
  const db = new Sqlite(`file:${join(FOLDER, LIBRARY_FILE)}?mode=ro`);
  try {
    for (const pragma of option("pragma", "")
      .split(";")
      .filter((p) => p.trim()))
      db.exec(pragma);
    replay(db, recorded, process.argv.includes("--fts"));
    if (process.argv.includes("--plan")) plans(db, recorded);
  } finally {
    db.close();
  }
}

await main();
