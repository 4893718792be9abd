// The folder library index's `searchLibrary` alone, as the retriever asks it (20 documents × 12
// sections), on a library the scale bench built: the bench's questions about the 100-document
// library's documents, each asked once past a warm-up (at 100,000 documents each meets rows and
// pages no earlier question read), in one read-only handle. Prints the CPU time a query (this
// process's) and the garbage collector's share of it: no retriever, no tree reads, so two builds'
// engines compare run after run (alternate them: the machine's load moves both).
//
// Usage (on the built packages): npx tsx scripts/time-library-engine.ts --docs 100000 [--queries 90]
//   [--backend postgres [--schema scale_<docs>]] [--rounds 1]
// Reads ~/.cache/pageindex-bench/scale/folder-<docs> (or under XDG_CACHE_HOME) read-only; with
// `--backend postgres` the PostgreSQL library the scale bench built (schema scale_<docs>, or
// `--schema`, at PAGEINDEX_POSTGRES_URL), read only, its statements on a server whose pages stay
// warm: `--rounds N` asks the questions N times, and the median wall time a query is printed too.
import { PerformanceObserver } from "node:perf_hooks";
import { type LibraryIndex, PostgresLibraryIndex, SqliteLibraryIndex } from "pageindex-store";
import { option } from "./cli-option.js";
import { libraryQuestions } from "./generated-library.js";
import { SCALE_POSTGRES_URL, scaleFolder } from "./scale-libraries.js";

const DOCS = Number(option("docs", "100000"));
/** Questions timed (at most 90: the 100-document library's documents past the warm-up). */
const QUERIES = Math.min(90, Number(option("queries", "90")));
/** Questions asked first, untimed (the bench's warm-up). */
const WARM_UP = 10;
const LIMITS = { limit: 20, sectionsPerDocument: 12 };
const ROUNDS = Math.max(1, Number(option("rounds", "1")));
const BACKEND = option("backend", "folder");
const SCHEMA = option("schema", `scale_${DOCS}`);

let gcMs = 0;
let timing = false;
new PerformanceObserver((list) => {
  if (timing) for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

const index: LibraryIndex =
  BACKEND === "postgres"
    ? await PostgresLibraryIndex.fromUrl(SCALE_POSTGRES_URL, { schema: SCHEMA })
    : await SqliteLibraryIndex.open(`${scaleFolder(DOCS)}/.library`, { readOnly: true });
const name = BACKEND === "postgres" ? SCHEMA : `folder-${DOCS}`;
try {
  for (const q of libraryQuestions(100, true, WARM_UP)) await index.searchLibrary(q.query, LIMITS);
  const questions = libraryQuestions(100, true, QUERIES, WARM_UP).map((q) => q.query);
  timing = true;
  const walls: number[] = [];
  const started = process.cpuUsage();
  for (let round = 0; round < ROUNDS; round += 1)
    for (const question of questions) {
      const began = performance.now();
      await index.searchLibrary(question, LIMITS);
      walls.push(performance.now() - began);
    }
  const used = process.cpuUsage(started);
  // The observer reports after the work: let it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  timing = false;
  const perQuery = (ms: number) => (ms / walls.length).toFixed(3);
  const wall = walls.sort((a, b) => a - b)[Math.floor(walls.length / 2)] ?? Number.NaN;
  console.log(
    `${name}: searchLibrary CPU ${perQuery((used.user + used.system) / 1000)} ms a query, garbage collection ${perQuery(gcMs)} ms, wall median ${wall.toFixed(3)} ms (${questions.length} questions asked ${ROUNDS === 1 ? "once" : `${ROUNDS} times`})`,
  );
} finally {
  await index.close();
}
