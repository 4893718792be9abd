import Database from "../packages/pageindex-store/node_modules/libsql/index.js";
import { analyzeQuery } from "../packages/pageindex-store/src/library/query.js";
import { ftsMatch } from "../packages/pageindex-store/src/library/sqlite/match.js";
import { libraryQuestions } from "./generated-library.js";
const size = Number(process.argv[2]);
const db = new Database(`.bench-out/library/${size}/library.sqlite`);
const cpu = (f: () => unknown) => { const c = process.cpuUsage(); f(); const u = process.cpuUsage(c); return (u.user + u.system) / 1000; };
const acc: Record<string, number[]> = {};
for (const q of libraryQuestions(size, true, 30).slice(10)) {
  const m = ftsMatch(analyzeQuery(q.query).terms);
  const parts: Record<string, () => unknown> = {
    fts: () => db.prepare("SELECT rowid, rank FROM section_terms WHERE section_terms MATCH ? ORDER BY rank LIMIT 400").all(m),
    scored: () => db.prepare(`WITH top AS MATERIALIZED (SELECT rowid AS id, rank FROM section_terms WHERE section_terms MATCH ? ORDER BY rank LIMIT 400) SELECT top.id, d.doc_id, s.back_matter, top.rank FROM top JOIN sections s ON s.id = top.id JOIN documents d ON d.doc = s.doc`).all(m),
    cards: () => db.prepare(`SELECT d.doc_id, c.rank FROM card_terms c JOIN documents d ON d.doc = c.rowid WHERE card_terms MATCH ? AND 1 ORDER BY c.rank LIMIT 200`).all(m),
    cardsonly: () => db.prepare(`SELECT rowid, rank FROM card_terms WHERE card_terms MATCH ? ORDER BY rank LIMIT 200`).all(m),
  };
  for (const [k, f] of Object.entries(parts)) (acc[k] ??= []).push(cpu(f));
}
for (const [k, v] of Object.entries(acc)) console.log(size, k, [...v].sort((a, b) => a - b)[10]?.toFixed(2));
