import pg from "pg";
import { PostgresLibraryIndex } from "./src/index.js";
import { libraryEntry } from "./src/library/entry.js";
import { generate } from "../../scripts/generated-library.js";
const url = "postgres://postgres@127.0.0.1:55432/postgres";
const pool = new pg.Pool({ connectionString: url });
const orig = pg.Client.prototype.query;
const times = new Map<string, number>();
(pg.Client.prototype as any).query = function (text: any, values: any, cb: any) {
  const t0 = performance.now();
  const p = orig.call(this, text, values, cb);
  const key = String(typeof text === "string" ? text : text.text).replace(/\s+/g, " ").slice(0, 60);
  if (p && p.then) p.then(() => times.set(key, (times.get(key) ?? 0) + performance.now() - t0), () => {});
  return p;
};
await pool.query('DROP SCHEMA IF EXISTS prof CASCADE');
const index = await PostgresLibraryIndex.open(pool as any, { schema: "prof" });
let t = performance.now();
const entries = Array.from({ length: 1000 }, (_, i) => { const { tree } = generate(i, true); return libraryEntry(tree, "v1"); });
console.log("generate", performance.now() - t, entries.reduce((a, e) => a + e.sections.length, 0), "sections");
for (let round = 0; round < 2; round++) {
  times.clear();
  t = performance.now();
  await index.putDocuments(round === 0 ? entries : entries.map((e) => ({ ...e, card: { ...e.card, docId: e.card.docId + "x" } })));
  console.log("put", performance.now() - t);
  console.log([...times].sort((a, b) => b[1] - a[1]).slice(0, 8));
}
await pool.end();
