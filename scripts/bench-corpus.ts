// Corpus-scale document discovery: a generated library of 100 … 100,000 documents on the folder
// store (FileByteStore) and on Redis (when a server answers at PAGEINDEX_TEST_REDIS_URL or
// redis://127.0.0.1:6379), asked questions with no document named (offline judge). Per size and
// backend: index time per document (8 documents written at once through one handle, in
// addTrees batches: see --batch), warm query latency (median), fresh-process latency (a new
// process's first query, catalog load included, and its second), memory of that process, and
// keys read per query (all, and beyond the catalog's own segments). Latency ratios are against
// the 100-document library of the same run and backend. Reads no corpus.
//
// The library is deterministic (seeded): a 24,000-word made-up vocabulary drawn Zipf-like, a
// few topic words per document in its section titles; 2-200 sections a document up to 10,000
// documents (a skewed spread, median ~12), mostly small at 100,000 (95 % with 2-5 sections, the
// rest up to 200) so that the run finishes on a shared 2-core machine. Each question names
// two title words and one text word of one document's section; "found" = that document among
// the documents searched (top 3).
//
// Usage: pnpm -r --filter "./packages/**" run build &&
//   npx tsx scripts/bench-corpus.ts [--sizes 100,1000,10000,100000] [--backends file,redis,postgres] [--queries 30]
// Backends: `file` (PageIndexStore.fromPath: the folder's SQLite library index answers document
// discovery), `postgres` (openPostgresStore at PAGEINDEX_POSTGRES_URL or
// PAGEINDEX_TEST_POSTGRES_URL, one schema per library, dropped afterwards unless --keep), `redis`
// (no library index: the catalog; keys read per query are counted for it only).
// `--shape small` gives every size the 100,000 library's mostly small documents (kept apart as
// .bench-out/stores/<size>-small). `--batch N` writes N documents per addTrees call (default
// 1,000; 0: one addTree per document).
// `--keep` keeps each generated library (folder .bench-out/stores/<size>, Redis prefix
// bench-corpus-<size>:) and reuses it on the next run with --keep, so query-side changes can be
// measured without indexing again (index time is then not measured: reported as NaN).
// Writes .bench-out/bench-corpus-<backends>.json. BENCH_VERIFY=full opens the querying store
// with verifyOnRead "full" (default: the store's, "checksum"); BENCH_CANDIDATES sets documentCandidates.
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { TreeDocument } from "pageindex-core";
import { LexicalIndexes, PageIndexRetriever } from "pageindex-retriever";
import {
  openPostgresStore,
  PageIndexStore,
  type PageIndexStoreOptions,
  RedisByteStore,
} from "pageindex-store";
import { dropSchema } from "../packages/pageindex-store/test/helpers/postgres.js";
import { CountingByteStore } from "../test/support/counting-store.js";
import { option } from "./cli-option.js";
import { generate as generateDocument, libraryQuestions } from "./generated-library.js";

const REDIS_URL = process.env.PAGEINDEX_TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const POSTGRES_URL =
  process.env.PAGEINDEX_POSTGRES_URL ??
  process.env.PAGEINDEX_TEST_POSTGRES_URL ??
  "postgres://postgres@127.0.0.1:5432/postgres";
const SCRIPT = fileURLToPath(import.meta.url);
/** How the querying process opens the store (`--verify full|checksum`). */
const READ_OPTIONS = { verifyOnRead: (process.env.BENCH_VERIFY ?? "checksum") as "full" | "checksum" };
/** Retriever options under test (`BENCH_CANDIDATES`: documentCandidates). */
const RETRIEVER_OPTIONS = process.env.BENCH_CANDIDATES
  ? { documentCandidates: Number(process.env.BENCH_CANDIDATES) }
  : {};

// ---------------------------------------------------------------- the generated library

/** Documents written at once while indexing. */
const WRITERS = 8;

/**
 * `--shape small`: every library has the 100,000 library's mostly small documents, so that
 * sizes compare like with like (the default gives smaller libraries 2-200 sections).
 */
const SMALL_SHAPE = option("shape", "mixed") === "small";

/** Whether a library of `size` gets mostly small documents. */
const smallDocuments = (size: number) => SMALL_SHAPE || size >= 100_000;

/** Document `i` of a library of `size`. */
const generate = (i: number, size: number) => generateDocument(i, smallDocuments(size));

/** Questions about distinct documents of a library of `size` (see `libraryQuestions`). */
const questions = (size: number, count: number, skip = 0) =>
  libraryQuestions(size, smallDocuments(size), count, skip);

// ---------------------------------------------------------------- stores

interface Location {
  backend: "file" | "redis" | "postgres";
  /** Folder, Redis key prefix, or PostgreSQL schema. */
  where: string;
}

/**
 * Opens the library as an application would: a folder through `PageIndexStore.fromPath` (its
 * SQLite library index), PostgreSQL through `openPostgresStore` (trees and library index in the
 * database), Redis as a byte store under a PageIndexStore (no library index: it keeps the
 * catalog), counted so that keys read per query are reported (Redis only: the indexed backends
 * answer document discovery from their index, not from keys).
 */
async function open(
  location: Location,
  options: PageIndexStoreOptions = {},
): Promise<{ store: PageIndexStore; counting?: CountingByteStore; close: () => Promise<void> }> {
  if (location.backend === "file") {
    const store = await PageIndexStore.fromPath(location.where, options);
    return { store, close: () => store.close() };
  }
  if (location.backend === "postgres") {
    const store = await openPostgresStore(POSTGRES_URL, { ...options, schema: location.where });
    return { store, close: () => store.close() };
  }
  const redis = await RedisByteStore.fromUrl(REDIS_URL, { prefix: location.where });
  const counting = new CountingByteStore(redis);
  return { store: new PageIndexStore(counting, options), counting, close: () => redis.close() };
}

/** Keys of the corpus catalog among those read. */
const catalogReads = (counting: CountingByteStore) =>
  counting.readKeys.filter((k) => k.includes(".catalog.")).length;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

/** Questions asked, untimed, before the measured ones. */
const WARM_UP = 20;

type Question = { docId: string; query: string };

/** What one library's questions measured. */
interface Tally {
  ms: number[];
  keys: number[];
  beyondCatalog: number[];
  found: number;
  /** Queries that read more than one document's skeleton (candidates re-ranked, or several searched). */
  severalRead: number;
}

/** Asks one question through `ask`, timed, into `tally` (keys counted when `counting` is given). */
async function timed(
  ask: (query: string) => Promise<PageIndexRetriever>,
  q: Question,
  tally: Tally,
  counting?: CountingByteStore,
): Promise<void> {
  counting?.reset();
  const started = performance.now();
  const retriever = await ask(q.query);
  tally.ms.push(performance.now() - started);
  if (retriever.lastRun?.docIds.slice(0, 3).includes(q.docId)) tally.found += 1;
  if ((retriever.lastRun?.stats.skeletonsRead ?? 0) > 1) tally.severalRead += 1;
  if (!counting) return;
  tally.keys.push(counting.keysRead);
  tally.beyondCatalog.push(counting.keysRead - catalogReads(counting));
  if (process.env.BENCH_TRACE)
    console.log(`    ${tally.ms.at(-1)?.toFixed(1)} ms ${q.query} → ${counting.readKeys.join(" ")}`);
}

const newTally = (): Tally => ({ ms: [], keys: [], beyondCatalog: [], found: 0, severalRead: 0 });
const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / xs.length;

/**
 * Asks every library its questions, interleaved (question i of each library in turn, warm then
 * cold), so that the load of the shared machine weighs on every size alike and the ratios
 * compare like with like.
 * Warm: one handle per library, past its catalog or index load, garbage collection and JIT (on
 * other questions, so that the measured ones find no skeleton cached). Cold documents: the
 * catalog or index stays open but no skeleton or section index is cached (a new retriever per
 * query, no skeleton cache), so a small library gains nothing from caching.
 */
async function askInterleaved(libraries: ReadonlyArray<Library>) {
  const handles: Array<{ close: () => Promise<void> }> = [];
  try {
    const warm = await Promise.all(
      libraries.map(async (library) => {
        const opened = await open(library.location, READ_OPTIONS);
        handles.push(opened);
        const retriever = new PageIndexRetriever({
          reader: opened.store,
          k: 3,
          cache: false,
          ...RETRIEVER_OPTIONS,
        });
        for (const q of questions(library.size, WARM_UP)) await retriever.invoke(q.query);
        const ask = async (query: string) => {
          await retriever.invoke(query);
          return retriever;
        };
        return { counting: opened.counting, ask, tally: newTally() };
      }),
    );
    const cold = await Promise.all(
      libraries.map(async (library) => {
        const opened = await open(library.location, { ...READ_OPTIONS, cacheSize: 0 });
        handles.push(opened);
        const store = opened.store;
        for (const q of questions(library.size, WARM_UP))
          await new PageIndexRetriever({ reader: store }).invoke(q.query);
        const ask = async (query: string) => {
          const retriever = new PageIndexRetriever({
            reader: store,
            k: 3,
            cache: false,
            ...RETRIEVER_OPTIONS,
          });
          await retriever.invoke(query);
          return retriever;
        };
        return { ask, tally: newTally() };
      }),
    );
    // Warm and cold questions alternate too: whatever the machine does meanwhile (another
    // process, this one digesting the catalogs it loaded) falls on every measurement alike.
    const rounds = Math.max(...libraries.map((l) => l.qs.length));
    for (let i = 0; i < rounds; i += 1) {
      for (const [l, library] of libraries.entries()) {
        const q = library.qs[i];
        const w = warm[l];
        const c = cold[l];
        if (q && w) await timed(w.ask, q, w.tally, w.counting);
        if (q && c) await timed(c.ask, q, c.tally);
      }
    }
    return libraries.map((library, l) => {
      const { tally } = warm[l] as (typeof warm)[number];
      return {
        warmMs: median(tally.ms),
        coldDocsMs: median((cold[l] as (typeof cold)[number]).tally.ms),
        keysPerQuery: tally.keys.length ? mean(tally.keys) : Number.NaN,
        keysBeyondCatalog: tally.keys.length ? mean(tally.beyondCatalog) : Number.NaN,
        found: tally.found / library.qs.length,
        severalRead: tally.severalRead / library.qs.length,
      };
    });
  } finally {
    for (const handle of handles) await handle.close();
  }
}

/**
 * The fresh-process measurement, run in a child process: process start (node, tsx and the
 * packages loaded), then opening the store and the first retriever query, then a second one.
 */
async function child(location: Location, query: string): Promise<void> {
  const startMs = process.uptime() * 1000;
  const started = performance.now();
  const { store, counting, close } = await open(location, READ_OPTIONS);
  const retriever = new PageIndexRetriever({ reader: store, k: 3, cache: false, ...RETRIEVER_OPTIONS });
  await retriever.invoke(query);
  const firstMs = performance.now() - started;
  const firstKeys = counting?.keysRead ?? Number.NaN;
  const catalogKeys = counting ? catalogReads(counting) : Number.NaN;
  counting?.reset();
  const again = performance.now();
  await retriever.invoke(`${query} again`);
  const secondMs = performance.now() - again;
  const memory = process.memoryUsage();
  await close();
  process.stdout.write(
    `${JSON.stringify({ startMs, firstMs, secondMs, firstKeys, catalogKeys, secondKeys: counting?.keysRead ?? Number.NaN, rssMb: memory.rss / 2 ** 20, heapMb: memory.heapUsed / 2 ** 20 })}\n`,
  );
}

/** Where a kept library of `size` documents lives (`--keep`). */
function keptLocation(backend: Location["backend"], size: number): Location {
  // A library whose shape differs from the default one for its size is kept apart.
  const name = SMALL_SHAPE && size < 100_000 ? `${size}-small` : String(size);
  if (backend === "redis") return { backend, where: `bench-corpus-${name}:` };
  if (backend === "postgres") return { backend, where: `bench_corpus_${name.replace("-", "_")}` };
  const where = resolve(".bench-out", "stores", name);
  mkdirSync(where, { recursive: true });
  return { backend, where };
}

/** Whether a kept library is complete (its marker was written after indexing). */
async function isComplete(store: PageIndexStore): Promise<boolean> {
  const [marker] = await store.byteStore.mget([KEPT_MARKER]);
  return marker !== undefined;
}

const KEPT_MARKER = "bench-corpus-complete";

/** A generated library, indexed (or reused with `--keep`). */
interface Library {
  backend: Location["backend"];
  size: number;
  location: Location;
  indexMs: number;
  sections: number;
  qs: Question[];
}

async function prepare(
  backend: Location["backend"],
  size: number,
  queryCount: number,
  keep: boolean,
): Promise<Library> {
  const location: Location = keep
    ? keptLocation(backend, size)
    : backend === "file"
      ? { backend, where: mkdtempSync(join(tmpdir(), `bench-corpus-${size}-`)) }
      : backend === "postgres"
        ? { backend, where: `bench_corpus_${size}_${process.pid}` }
        : { backend, where: `bench-corpus-${size}-${process.pid}:` };
  const { store, close } = await open(location);
  try {
    const reused = keep && (await isComplete(store));
    console.log(`${backend}: ${size} documents${reused ? " (kept from a previous run)" : ""}…`);
    const built = reused ? { ms: Number.NaN, sections: Number.NaN } : await build(store, size);
    if (keep && !reused) await store.byteStore.mset([[KEPT_MARKER, new Uint8Array([1])]]);
    return {
      backend,
      size,
      location,
      indexMs: built.ms,
      sections: built.sections,
      qs: questions(size, queryCount, WARM_UP),
    };
  } finally {
    await close();
  }
}

/** A new process's first and second question on a library. */
function freshProcess(library: Library): Record<string, number> {
  const out = execFileSync(
    process.execPath,
    [
      ...process.execArgv,
      SCRIPT,
      "--child",
      JSON.stringify({ location: library.location, query: (library.qs[0] as Question).query }),
    ],
    { encoding: "utf8", maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split("\n").pop() as string) as Record<string, number>;
}

/** Removes a library unless it is kept. */
async function dispose(library: Library, keep: boolean): Promise<void> {
  if (keep) return; // kept for the next run
  if (library.backend === "file") rmSync(library.location.where, { recursive: true, force: true });
  else if (library.backend === "postgres") await dropSchema(library.location.where);
  else {
    const { store, close } = await open(library.location);
    const keys: string[] = [];
    for await (const key of store.byteStore.yieldKeys()) keys.push(key);
    for (let i = 0; i < keys.length; i += 1000) await store.byteStore.mdelete(keys.slice(i, i + 1000));
    await close();
  }
}

/**
 * Documents per `addTrees` batch while indexing (`--batch`, default 1,000; 0: one `addTree` per
 * document, each adding its own catalog segment, as before the batch API).
 */
const BATCH = Number(option("batch", "1000"));

/** Runs `work` on `count` items, WRITERS at a time. */
async function pooled(count: number, work: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    for (let i = next++; i < count; i = next++) await work(i);
  };
  await Promise.all(Array.from({ length: WRITERS }, worker));
}

/** Indexes the generated library of `size` documents; the time it took (ms). */
async function build(store: PageIndexStore, size: number): Promise<{ ms: number; sections: number }> {
  const lexical = new LexicalIndexes(store);
  let sections = 0;
  const started = performance.now();
  // Each document's section index is saved with it, as `pageindex index` does.
  const saveSectionIndex = async (docId: string) => {
    await lexical.get(await store.getSkeleton(docId));
  };
  if (BATCH <= 0) {
    // WRITERS documents at a time through one handle, one addTree each.
    await pooled(size, async (i) => {
      const { tree } = generate(i, size);
      sections += tree.nodes.length;
      await store.addTree(tree);
      await saveSectionIndex(tree.docId);
      if (i > 0 && i % 10_000 === 0) console.log(`    … ${i} documents indexed`);
    });
  } else {
    for (let from = 0; from < size; from += BATCH) {
      const trees = Array.from(
        { length: Math.min(BATCH, size - from) },
        (_, k) => generate(from + k, size).tree,
      );
      for (const tree of trees) sections += tree.nodes.length;
      await store.addTrees(trees, { concurrency: WRITERS });
      await pooled(trees.length, (k) => saveSectionIndex((trees[k] as TreeDocument).docId));
      if (from > 0 && from % 10_000 === 0)
        console.log(
          `    … ${from} documents indexed (${((performance.now() - started) / from).toFixed(1)} ms/doc)`,
        );
    }
  }
  console.log(
    `  ${sections} sections indexed (${BATCH > 0 ? `batches of ${BATCH}` : "one addTree per document"})`,
  );
  return { ms: performance.now() - started, sections };
}

async function redisAnswers(): Promise<boolean> {
  try {
    const redis = await RedisByteStore.fromUrl(REDIS_URL, { connectTimeoutMs: 1000 });
    await redis.close();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const sizes = option("sizes", "100,1000,10000,100000").split(",").map(Number);
  const queryCount = Number(option("queries", "30"));
  const backends = option("backends", "file,redis").split(",") as Array<Location["backend"]>;
  const keep = process.argv.includes("--keep");
  const rows: Array<
    Record<string, unknown> & { backend: string; size: number; warmMs: number; coldDocsMs: number }
  > = [];
  for (const backend of backends) {
    if (backend === "redis" && !(await redisAnswers())) {
      console.log(`Redis: no server at ${REDIS_URL}; skipped`);
      continue;
    }
    const libraries: Library[] = [];
    try {
      for (const size of sizes) libraries.push(await prepare(backend, size, queryCount, keep));
      console.log(
        `${backend}: asking ${queryCount} questions of each library, interleaved (load: ${loadavg()
          .map((l) => l.toFixed(1))
          .join(" ")})…`,
      );
      const measured = await askInterleaved(libraries);
      for (const [l, library] of libraries.entries()) {
        const row = {
          backend,
          size: library.size,
          sections: library.sections,
          indexS: library.indexMs / 1000,
          indexMsPerDoc: library.indexMs / library.size,
          ...(measured[l] as (typeof measured)[number]),
          fresh: freshProcess(library),
        };
        rows.push(row);
        const base = rows.find((r) => r.backend === backend && r.size === sizes[0]) ?? row;
        console.log(
          `  ${backend} ${row.size}: index ${row.indexS.toFixed(1)} s (${row.indexMsPerDoc.toFixed(2)} ms/doc, ${row.sections} sections); warm query ${row.warmMs.toFixed(1)} ms (×${(row.warmMs / base.warmMs).toFixed(2)} vs ${base.size}), cold documents ${row.coldDocsMs.toFixed(1)} ms (×${(row.coldDocsMs / base.coldDocsMs).toFixed(2)}); ` +
            `keys/query ${row.keysPerQuery.toFixed(1)} (beyond the catalog ${row.keysBeyondCatalog.toFixed(1)}); found ${(row.found * 100).toFixed(0)} %; more than one document read ${(row.severalRead * 100).toFixed(0)} %; ` +
            `fresh process: start ${row.fresh.startMs?.toFixed(0)} ms, then open + first query ${row.fresh.firstMs?.toFixed(0)} ms (${row.fresh.catalogKeys} catalog keys, ${row.fresh.firstKeys} keys), second ${row.fresh.secondMs?.toFixed(1)} ms (${row.fresh.secondKeys} keys), RSS ${row.fresh.rssMb?.toFixed(0)} MB, heap ${row.fresh.heapMb?.toFixed(0)} MB`,
        );
      }
    } finally {
      for (const library of libraries) await dispose(library, keep);
    }
  }
  console.log(
    "\n| backend | documents (sections) | index s (ms/doc) | warm median ms (× first size) | cold documents ms (×) | found@3 | fresh: start ms / open + first query ms / RSS MB |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    const base = rows.find((b) => b.backend === r.backend && b.size === sizes[0]) ?? r;
    const f = r.fresh as Record<string, number>;
    console.log(
      `| ${r.backend} | ${r.size.toLocaleString("en")} (${(r.sections as number).toLocaleString("en")}) | ${(r.indexS as number).toFixed(1)} (${(r.indexMsPerDoc as number).toFixed(2)}) | ${r.warmMs.toFixed(1)} (×${(r.warmMs / base.warmMs).toFixed(2)}) | ${r.coldDocsMs.toFixed(1)} (×${(r.coldDocsMs / base.coldDocsMs).toFixed(2)}) | ${((r.found as number) * 100).toFixed(0)} % | ${f.startMs?.toFixed(0)} / ${f.firstMs?.toFixed(0)} / ${f.rssMb?.toFixed(0)} |`,
    );
  }
  console.log(
    `load after the run: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const dir = resolve(".bench-out");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, `bench-corpus-${backends.join("-")}.json`);
  writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`wrote ${file}`);
}

if (process.argv.includes("--child")) {
  const { location, query } = JSON.parse(option("child", "{}")) as { location: Location; query: string };
  await child(location, query);
} else {
  await main();
}
