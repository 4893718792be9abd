import { SqliteLibraryIndex } from "../packages/pageindex-store/src/library/sqlite/sqlite-library-index.js";
import { libraryQuestions } from "./generated-library.js";
for (const size of [100, 10000]) {
  const index = await SqliteLibraryIndex.open(`.bench-out/library/${size}`, { readOnly: true });
  const qs = libraryQuestions(size, true, 30).slice(10);
  const first: number[] = []; const again: number[] = [];
  for (const q of qs) {
    let c = process.cpuUsage(); await index.searchLibrary(q.query); let u = process.cpuUsage(c); first.push((u.user + u.system) / 1000);
    c = process.cpuUsage(); await index.searchLibrary(q.query); u = process.cpuUsage(c); again.push((u.user + u.system) / 1000);
  }
  const med = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]?.toFixed(2);
  const min = (a: number[]) => Math.min(...a).toFixed(2);
  console.log(size, "first med", med(first), "min", min(first), "again med", med(again), "min", min(again));
}
