// Imports every PageIndex reference tree, exports it again, and checks that titles, node ids and
// page ranges come back unchanged (PageIndex's parent-range quirk converted both ways).
// Usage: pnpm build && npx tsx scripts/eval-pageindex-roundtrip.ts
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fromPageIndexJson, type PageIndexNode, toPageIndexJson } from "pageindex-core";
import { requireCorpus } from "./corpus.js";

const dir = requireCorpus("pageindex-reference/results");
const flat = (nodes: PageIndexNode[], out: string[] = []): string[] => {
  for (const n of nodes) {
    out.push(`${n.node_id}|${n.title}|${n.start_index}|${n.end_index}|${n.line_num ?? ""}`);
    flat(n.nodes ?? [], out);
  }
  return out;
};

let failures = 0;
console.log("| file | nodes | same ids, titles, ranges | union-range nodes widened |");
console.log("|---|---|---|---|");
for (const file of readdirSync(dir)
  .filter((f) => f.endsWith(".json"))
  .sort()) {
  const original = JSON.parse(readFileSync(join(dir, file), "utf8"));
  const tree = fromPageIndexJson(original, { source: file });
  const exported = toPageIndexJson(tree);
  const a = flat(original.structure);
  const b = flat(exported.structure);
  const same = a.length === b.length && a.every((line, i) => line === b[i]);
  const widened = tree.nodes.filter((n) => n.endPage !== n.ownEndPage).length;
  if (!same) failures += 1;
  console.log(`| ${file} | ${tree.nodes.length} | ${same ? "yes" : "NO"} | ${widened} |`);
}
process.exitCode = failures > 0 ? 1 : 0;
