/**
 * Are generated questions as hard as users' own? (issue 27, item 1.) On the library dev set
 * (scripts/library-devset: hand-written paraphrased questions with gold pages or lines), BM25
 * over chunks of the question's document — the `bm25 chunks` retriever of `pageindex eval` — is
 * scored on the dev split's hand-written questions and on questions generated from the same
 * documents, by the same rule for both: a hit when one of the first k chunks lies on a gold page
 * (PDF) or overlaps the gold lines (Markdown); a generated question's gold is its section's own
 * pages or lines. Also: the lexical difficulty (LexicalDifficulty: BM25 rank of the gold section
 * among every section of the library) of both sets.
 *
 * The generator is a real model behind an OpenAI-compatible URL (e.g. the llm-bridge, answered by
 * a person reading the prompts): `--model-url http://127.0.0.1:8771/v1`. Model answers are kept in
 * `--out`/model-cache.jsonl, so `--difficulty measure` (before: questions as written) and then
 * `--difficulty rewrite` (after: easy ones reworded) share every call they have in common.
 *
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/eval-generated-difficulty.ts
 *   --model-url URL [--count 24] [--seed 1] [--difficulty measure|rewrite] [--k 5] [--out DIR]
 *   [--hand-only]
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { DocumentInterface } from "@langchain/core/documents";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { TreeDocument } from "pageindex-core";
import {
  Bm25ChunkRetriever,
  chunkTree,
  EvalModel,
  generateQuestions,
  LexicalDifficulty,
  ModelAnswerCache,
  questionsToJsonl,
} from "pageindex-retriever/eval";
import { MemoryTreeReader } from "pageindex-store";
import { chatModelFromSpec } from "../packages/pageindex-cli/src/cli/model-spec.js";
import { type LibraryQuestion, libraryFiles, libraryTrees } from "./library-devset/library.js";

const HERE = dirname(fileURLToPath(import.meta.url));

function args() {
  const argv = process.argv.slice(2);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? undefined : argv[i + 1];
  };
  return {
    url: value("--model-url"),
    count: Number(value("--count") ?? 24),
    seed: Number(value("--seed") ?? 1),
    k: Number(value("--k") ?? 5),
    difficulty: (value("--difficulty") ?? "rewrite") as "measure" | "rewrite",
    out: value("--out") ?? join(HERE, "..", ".bench-out", "generated-difficulty"),
    handOnly: argv.includes("--hand-only"),
  };
}

/** Where an answer is, by the rule both sets are scored with. */
type Gold = { docId: string; pages: number[] } | { docId: string; lines: [number, number] };

/** Whether a chunk lies on a gold page or overlaps the gold lines. */
function hits(chunk: DocumentInterface, gold: Gold): boolean {
  const m = chunk.metadata as Record<string, unknown>;
  if (m.docId !== gold.docId) return false;
  if ("pages" in gold) {
    const from = typeof m.startPage === "number" ? m.startPage : undefined;
    const to = typeof m.endPage === "number" ? m.endPage : from;
    return from !== undefined && to !== undefined && gold.pages.some((p) => p >= from && p <= to);
  }
  const from = typeof m.startLine === "number" ? m.startLine : undefined;
  const to = typeof m.endLine === "number" ? m.endLine : from;
  return from !== undefined && to !== undefined && from <= gold.lines[1] && to >= gold.lines[0];
}

/** The gold of a generated question: its section's own pages (PDF) or own lines (Markdown). */
function sectionGold(tree: TreeDocument, nodeId: string): Gold | undefined {
  const node = tree.nodes.find((n) => n.nodeId === nodeId);
  if (!node) return undefined;
  const start = node.startPage;
  if (start !== undefined) {
    const end = node.ownEndPage ?? node.endPage ?? start;
    return { docId: tree.docId, pages: Array.from({ length: end - start + 1 }, (_, i) => start + i) };
  }
  if (node.startLine !== undefined)
    return { docId: tree.docId, lines: [node.startLine, node.ownEndLine ?? node.endLine ?? node.startLine] };
  return undefined;
}

/** The sections holding a hand-written question's gold (for its lexical difficulty). */
function goldSections(tree: TreeDocument, gold: Gold): Array<{ docId: string; nodeId: string }> {
  return tree.nodes
    .filter((n) => {
      if ("pages" in gold) {
        if (n.startPage === undefined) return false;
        const end = n.ownEndPage ?? n.endPage ?? n.startPage;
        return gold.pages.some((p) => p >= (n.startPage as number) && p <= end);
      }
      if (n.startLine === undefined) return false;
      const end = n.ownEndLine ?? n.endLine ?? n.startLine;
      return n.startLine <= gold.lines[1] && end >= gold.lines[0];
    })
    .map((n) => ({ docId: tree.docId, nodeId: n.nodeId }));
}

async function main() {
  const options = args();
  mkdirSync(options.out, { recursive: true });
  const file = join(HERE, "library-devset", "questions.json");
  const dev = (JSON.parse(readFileSync(file, "utf8")) as { questions: LibraryQuestion[] }).questions.filter(
    (q) => q.split === "dev",
  );
  const trees = await libraryTrees(libraryFiles(), false, () => {});
  const byId = new Map(trees.map((t) => [t.docId, t]));
  const docIds = [...new Set(dev.map((q) => q.docId))].filter((id) => byId.has(id));
  const reader = new MemoryTreeReader(trees);
  console.log(
    `library: ${trees.length} documents; dev split: ${dev.length} questions on ${docIds.length} documents`,
  );
  const difficulty = await LexicalDifficulty.fromReader(
    reader,
    trees.map((t) => t.docId),
  );
  console.log(`difficulty index: ${difficulty.size} sections`);

  const retrievers = new Map<string, Bm25ChunkRetriever>();
  const bm25For = (docId: string) => {
    let r = retrievers.get(docId);
    if (!r) {
      r = new Bm25ChunkRetriever({ documents: chunkTree(byId.get(docId) as TreeDocument), k: options.k });
      retrievers.set(docId, r);
    }
    return r;
  };
  const score = async (
    items: Array<{ question: string; gold: Gold; sections: Array<{ docId: string; nodeId: string }> }>,
  ) => {
    let hit = 0;
    const classes: Record<string, { n: number; hits: number }> = {};
    for (const item of items) {
      const chunks = await bm25For(item.gold.docId).invoke(item.question);
      const found = chunks.slice(0, options.k).some((c) => hits(c, item.gold));
      if (found) hit += 1;
      const d = difficulty.measure(item.question, item.sections).difficulty;
      classes[d] ??= { n: 0, hits: 0 };
      classes[d].n += 1;
      if (found) classes[d].hits += 1;
    }
    return { n: items.length, hit, rate: items.length ? (100 * hit) / items.length : 0, classes };
  };

  const hand = dev.map((q) => {
    const tree = byId.get(q.docId) as TreeDocument;
    const gold: Gold =
      "pages" in q.gold ? { docId: q.docId, pages: q.gold.pages } : { docId: q.docId, lines: q.gold.lines };
    return { question: q.question, gold, sections: goldSections(tree, gold) };
  });
  const handScore = await score(hand);
  const line = (name: string, s: Awaited<ReturnType<typeof score>>) =>
    `${name}: BM25 chunks hit@${options.k} ${s.hit}/${s.n} = ${s.rate.toFixed(0)} % · difficulty ${Object.entries(
      s.classes,
    )
      .map(([d, c]) => `${d} ${c.n} (${c.hits} hit)`)
      .join(", ")}`;
  console.log(line("hand-written (dev)", handScore));
  if (options.handOnly) return;
  if (!options.url) throw new Error("--model-url is needed to generate questions");

  const cache = await ModelAnswerCache.open(join(options.out, "model-cache.jsonl"));
  const runner = new EvalModel({
    model: (await chatModelFromSpec(`compatible:bridge@${options.url}`, {}))?.model as BaseChatModel,
    label: `compatible:bridge`,
    concurrency: 8,
    timeoutMs: 3_600_000,
    retries: 1,
    cache,
  });
  const started = performance.now();
  const set = await generateQuestions({
    runner,
    reader,
    docIds,
    libraryDocIds: trees.map((t) => t.docId),
    count: options.count,
    seed: options.seed,
    difficulty: options.difficulty,
    onProgress: ({ kept, tried }) =>
      process.stderr.write(`\rkept ${kept}/${options.count}, tried ${tried}   `),
  });
  process.stderr.write("\n");
  writeFileSync(
    join(options.out, `questions-${options.difficulty}.jsonl`),
    questionsToJsonl(set.questions, set.seed),
  );
  const generated = set.questions.map((q) => {
    const e = q.evidence[0];
    const tree = byId.get(e?.doc ?? "") as TreeDocument;
    return {
      question: q.question,
      gold: sectionGold(tree, e?.nodeId ?? "") as Gold,
      sections: [{ docId: tree.docId, nodeId: e?.nodeId ?? "" }],
    };
  });
  const genScore = await score(generated);
  console.log(
    `generated (${options.difficulty}): ${set.questions.length} kept of ${set.tried} tried; dropped ${JSON.stringify(set.dropped)}; rewritten ${set.rewritten}; boilerplate skipped ${set.skipped.boilerplate}; calls ${set.calls.made} made, ${set.calls.cached} cached; ${((performance.now() - started) / 1000).toFixed(0)} s`,
  );
  console.log(line(`generated (${options.difficulty})`, genScore));
  console.log(`gap: ${(genScore.rate - handScore.rate).toFixed(0)} points`);
  writeFileSync(
    join(options.out, `result-${options.difficulty}.json`),
    JSON.stringify(
      { k: options.k, hand: handScore, generated: genScore, set: { ...set, questions: undefined } },
      null,
      2,
    ),
  );
}

await main();
