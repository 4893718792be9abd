// Where a warm library-wide query's time goes on PostgreSQL, on libraries the scale bench built
// (scripts/bench-library-scale.ts, schemas scale_<docs>): the engine's `searchLibrary` (as the
// bench asks it: limit 10, 12 sections a document) and the retriever ask the bench's questions
// (those about the 100-document library's documents, as the bench asks every size), past a
// warm-up, libraries in turn, and it prints per library
// - statements and sequential round trips per query (statements sent while none other of the
//   query is in flight start a round);
// - each statement's wall time (client-observed) and runs per query, by its SQL's shape;
// - with --explain, `EXPLAIN (ANALYZE, BUFFERS)` of each statement shape's last run, re-sent
//   with its parameters: server time, buffers hit/read, the plan's top lines;
// - with --server, `EXPLAIN (ANALYZE, TIMING OFF)` of every statement of the last round:
//   median planning and execution time per statement shape (the server's share, load aside);
// - with --replay N, the engine's `searchLibrary` CPU with every statement answered from memory
//   (the answers of the last round), N rounds: its JavaScript alone, no server, no protocol.
// - with --wire, what the client receives a query (the last round's statements re-sent on a
//   connection that parses no type): bytes by statement shape and by column (text as sent, plus
//   the DataRow framing), and inside JSON columns by path (arrays' items folded into `[]`); then
//   the driver's CPU alone, the round re-sent with types parsed and as text.
// Read-only: it never writes to the libraries.
//
// Usage (on the built packages): npx tsx scripts/profile-postgres-query.ts --docs 100,100000
//   [--schemas scale_100,copy_100000] [--queries 30] [--rounds 3] [--explain] [--retriever]
//   [--limit 10] [--server] [--replay 40] [--wire]   (`--limit`: documents searchLibrary asks for; the retriever asks 20)
// Database: PAGEINDEX_POSTGRES_URL (default postgres://postgres@127.0.0.1:55432/scale_bench).
import { createRequire } from "node:module";
import { loadavg } from "node:os";
import { fileURLToPath } from "node:url";
import { PageIndexRetriever } from "pageindex-retriever";
import {
  PageIndexStore,
  PostgresByteStore,
  PostgresLibraryIndex,
  type PostgresPool,
  type PostgresPoolClient,
  type PostgresQueryable,
} from "pageindex-store";
import { option } from "./cli-option.js";
import { libraryQuestions } from "./generated-library.js";
import { SCALE_POSTGRES_URL as DATABASE_URL } from "./scale-libraries.js";

/** The libraries' schemas: `--schemas` (e.g. a copy of one), else scale_<docs> for each of `--docs`. */
const SCHEMAS = option(
  "schemas",
  option("docs", "100,100000")
    .split(",")
    .map((docs) => `scale_${docs}`)
    .join(","),
).split(",");
const QUERIES = Number(option("queries", "30"));
const ROUNDS = Number(option("rounds", "3"));
const EXPLAIN = process.argv.includes("--explain");
const RETRIEVER = process.argv.includes("--retriever");
const SERVER = process.argv.includes("--server");
const LIMIT = Number(option("limit", "10"));
const REPLAY = Number(option("replay", "0"));
const WIRE = process.argv.includes("--wire");
/** Questions asked first, untimed (the bench's warm-up). */
const WARM_UP = 10;

interface Shape {
  ms: number[];
  runs: number;
  last?: { sql: string; values: readonly unknown[] };
  /** With --server: every run of the round being recorded. */
  all: Array<{ sql: string; values: readonly unknown[] }>;
}

type Answer = Awaited<ReturnType<PostgresQueryable["query"]>>;

/** A pool recording every statement (its own and its lent clients'), with its time and the round it joined. */
class Recorder {
  readonly shapes = new Map<string, Shape>();
  statements = 0;
  rounds = 0;
  private inFlight = 0;
  readonly pool: PostgresPool;
  /** Answers kept by statement and parameters while `keep`, served from memory while `replay`. */
  readonly answers = new Map<string, Answer>();
  keep = false;
  replay = false;

  constructor(inner: PostgresPool) {
    const record = (db: PostgresQueryable) => async (sql: string, values?: readonly unknown[]) => {
      const key = `${sql}\u0000${JSON.stringify(values ?? [])}`;
      const kept = this.replay ? this.answers.get(key) : undefined;
      if (kept) return kept;
      if (this.inFlight === 0) this.rounds += 1;
      this.inFlight += 1;
      this.statements += 1;
      const started = performance.now();
      try {
        const answer = await db.query(sql, values);
        if (this.keep) this.answers.set(key, answer);
        return answer;
      } finally {
        this.inFlight -= 1;
        const name = sql
          .replace(/\s+/g, " ")
          .replace(/"\w+"\./g, "S.")
          .slice(0, 110);
        const shape = this.shapes.get(name) ?? { ms: [], runs: 0, all: [] };
        shape.ms.push(performance.now() - started);
        shape.runs += 1;
        shape.last = { sql, values: values ?? [] };
        if (this.keep) shape.all.push(shape.last);
        this.shapes.set(name, shape);
      }
    };
    this.pool = {
      query: record(inner),
      connect: async (): Promise<PostgresPoolClient> => {
        const client = await inner.connect();
        return { query: record(client), release: (destroy) => client.release(destroy) };
      },
      end: () => inner.end(),
    };
  }

  reset(): void {
    this.shapes.clear();
    this.statements = 0;
    this.rounds = 0;
  }
}

const median = (values: readonly number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

interface Library {
  schema: string;
  recorder: Recorder;
  store: PageIndexStore;
  retriever: PageIndexRetriever;
}

async function open(schema: string): Promise<Library> {
  const pg = createRequire(
    fileURLToPath(new URL("../packages/pageindex-store/package.json", import.meta.url)),
  )("pg") as { Pool: new (options: { connectionString: string; max: number }) => PostgresPool };
  const recorder = new Recorder(new pg.Pool({ connectionString: DATABASE_URL, max: 10 }));
  const options = { schema };
  const byteStore = await PostgresByteStore.open(recorder.pool, options);
  const library = await PostgresLibraryIndex.open(recorder.pool, options);
  const store = new PageIndexStore(byteStore, { library });
  return {
    schema,
    recorder,
    store,
    retriever: new PageIndexRetriever({ reader: store, k: 3, cache: false }),
  };
}

const ask = (library: Library, query: string) =>
  RETRIEVER
    ? library.retriever.invoke(query)
    : library.store.searchLibrary(query, { limit: LIMIT, sectionsPerDocument: 12 });

async function explain(library: Library, shape: Shape): Promise<string[]> {
  if (!shape.last) return [];
  const { rows } = await library.recorder.pool.query(
    `EXPLAIN (ANALYZE, BUFFERS, FORMAT TEXT) ${shape.last.sql}`,
    shape.last.values,
  );
  return rows.map((row) => String(row["QUERY PLAN"]));
}

/** Adds the UTF-8 bytes of each part of a JSON value to `into`, by path (arrays' items as `[]`) down to `depth`. */
function jsonParts(value: unknown, path: string, depth: number, into: Map<string, number>): void {
  if (depth > 0 && value !== null && typeof value === "object") {
    // An array of like items (rows, ids) folds into `[]`; a short mixed one (a tuple) keeps its indexes.
    const kind = (item: unknown) => (Array.isArray(item) ? "array" : item === null ? "null" : typeof item);
    // At the root an array is rows (cards, sections), but the lists' `value`, a tuple of columns.
    const root = !path.includes("[") && !path.includes(".");
    const folded =
      Array.isArray(value) &&
      (root
        ? path !== "value"
        : value.length > 5 || (new Set(value.map(kind)).size === 1 && kind(value[0]) !== "array"));
    const entries = Array.isArray(value)
      ? value.map((item, i) => [folded ? `${path}[]` : `${path}[${i}]`, item] as const)
      : Object.entries(value).map(([key, item]) => [`${path}.${key}`, item] as const);
    for (const [sub, item] of entries) jsonParts(item, sub, depth - 1, into);
    return;
  }
  into.set(path, (into.get(path) ?? 0) + Buffer.byteLength(JSON.stringify(value)));
}

/** Bytes received a query, by statement shape and column (see --wire). */
async function printWire(r: Recorder, queries: number): Promise<void> {
  const pg = createRequire(
    fileURLToPath(new URL("../packages/pageindex-store/package.json", import.meta.url)),
  )("pg") as {
    Client: new (options: {
      connectionString: string;
      types: { getTypeParser: () => (text: string) => string };
    }) => PostgresQueryable & { connect(): Promise<void>; end(): Promise<void> };
  };
  const raw = new pg.Client({
    connectionString: DATABASE_URL,
    types: { getTypeParser: () => (text) => text },
  });
  await raw.connect();
  let total = 0;
  console.log("  received a query (the last round re-sent): bytes, rows; by column; JSON by path");
  try {
    for (const [name, shape] of [...r.shapes]) {
      if (shape.all.length === 0) continue;
      let rows = 0;
      let framing = 0;
      const columns = new Map<string, number>();
      const parts = new Map<string, number>();
      for (const run of shape.all) {
        const answer = await raw.query(run.sql, run.values);
        for (const row of answer.rows) {
          rows += 1;
          const fields = Object.entries(row);
          framing += 7 + 4 * fields.length; // DataRow: type, length, field count; a length a field
          for (const [column, text] of fields) {
            const bytes = text === null ? 0 : Buffer.byteLength(String(text));
            columns.set(column, (columns.get(column) ?? 0) + bytes);
            const s = String(text ?? "");
            if (s.startsWith("[") || s.startsWith("{"))
              try {
                jsonParts(JSON.parse(s), column, 5, parts);
              } catch {
                // not JSON (an array's text form): counted by column only
              }
          }
        }
      }
      const bytes = framing + [...columns.values()].reduce((a, b) => a + b, 0);
      total += bytes;
      console.log(
        `${(bytes / queries).toFixed(0).padStart(9)} B ${(rows / queries).toFixed(1).padStart(6)} rows  ${name.slice(0, 90)}`,
      );
      console.log(`${(framing / queries).toFixed(0).padStart(15)}  (row framing)`);
      for (const [column, n] of [...columns].sort((a, b) => b[1] - a[1]))
        console.log(`${(n / queries).toFixed(0).padStart(15)}  ${column}`);
      for (const [path, n] of [...parts].sort((a, b) => b[1] - a[1]).slice(0, 25))
        if (n / queries >= 50) console.log(`${(n / queries).toFixed(0).padStart(21)}  ${path}`);
    }
    console.log(`${(total / queries).toFixed(0).padStart(9)} B a query in all`);
    // The driver's CPU alone: the round's statements re-sent one after another (no engine),
    // through a connection parsing types as the engine's does and through the raw one,
    // alternating after a warm-up pass of each (the first passes pay for compiling).
    const typed = new pg.Client({ connectionString: DATABASE_URL } as never);
    await typed.connect();
    const runs = [...r.shapes.values()].flatMap((shape) => shape.all);
    const pass = async (db: PostgresQueryable) => {
      const used = process.cpuUsage();
      for (const run of runs) await db.query(run.sql, run.values);
      const cpu = process.cpuUsage(used);
      return (cpu.user + cpu.system) / 1000 / queries;
    };
    await pass(typed);
    await pass(raw);
    const typedCpu: number[] = [];
    const rawCpu: number[] = [];
    for (let round = 0; round < 6; round += 1) {
      typedCpu.push(await pass(typed));
      rawCpu.push(await pass(raw));
    }
    console.log(
      `  driver alone (the round re-sent, 6 times each after a warm-up): CPU ${median(typedCpu).toFixed(3)} ms a query with types parsed, ${median(rawCpu).toFixed(3)} as text`,
    );
    await typed.end();
  } finally {
    await raw.end();
  }
}

async function main(): Promise<void> {
  const libraries = await Promise.all(SCHEMAS.map(open));
  try {
    for (const q of libraryQuestions(100, true, WARM_UP))
      for (const library of libraries) await ask(library, q.query);
    for (const library of libraries) library.recorder.reset();
    const questions = libraryQuestions(100, true, QUERIES, WARM_UP).map((q) => q.query);
    const wall = new Map(libraries.map((l) => [l, [] as number[]]));
    const cpu = new Map(libraries.map((l) => [l, [] as number[]]));
    for (let round = 0; round < ROUNDS; round += 1)
      for (const question of questions)
        for (const library of libraries) {
          library.recorder.keep = round === ROUNDS - 1 && (SERVER || WIRE || REPLAY > 0);
          const started = performance.now();
          const used = process.cpuUsage();
          await ask(library, question);
          wall.get(library)?.push(performance.now() - started);
          const spent = process.cpuUsage(used);
          cpu.get(library)?.push((spent.user + spent.system) / 1000);
        }
    const asked = QUERIES * ROUNDS;
    console.log(
      `${RETRIEVER ? "retriever" : "searchLibrary"}: ${asked} queries a library, load ${loadavg()[0]?.toFixed(1)}`,
    );
    for (const library of libraries) {
      const r = library.recorder;
      console.log(
        `\n${library.schema}: median ${median(wall.get(library) ?? []).toFixed(2)} ms a query (client CPU ${median(cpu.get(library) ?? []).toFixed(2)}); ` +
          `${(r.statements / asked).toFixed(2)} statements, ${(r.rounds / asked).toFixed(2)} round trips a query`,
      );
      console.log("  median ms  total ms/q  runs/q  statement");
      for (const [name, shape] of [...r.shapes].sort(
        (a, b) => b[1].ms.reduce((x, y) => x + y) - a[1].ms.reduce((x, y) => x + y),
      ))
        console.log(
          `${median(shape.ms).toFixed(2).padStart(11)} ${(shape.ms.reduce((x, y) => x + y) / asked).toFixed(2).padStart(11)} ${(shape.runs / asked).toFixed(2).padStart(7)}  ${name}`,
        );
      if (SERVER) {
        r.keep = false;
        console.log(
          "  server, EXPLAIN (ANALYZE, TIMING OFF) of the last round: median planning + execution ms, runs",
        );
        for (const [name, shape] of [...r.shapes]) {
          if (shape.all.length === 0) continue;
          const planning: number[] = [];
          const execution: number[] = [];
          for (const run of shape.all) {
            const { rows } = await r.pool.query(
              `EXPLAIN (ANALYZE, TIMING OFF, FORMAT JSON) ${run.sql}`,
              run.values,
            );
            const [plan] = (rows[0]?.["QUERY PLAN"] ?? []) as Array<Record<string, number>>;
            planning.push(plan?.["Planning Time"] ?? Number.NaN);
            execution.push(plan?.["Execution Time"] ?? Number.NaN);
          }
          console.log(
            `${median(planning).toFixed(3).padStart(9)} +${median(execution).toFixed(3).padStart(7)} ${String(shape.all.length).padStart(5)}  ${name}`,
          );
        }
      }
      if (WIRE) await printWire(r, asked / ROUNDS);
      // The EXPLAINs just sent are not the query's statements.
      for (const name of [...r.shapes.keys()]) if (name.startsWith("EXPLAIN")) r.shapes.delete(name);
      if (REPLAY > 0 && !RETRIEVER) {
        r.keep = false;
        r.replay = true;
        const spent: number[] = [];
        for (let round = 0; round < REPLAY; round += 1) {
          const used = process.cpuUsage();
          for (const question of questions) await ask(library, question);
          const cpu = process.cpuUsage(used);
          spent.push((cpu.user + cpu.system) / 1000 / questions.length);
        }
        r.replay = false;
        console.log(
          `  replayed (no server): searchLibrary CPU median ${median(spent).toFixed(3)} ms a query, ${REPLAY} rounds`,
        );
      }
      if (EXPLAIN)
        for (const [name, shape] of [...r.shapes]) {
          console.log(`\n--- ${name}`);
          for (const line of await explain(library, shape)) console.log(`    ${line}`);
        }
    }
  } finally {
    for (const library of libraries) {
      await library.store.close();
      await library.recorder.pool.end();
    }
  }
}

await main();
