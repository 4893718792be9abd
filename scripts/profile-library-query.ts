// Where a warm library-wide query's time goes, on a folder library the scale bench built
// (scripts/bench-library-scale.ts): the retriever asks the bench's questions (those about the
// 100-document library's documents, as the bench asks every size), past a warm-up, and prints
// - its CPU time per query (this process's, file reads included);
// - the byte-store keys it reads per query, by kind (heads, versions, derived artifacts, …);
// - each SQLite statement of the library index: CPU time and runs per query;
// - a V8 CPU profile: the functions with the most self time per query (garbage collection,
//   SQLite's stepping, the retriever's lexical indexes, file reads).
// Statement and function names say what to bound; compare two sizes run after run.
//
// Usage (on the built packages): npx tsx scripts/profile-library-query.ts --docs 100000
//   [--queries 30] [--rounds 3] [--top 20] [--inclusive] [--steps] [--split]
// `--rounds 1` asks each question once, as the scale bench does (at 100,000 documents each meets
// documents no earlier question read); `--inclusive` adds each function's time with what it calls.
// `--steps` charges each sampled millisecond to one step (the library index's statements, its
// JavaScript by function, the store's reads by entry point, garbage collection, the retriever's
// JavaScript by function), so the steps add up and two sizes compare step by step. `--split`
// runs no profiler: each query's CPU as `searchLibrary`, the store's reads and the rest, with the
// documents and sections each handles.
// Reads ~/.cache/pageindex-bench/scale/folder-<docs> (or under XDG_CACHE_HOME) read-only.
import { Session } from "node:inspector/promises";
import { PageIndexRetriever } from "pageindex-retriever";
import { PageIndexStore, SqliteLibraryIndex } from "pageindex-store";
import { option } from "./cli-option.js";
import { libraryQuestions } from "./generated-library.js";
import { scaleFolder } from "./scale-libraries.js";

const DOCS = Number(option("docs", "100000"));
const QUERIES = Number(option("queries", "30"));
const ROUNDS = Number(option("rounds", "3"));
const TOP = Number(option("top", "20"));
/** Questions asked first, untimed (the bench's warm-up). */
const WARM_UP = 10;
const FOLDER = scaleFolder(DOCS);

/** A prepared statement as the index keeps it (libsql's better-sqlite3 API). */
interface Statement {
  get(...params: unknown[]): unknown;
  all(...params: unknown[]): unknown[];
  run(...params: unknown[]): unknown;
  raw(on?: boolean): Statement;
}

const cpuMs = (used: NodeJS.CpuUsage) => (used.user + used.system) / 1000;

/** Times every statement the index runs (its private statement cache is where they all come from). */
function timeStatements(): Map<string, { ms: number; runs: number }> {
  const spent = new Map<string, { ms: number; runs: number }>();
  const index = SqliteLibraryIndex.prototype as unknown as { sql(source: string): Statement };
  const prepare = index.sql;
  const timed = new WeakSet<Statement>();
  index.sql = function (this: unknown, source: string): Statement {
    const statement = prepare.call(this, source);
    if (timed.has(statement)) return statement;
    timed.add(statement);
    const name = source.replace(/\s+/g, " ").slice(0, 120);
    for (const method of ["get", "all", "run"] as const) {
      const original = statement[method].bind(statement) as (...params: unknown[]) => unknown;
      Object.assign(statement, {
        [method]: (...params: unknown[]) => {
          const started = process.cpuUsage();
          const result = original(...params);
          const entry = spent.get(name) ?? { ms: 0, runs: 0 };
          entry.ms += cpuMs(process.cpuUsage(started));
          entry.runs += 1;
          spent.set(name, entry);
          return result;
        },
      });
    }
    return statement;
  };
  return spent;
}

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

/** A V8 CPU profile: its call-tree nodes and samples. */
interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** A function's name and file (its last two path parts). */
function frameName(frame: ProfileNode["callFrame"]): string {
  const where = frame.url ? ` ${frame.url.split("/").slice(-2).join("/")}` : "";
  return `${frame.functionName || "(anonymous)"}${where}`;
}

/**
 * Time (µs) by function, from a V8 CPU profile: self time (the sampled frame's), or inclusive
 * time (each sample counted once for every distinct function on its stack: what a call costs
 * with everything it calls, the file reads its awaits wait on excepted).
 */
function profileTimes(profile: CpuProfile, inclusive: boolean): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const names = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = inclusive ? parent.get(at) : undefined) {
      const frame = byId.get(at)?.callFrame;
      if (frame) names.add(frameName(frame));
    }
    for (const name of names) out.set(name, (out.get(name) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return out;
}

/** A profile frame's function name and package file (`pageindex-store`, …), as matched by {@link stepOf}. */
interface Frame {
  fn: string;
  url: string;
}

/**
 * The step a sample's stack (leaf first) belongs to, one name per sample so the steps add up to
 * the query's sampled CPU: the library index's statements and its JavaScript by function, the
 * store's reads by entry point, garbage collection, the retriever's JavaScript by phase and
 * function. Undefined for the profiler's own frames and idle time.
 */
function stepOf(stack: readonly Frame[]): string | undefined {
  const leaf = stack[0]?.fn ?? "";
  if (leaf === "(idle)" || stack.some((f) => f.fn === "post" && f.url.includes("inspector")))
    return undefined;
  if (leaf === "(garbage collector)") return "garbage collection";
  const named = (f: Frame) => `${f.fn || "(anonymous)"} ${f.url.split("/").slice(-2).join("/")}`;
  const engine = stack.some((f) => f.fn === "searchLibrary" && f.url.includes("library"));
  if (engine) {
    // SQLite's work: libsql's frames leafward of the index's innermost function (the index's
    // reads all run inside libsql's transaction wrapper, further up).
    const at = stack.findIndex((f) => f.url.includes("/library/"));
    const below = at < 0 ? stack : stack.slice(0, at);
    if (below.some((f) => f.url.includes("libsql") || f.fn.startsWith("libsql")))
      return "engine: SQLite statements";
    return `engine JS: ${at >= 0 ? named(stack[at] as Frame) : leaf}`;
  }
  const store = [...stack]
    .reverse()
    .find((f) => f.url.includes("pageindex-store") || f.url.includes("read-file"));
  if (store) return `store: ${named(store)}`;
  const own = stack.find((f) => f.url.includes("pageindex-retriever"));
  if (own) return `retriever: ${named(own)}`;
  return `other: ${leaf}`;
}

/** Time (µs) by step (see {@link stepOf}). */
function stepTimes(profile: CpuProfile): Map<string, number> {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const out = new Map<string, number>();
  profile.samples.forEach((id, i) => {
    const stack: Frame[] = [];
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at)?.callFrame;
      if (frame) stack.push({ fn: frame.functionName, url: frame.url });
    }
    const step = stepOf(stack);
    if (step) out.set(step, (out.get(step) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return out;
}

/** Counts the byte-store keys read, by kind (the key's part after the namespace: head, version, derived, …). */
function countKeyReads(store: PageIndexStore): Map<string, number> {
  const reads = new Map<string, number>();
  const byteStore = store.byteStore;
  const mget = byteStore.mget.bind(byteStore);
  byteStore.mget = (keys: string[]) => {
    for (const key of keys) {
      const kind = key.split(".")[1] ?? key;
      reads.set(kind, (reads.get(kind) ?? 0) + 1);
    }
    return mget(keys);
  };
  return reads;
}

/** CPU ms of this process so far (its file-reading threads' included). */
const cpuNow = () => cpuMs(process.cpuUsage());

/**
 * `--split`, without a profiler: each query's CPU as the library index's `searchLibrary`, the
 * store's reads (CPU while one is in flight: file reads, decoding, checks), and the rest (the
 * retriever's own work), with the counts each handles: the documents and sections the index
 * returns, the documents searched, the skeletons read.
 */
async function splitRun(
  store: PageIndexStore,
  retriever: PageIndexRetriever,
  questions: string[],
): Promise<void> {
  const spent = { engine: 0, reads: 0, total: 0 };
  const counts = { hits: 0, sections: 0, searched: 0, skeletons: 0 };
  const methods = store as unknown as Record<string, (...args: unknown[]) => Promise<unknown>>;
  const search = store.searchLibrary.bind(store);
  methods.searchLibrary = async (...args: unknown[]) => {
    const started = cpuNow();
    const hits = (await search(...(args as Parameters<typeof search>))) as Awaited<ReturnType<typeof search>>;
    spent.engine += cpuNow() - started;
    counts.hits += hits.length;
    for (const hit of hits) counts.sections += hit.sections.length;
    return hits;
  };
  let inFlight = 0;
  let since = 0;
  for (const name of ["getSkeleton", "getNodeTexts", "getDerived", "putDerived", "listDocuments"]) {
    const read = methods[name]?.bind(store);
    if (!read) continue;
    methods[name] = async (...args: unknown[]) => {
      if (inFlight++ === 0) since = cpuNow();
      try {
        return await read(...args);
      } finally {
        if (--inFlight === 0) spent.reads += cpuNow() - since;
      }
    };
  }
  for (const question of questions) {
    const started = cpuNow();
    await retriever.invoke(question);
    spent.total += cpuNow() - started;
    counts.searched += retriever.lastRun?.docIds.length ?? 0;
    counts.skeletons += retriever.lastRun?.stats.skeletonsRead ?? 0;
  }
  const each = (n: number, digits = 2) => (n / questions.length).toFixed(digits);
  console.log(
    `folder-${DOCS}: CPU ms a query ${each(spent.total)}: searchLibrary ${each(spent.engine)}, store reads ${each(spent.reads)}, rest ${each(spent.total - spent.engine - spent.reads)}`,
  );
  console.log(
    `a query: ${each(counts.hits, 1)} documents and ${each(counts.sections, 1)} sections from the index, ${each(counts.searched, 2)} documents searched, ${each(counts.skeletons, 2)} skeletons read`,
  );
}

async function main(): Promise<void> {
  if (process.argv.includes("--split")) {
    const store = await PageIndexStore.fromPath(FOLDER, { readOnly: true });
    try {
      const retriever = new PageIndexRetriever({ reader: store, k: 3, cache: false });
      for (const q of libraryQuestions(100, true, WARM_UP)) await retriever.invoke(q.query);
      const questions = libraryQuestions(100, true, QUERIES, WARM_UP).map((q) => q.query);
      await splitRun(store, retriever, Array.from({ length: ROUNDS }, () => questions).flat());
    } finally {
      await store.close();
    }
    return;
  }
  // `--steps` charges each sample to one step: the statement timers' own calls would muddle it.
  const steps = process.argv.includes("--steps");
  const statements = steps ? new Map<string, { ms: number; runs: number }>() : timeStatements();
  const store = await PageIndexStore.fromPath(FOLDER, { readOnly: true });
  const reads = countKeyReads(store);
  try {
    const retriever = new PageIndexRetriever({ reader: store, k: 3, cache: false });
    for (const q of libraryQuestions(100, true, WARM_UP)) await retriever.invoke(q.query);
    statements.clear();
    reads.clear();
    const questions = libraryQuestions(100, true, QUERIES, WARM_UP).map((q) => q.query);
    const session = new Session();
    session.connect();
    await session.post("Profiler.enable");
    await session.post("Profiler.setSamplingInterval", { interval: 200 });
    await session.post("Profiler.start");
    const started = process.cpuUsage();
    for (let round = 0; round < ROUNDS; round += 1)
      for (const question of questions) await retriever.invoke(question);
    const used = cpuMs(process.cpuUsage(started));
    const { profile } = await session.post("Profiler.stop");
    session.disconnect();
    const asked = QUERIES * ROUNDS;
    console.log(`folder-${DOCS}: ${asked} queries, retriever CPU ${(used / asked).toFixed(1)} ms a query`);
    console.log(
      `byte-store keys read a query: ${[...reads].map(([kind, n]) => `${kind} ${(n / asked).toFixed(1)}`).join(", ")}`,
    );
    console.log("\nlibrary index statements (CPU ms a query, runs a query):");
    for (const [name, { ms, runs }] of [...statements].sort((a, b) => b[1].ms - a[1].ms))
      console.log(`${(ms / asked).toFixed(2).padStart(7)} ${(runs / asked).toFixed(1).padStart(5)}  ${name}`);
    const self = profileTimes(profile as unknown as CpuProfile, false);
    const total = [...self.values()].reduce((a, b) => a + b, 0);
    console.log(`\nself time (ms a query, share), top ${TOP}:`);
    for (const [name, us] of [...self].sort((a, b) => b[1] - a[1]).slice(0, TOP))
      console.log(
        `${(us / 1000 / asked).toFixed(2).padStart(7)} ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`,
      );
    if (steps) {
      const times = stepTimes(profile as unknown as CpuProfile);
      const sampled = [...times.values()].reduce((a, b) => a + b, 0);
      console.log(`\nsteps (ms a query, share of ${(sampled / 1000 / asked).toFixed(2)} ms sampled):`);
      for (const [name, us] of [...times].sort((a, b) => b[1] - a[1]))
        console.log(
          `${(us / 1000 / asked).toFixed(3).padStart(7)} ${((100 * us) / sampled).toFixed(1).padStart(5)} %  ${name}`,
        );
    }
    if (process.argv.includes("--inclusive")) {
      const inclusive = profileTimes(profile as unknown as CpuProfile, true);
      console.log(`\ninclusive time (ms a query, share), top ${TOP}:`);
      for (const [name, us] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, TOP))
        console.log(
          `${(us / 1000 / asked).toFixed(2).padStart(7)} ${((100 * us) / total).toFixed(1).padStart(5)} %  ${name}`,
        );
    }
  } finally {
    await store.close();
  }
}

await main();
