// Write costs of the SQLite library index (SqliteLibraryIndex) alone, or with `--postgres URL` the
// PostgreSQL one (PostgresLibraryIndex, in a schema of its own dropped afterwards), with and
// without champion lists: generated documents of the bench's small shape (scripts/generated-library.ts) put in
// waves, then some of them replaced (a new version) and some removed. Reports ms per document of
// each step, the rows waiting in the lists' pending table and the file's size.
//
// Usage: npx tsx scripts/bench-library-writes.ts [--docs 2000] [--wave 8] [--replace 200]
//   [--remove 200] [--champion-rows 100|0] [--merge-sections N] [--into FILE --first N]
//   [--postgres URL]
// `--champion-rows 0` writes a file without lists; `--merge-sections` sets `championMergeSections`;
// `--into` writes into a copy of an existing index file (e.g. a 100,000-document library's
// `.library/library.sqlite`), the generated documents numbered from `--first` (past its own).
import { copyFileSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  LIBRARY_FILE,
  type LibraryEntry,
  type LibraryIndex,
  libraryEntry,
  PostgresLibraryIndex,
  SqliteLibraryIndex,
} from "pageindex-store";
import { dropPostgresSchema } from "./drop-postgres-schema.js";
import { generate } from "./generated-library.js";

function option(name: string, fallback: number): number {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1] ?? fallback) : fallback;
}

const docs = option("docs", 2000);
const wave = option("wave", 8);
const replaced = option("replace", 200);
const removed = option("remove", 200);
const championRows = option("champion-rows", 100);
const mergeSections = option("merge-sections", Number.NaN);

const into = process.argv.includes("--into") ? process.argv[process.argv.indexOf("--into") + 1] : undefined;
const postgres = process.argv.includes("--postgres")
  ? process.argv[process.argv.indexOf("--postgres") + 1]
  : undefined;
const schema = `bench_writes_${process.pid}`;
const first = option("first", 0);
const entries = Array.from({ length: docs }, (_, i) => libraryEntry(generate(first + i, true).tree, "v1"));
const dir = mkdtempSync(join(tmpdir(), "bench-library-writes-"));
if (into) copyFileSync(into, join(dir, LIBRARY_FILE));
const lists = {
  // Both engines give a new library lists unless told 0.
  championRows,
  ...(Number.isFinite(mergeSections) ? { championMergeSections: mergeSections } : {}),
};
const index: LibraryIndex = postgres
  ? await PostgresLibraryIndex.fromUrl(postgres, { schema, ...lists })
  : await SqliteLibraryIndex.open(dir, lists);

/** The schema's size on the server (tables, their indexes and TOAST), in MB. */
async function schemaMB(url: string): Promise<number> {
  // `pg` is the store's optional peer: loaded from there, as drop-postgres-schema.ts does.
  const pg = createRequire(
    fileURLToPath(new URL("../packages/pageindex-store/package.json", import.meta.url)),
  )("pg") as {
    Client: new (options: {
      connectionString: string;
    }) => {
      connect(): Promise<void>;
      query(sql: string, params: unknown[]): Promise<{ rows: Array<{ bytes: number | null }> }>;
      end(): Promise<void>;
    };
  };
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query(
      `SELECT sum(pg_total_relation_size(c.oid))::float8 AS bytes FROM pg_class c
       JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = $1 AND c.relkind = 'r'`,
      [schema],
    );
    return Number(rows[0]?.bytes ?? 0) / 2 ** 20;
  } finally {
    await client.end();
  }
}

/** Runs `step` over `items` in waves, returning ms per item. */
async function timed<T>(items: readonly T[], step: (wave: readonly T[]) => Promise<void>): Promise<number> {
  const start = performance.now();
  for (let i = 0; i < items.length; i += wave) await step(items.slice(i, i + wave));
  return items.length > 0 ? (performance.now() - start) / items.length : 0;
}

const load = loadavg()[0] ?? 0;
const putMs = await timed(entries, (w) => index.putDocuments(w));
const newer: LibraryEntry[] = entries
  .slice(0, replaced)
  .map((e) => ({ ...e, card: { ...e.card, versionId: "v2" } }));
const replaceMs = await timed(newer, (w) => index.putDocuments(w));
const gone = entries.slice(replaced, replaced + removed).map((e) => e.card.docId);
const removeMs = await timed(gone, async (w) => {
  for (const docId of w) await index.removeDocument(docId);
});
const closeStart = performance.now();
await index.close();
const closeMs = performance.now() - closeStart;
const fileMB = postgres ? await schemaMB(postgres) : statSync(join(dir, LIBRARY_FILE)).size / 2 ** 20;
rmSync(dir, { recursive: true, force: true });
if (postgres) await dropPostgresSchema(postgres, schema);
console.log(
  JSON.stringify({
    docs,
    into: postgres ? `PostgreSQL schema ${schema}` : (into ?? "new file"),
    wave,
    championRows,
    mergeSections: Number.isFinite(mergeSections) ? mergeSections : "default",
    load: Number(load.toFixed(1)),
    putMsPerDoc: Number(putMs.toFixed(2)),
    replaceMsPerDoc: Number(replaceMs.toFixed(2)),
    removeMsPerDoc: Number(removeMs.toFixed(2)),
    closeMs: Math.round(closeMs),
    // Every write and the close (a writer's close merges the lists' backlog), per document written.
    allMsPerDoc: Number(
      (
        (putMs * docs + replaceMs * newer.length + removeMs * gone.length + closeMs) /
        (docs + newer.length + gone.length)
      ).toFixed(2),
    ),
    fileMB: Number(fileMB.toFixed(1)),
  }),
);
