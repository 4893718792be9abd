// Scale of the SQLite library index (SqliteLibraryIndex): generated libraries of the bench's small
// shape (95 % of documents with 2-5 sections, the rest up to 200; scripts/generated-library.ts)
// at each size. Per size: indexing time (putDocuments in batches), file size, a fresh process's
// first query (open + query) and its RSS, and the warm query median (queries interleaved across
// sizes, as bench-corpus does, so machine load hits every size alike). Questions name two title
// words and one text word of one document's section; "found" = that document in the top 3.
//
// Usage: npx tsx scripts/bench-library-index.ts [--sizes 100,10000,100000] [--queries 50] [--keep]
// `--keep` reuses .bench-out/library/<size>/ when it holds a complete index (index time: NaN).
// Warm times are reported as wall time and as CPU time (the machine may be shared).
// Writes .bench-out/bench-library-index.json.
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LIBRARY_FILE, libraryEntry, SqliteLibraryIndex } from "pageindex-store";
import { option } from "./cli-option.js";
import { generate, libraryQuestions } from "./generated-library.js";

const SCRIPT = fileURLToPath(import.meta.url);
const OUT = resolve(fileURLToPath(new URL("..", import.meta.url)), ".bench-out");
const BATCH = 1000;

const median = (values: number[]) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
};

/** The child: open the index read-only, answer one query, report times and memory. */
async function child(folder: string, query: string): Promise<void> {
  const start = performance.now();
  const index = await SqliteLibraryIndex.open(folder, { readOnly: true });
  const opened = performance.now();
  const hits = await index.searchLibrary(query, { limit: 10 });
  const answered = performance.now();
  const rssMB = process.memoryUsage().rss / 2 ** 20;
  const second = await index.searchLibrary(`${query} again`, { limit: 10 });
  const secondMs = performance.now() - answered;
  await index.close();
  process.stdout.write(
    `${JSON.stringify({
      openMs: opened - start,
      firstQueryMs: answered - opened,
      firstMs: answered - start,
      secondMs,
      rssMB,
      maxRssMB: process.resourceUsage().maxRSS / 1024,
      top: hits.slice(0, 3).map((h) => h.docId),
      found: second.length,
    })}\n`,
  );
}

/** Builds the library of `size` (or keeps the one built before): indexing time and sections. */
async function build(
  size: number,
  folder: string,
  keep: boolean,
): Promise<{ indexMs: number; sections: number }> {
  const marker = join(folder, "complete.json");
  if (keep && existsSync(marker)) {
    const built = JSON.parse(readFileSync(marker, "utf8")) as { sections: number };
    return { indexMs: Number.NaN, sections: built.sections };
  }
  rmSync(folder, { recursive: true, force: true });
  mkdirSync(folder, { recursive: true });
  const index = await SqliteLibraryIndex.open(folder);
  const start = performance.now();
  let sections = 0;
  for (let from = 0; from < size; from += BATCH) {
    const entries = Array.from({ length: Math.min(BATCH, size - from) }, (_, k) =>
      libraryEntry(generate(from + k, true).tree, `v${from + k}`),
    );
    for (const entry of entries) sections += entry.sections.length;
    await index.putDocuments(entries);
    if (size >= 10_000 && (from / BATCH) % 10 === 9) {
      process.stderr.write(
        `  ${size}: ${from + BATCH} documents, ${((performance.now() - start) / 1000).toFixed(0)} s\n`,
      );
    }
  }
  const indexMs = performance.now() - start;
  await index.close();
  writeFileSync(marker, JSON.stringify({ indexMs, sections }));
  return { indexMs, sections };
}

function fileMB(folder: string): number {
  let bytes = 0;
  for (const suffix of ["", "-wal", "-shm"]) {
    const path = join(folder, `${LIBRARY_FILE}${suffix}`);
    if (existsSync(path)) bytes += statSync(path).size;
  }
  return bytes / 2 ** 20;
}

async function main(): Promise<void> {
  const sizes = option("sizes", "100,10000,100000").split(",").map(Number);
  const queryCount = Number(option("queries", "50"));
  const keep = process.argv.includes("--keep");
  const rows: Array<Record<string, unknown>> = [];
  const indexes = new Map<number, SqliteLibraryIndex>();
  const questions = new Map<number, Array<{ docId: string; query: string }>>();
  for (const size of sizes) {
    const folder = join(OUT, "library", String(size));
    const { indexMs, sections } = await build(size, folder, keep);
    const qs = libraryQuestions(size, true, queryCount + 1);
    questions.set(size, qs.slice(1));
    // A fresh process: the first question, never asked before in it.
    const fresh = JSON.parse(
      execFileSync(process.execPath, ["--import", "tsx", SCRIPT, "--child", folder, qs[0]?.query ?? ""], {
        encoding: "utf8",
      }),
    ) as Record<string, number>;
    const index = await SqliteLibraryIndex.open(folder, { readOnly: true });
    indexes.set(size, index);
    const documents = await index.count();
    rows.push({
      size,
      documents,
      sections,
      indexMs,
      indexMsPerDoc: indexMs / size,
      fileMB: fileMB(folder),
      fresh,
    });
  }
  // Warm: one question per size in turn, so load spikes hit every size alike.
  const times = new Map<number, number[]>(sizes.map((s) => [s, []]));
  // CPU time too: on a loaded machine wall time stretches longer queries more than short ones.
  const cpu = new Map<number, number[]>(sizes.map((s) => [s, []]));
  const found = new Map<number, number>(sizes.map((s) => [s, 0]));
  for (let q = 0; q < queryCount; q += 1) {
    for (const size of sizes) {
      const question = questions.get(size)?.[q];
      if (!question) continue;
      const start = performance.now();
      const used = process.cpuUsage();
      const hits = await (indexes.get(size) as SqliteLibraryIndex).searchLibrary(question.query, {
        limit: 10,
      });
      times.get(size)?.push(performance.now() - start);
      const { user, system } = process.cpuUsage(used);
      cpu.get(size)?.push((user + system) / 1000);
      if (hits.slice(0, 3).some((h) => h.docId === question.docId))
        found.set(size, (found.get(size) ?? 0) + 1);
    }
  }
  const base = median(times.get(sizes[0] as number) ?? []);
  const cpuBase = median(cpu.get(sizes[0] as number) ?? []);
  for (const row of rows) {
    const size = row.size as number;
    row.warmMedianMs = median(times.get(size) ?? []);
    row.warmRatio = (row.warmMedianMs as number) / base;
    row.warmCpuMedianMs = median(cpu.get(size) ?? []);
    row.warmCpuRatio = (row.warmCpuMedianMs as number) / cpuBase;
    row.foundTop3 = `${found.get(size)}/${times.get(size)?.length}`;
    await indexes.get(size)?.close();
  }
  const report = { when: new Date().toISOString(), load: loadavg(), queries: queryCount, rows };
  mkdirSync(OUT, { recursive: true });
  writeFileSync(join(OUT, "bench-library-index.json"), `${JSON.stringify(report, null, 2)}\n`);
  console.log(JSON.stringify(report, null, 2));
}

if (process.argv[2] === "--child") await child(process.argv[3] as string, process.argv[4] as string);
else await main();
