// The folder library index's `searchLibrary` alone, as the retriever asks it (20 documents × 12
// sections), on a library the scale bench built: the bench's questions about the 100-document
// library's documents, each asked once past a warm-up (at 100,000 documents each meets rows and
// pages no earlier question read), in one read-only handle. Prints the CPU time a query (this
// process's) and the garbage collector's share of it: no retriever, no tree reads, so two builds'
// engines compare run after run (alternate them: the machine's load moves both).
//
// Usage (on the built packages): npx tsx scripts/time-library-engine.ts --docs 100000 [--queries 90]
// Reads ~/.cache/pageindex-bench/scale/folder-<docs> (or under XDG_CACHE_HOME) read-only.
import { PerformanceObserver } from "node:perf_hooks";
import { SqliteLibraryIndex } from "pageindex-store";
import { option } from "./cli-option.js";
import { libraryQuestions } from "./generated-library.js";
import { scaleFolder } from "./scale-libraries.js";

const DOCS = Number(option("docs", "100000"));
/** Questions timed (at most 90: the 100-document library's documents past the warm-up). */
const QUERIES = Math.min(90, Number(option("queries", "90")));
/** Questions asked first, untimed (the bench's warm-up). */
const WARM_UP = 10;
const LIMITS = { limit: 20, sectionsPerDocument: 12 };

let gcMs = 0;
let timing = false;
new PerformanceObserver((list) => {
  if (timing) for (const entry of list.getEntries()) gcMs += entry.duration;
}).observe({ entryTypes: ["gc"] });

const index = await SqliteLibraryIndex.open(`${scaleFolder(DOCS)}/.library`, { readOnly: true });
try {
  for (const q of libraryQuestions(100, true, WARM_UP)) await index.searchLibrary(q.query, LIMITS);
  const questions = libraryQuestions(100, true, QUERIES, WARM_UP).map((q) => q.query);
  timing = true;
  const started = process.cpuUsage();
  for (const question of questions) await index.searchLibrary(question, LIMITS);
  const used = process.cpuUsage(started);
  // The observer reports after the work: let it.
  await new Promise((resolve) => setTimeout(resolve, 50));
  timing = false;
  const perQuery = (ms: number) => (ms / questions.length).toFixed(3);
  console.log(
    `folder-${DOCS}: searchLibrary CPU ${perQuery((used.user + used.system) / 1000)} ms a query, garbage collection ${perQuery(gcMs)} ms (${questions.length} questions asked once)`,
  );
} finally {
  await index.close();
}
