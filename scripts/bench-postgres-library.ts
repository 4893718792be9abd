// The PostgreSQL library index at scale: the generated library (generated-library.ts, the small
// shape of bench-corpus: 95 % of documents with 2-5 sections, the rest up to 200) of 100 …
// 1,000,000 documents indexed through PostgresLibraryIndex.putDocuments, then asked questions
// with no document named. Per size: indexing time (trees generated and cut into library
// entries included), warm query latency (median over --queries questions after 20 warm-up
// ones, one process), a fresh process's first query (connect + first search, and the process's
// RSS after it), and how often the question's document is in the top 3. Ratios are against the
// 100-document library of the same run.
//
// Needs a PostgreSQL server: PAGEINDEX_TEST_POSTGRES_URL (default postgres://postgres@127.0.0.1:5432/postgres).
// Usage: pnpm --filter pageindex-store run build &&
//   npx tsx scripts/bench-postgres-library.ts [--sizes 100,10000,100000] [--queries 30] [--keep]
// `--keep` keeps each library (schema bench_library_<size>) and reuses it when complete, so
// query-side changes are measured without indexing again (index time then reported as NaN).
// Writes .bench-out/bench-postgres-library.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { libraryEntry, PostgresLibraryIndex } from "pageindex-store";
import { adminQuery, dropSchema, POSTGRES_URL } from "../packages/pageindex-store/test/helpers/postgres.js";
import { option } from "./cli-option.js";
import { generate, libraryQuestions } from "./generated-library.js";

const DB_URL = POSTGRES_URL;
const SCRIPT = fileURLToPath(import.meta.url);

const WARM_UP = 20;
/** Documents per putDocuments call (one transaction each). */
const BATCH = 1000;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const schemaOf = (size: number) => `bench_library_${size}`;
/** `BENCH_CANDIDATE_ROWS`: the index's candidateRows (candidates the rarest terms choose before ranking). */
const INDEX_OPTIONS = process.env.BENCH_CANDIDATE_ROWS
  ? { candidateRows: Number(process.env.BENCH_CANDIDATE_ROWS) }
  : {};

/** Indexes documents 0 … size-1, generating the next batch while the server writes this one. */
async function build(index: PostgresLibraryIndex, size: number): Promise<number> {
  const started = performance.now();
  const batchOf = (from: number) =>
    Array.from({ length: Math.min(BATCH, size - from) }, (_, k) => {
      const { tree } = generate(from + k, true);
      return libraryEntry(tree, `v-${tree.docId}`);
    });
  let pending: Promise<void> = Promise.resolve();
  for (let from = 0; from < size; from += BATCH) {
    const batch = batchOf(from);
    await pending;
    pending = index.putDocuments(batch);
    if ((from / BATCH) % 50 === 49) {
      const s = (performance.now() - started) / 1000;
      console.log(`  ${from + BATCH} documents in ${s.toFixed(0)} s`);
    }
  }
  await pending;
  return performance.now() - started;
}

/** A fresh process's first query (run as a child of this script). */
async function child(size: number, query: string): Promise<void> {
  const started = performance.now();
  const index = await PostgresLibraryIndex.fromUrl(DB_URL, { ...INDEX_OPTIONS, schema: schemaOf(size) });
  const hits = await index.searchLibrary(query, { limit: 3 });
  const firstMs = performance.now() - started;
  const again = performance.now();
  await index.searchLibrary(`${query} again`, { limit: 3 });
  const secondMs = performance.now() - again;
  const rssMb = process.memoryUsage().rss / 2 ** 20;
  await index.close();
  process.stdout.write(
    `${JSON.stringify({ firstMs, secondMs, rssMb, uptimeMs: process.uptime() * 1000, top: hits.map((h) => h.docId) })}\n`,
  );
}

function freshProcess(size: number, query: string): Record<string, number> {
  const out = execFileSync(
    process.execPath,
    [...process.execArgv, SCRIPT, "--child", JSON.stringify({ size, query })],
    { encoding: "utf8", maxBuffer: 1 << 20, env: process.env },
  );
  return JSON.parse(out.trim().split("\n").pop() as string) as Record<string, number>;
}

async function main(): Promise<void> {
  const sizes = option("sizes", "100,10000,100000").split(",").map(Number);
  const count = Number(option("queries", "30"));
  const keep = process.argv.includes("--keep");
  const rows: Array<Record<string, number>> = [];
  for (const size of sizes) {
    const schema = schemaOf(size);
    let index = await PostgresLibraryIndex.fromUrl(DB_URL, { ...INDEX_OPTIONS, schema });
    let indexMs = Number.NaN;
    if (!keep || (await index.count()) !== size) {
      await index.close();
      await dropSchema(schema);
      index = await PostgresLibraryIndex.fromUrl(DB_URL, { ...INDEX_OPTIONS, schema });
      console.log(`indexing ${size} documents…`);
      indexMs = await build(index, size);
      await analyze(schema);
    }
    const warm = libraryQuestions(size, true, WARM_UP);
    const asked = libraryQuestions(size, true, count, WARM_UP);
    for (const q of warm) await index.searchLibrary(q.query, { limit: 3 });
    const ms: number[] = [];
    let found = 0;
    for (const q of asked) {
      const started = performance.now();
      const hits = await index.searchLibrary(q.query, { limit: 3 });
      ms.push(performance.now() - started);
      if (hits.some((h) => h.docId === q.docId)) found += 1;
    }
    await index.close();
    const fresh = freshProcess(size, (asked[0] ?? warm[0])?.query ?? "report");
    const row = {
      size,
      indexS: indexMs / 1000,
      docsPerS: size / (indexMs / 1000),
      warmMedianMs: median(ms),
      warmMaxMs: Math.max(...ms),
      found3: found / asked.length,
      freshFirstMs: fresh.firstMs as number,
      freshSecondMs: fresh.secondMs as number,
      freshProcessMs: fresh.uptimeMs as number,
      freshRssMb: fresh.rssMb as number,
    };
    rows.push(row);
    console.log(JSON.stringify(row));
    if (!keep) await dropSchema(schema);
  }
  const base = rows.find((r) => r.size === 100);
  console.log(
    "\n| documents | index s | docs/s | warm median ms | ×100 | found@3 | fresh first ms | fresh process ms | fresh RSS MB |",
  );
  console.log("| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |");
  for (const r of rows) {
    const ratio = base ? (r.warmMedianMs as number) / (base.warmMedianMs as number) : Number.NaN;
    console.log(
      `| ${r.size} | ${(r.indexS as number).toFixed(1)} | ${(r.docsPerS as number).toFixed(0)} | ${(r.warmMedianMs as number).toFixed(1)} | ${ratio.toFixed(2)} | ${((r.found3 as number) * 100).toFixed(0)} % | ${(r.freshFirstMs as number).toFixed(0)} | ${(r.freshProcessMs as number).toFixed(0)} | ${(r.freshRssMb as number).toFixed(0)} |`,
    );
  }
  console.log(
    `load after the run: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const dir = resolve(".bench-out");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "bench-postgres-library.json");
  writeFileSync(file, `${JSON.stringify(rows, null, 2)}\n`);
  console.log(`wrote ${file}`);
}

/** Fresh statistics, as autovacuum would gather them after a bulk load. */
const analyze = (schema: string) =>
  adminQuery(`ANALYZE "${schema}".library_sections, "${schema}".library_cards, "${schema}".library_terms`);

if (process.argv.includes("--child")) {
  const { size, query } = JSON.parse(option("child", "{}")) as { size: number; query: string };
  await child(size, query);
} else {
  await main();
}
