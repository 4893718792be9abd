/**
 * What one question costs, by depth rather than width (issue 17): the largest prompt, prompt
 * tokens per question, model calls, sequential round trips and hit@3, before (`expand` as it was:
 * every child of a level listed in one prompt, no prompt budget) and after (the default `auto`:
 * the whole table of contents where it fits `maxPromptTokens`, otherwise outline prompts of at
 * most `fanOut` entries a level that look ahead within `lookaheadTokens`), with
 * - an oracle judge: a scripted chat model that reads the prompts this retriever sends (outline,
 *   expansion and single-shot formats) and picks exactly the offered sections and groups whose
 *   pages hold a gold page;
 * - the offline judge (BM25, no model): hit@3 only (it sends no prompts; without a model `auto`
 *   is `expand`, so before and after are the same search).
 *
 * "Before" is the current code with the new bounds switched off (`strategy: "expand"`,
 * `fanOut`, `maxPromptTokens` and `maxQueryTokens` at 1e9): a level no wider than `fanOut` and a
 * prompt under `maxPromptTokens` are judged by the unchanged expansion code, so this is the
 * previous default's behaviour.
 *
 * Sets:
 * - `manual`: reference manuals from Debian documentation packages, fetched with
 *   `apt-get download` into the OS temp folder (never committed): Erlang/OTP's wx reference
 *   (erlang-doc, 983 pages, one level of 940 children) and GAP's reference manual (gap-doc,
 *   1,483 pages). Questions are generated from random sections (seeded): gold = the section's pages.
 * - `wide`: a generated tree with one level of 10,000 siblings (each with two subsections).
 * - `filings`: FinanceBench 10-K filings and their questions (../shared/corpus; skipped with a
 *   message when absent).
 *
 * Run: pnpm run build && npx tsx scripts/bench-cost.ts [--set manual|wide|filings|all]
 *      [--questions 30] [--seed 7] [--k 3] [--rebuild] [--configs after] [--lookahead-tokens 2000]
 *      [--noise 2] [--verbose]
 * Writes .bench-out/bench-cost-<set>.json.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { Document } from "@langchain/core/documents";
import { countTokens, createTree, type NodeDraft, renderToc, type TreeDocument } from "pageindex-core";
import {
  type PageIndexDocumentMetadata,
  PageIndexRetriever,
  type PageIndexRetrieverInput,
} from "pageindex-retriever";
import { option } from "./cli-option.js";
import { CORPUS_DIR, financeBenchQuestions } from "./corpus.js";
import { OracleJudge } from "./oracle-judge.js";
import { rng } from "./random.js";
import { cachedPdfTree, docIdOf } from "./tree-cache.js";

// ---------------------------------------------------------------- options
const SET = option("set", "all");
const PER_DOC = Number(option("questions", "30"));
const SEED = Number(option("seed", "7"));
const K = Number(option("k", "3"));
const REBUILD = process.argv.includes("--rebuild");
/** Only the configurations whose name contains this (e.g. `after`). */
const ONLY = option("configs", "");
/** `lookaheadTokens` for the `after` configuration (default: the retriever's). */
const LOOKAHEAD = option("lookahead-tokens", "");
/**
 * Simulated judge: besides the sections that hold the answer, the oracle also lists this many
 * other offered entries at score 0.2 (as a real model lists near misses), chosen by a hash of
 * the question and the entry, to measure what weak picks cost (`weakBranchScore`).
 */
const NOISE = Number(option("noise", "0"));
/** Print every question's cost and what each of its prompts opened. */
const VERBOSE = process.argv.includes("--verbose");
const CACHE = "pageindex-bench-cost";

interface Question {
  id: string;
  docId: string;
  question: string;
  /** 1-based pages that answer it. */
  pages: number[];
}

// ---------------------------------------------------------------- scoring
/** Whether a returned section's own pages (a subtree's when returned whole) hold a gold page. */
function hits(docs: Document<PageIndexDocumentMetadata>[], q: Question): boolean {
  return docs.slice(0, K).some((d) => {
    const m = d.metadata;
    if (m.docId !== q.docId || m.startPage === undefined) return false;
    const internal = (m.childIds?.length ?? 0) > 0 && !m.includesDescendants;
    const end = internal ? (m.ownEndPage ?? m.startPage) : (m.endPage ?? m.startPage);
    return q.pages.some((p) => p >= (m.startPage as number) && p <= end);
  });
}

interface PerQuestion {
  hit: boolean;
  calls: number;
  roundTrips: number;
  tokens: number;
  largest: number;
  stop: boolean;
}

interface Row {
  set: string;
  config: string;
  questions: number;
  hitAtK: number;
  calls: number;
  roundTrips: number;
  maxRoundTrips: number;
  promptTokens: number;
  maxPromptTokensPerQuestion: number;
  largestPrompt: number;
  budgetStops: number;
  perQuestion: PerQuestion[];
}

const mean = (xs: number[]) => xs.reduce((a, b) => a + b, 0) / Math.max(1, xs.length);

function summarise(set: string, config: string, per: PerQuestion[]): Row {
  return {
    set,
    config,
    questions: per.length,
    hitAtK: per.filter((p) => p.hit).length,
    calls: mean(per.map((p) => p.calls)),
    roundTrips: mean(per.map((p) => p.roundTrips)),
    maxRoundTrips: Math.max(0, ...per.map((p) => p.roundTrips)),
    promptTokens: mean(per.map((p) => p.tokens)),
    maxPromptTokensPerQuestion: Math.max(0, ...per.map((p) => p.tokens)),
    largestPrompt: Math.max(0, ...per.map((p) => p.largest)),
    budgetStops: per.filter((p) => p.stop).length,
    perQuestion: per,
  };
}

const CONFIGS: Record<string, Partial<PageIndexRetrieverInput>> = {
  "before (expand, unbounded)": {
    strategy: "expand",
    fanOut: 1e9,
    maxPromptTokens: 1e9,
    maxQueryTokens: 1e15,
    weakBranchScore: 0,
  },
  "after (auto, defaults)": LOOKAHEAD ? { lookaheadTokens: Number(LOOKAHEAD) } : {},
  "expand now (grouped, bounded)": { strategy: "expand" },
  // Weak picks opened like strong ones (as before issue 14), to measure what they cost.
  ...(NOISE > 0
    ? {
        "after, every pick opened": { weakBranchScore: 0 },
        "expand now, every pick opened": { strategy: "expand", weakBranchScore: 0 },
      }
    : {}),
};

async function measure(set: string, trees: TreeDocument[], questions: Question[]): Promise<Row[]> {
  const rows: Row[] = [];
  const oracle = new OracleJudge({ noise: NOISE });
  for (const q of questions) oracle.gold.set(q.question, q.pages);
  for (const [config, options] of Object.entries(CONFIGS).filter(([name]) => name.includes(ONLY))) {
    const retriever = new PageIndexRetriever({ trees, model: oracle, k: K, cache: false, ...options });
    const per: PerQuestion[] = [];
    for (const q of questions) {
      oracle.reset();
      const docs = await retriever.invoke(q.question);
      const stats = retriever.lastRun?.stats;
      per.push({
        hit: hits(docs, q),
        calls: stats?.calls ?? 0,
        roundTrips: stats?.roundTrips ?? 0,
        tokens: oracle.prompts.reduce((a, b) => a + b, 0),
        largest: Math.max(0, ...oracle.prompts),
        stop: stats?.budgetExhausted ?? false,
      });
      if (VERBOSE) {
        const p = per.at(-1) as PerQuestion;
        console.log(
          `  ${p.hit ? "HIT " : "miss"} ${q.id} p${q.pages.join(",")} calls ${p.calls} rt ${p.roundTrips} tokens ${p.tokens}`,
        );
        for (const [i, o] of oracle.opened.entries())
          console.log(`      ${oracle.prompts[i]} ${o.slice(0, 110)}`);
      }
    }
    rows.push(summarise(set, config, per));
    print(rows.at(-1) as Row);
  }
  const offline = new PageIndexRetriever({ trees, k: K, cache: false });
  const per: PerQuestion[] = [];
  for (const q of questions) {
    const hit = hits(await offline.invoke(q.question), q);
    per.push({ hit, calls: 0, roundTrips: 0, tokens: 0, largest: 0, stop: false });
  }
  rows.push(summarise(set, OFFLINE, per));
  print(rows.at(-1) as Row);
  return rows;
}

const OFFLINE = "offline judge (before = after)";

/**
 * Rows over several documents: those whose whole table of contents went into one prompt (every
 * `auto` question took one call: it is sent only when it fits) and the others.
 */
function byFit(set: string, rows: readonly Row[]): Row[] {
  const docs = [...new Set(rows.map((r) => r.set))];
  const fits = (doc: string) =>
    rows.some(
      (r) => r.set === doc && r.config.startsWith("after") && r.perQuestion.every((p) => p.calls === 1),
    );
  const out: Row[] = [];
  for (const [label, members] of [
    ["TOC fits", docs.filter(fits)],
    ["TOC does not fit", docs.filter((d) => !fits(d))],
  ] as const) {
    if (members.length === 0) continue;
    console.log(`\n### ${set}, ${label}: ${members.join(", ")}`);
    for (const config of [...Object.keys(CONFIGS), OFFLINE]) {
      const per = rows
        .filter((r) => members.includes(r.set) && r.config === config)
        .flatMap((r) => r.perQuestion);
      if (per.length === 0) continue;
      out.push(summarise(`${set} (${label})`, config, per));
      print(out.at(-1) as Row);
    }
  }
  return out;
}

function print(r: Row): void {
  console.log(
    `${r.set.padEnd(22)} ${r.config.padEnd(30)} hit@${K} ${String(r.hitAtK).padStart(3)}/${r.questions}` +
      `  calls ${r.calls.toFixed(2).padStart(6)}  round trips ${r.roundTrips.toFixed(2).padStart(5)} (max ${r.maxRoundTrips})` +
      `  prompt tokens/q ${Math.round(r.promptTokens).toLocaleString("en").padStart(9)} (max ${Math.round(r.maxPromptTokensPerQuestion).toLocaleString("en")})` +
      `  largest prompt ${r.largestPrompt.toLocaleString("en").padStart(9)}${r.budgetStops ? `  budget stops ${r.budgetStops}` : ""}`,
  );
}

/** Retrievers search every tree they hold: measure one document at a time. */
async function measurePerDocument(set: string, trees: TreeDocument[], questions: Question[]): Promise<Row[]> {
  const rows: Row[] = [];
  for (const tree of trees) {
    const mine = questions.filter((q) => q.docId === tree.docId);
    if (mine.length === 0) continue;
    const toc = countTokens(renderToc(tree));
    console.log(
      `\n### ${set}: ${tree.docId} (${tree.pageCount} pages, ${tree.nodes.length} sections, TOC ${toc} tokens without summaries), ${mine.length} questions`,
    );
    rows.push(...(await measure(`${set}/${tree.docId}`, [tree], mine)));
  }
  return rows;
}

// ---------------------------------------------------------------- question sets
/** Questions aimed at random leaf sections: gold = the section's pages. */
function sectionQuestions(tree: TreeDocument, n: number, random: () => number): Question[] {
  const byId = new Map(tree.nodes.map((node) => [node.nodeId, node]));
  const leaves = tree.nodes.filter((node) => node.childIds.length === 0 && node.startPage !== undefined);
  const out: Question[] = [];
  const used = new Set<string>();
  while (out.length < Math.min(n, leaves.length)) {
    const leaf = leaves[Math.floor(random() * leaves.length)];
    if (!leaf || used.has(leaf.nodeId)) continue;
    used.add(leaf.nodeId);
    const parent = leaf.parentId ? byId.get(leaf.parentId) : undefined;
    const start = leaf.startPage as number;
    const end = leaf.endPage ?? start;
    out.push({
      id: `${tree.docId}-${leaf.nodeId}`,
      docId: tree.docId,
      question: `What does the manual say about ${leaf.title}${parent ? ` in ${parent.title}` : ""}? [${out.length + 1}]`,
      pages: Array.from({ length: end - start + 1 }, (_, i) => start + i),
    });
  }
  return out;
}

/** A Debian documentation package's file, fetched with `apt-get download` (cached in temp). */
function debianFile(pkg: string, pattern: RegExp): string | undefined {
  const dir = join(tmpdir(), CACHE, pkg);
  const find = (root: string): string | undefined => {
    if (!existsSync(root)) return undefined;
    for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
      const path = join(entry.parentPath, entry.name);
      if (entry.isFile() && pattern.test(path)) return path;
    }
    return undefined;
  };
  const cached = find(join(dir, "x"));
  if (cached) return cached;
  try {
    mkdirSync(dir, { recursive: true });
    execFileSync("apt-get", ["download", pkg], { cwd: dir, stdio: "ignore" });
    const deb = readdirSync(dir).find((f) => f.startsWith(`${pkg}_`) && f.endsWith(".deb"));
    if (!deb) throw new Error("no .deb downloaded");
    execFileSync("dpkg-deb", ["-x", join(dir, deb), join(dir, "x")]);
    return find(join(dir, "x"));
  } catch (error) {
    console.log(`could not fetch ${pkg} with apt-get download (${(error as Error).message}): skipped`);
    return undefined;
  }
}

async function manuals(): Promise<Row[]> {
  const pdfs = [
    debianFile("erlang-doc", /\/wx-[\d.]+\.pdf$/),
    debianFile("gap-doc", /\/doc\/ref\/manual\.pdf$/),
  ].filter((p): p is string => p !== undefined);
  const random = rng(SEED);
  const trees: TreeDocument[] = [];
  for (const pdf of pdfs) {
    const tree = await cachedPdfTree(pdf, CACHE, REBUILD);
    // Both PDFs are called after their package's layout (wx-2.2.1, manual): name them.
    trees.push({ ...tree, docId: pdf.includes("gap") ? "gap-reference-manual" : "erlang-wx-reference" });
  }
  const questions = trees.flatMap((t) => sectionQuestions(t, PER_DOC, random));
  return measurePerDocument("manual", trees, questions);
}

async function wide(): Promise<Row[]> {
  const width = 10_000;
  const sections: NodeDraft[] = Array.from({ length: width }, (_, i) => {
    const page = 3 + i * 2;
    return {
      title: `Entry ${i + 1}`,
      startPage: page,
      ownEndPage: page,
      text: `Entry ${i + 1} introduction.`,
      tokenCount: 80,
      children: [
        { title: "Arguments", startPage: page, endPage: page, text: "Arguments.", tokenCount: 200 },
        { title: "Examples", startPage: page + 1, endPage: page + 1, text: "Examples.", tokenCount: 200 },
      ],
    };
  });
  const tree = createTree(
    {
      docId: "wide-10000",
      docName: "Generated reference with 10,000 entries",
      kind: "pdf",
      pageCount: 2 + width * 2,
      build: { loader: "bench", structure: "outline" },
    },
    [
      { title: "Preface", startPage: 1, endPage: 2, text: "About this reference." },
      { title: "Entries", startPage: 3, ownEndPage: 3, text: "", children: sections },
    ],
  );
  const random = rng(SEED);
  const questions = sectionQuestions(tree, Math.min(PER_DOC, 20), random);
  return measurePerDocument("wide", [tree], questions);
}

async function filings(): Promise<Row[]> {
  const dir = join(CORPUS_DIR, "financebench");
  if (!existsSync(dir)) {
    console.log(`Corpus not found at ${dir}: the filings set is skipped.`);
    return [];
  }
  const raw = financeBenchQuestions(dir);
  const names = [...new Set(raw.map((q) => q.doc))];
  const trees = await Promise.all(
    names.map((n) => cachedPdfTree(join(dir, "pdfs", `${n}.pdf`), CACHE, REBUILD)),
  );
  const questions = raw.map((q) => ({
    id: q.id,
    docId: docIdOf(q.doc),
    question: q.question.replace(/\s+/g, " "),
    pages: q.pages,
  }));
  const rows = await measurePerDocument("filings", trees, questions);
  return [...rows, ...byFit("filings", rows)];
}

async function main() {
  const rows: Row[] = [];
  if (SET === "all" || SET === "wide") rows.push(...(await wide()));
  if (SET === "all" || SET === "filings") rows.push(...(await filings()));
  if (SET === "all" || SET === "manual") rows.push(...(await manuals()));
  const out = resolve(".bench-out");
  mkdirSync(out, { recursive: true });
  writeFileSync(
    join(out, `bench-cost-${SET}.json`),
    `${JSON.stringify({ k: K, seed: SEED, rows }, null, 2)}\n`,
  );
  console.log(`\nwrote ${join(out, `bench-cost-${SET}.json`)}`);
}

await main();
