/**
 * Structure fidelity of the PDF loader's no-LLM paths, on the shared corpus (`../shared/corpus`,
 * read-only; the script says so and exits cleanly when it is absent).
 *
 *   (a) auto path (the outline when the PDF has one) vs PageIndex's own GPT-4o trees
 *       (`pageindex-reference/results/*_structure.json`);
 *   (b) layout path with the outline ignored vs the outline itself, on every PDF that has one;
 *   (c) layout path on the FinanceBench 10-Ks: which section holds each question's evidence page.
 *
 * Matching of (title, start page): a predicted node matches a reference entry when the start
 * pages are equal (also reported: within ±1) and the titles are alike: normalised (lower case,
 * no punctuation/accents), with and without leading numbering ("Item 7.", "2.1", "IV."), and
 * similarity = max(word Dice overlap, shared prefix of the letters-only strings / longer length)
 * ≥ 0.7. Matching is one-to-one, greedy in reference order, best similarity first.
 *
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/eval-pdf-structure.ts
 */
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { outlineStructure, pdfToTree, readPdf, stripNumbering, titleSimilarity } from "pageindex-loader";
import { fromPageIndexJson, type TreeDocument } from "pageindex-store";

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..");
const CORPUS = resolve(ROOT, "../shared/corpus");

interface Entry {
  title: string;
  page: number;
  level: number;
}

const SIMILARITY = 0.7;

function similar(a: string, b: string): number {
  return Math.max(titleSimilarity(a, b), titleSimilarity(stripNumbering(a), stripNumbering(b)));
}

function treeEntries(tree: TreeDocument): Entry[] {
  return tree.nodes
    .filter((n) => n.startPage !== undefined)
    .map((n) => ({ title: n.title, page: n.startPage as number, level: n.level }));
}

/** One-to-one greedy matching; returns matched reference indices. */
function match(reference: Entry[], predicted: Entry[], tolerance: number): Set<number> {
  const used = new Set<number>();
  const matched = new Set<number>();
  reference.forEach((r, ri) => {
    let best = -1;
    let bestScore = SIMILARITY;
    predicted.forEach((p, pi) => {
      if (used.has(pi) || Math.abs(p.page - r.page) > tolerance) return;
      const s = similar(r.title, p.title);
      if (s >= bestScore) {
        best = pi;
        bestScore = s;
      }
    });
    if (best >= 0) {
      used.add(best);
      matched.add(ri);
    }
  });
  return matched;
}

const pct = (n: number, d: number): string =>
  d === 0 ? "  n/a" : `${((100 * n) / d).toFixed(1).padStart(5)}%`;

function score(reference: Entry[], predicted: Entry[]) {
  const exact = match(reference, predicted, 0).size;
  const near = match(reference, predicted, 1).size;
  return {
    exact,
    near,
    recall: pct(exact, reference.length),
    precision: pct(exact, predicted.length),
    recallNear: pct(near, reference.length),
  };
}

function pdfsIn(dir: string): string[] {
  return existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.toLowerCase().endsWith(".pdf"))
        .map((f) => join(dir, f))
    : [];
}

async function build(path: string, structure: "auto" | "layout") {
  const t0 = performance.now();
  const tree = await pdfToTree(
    new Uint8Array(readFileSync(path)),
    { structure, summaries: "none" },
    { name: basename(path), path },
  );
  return { tree, ms: performance.now() - t0 };
}

async function partA(): Promise<void> {
  console.log("\n(a) auto path vs PageIndex reference trees (title + start page)");
  const dir = join(CORPUS, "pageindex-reference");
  console.log("doc | path | ref | ours | matched | recall | precision | recall ±1 page | ms");
  for (const pdf of pdfsIn(join(dir, "pdfs"))) {
    const name = basename(pdf, ".pdf");
    const refPath = join(dir, "results", `${name}_structure.json`);
    if (!existsSync(refPath)) continue;
    const ref = treeEntries(fromPageIndexJson(JSON.parse(readFileSync(refPath, "utf8")), { docName: name }));
    const { tree, ms } = await build(pdf, "auto");
    const ours = treeEntries(tree);
    const s = score(ref, ours);
    console.log(
      `${name} | ${tree.build.structure} | ${ref.length} | ${ours.length} | ${s.exact} | ${s.recall} | ${s.precision} | ${s.recallNear} | ${ms.toFixed(0)}`,
    );
  }
}

async function partB(): Promise<void> {
  console.log("\n(b) layout path (outline ignored) vs the PDF's own outline");
  console.log(
    "doc | outline entries (top-2 levels) | layout nodes | recall top-2 | recall all | precision | recall top-2 ±1 | ms",
  );
  let top2Found = 0;
  let top2Total = 0;
  for (const pdf of [
    ...pdfsIn(join(CORPUS, "pageindex-reference", "pdfs")),
    ...pdfsIn(join(CORPUS, "financebench", "pdfs")),
  ]) {
    const parsed = await readPdf(new Uint8Array(readFileSync(pdf)), { source: pdf });
    const outline = outlineStructure(parsed.outline);
    if (outline.total === 0) continue;
    const gold: Entry[] = [];
    const walk = (entries: typeof outline.entries, level: number) => {
      for (const e of entries) {
        gold.push({ title: e.title, page: e.page, level });
        walk(e.children, level + 1);
      }
    };
    walk(outline.entries, 1);
    const top2 = gold.filter((g) => g.level <= 2);
    const { tree, ms } = await build(pdf, "layout").catch((error: Error) => {
      console.log(`${basename(pdf)} | layout failed: ${error.message}`);
      return { tree: undefined, ms: 0 };
    });
    if (!tree) continue;
    const ours = treeEntries(tree);
    const t2 = score(top2, ours);
    const all = score(gold, ours);
    top2Found += t2.exact;
    top2Total += top2.length;
    console.log(
      `${basename(pdf)} | ${gold.length} (${top2.length})${outline.usable ? "" : ` [outline not usable: ${outline.reason}]`} | ${ours.length} | ${t2.recall} | ${all.recall} | ${all.precision} | ${t2.recallNear} | ${ms.toFixed(0)}`,
    );
  }
  console.log(
    `overall recall of top-2 outline levels: ${pct(top2Found, top2Total)} (${top2Found}/${top2Total})`,
  );
}

interface Question {
  id: string;
  doc_name: string;
  evidence: Array<{ doc_name: string; page: number }>;
}

async function partC(): Promise<void> {
  console.log("\n(c) layout path on FinanceBench 10-Ks: the section holding each evidence page");
  const dir = join(CORPUS, "financebench");
  const qPath = join(dir, "questions.jsonl");
  if (!existsSync(qPath)) return;
  const questions = readFileSync(qPath, "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Question);
  const trees = new Map<string, TreeDocument>();
  let pages = 0;
  let inItem = 0;
  let focused = 0;
  let atStart = 0;
  const spans: number[] = [];
  for (const q of questions) {
    for (const ev of q.evidence) {
      const pdf = join(dir, "pdfs", `${ev.doc_name}.pdf`);
      if (!existsSync(pdf)) continue;
      let tree = trees.get(ev.doc_name);
      if (!tree) {
        tree = (await build(pdf, "layout")).tree;
        trees.set(ev.doc_name, tree);
      }
      // Deepest node whose range holds the page, and the titles above it.
      let node = tree.nodes.find(
        (n) => n.parentId === null && (n.startPage ?? 0) <= ev.page && ev.page <= (n.endPage ?? 0),
      );
      const path: string[] = [];
      while (node) {
        path.push(node.title);
        const kids = node.childIds.map((id) => tree?.nodes.find((n) => n.nodeId === id));
        const next = kids.find((k) => k && (k.startPage ?? 0) <= ev.page && ev.page <= (k.endPage ?? 0));
        if (!next) break;
        node = next;
      }
      pages++;
      if (path.some((t) => /^(item\s+\d+[a-z]?|note\s+\d+)\b/i.test(t))) inItem++;
      const span = node ? (node.endPage ?? 0) - (node.startPage ?? 0) + 1 : 0;
      spans.push(span);
      if (span > 0 && span <= 10) focused++;
      if (node && node.startPage === ev.page) atStart++;
      console.log(`${q.id} ${ev.doc_name} p.${ev.page}: ${path.join(" > ") || "(none)"} [${span} pages]`);
    }
  }
  spans.sort((a, b) => a - b);
  console.log(
    `evidence pages: ${pages}; inside an "Item N"/"Note N" section: ${pct(inItem, pages)}; deepest section ≤ 10 pages: ${pct(focused, pages)}; a node starts on the page: ${pct(atStart, pages)}; median deepest span: ${spans[Math.floor(spans.length / 2)] ?? 0} pages`,
  );
  for (const [name, tree] of trees) {
    const items = tree.nodes
      .filter((n) => /^item\s+\d+[a-z]?\b/i.test(n.title))
      .map((n) =>
        n.title
          .split(/[.\s]+/)
          .slice(0, 2)
          .join(" "),
      );
    console.log(
      `${name}: structure ${tree.build.structure}, ${tree.nodes.length} nodes, items found: ${items.join(", ") || "none"}`,
    );
  }
}

async function main(): Promise<void> {
  if (!existsSync(CORPUS)) {
    console.log(`Corpus not found at ${CORPUS}; nothing to evaluate.`);
    return;
  }
  console.log(`Reading the corpus at ${CORPUS} (read-only).`);
  await partA();
  await partB();
  await partC();
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
