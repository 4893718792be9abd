/**
 * Turns written questions into questions.json: each draft names its document, the question in
 * a user's words, a quote of the answer copied from the section read, and a difficulty. The
 * gold is where the quote is: the PDF pages holding it (two when it runs over a page end), or the
 * Markdown lines it spans (found in the document's text, whitespace ignored; a quote found
 * nowhere or on several separate places is an error). The split (dev / validation, half each)
 * is drawn with a fixed seed per batch of drafts (BATCHES), unless the batch names one split for
 * all its questions (training data for a fitted ranker goes to dev whole; the fifth batch is the
 * `holdout` split: questions only the lead runs, once per session at its end, so that a check
 * exists that no helper has run anything on; `eval-library.ts --split all` leaves it out).
 *
 * Checks, for a "hard" question: at most 1 content word shared with its section's title, and
 * none of the section's rare words (in under 0.3 % of the library's sections) in the question.
 *
 * Run: npx tsx scripts/library-devset/make-questions.ts drafts.json
 * (drafts: [[docId, question, quote, "hard" | "easy"], ...]). THE VALIDATION SPLIT IS NEVER
 * USED FOR TUNING, AND THE HOLDOUT SPLIT IS NEVER RUN BUT BY THE LEAD.
 *
 * Trees are read from the cache of the current loader; `LIBRARY_TREES_AT=<commit>` reads those
 * cached for that commit's loader instead (a batch written while the current trees were unbuilt).
 */
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { isStopWord, type TreeDocument, type TreeNode, tokenize } from "pageindex-core";
import { seededRandom, shuffled } from "../../packages/pageindex-retriever/src/eval/sample-sections.js";
import {
  type LibraryFile,
  type LibraryQuestion,
  libraryFiles,
  libraryTreeCached,
  libraryTrees,
} from "./library.js";
import { libraryPages } from "./pages.js";

/** A word in fewer than this share of the library's sections is rare: a term a user would not know before reading. */
const RARE = 0.003;

type Draft = [docId: string, question: string, quote: string, difficulty: "hard" | "easy"];

const squash = (text: string) => text.replace(/\s+/g, " ").trim().toLowerCase();
const words = (text: string) => new Set(tokenize(text).filter((w) => !isStopWord(w) && w.length > 1));

/** Where the quote is: pages (PDF) or a line range (Markdown). */
async function locate(file: LibraryFile, quote: string): Promise<LibraryQuestion["gold"]> {
  const pages = (await libraryPages(file)) ?? [];
  const wanted = squash(quote);
  if (file.kind === "pdf") {
    const found = pages.filter((p) => squash(p.text).includes(wanted)).map((p) => p.from);
    if (found.length === 0) {
      // A quote broken over a page end: the pair of pages holds it.
      for (let i = 0; i + 1 < pages.length; i += 1) {
        const a = pages[i] as { text: string; from: number };
        const b = pages[i + 1] as { text: string; from: number };
        if (squash(`${a.text} ${b.text}`).includes(wanted)) found.push(a.from, b.from);
      }
    }
    if (found.length === 0 || found.length > 2)
      throw new Error(`${file.docId}: quote found on ${found.length} pages: ${quote}`);
    return { pages: found };
  }
  const lines = pages.flatMap((p) => p.text.split("\n"));
  const hits: Array<[number, number]> = [];
  for (let i = 0; i < lines.length; i += 1) {
    let text = "";
    for (let j = i; j < Math.min(lines.length, i + 6); j += 1) {
      text = `${text} ${lines[j]}`;
      if (squash(text).includes(wanted)) {
        hits.push([i + 1, j + 1]);
        break;
      }
    }
  }
  // The tightest range per place: a window starting earlier and ending on the same line is the same place.
  const places = hits.filter(([, to], k) => (hits[k + 1]?.[1] ?? -1) !== to);
  if (places.length !== 1) throw new Error(`${file.docId}: quote found ${places.length} times: ${quote}`);
  return { lines: places[0] as [number, number] };
}

/** The deepest section whose own pages or lines hold the gold, and its title path. */
function sectionOf(
  tree: TreeDocument,
  gold: LibraryQuestion["gold"],
  quote: string,
): { node: TreeNode; path: string } | undefined {
  const at = "pages" in gold ? (gold.pages[0] as number) : gold.lines[0];
  const byId = new Map(tree.nodes.map((n) => [n.nodeId, n]));
  const holds = (n: TreeNode) =>
    "pages" in gold
      ? n.startPage !== undefined && at >= n.startPage && at <= (n.endPage ?? n.startPage)
      : n.startLine !== undefined && at >= n.startLine && at <= (n.endLine ?? n.startLine);
  // The section whose own text has the quote (another may share its page), the deepest first.
  const has = (n: TreeNode) => (squash(n.text).includes(squash(quote)) ? 1 : 0);
  const node = tree.nodes.filter(holds).sort((a, b) => has(b) - has(a) || b.level - a.level)[0];
  if (!node) return undefined;
  const path: string[] = [];
  for (let n: TreeNode | undefined = node; n; n = n.parentId ? byId.get(n.parentId) : undefined)
    path.unshift(n.title);
  return { node, path: path.join(" > ") };
}

/**
 * Drafts are written in batches; each batch's split is drawn on its own with its own seed, so
 * appending a batch never moves an earlier question between dev and validation. A batch with a
 * `split` puts all its questions there: the fourth batch is training data for a fitted document
 * ranker, so it goes to dev whole; the fifth is the holdout split, run by the lead alone, once a
 * session, because the validation questions have been run by every helper's variants since.
 */
const BATCHES: ReadonlyArray<{ from: number; seed: number; split?: LibraryQuestion["split"] }> = [
  { from: 0, seed: 2405 }, // the first 70 questions
  { from: 70, seed: 2411 }, // 60 more, drawn by sample.ts --seed 2411
  { from: 130, seed: 2412 }, // 60 more, drawn by sample.ts --seed 2412
  { from: 190, seed: 2413, split: "dev" }, // 60 more, drawn by sample.ts --seed 2413: all dev (training data)
  { from: 250, seed: 2414, split: "holdout" }, // 40 more, drawn by sample.ts --seed 2414: all holdout
];

/** Half of each batch each way, drawn per difficulty so both splits have easy questions. */
function drawSplits(questions: LibraryQuestion[], draftCount: number): void {
  const draftIndex = (q: LibraryQuestion) => Number(q.id.slice(1)) - 1;
  for (const [b, { from, seed, split }] of BATCHES.entries()) {
    const to = BATCHES[b + 1]?.from ?? draftCount;
    const batch = questions.filter((q) => draftIndex(q) >= from && draftIndex(q) < to);
    if (split) {
      for (const q of batch) q.split = split;
      continue;
    }
    const random = seededRandom(seed);
    for (const level of ["hard", "easy"]) {
      const ids = shuffled(
        batch.filter((q) => q.difficulty === level).map((q) => q.id),
        random,
      );
      ids.forEach((id, k) => {
        const q = batch.find((x) => x.id === id) as LibraryQuestion;
        q.split = k % 2 === 0 ? "dev" : "validation";
      });
    }
  }
}

/**
 * A question already in questions.json (same id, document, wording and gold) keeps the section
 * it was written from: the trees are rebuilt whenever the loader changes, and a new tree may
 * split or merge that section, which would rewrite a record of how the question was made.
 */
function keepWrittenSections(questions: LibraryQuestion[], file: string): void {
  if (!existsSync(file)) return;
  const written = (JSON.parse(readFileSync(file, "utf8")) as { questions: LibraryQuestion[] }).questions;
  const same = (a: LibraryQuestion, b: LibraryQuestion) =>
    a.docId === b.docId && a.question === b.question && JSON.stringify(a.gold) === JSON.stringify(b.gold);
  const byId = new Map(written.map((q) => [q.id, q]));
  for (const q of questions) {
    const earlier = byId.get(q.id);
    if (earlier && same(earlier, q)) q.section = earlier.section;
  }
}

async function main(): Promise<void> {
  const draftsFile = process.argv[2];
  if (!draftsFile) throw new Error("usage: make-questions.ts drafts.json");
  const drafts = JSON.parse(readFileSync(draftsFile, "utf8")) as Draft[];
  const files = libraryFiles();
  const byDoc = new Map(files.map((f) => [f.docId, f]));
  // Trees built so far (the background build may still run): word frequencies need no more.
  const trees = new Map((await libraryTrees(files.filter(libraryTreeCached))).map((t) => [t.docId, t]));
  // Document frequency of each word over every section of the library.
  const df = new Map<string, number>();
  let sections = 0;
  for (const tree of trees.values())
    for (const node of tree.nodes) {
      sections += 1;
      for (const w of words(`${node.title} ${node.text}`)) df.set(w, (df.get(w) ?? 0) + 1);
    }
  const questions: LibraryQuestion[] = [];
  const problems: string[] = [];
  for (const [i, [docId, question, quote, difficulty]] of drafts.entries()) {
    const file = byDoc.get(docId);
    const tree = trees.get(docId);
    if (!file || !tree) {
      problems.push(`${docId}: not in the library`);
      continue;
    }
    let gold: LibraryQuestion["gold"];
    try {
      gold = await locate(file, quote);
    } catch (error) {
      problems.push((error as Error).message);
      continue;
    }
    const section = sectionOf(tree, gold, quote);
    const asked = words(question);
    const titleShared = [...words(section?.node.title ?? "")].filter((w) => asked.has(w));
    const own = words(section?.node.text ?? "");
    const rare = [...asked].filter((w) => own.has(w) && (df.get(w) ?? 0) < sections * RARE);
    if (difficulty === "hard" && (titleShared.length > 1 || rare.length > 0))
      problems.push(
        `${docId}: "${question}" shares title words [${titleShared}] rare words [${rare.map((w) => `${w} (${df.get(w)})`)}]`,
      );
    questions.push({
      id: `q${String(i + 1).padStart(2, "0")}`,
      question,
      docId,
      file: `${file.pkg}/${file.path}`,
      gold,
      difficulty,
      split: "dev",
      section: section?.path ?? "",
    });
  }
  if (problems.length > 0) {
    for (const p of problems) console.log(`problem: ${p}`);
    process.exitCode = 1;
  }
  drawSplits(questions, drafts.length);
  const out = join(dirname(fileURLToPath(import.meta.url)), "questions.json");
  keepWrittenSections(questions, out);
  const header = {
    about:
      "Library dev set (issue 24, item 5): questions in users' words over the documents of scripts/library-devset/files.ts; gold = PDF pages holding the answer, or the Markdown lines of it (found from a quote, checked by reading). Made by make-questions.ts; evaluated by scripts/eval-library.ts.",
    validation:
      'THE "validation" SPLIT IS NEVER USED FOR TUNING: tune on "dev" only; run validation once to check a change.',
    holdout:
      'THE "holdout" SPLIT IS RUN BY THE LEAD ONLY, once per session at its end (eval-library.ts --split holdout); "--split all" is dev + validation.',
  };
  writeFileSync(out, `${JSON.stringify({ ...header, questions }, null, 2)}\n`);
  const count = (split: string, level: string) =>
    questions.filter((q) => q.split === split && q.difficulty === level).length;
  console.log(
    `${questions.length} questions: dev ${count("dev", "hard")} hard + ${count("dev", "easy")} easy, validation ${count("validation", "hard")} hard + ${count("validation", "easy")} easy, holdout ${count("holdout", "hard")} hard + ${count("holdout", "easy")} easy`,
  );
}

await main();
