/**
 * The library dev set (issue 24, item 5): a few hundred PDFs and Markdown files of Debian
 * documentation packages (scripts/library-devset/files.ts, fetched into ~/.cache/pageindex-devset,
 * never committed) in one folder store, and questions written in users' words
 * (scripts/library-devset/questions.json) with gold pages (PDF) or lines (Markdown).
 *
 * THE VALIDATION SPLIT IS NEVER USED FOR TUNING: tune on `--split dev` only; run `validation`
 * to check a change once it is made. `--split holdout`: questions written for the lead alone,
 * run once per session at its end (never by a helper, never tuned on); `--split all` is dev +
 * validation, as before the holdout questions existed, so earlier numbers stay comparable.
 *
 * For every question, in each setting:
 * - hit@3: one of the first 3 returned sections holds a gold page (metrics.ts's rule: the
 *   section's own pages unless returned with its subsections) or, in Markdown, a gold line
 *   (the section's own lines, by the same rule);
 * - right document in the top 3 (library-wide settings): the gold document is among the
 *   documents searched when at most 3 were, else among the first 3 of `lastRun.documentRanking`;
 * - with the oracle judge (scripts/oracle-judge.ts: a scripted chat model picking the offered
 *   sections, of the gold document, that hold the gold pages or lines): prompt tokens, model
 *   calls and sequential round trips per question.
 * Settings: document named (`docIds`) and library-wide (no document named; with the oracle,
 * `documentSelection: "llm"`), offline (no model) and with the oracle; plus the baseline plain
 * BM25 over every page of every document (Markdown: 40-line windows), top 3 pages.
 *
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/eval-library.ts
 *   [--split dev|validation|holdout|all] [--only TEXT] [--noise N] [--verbose] [--rebuild]
 *   [--model-url URL [--hard] [--concurrency N]] [--out FILE]
 *   [--postgres URL [--schema NAME] [--champion-rows N]]
 * `--postgres URL`: the library in a PostgreSQL store instead of the folder store (schema
 * `evallib_dev` unless `--schema` names another; stored once, kept while the trees are the same);
 * `--champion-rows N` gives its library index champion lists (built on open when it has none;
 * once built, every run reads them: use another schema to compare without). A new schema gets
 * lists by default; `--champion-rows 0` stores one without.
 * `--noise N`: the oracle also names N near misses a prompt (at score 0.2), as real models do.
 * `--model-url` adds two settings with a real model behind an OpenAI-compatible URL (e.g. the
 * llm-bridge of ../shared/tools, answered by capable models reading the prompts only): document
 * named and library-wide (`documentSelection: "llm"`); `--concurrency N` asks N questions at once
 * (one answerer each), `--hard` keeps the hard questions only.
 * `--only` keeps questions whose id or document id contains TEXT; `--ids q131-q190` those numbered
 * from 131 to 190 (one batch of drafts); `--rebuild` builds the trees
 * and the store again (by themselves, the trees are rebuilt when the loader or core code changes
 * in a commit, the store when the store or retriever code does). Writes .bench-out/eval-library.json (or `--out FILE`: two runs at once need two
 * files) and prints a table.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { Bm25Index, bm25Doc, tokenize, tokenizeQuery } from "pageindex-core";
import { PageIndexRetriever, type PageIndexRetrieverInput } from "pageindex-retriever";
import { chatModelFromSpec } from "../packages/pageindex-cli/src/cli/model-spec.js";
import { goldNumbers, holdsGold } from "./library-devset/gold.js";
import {
  inSplit,
  type LibraryFile,
  type LibraryQuestion,
  libraryFiles,
  libraryPostgresStore,
  libraryStore,
  libraryTrees,
} from "./library-devset/library.js";
import { type LibraryPage, libraryPages } from "./library-devset/pages.js";
import { OracleJudge } from "./oracle-judge.js";

const K = 3;
const HERE = dirname(fileURLToPath(import.meta.url));

/** `--ids q131-q190`: the questions numbered from A to B (a batch of drafts; `--only q1` would match q10-q199 too). */
function idRange(spec: string | undefined): ((id: string) => boolean) | undefined {
  if (spec === undefined) return undefined;
  const match = /^q(\d+)-q(\d+)$/.exec(spec);
  if (!match) throw new Error(`--ids takes a range such as q131-q190, got ${spec}`);
  const [from, to] = [Number(match[1]), Number(match[2])];
  return (id) => Number(id.slice(1)) >= from && Number(id.slice(1)) <= to;
}

function args() {
  const argv = process.argv.slice(2);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? undefined : argv[i + 1];
  };
  if (argv.includes("--help")) {
    console.log(
      "npx tsx scripts/eval-library.ts [--split dev|validation|holdout|all] [--only TEXT] [--ids qA-qB] [--noise N] [--verbose] [--rebuild]\n" +
        "  [--model-url URL [--hard] [--concurrency N]] [--out FILE]\n" +
        "  [--postgres URL [--schema NAME] [--champion-rows N]]\n" +
        "The validation split is never used for tuning: tune on dev, check on validation once.\n" +
        "--split holdout: the lead's questions, run once per session at its end (never by a helper);\n" +
        "--split all is dev + validation (not holdout), so earlier numbers stay comparable.",
    );
    process.exit(0);
  }
  const split = value("--split") ?? "dev";
  if (!["dev", "validation", "holdout", "all"].includes(split))
    throw new Error(`--split must be dev, validation, holdout or all, got ${split}`);
  return {
    split,
    only: value("--only"),
    ids: idRange(value("--ids")),
    noise: Number(value("--noise") ?? 0),
    verbose: argv.includes("--verbose"),
    rebuild: argv.includes("--rebuild"),
    modelUrl: value("--model-url"),
    hard: argv.includes("--hard"),
    concurrency: Math.max(1, Number(value("--concurrency") ?? 1)),
    out: value("--out") ?? join(".bench-out", "eval-library.json"),
    postgres: value("--postgres"),
    schema: value("--schema") ?? "evallib_dev",
    championRows: value("--champion-rows") === undefined ? undefined : Number(value("--champion-rows")),
  };
}

interface Outcome {
  hit: boolean;
  rightDoc?: boolean;
  promptTokens: number;
  calls: number;
  roundTrips: number;
  ms: number;
  top: string[];
}

interface Setting {
  name: string;
  named: boolean;
  oracle: boolean;
  /** A real model (`--model-url`) instead of the oracle. */
  real?: boolean;
  options: Partial<PageIndexRetrieverInput>;
}

const SETTINGS: Setting[] = [
  { name: "offline, document named", named: true, oracle: false, options: {} },
  { name: "offline, library-wide", named: false, oracle: false, options: {} },
  { name: "oracle, document named", named: true, oracle: true, options: {} },
  { name: "oracle, library-wide", named: false, oracle: true, options: { documentSelection: "llm" } },
];

const MODEL_SETTINGS: Setting[] = [
  // A person-paced model: no attempt times out (a retry would queue the same prompt twice).
  {
    name: "model, document named",
    named: true,
    oracle: false,
    real: true,
    options: { timeoutMs: 3_600_000 },
  },
  {
    name: "model, library-wide",
    named: false,
    oracle: false,
    real: true,
    options: { documentSelection: "llm", timeoutMs: 3_600_000 },
  },
];

/** Plain BM25 over every page of every document: the top 3 pages. */
function pageBaseline(pages: readonly LibraryPage[]) {
  const index = new Bm25Index(pages.map((p) => bm25Doc([{ terms: tokenize(p.text), weight: 1 }])));
  return (q: LibraryQuestion): Outcome => {
    const started = performance.now();
    const scores = index.scoreAll(tokenizeQuery(q.question));
    const top = scores
      .map((score, i) => ({ score, i }))
      .filter((s) => s.score > 0)
      .sort((a, b) => b.score - a.score)
      .slice(0, K)
      .map((s) => pages[s.i] as LibraryPage);
    const gold = goldNumbers(q);
    const hit = top.some((p) => p.docId === q.docId && gold.some((n) => n >= p.from && n <= p.to));
    const docs = [...new Set(top.map((p) => p.docId))];
    return {
      hit,
      rightDoc: docs.includes(q.docId),
      promptTokens: 0,
      calls: 0,
      roundTrips: 0,
      ms: performance.now() - started,
      top: top.map((p) => `${p.docId}:${p.from}`),
    };
  };
}

interface Summary {
  questions: number;
  hit3: number;
  rightDoc3?: number;
  promptTokens: number;
  calls: number;
  roundTrips: number;
  msPerQuery: number;
}

function summarise(outcomes: readonly Outcome[]): Summary {
  const mean = (f: (o: Outcome) => number) =>
    outcomes.length === 0 ? 0 : outcomes.reduce((s, o) => s + f(o), 0) / outcomes.length;
  const withDoc = outcomes.filter((o) => o.rightDoc !== undefined);
  return {
    questions: outcomes.length,
    hit3: outcomes.filter((o) => o.hit).length,
    ...(withDoc.length > 0 ? { rightDoc3: withDoc.filter((o) => o.rightDoc).length } : {}),
    promptTokens: mean((o) => o.promptTokens),
    calls: mean((o) => o.calls),
    roundTrips: mean((o) => o.roundTrips),
    msPerQuery: mean((o) => o.ms),
  };
}

async function main(): Promise<void> {
  const {
    split,
    only,
    ids,
    noise,
    verbose,
    rebuild,
    modelUrl,
    hard,
    concurrency,
    out,
    postgres,
    schema,
    championRows,
  } = args();
  const file = join(HERE, "library-devset", "questions.json");
  const all = (JSON.parse(readFileSync(file, "utf8")) as { questions: LibraryQuestion[] }).questions;
  const questions = all.filter(
    (q) =>
      inSplit(q, split) &&
      (!only || q.id.includes(only) || q.docId.includes(only)) &&
      (!ids || ids(q.id)) &&
      (!hard || q.difficulty === "hard"),
  );
  const real = modelUrl
    ? ((await chatModelFromSpec(`compatible:bridge@${modelUrl}`, {}))?.model as BaseChatModel)
    : undefined;
  const settings = real ? [...SETTINGS, ...MODEL_SETTINGS] : SETTINGS;
  const files = libraryFiles();
  const started = performance.now();
  const trees = await libraryTrees(files, rebuild);
  const treesMs = performance.now() - started;
  const {
    store,
    dir,
    built,
    ms: storeMs,
  } = postgres
    ? await libraryPostgresStore(trees, postgres, {
        schema,
        rebuild,
        ...(championRows !== undefined ? { championRows } : {}),
      })
    : await libraryStore(trees, rebuild);
  const stored = new Set(trees.map((t) => t.docId));
  const missing = questions.filter((q) => !stored.has(q.docId));
  if (missing.length > 0)
    throw new Error(`documents not in the library: ${missing.map((q) => `${q.id} ${q.docId}`).join(", ")}`);
  console.log(
    `${trees.length} documents (${trees.filter((t) => t.kind === "pdf").length} PDF, ` +
      `${trees.filter((t) => t.kind !== "pdf").length} Markdown); trees ${(treesMs / 1000).toFixed(0)} s, ` +
      `store ${built ? "built" : "reused"} in ${(storeMs / 1000).toFixed(0)} s (${dir}); ` +
      `${questions.length} questions (split ${split})`,
  );

  const pagesStarted = performance.now();
  const pages: LibraryPage[] = [];
  for (const f of files as LibraryFile[])
    if (stored.has(f.docId)) pages.push(...((await libraryPages(f)) ?? []));
  const baseline = pageBaseline(pages);
  console.log(
    `baseline: ${pages.length} pages indexed in ${((performance.now() - pagesStarted) / 1000).toFixed(0)} s`,
  );

  const oracle = new OracleJudge({ noise });
  for (const q of questions) {
    oracle.gold.set(q.question, goldNumbers(q));
    const tree = trees.find((t) => t.docId === q.docId);
    oracle.goldDoc.set(q.question, { docId: q.docId, docName: tree?.docName ?? q.docId });
  }
  const results: Record<string, Record<string, Outcome>> = {};
  const evalStarted = performance.now();
  const ask = async (q: LibraryQuestion) => {
    const row: Record<string, Outcome> = { "plain BM25 over all pages": baseline(q) };
    for (const setting of settings) {
      const retriever = new PageIndexRetriever({
        reader: store,
        cache: false,
        ...(setting.oracle ? { model: oracle } : {}),
        ...(setting.real && real ? { model: real } : {}),
        ...setting.options,
        ...(setting.named ? { docIds: [q.docId] } : {}),
      });
      const t0 = performance.now();
      const docs = await retriever.invoke(q.question);
      const ms = performance.now() - t0;
      const run = retriever.lastRun;
      const searched = run?.docIds ?? [];
      const ranking = run?.documentRanking?.map((r) => r.docId) ?? [];
      const rightDoc = setting.named
        ? undefined
        : searched.length <= K
          ? searched.includes(q.docId)
          : ranking.slice(0, K).includes(q.docId);
      row[setting.name] = {
        hit: docs.slice(0, K).some((d) => holdsGold(d, q)),
        ...(rightDoc === undefined ? {} : { rightDoc }),
        promptTokens: run?.stats.promptTokens ?? 0,
        calls: run?.stats.calls ?? 0,
        roundTrips: run?.stats.roundTrips ?? 0,
        ms,
        top: docs
          .slice(0, K)
          .map((d) => `${d.metadata.docId}:${d.metadata.startPage ?? `l${d.metadata.startLine}`}`),
      };
    }
    results[q.id] = row;
    if (verbose) {
      const marks = Object.entries(row)
        .map(([name, o]) => `${o.hit ? "HIT " : "miss"}${o.rightDoc === false ? "(doc)" : ""} ${name}`)
        .join(" | ");
      console.log(`${q.id} [${q.split}/${q.difficulty}] ${q.docId}: ${marks}`);
      if (!row["offline, library-wide"]?.hit)
        console.log(`    offline library-wide top: ${row["offline, library-wide"]?.top.join(", ")}`);
    }
  };
  // Questions asked `concurrency` at a time (a real model answers slowly; order kept in results).
  let next = 0;
  const worker = async () => {
    while (next < questions.length) await ask(questions[next++] as LibraryQuestion);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, questions.length) }, worker));
  const evalMs = performance.now() - evalStarted;

  const names = ["plain BM25 over all pages", ...settings.map((s) => s.name)];
  const groups: Array<[string, LibraryQuestion[]]> = [];
  for (const s of split === "all" ? ["dev", "validation"] : [split]) {
    const members = questions.filter((q) => q.split === s);
    groups.push(
      [s, members],
      [`${s} hard`, members.filter((q) => q.difficulty === "hard")],
      [`${s} easy`, members.filter((q) => q.difficulty === "easy")],
    );
  }
  if (split === "all") groups.push(["all", questions]);
  const report: Record<string, Record<string, Summary>> = {};
  for (const [group, qs] of groups) {
    report[group] = Object.fromEntries(
      names.map((name) => [name, summarise(qs.map((q) => results[q.id]?.[name] as Outcome))]),
    );
  }
  for (const [group, rows] of Object.entries(report)) {
    const n = Object.values(rows)[0]?.questions ?? 0;
    if (n === 0) continue;
    console.log(`\n${group} (${n} questions)`);
    console.log(
      `| setting | hit@${K} | right document in top ${K} | prompt tokens | calls | round trips | ms/query |\n| --- | ---: | ---: | ---: | ---: | ---: | ---: |`,
    );
    for (const [name, s] of Object.entries(rows)) {
      console.log(
        `| ${name} | ${s.hit3}/${n} | ${s.rightDoc3 === undefined ? "–" : `${s.rightDoc3}/${n}`} | ` +
          `${s.promptTokens ? s.promptTokens.toFixed(0) : "–"} | ${s.calls ? s.calls.toFixed(2) : "–"} | ` +
          `${s.roundTrips ? s.roundTrips.toFixed(2) : "–"} | ${s.msPerQuery.toFixed(0)} |`,
      );
    }
  }
  console.log(`\nevaluation ${(evalMs / 1000).toFixed(0)} s for ${questions.length} questions`);
  mkdirSync(dirname(resolve(out)), { recursive: true });
  writeFileSync(
    resolve(out),
    `${JSON.stringify(
      {
        split,
        documents: trees.length,
        timings: { treesMs, storeMs, storeBuilt: built, evalMs },
        summary: report,
        questions: results,
      },
      null,
      2,
    )}\n`,
  );
}

await main();
