// Every answer of a scale library's index to a fixed set of searches, as one JSON file, to compare
// two builds byte for byte (a change meant to keep rankings: scores, order, sections, cards).
// The bench's questions about the 100-document library's documents and 60 about the library's own,
// each asked library-wide at the retriever's limits (20 × 12 sections), at 3 × 2, at the defaults,
// as `searchSections`; then 60 limited to 4 documents (one row-id range each) and to 90 (a filter).
//
// Usage (on the built packages, each build in its own checkout):
//   npx tsx scripts/dump-library-answers.ts --docs 100000 --out /tmp/a.json; …; cmp /tmp/a.json /tmp/b.json
// Reads ~/.cache/pageindex-bench/scale/folder-<docs> (or under XDG_CACHE_HOME) read-only;
// `--backend postgres`: the PostgreSQL library the scale bench built (schema scale_<docs>, or
// `--schema`, at PAGEINDEX_POSTGRES_URL), which it only reads.
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { type LibraryIndex, PostgresLibraryIndex, SqliteLibraryIndex } from "pageindex-store";
import { option } from "./cli-option.js";
import { libraryQuestions } from "./generated-library.js";
import { SCALE_POSTGRES_URL, scaleFolder } from "./scale-libraries.js";

const DOCS = Number(option("docs", "100000"));
const OUT = option("out", ".bench-out/library-answers.json");
const BACKEND = option("backend", "folder");
const index: LibraryIndex =
  BACKEND === "postgres"
    ? await PostgresLibraryIndex.fromUrl(SCALE_POSTGRES_URL, { schema: option("schema", `scale_${DOCS}`) })
    : await SqliteLibraryIndex.open(`${scaleFolder(DOCS)}/.library`, { readOnly: true });
const questions = [
  ...libraryQuestions(100, true, 100, 0).map((q) => q.query),
  ...libraryQuestions(DOCS, true, 60, 0).map((q) => q.query),
  "install configure server network",
  "error message printer queue",
  "section",
  "notes gears sprocket",
];
const out: unknown[] = [];
for (const q of questions) {
  out.push(await index.searchLibrary(q, { limit: 20, sectionsPerDocument: 12 }));
  out.push(await index.searchLibrary(q, { limit: 3, sectionsPerDocument: 2 }));
  out.push(await index.searchLibrary(q));
  out.push(await index.searchSections(q, { limit: 20 }));
}
const few = ["doc-000001", "doc-000002", "doc-000050", "doc-000077"];
const many = Array.from({ length: 90 }, (_, i) => `doc-${String(i * 3).padStart(6, "0")}`);
for (const q of questions.slice(0, 60)) {
  out.push(await index.searchLibrary(q, { limit: 5, docIds: few }));
  out.push(await index.searchLibrary(q, { limit: 10, docIds: many }));
  out.push(await index.searchSections(q, { limit: 10, docIds: many }));
}
mkdirSync(dirname(OUT), { recursive: true });
writeFileSync(OUT, JSON.stringify(out, null, 1));
console.log(`${out.length} answers to ${OUT}`);
await index.close();
