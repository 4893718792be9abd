/**
 * Sections to write library questions about, picked at random with a fixed seed: a document
 * with probability growing with its size (√ of its file's bytes), then one of its content sections
 * weighted to depth (level²) — questions in users' words ask for details deep inside long
 * manuals. Back matter, contents lists and sections under 80 tokens of their own are skipped.
 * Prints each section's place (pages or lines) and its own text, to be read before a question
 * is written.
 *
 * Run: npx tsx scripts/library-devset/sample.ts [--seed 24] [--count 120] [--only TEXT] [--cached]
 * (trees come from the cache that eval-library.ts fills; missing ones are built;
 * `LIBRARY_TREES_AT=<commit>` draws from the trees cached for that commit's loader, never building).
 */
import { isBackMatter, seededRandom } from "../../packages/pageindex-retriever/src/eval/sample-sections.js";
import { debianFileBytes } from "../debian-docs.js";
import { libraryFiles, libraryTree, libraryTreeCached } from "./library.js";

const arg = (name: string) => {
  const i = process.argv.indexOf(name);
  return i < 0 ? undefined : process.argv[i + 1];
};

async function main(): Promise<void> {
  const seed = Number(arg("--seed") ?? 24);
  const count = Number(arg("--count") ?? 120);
  const only = arg("--only");
  const cachedOnly = process.argv.includes("--cached");
  const random = seededRandom(seed);
  const files = libraryFiles().filter((f) => !only || f.docName.includes(only));
  const seen = new Set<string>();
  // Exactly two draws per sample (document, section), so a sample does not depend on the others.
  const pick = <T>(items: readonly T[], weight: (t: T) => number, draw = random()): T => {
    const total = items.reduce((s, t) => s + weight(t), 0);
    let r = draw * total;
    for (const t of items) {
      r -= weight(t);
      if (r <= 0) return t;
    }
    return items.at(-1) as T;
  };
  const bytes = new Map(files.map((f) => [f.docId, debianFileBytes(f)?.length ?? 0]));
  for (let n = 0; n < count; n += 1) {
    const file = pick(files, (f) => Math.sqrt(bytes.get(f.docId) ?? 0));
    const draw = random();
    if (cachedOnly && !libraryTreeCached(file)) {
      console.log(`\n=== #${n} ${file.docId}: not built yet`);
      continue;
    }
    const tree = await libraryTree(file);
    if (!tree) continue;
    const byId = new Map(tree.nodes.map((n) => [n.nodeId, n]));
    const pathOf = (id: string | null): string[] => {
      const node = id === null ? undefined : byId.get(id);
      return node ? [...pathOf(node.parentId), node.title] : [];
    };
    const sections = tree.nodes
      .filter((n) => n.tokenCount >= 80 && n.text.trim().length > 0 && n.backMatter === undefined)
      .map((n) => ({ node: n, path: pathOf(n.nodeId) }))
      .filter((s) => !isBackMatter(s.path));
    if (sections.length === 0) continue;
    const s = pick(sections, (x) => x.node.level ** 2, draw);
    const key = `${file.docId}#${s.node.nodeId}`;
    if (seen.has(key)) continue;
    seen.add(key);
    const where =
      s.node.startPage !== undefined
        ? `pages ${s.node.startPage}-${s.node.ownEndPage ?? s.node.endPage}`
        : `lines ${s.node.startLine}-${s.node.ownEndLine ?? s.node.endLine}`;
    console.log(`\n=== #${n} ${file.docId} [${s.node.nodeId}] level ${s.node.level} ${where}`);
    console.log(`path: ${s.path.join(" > ")}`);
    console.log(s.node.text.slice(0, 1400).replace(/\n{2,}/g, "\n"));
  }
}

await main();
