// The scale figures of issue 24 item 4, from one command: per backend (folder store, PostgreSQL)
// and library size, the generated library (the bench's small shape: 95 % of documents with 2-5
// sections, the rest up to 200; scripts/generated-library.ts) is indexed through the public write
// path (`PageIndexStore.addTrees`, batches of 1,000), then asked library-wide questions with no
// document named through `PageIndexRetriever` (offline judge), as an application would:
// - indexing time (documents/s), from the run that built the library (kept between runs);
// - a fresh process's first query: a child process per measurement, plain node on the built
//   packages (scripts/bench-library-scale-child.mjs): the built packages and the engine's driver
//   loaded (timed apart, reported as module load), then the clock starts: open the store, one
//   retriever query; its time and RSS, and the whole process's time as the parent saw it;
// - warm queries: one handle per library, past a warm-up, a fixed question set asked of every
//   library in turn (so the load of a shared machine weighs on every size alike): median and
//   p95 of the retriever query (and its CPU time), and of the engine's `searchLibrary` alone; the ratio to the
//   100-document library of the same backend;
// - pass/fail against the targets: first query ≤ 1 s and ≤ 300 MB RSS, warm ≤ 1.5× the
//   100-document time (≤ 3× at 1,000,000 documents).
//
// Usage (the children need the built packages): pnpm -r --filter "./packages/**" run build &&
//   npx tsx scripts/bench-library-scale.ts [--backends folder,postgres] [--docs 100,10000,100000]
//     [--pg-million] [--queries 40] [--fresh 3] [--rebuild] [--verify full|checksum]
// Libraries are kept under ~/.cache/pageindex-bench/scale (folder) and in the PostgreSQL database
// at PAGEINDEX_POSTGRES_URL (default postgres://postgres@127.0.0.1:55432/scale_bench), schema
// scale_<docs>, and reused by the next run (its indexing time is the one measured when built);
// `--rebuild` indexes again; an interrupted build resumes where it stopped. `--wave N` is
// addTrees' `concurrency` (documents per write wave, default 8 as in addTrees). `--pg-million` adds 1,000,000 documents on PostgreSQL.
// `--schema-prefix P` reads and writes the PostgreSQL libraries P_<docs> instead of scale_<docs>.
// `--build-only` indexes what is missing and stops; `--query-only` never indexes: it measures the
// libraries there are, an unfinished one as far as it got (reported "N of size"), and leaves out
// the ones never started. `--verify full` opens every store with `verifyOnRead: "full"` (default
// `checksum`, the store's default): what a skeleton's full validation costs the queries.
// `--prepared-statements` opens the PostgreSQL stores with `preparedStatements: true` (the library
// index's search statements sent named; default off).
// Writes .bench-out/bench-library-scale.json.
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { LEXICAL_INDEX_ARTIFACT, LexicalIndexes, PageIndexRetriever } from "pageindex-retriever";
import { openPostgresStore, PageIndexStore } from "pageindex-store";
import { option } from "./cli-option.js";
import { dropPostgresSchema } from "./drop-postgres-schema.js";
import { generate, libraryQuestions } from "./generated-library.js";
import { scaleFolder as folderOf, SCALE_POSTGRES_URL as POSTGRES_URL } from "./scale-libraries.js";

type Backend = "folder" | "postgres";

const CHILD = fileURLToPath(new URL("./bench-library-scale-child.mjs", import.meta.url));
/** Documents per addTrees call while indexing. */
const BATCH = 1000;
/** Documents per write wave (`addTrees`' `concurrency`; its default is 8). */
const WAVE = Number(option("wave", "8"));
/** Whether the PostgreSQL stores send their searches' statements named (`preparedStatements`). */
const PREPARED = process.argv.includes("--prepared-statements");
/** How the measured stores check the skeletons they read (`verifyOnRead`). */
const VERIFY = option("verify", "checksum") as "full" | "checksum";
if (VERIFY !== "full" && VERIFY !== "checksum")
  throw new Error(`--verify is full or checksum, not ${VERIFY}`);
/** Questions asked, untimed, before the measured ones (their documents differ from the measured ones'). */
const WARM_UP = 10;
/** The byte-store key marking a library as completely indexed (its value: how it was built). */
const MARKER = "bench-library-scale-complete";
/**
 * The byte-store key marking a library's lexical indexes as all saved (its value: seconds spent),
 * per saved format: a release that reads another format saves its own beside the old ones.
 */
const LEXICAL_MARKER = `bench-library-scale-lexical-${LEXICAL_INDEX_ARTIFACT}`;

const TARGETS = {
  firstQueryMs: 1000,
  firstQueryRssMb: 300,
  warmRatio: (docs: number) => (docs >= 1_000_000 ? 3 : 1.5),
  /** Sizes the targets are stated for (the others are reported). */
  appliesTo: (docs: number) => docs >= 100_000,
};

const quantile = (values: readonly number[], q: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};

interface Library {
  backend: Backend;
  docs: number;
}

/** `--schema-prefix` names other PostgreSQL libraries (e.g. copies of the kept ones: prefix_<docs>). */
const schemaOf = (docs: number) => `${option("schema-prefix", "scale")}_${docs}`;

/** Opens a library as an application reading it would (a folder read-only, as the CLI's queries do). */
async function open(library: Library, write = false): Promise<PageIndexStore> {
  if (library.backend === "folder") {
    if (write) mkdirSync(folderOf(library.docs), { recursive: true });
    return PageIndexStore.fromPath(folderOf(library.docs), { readOnly: !write, verifyOnRead: VERIFY });
  }
  return openPostgresStore(POSTGRES_URL, {
    schema: schemaOf(library.docs),
    verifyOnRead: VERIFY,
    preparedStatements: PREPARED,
  });
}

interface Built {
  indexS: number;
  sections: number;
  builtAt: string;
  /** Documents present when the build is unfinished (`--query-only` measures it as it is). */
  partial?: number;
}

/** How a kept library was built, or undefined when it is not (completely) there. */
async function builtBefore(library: Library): Promise<Built | undefined> {
  let store: PageIndexStore;
  try {
    store = await open(library);
  } catch {
    return undefined; // no folder yet
  }
  try {
    const [marker] = await store.byteStore.mget([MARKER]);
    return marker ? (JSON.parse(new TextDecoder().decode(marker)) as Built) : undefined;
  } finally {
    await store.close();
  }
}

/** Progress of an unfinished build: documents written and seconds spent (kept after each batch). */
const PROGRESS = "bench-library-scale-progress";

/** An unfinished build as it stands (for `--query-only`), or undefined when none was started. */
async function unfinished(library: Library): Promise<Built | undefined> {
  let store: PageIndexStore;
  try {
    store = await open(library);
  } catch {
    return undefined;
  }
  try {
    const [saved] = await store.byteStore.mget([PROGRESS]);
    if (!saved) return undefined;
    const progress = JSON.parse(new TextDecoder().decode(saved)) as Progress;
    const docsPerS = (progress.done - progress.untimed) / progress.indexS;
    return {
      indexS: progress.done / docsPerS,
      sections: progress.sections,
      builtAt: "unfinished",
      partial: progress.done,
    };
  } finally {
    await store.close();
  }
}

interface Progress {
  done: number;
  indexS: number;
  sections: number;
  /** Documents written before timing started (a build from before progress was kept: its time is unknown). */
  untimed: number;
}

/**
 * Indexes the generated library through `addTrees` (the public write path), resuming an
 * unfinished build where its progress marker says (the documents are the same on every run).
 */
async function build(library: Library, rebuild: boolean): Promise<Built> {
  if (rebuild) {
    if (library.backend === "folder") rmSync(folderOf(library.docs), { recursive: true, force: true });
    else await dropSchema(schemaOf(library.docs));
  }
  const store = await open(library, true);
  try {
    const [saved] = await store.byteStore.mget([PROGRESS]);
    const progress: Progress = saved
      ? (JSON.parse(new TextDecoder().decode(saved)) as Progress)
      : { done: 0, indexS: 0, sections: 0, untimed: 0 };
    if (!saved) {
      // Documents go in by whole batches, in order: an unfinished batch is written again.
      const { total } = await store.listDocuments({ limit: 0 });
      progress.done = progress.untimed = Math.floor(total / BATCH) * BATCH;
      for (let i = 0; i < progress.done; i += 1) progress.sections += generate(i, true).tree.nodes.length;
    }
    if (progress.done > 0) console.log(`  resuming after ${progress.done} documents`);
    const started = performance.now() - progress.indexS * 1000;
    for (let from = progress.done; from < library.docs; from += BATCH) {
      const trees = Array.from({ length: Math.min(BATCH, library.docs - from) }, (_, k) => {
        const { tree } = generate(from + k, true);
        progress.sections += tree.nodes.length;
        return tree;
      });
      await store.addTrees(trees, { concurrency: WAVE });
      progress.done = from + trees.length;
      progress.indexS = (performance.now() - started) / 1000;
      await store.byteStore.mset([[PROGRESS, new TextEncoder().encode(JSON.stringify(progress))]]);
      if (progress.done % 10_000 === 0 || progress.done === library.docs) {
        process.stderr.write(
          `  ${library.backend} ${library.docs}: ${progress.done} documents, ${progress.indexS.toFixed(0)} s (${((progress.done - progress.untimed) / progress.indexS).toFixed(0)} docs/s)\n`,
        );
      }
    }
    // Timed over the documents this build timed (all of them unless it took over an older one).
    const docsPerS = (progress.done - progress.untimed) / progress.indexS;
    const built = {
      indexS: library.docs / docsPerS,
      sections: progress.sections,
      builtAt: new Date().toISOString(),
    };
    await store.byteStore.mset([[MARKER, new TextEncoder().encode(JSON.stringify(built))]]);
    return built;
  } finally {
    await store.close();
  }
}

/**
 * Saves each document's lexical index beside it, as `pageindex index` does after indexing a file
 * (the retriever reads it in place of every section's text; a read-only store cannot save one,
 * so without it each query rebuilds the indexes of the documents it searches from their texts;
 * a writable one, such as the PostgreSQL store, saves them while it is asked, so its first runs
 * would measure that). Skipped once done (a marker key), resumable (saved ones are read back).
 * @returns seconds spent, or undefined when it was done before.
 */
async function saveLexicalIndexes(library: Library): Promise<number | undefined> {
  const store = await open(library, true);
  try {
    const [done] = await store.byteStore.mget([LEXICAL_MARKER]);
    if (done) return undefined;
    const started = performance.now();
    const lexical = new LexicalIndexes(store);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < library.docs; i = next++) {
        const { docId } = generate(i, true).tree;
        await lexical.get(await store.getSkeleton(docId));
        if ((i + 1) % 10_000 === 0)
          process.stderr.write(
            `  ${library.backend} ${library.docs}: lexical indexes of ${i + 1} documents saved\n`,
          );
      }
    };
    await Promise.all(Array.from({ length: WAVE }, worker));
    const seconds = (performance.now() - started) / 1000;
    await store.byteStore.mset([[LEXICAL_MARKER, new TextEncoder().encode(JSON.stringify({ seconds }))]]);
    return seconds;
  } finally {
    await store.close();
  }
}

async function dropSchema(schema: string): Promise<void> {
  await dropPostgresSchema(POSTGRES_URL, schema);
}

interface Fresh {
  /** Loading the built packages and the engine's driver (before the clock of the first query). */
  loadMs: number;
  /** The issue's clock: open the store, one retriever query. */
  firstMs: number;
  openMs: number;
  rssMb: number;
  maxRssMb: number;
  /** The whole child process, node's start included, as the parent saw it. */
  processMs: number;
}

/** One fresh process (plain node on the built packages: scripts/bench-library-scale-child.mjs). */
function freshProcess(library: Library, query: string): Fresh {
  const job =
    library.backend === "folder"
      ? { backend: "folder", folder: folderOf(library.docs), query, verify: VERIFY }
      : {
          backend: "postgres",
          url: POSTGRES_URL,
          schema: schemaOf(library.docs),
          query,
          verify: VERIFY,
          prepared: PREPARED,
        };
  const started = performance.now();
  const out = execFileSync(process.execPath, [CHILD, JSON.stringify(job)], {
    encoding: "utf8",
    maxBuffer: 1 << 20,
  });
  const processMs = performance.now() - started;
  return { ...(JSON.parse(out.trim().split("\n").pop() as string) as Omit<Fresh, "processMs">), processMs };
}

/** Questions about distinct documents, the same ones for every size (drawn from the smallest). */
function questionSet(docs: number, count: number): string[] {
  return libraryQuestions(docs, true, count, WARM_UP).map((q) => q.query);
}

interface Warm {
  ms: number[];
  /** CPU time of this process per retriever query (its file reads' included: libuv's threads are this process's). */
  cpuMs: number[];
  engineMs: number[];
  /** CPU time of this process per engine query: the load of a shared machine does not stretch it (PostgreSQL: the client's share only). */
  engineCpuMs: number[];
}

/** Warm queries, each library asked question i in turn. */
async function warmQueries(libraries: readonly Library[], count: number): Promise<Warm[]> {
  const smallest = Math.min(...libraries.map((l) => l.docs));
  const queries = questionSet(smallest, count);
  const handles = await Promise.all(
    libraries.map(async (library) => {
      const store = await open(library);
      const retriever = new PageIndexRetriever({ reader: store, k: 3, cache: false });
      for (const q of libraryQuestions(smallest, true, WARM_UP)) {
        await retriever.invoke(q.query);
        await store.searchLibrary(q.query, { limit: 10 });
      }
      return { store, retriever, warm: { ms: [], cpuMs: [], engineMs: [], engineCpuMs: [] } as Warm };
    }),
  );
  try {
    for (const query of queries) {
      for (const handle of handles) {
        let started = performance.now();
        const queryCpu = process.cpuUsage();
        await handle.retriever.invoke(query);
        handle.warm.ms.push(performance.now() - started);
        const spent = process.cpuUsage(queryCpu);
        handle.warm.cpuMs.push((spent.user + spent.system) / 1000);
        started = performance.now();
        const cpu = process.cpuUsage();
        await handle.store.searchLibrary(query, { limit: 10, sectionsPerDocument: 12 });
        handle.warm.engineMs.push(performance.now() - started);
        const used = process.cpuUsage(cpu);
        handle.warm.engineCpuMs.push((used.user + used.system) / 1000);
      }
    }
  } finally {
    for (const handle of handles) await handle.store.close();
  }
  return handles.map((h) => h.warm);
}

const fmt = (n: number, digits = 0) => (Number.isFinite(n) ? n.toFixed(digits) : "–");
const verdict = (ok: boolean) => (ok ? "pass" : "FAIL");

async function main(): Promise<void> {
  const backends = option("backends", "folder,postgres").split(",") as Backend[];
  const sizes = option("docs", "100,10000,100000").split(",").map(Number);
  const queryCount = Number(option("queries", "40"));
  const freshRuns = Number(option("fresh", "3"));
  const rebuild = process.argv.includes("--rebuild");
  const libraries: Library[] = backends.flatMap((backend) => sizes.map((docs) => ({ backend, docs })));
  if (process.argv.includes("--pg-million") && backends.includes("postgres"))
    libraries.push({ backend: "postgres", docs: 1_000_000 });

  const queryOnly = process.argv.includes("--query-only");
  const built = new Map<Library, Built & { reused: boolean }>();
  for (const library of [...libraries]) {
    const before = rebuild ? undefined : await builtBefore(library);
    if (before) {
      built.set(library, { ...before, reused: true });
      continue;
    }
    if (queryOnly) {
      const part = await unfinished(library);
      if (part) built.set(library, { ...part, reused: true });
      else {
        console.log(`${library.backend} ${library.docs}: not built, left out (--query-only)`);
        libraries.splice(libraries.indexOf(library), 1);
      }
      continue;
    }
    console.log(`${library.backend}: indexing ${library.docs} documents…`);
    built.set(library, { ...(await build(library, rebuild)), reused: false });
  }
  // Not with --query-only (which never writes): it reports what the libraries hold.
  if (!queryOnly) {
    for (const library of libraries) {
      const seconds = await saveLexicalIndexes(library);
      if (seconds !== undefined)
        console.log(`${library.backend} ${library.docs}: lexical indexes saved in ${seconds.toFixed(0)} s`);
    }
  }
  if (process.argv.includes("--build-only")) return;

  const rows: Array<Record<string, unknown>> = [];
  for (const backend of backends) {
    const mine = libraries.filter((l) => l.backend === backend);
    console.log(
      `${backend}: fresh processes and ${queryCount} warm queries per library (load ${loadavg()[0]?.toFixed(1)})…`,
    );
    const fresh = mine.map((library) => {
      const queries = questionSet(Math.min(...mine.map((l) => l.docs)), freshRuns + queryCount).slice(
        -freshRuns,
      );
      return queries.map((query) => freshProcess(library, query));
    });
    const warm = await warmQueries(mine, queryCount);
    const base = quantile(warm[0]?.ms ?? [], 0.5);
    const engineBase = quantile(warm[0]?.engineMs ?? [], 0.5);
    const cpuBase = quantile(warm[0]?.engineCpuMs ?? [], 0.5);
    const warmCpuBase = quantile(warm[0]?.cpuMs ?? [], 0.5);
    mine.forEach((library, i) => {
      const b = built.get(library) as Built & { reused: boolean };
      const w = warm[i] as Warm;
      const f = fresh[i] as Fresh[];
      const firstMs = quantile(
        f.map((x) => x.firstMs),
        0.5,
      );
      const rssMb = Math.max(...f.map((x) => x.maxRssMb));
      const median = quantile(w.ms, 0.5);
      const ratio = median / base;
      const row = {
        backend,
        docs: library.docs,
        sections: b.sections,
        indexS: b.indexS,
        documentsPresent: b.partial ?? library.docs,
        docsPerS: (b.partial ?? library.docs) / b.indexS,
        builtAt: b.builtAt,
        reused: b.reused,
        firstQueryMs: firstMs,
        firstQueryRuns: f.map((x) => Math.round(x.firstMs)),
        openMs: quantile(
          f.map((x) => x.openMs),
          0.5,
        ),
        loadMs: quantile(
          f.map((x) => x.loadMs),
          0.5,
        ),
        processMs: quantile(
          f.map((x) => x.processMs),
          0.5,
        ),
        rssMb,
        warmMedianMs: median,
        warmP95Ms: quantile(w.ms, 0.95),
        warmRatio: ratio,
        warmCpuMedianMs: quantile(w.cpuMs, 0.5),
        warmCpuRatio: quantile(w.cpuMs, 0.5) / warmCpuBase,
        engineMedianMs: quantile(w.engineMs, 0.5),
        engineP95Ms: quantile(w.engineMs, 0.95),
        engineRatio: quantile(w.engineMs, 0.5) / engineBase,
        engineCpuMedianMs: quantile(w.engineCpuMs, 0.5),
        engineCpuRatio: quantile(w.engineCpuMs, 0.5) / cpuBase,
        targets: TARGETS.appliesTo(b.partial ?? library.docs)
          ? {
              firstQuery: verdict(firstMs <= TARGETS.firstQueryMs),
              rss: verdict(rssMb <= TARGETS.firstQueryRssMb),
              warm: verdict(ratio <= TARGETS.warmRatio(library.docs)),
            }
          : undefined,
      };
      rows.push(row);
    });
  }

  console.log(
    "\n| backend | documents (sections) | indexing s (docs/s) | fresh first query ms / RSS MB (module load ms, whole process ms) | warm median / p95 ms (× 100 docs) | warm CPU ms (×) | engine median / p95 ms (×) | engine CPU ms (×) | targets |",
  );
  console.log("| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |");
  for (const r of rows) {
    const t = r.targets as Record<string, string> | undefined;
    console.log(
      `| ${r.backend} | ${(r.documentsPresent as number).toLocaleString("en")}${r.documentsPresent === r.docs ? "" : ` of ${(r.docs as number).toLocaleString("en")}`} (${(r.sections as number).toLocaleString("en")}) | ${fmt(r.indexS as number)} (${fmt(r.docsPerS as number)}) | ${fmt(r.firstQueryMs as number)} / ${fmt(r.rssMb as number)} (${fmt(r.loadMs as number)}, ${fmt(r.processMs as number)}) | ${fmt(r.warmMedianMs as number, 1)} / ${fmt(r.warmP95Ms as number, 1)} (×${fmt(r.warmRatio as number, 2)}) | ${fmt(r.warmCpuMedianMs as number, 1)} (×${fmt(r.warmCpuRatio as number, 2)}) | ${fmt(r.engineMedianMs as number, 1)} / ${fmt(r.engineP95Ms as number, 1)} (×${fmt(r.engineRatio as number, 2)}) | ${fmt(r.engineCpuMedianMs as number, 1)} (×${fmt(r.engineCpuRatio as number, 2)}) | ${t ? `first ${t.firstQuery}, RSS ${t.rss}, warm ${t.warm}` : "–"} |`,
    );
  }
  console.log(
    `load after the run: ${loadavg()
      .map((l) => l.toFixed(1))
      .join(" ")}`,
  );
  const out = resolve(".bench-out");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, "bench-library-scale.json"),
    `${JSON.stringify({ when: new Date().toISOString(), queries: queryCount, rows }, null, 2)}\n`,
  );
}

await main();
