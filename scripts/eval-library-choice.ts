/**
 * Document choice from section evidence (issue 24, item 3), before/after, over every document of
 * ../shared/corpus (FinanceBench filings, PageIndex's reference PDFs, the Markdown
 * specifications) with the FinanceBench and held-out reference questions:
 * - before: the trees in a `MemoryTreeReader` (the catalog path: cards, re-ranking by sections,
 *   `documentMargin`'s lexical shortcut);
 * - after: the same trees in the test-support `SectionLibraryReader`, a `LibraryReader` whose
 *   `searchLibrary` ranks every section by plain BM25 (the stand-in used before the store's
 *   library index landed): candidates from the sections, one library prompt with a model.
 * - store: the same trees in a folder store, whose SQLite section index (field weights, length
 *   prior) is what users get.
 * Each asked library-wide and with the document named, offline and with the oracle judge (which
 * knows the answer's document and pages; `--noise 2` adds near misses). Reported per setting:
 * right document in the top 3, hit@3, prompt tokens, calls and sequential round trips per question.
 *
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/eval-library-choice.ts
 *      [--corpus ../shared/corpus] [--noise 2] [--only <setting substring>] [--verbose]
 * Writes .bench-out/eval-library-choice.json.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TreeDocument, TreeReader } from "pageindex-core";
import { MarkdownTreeLoader } from "pageindex-loader";
import { MemoryTreeReader, PageIndexStore } from "pageindex-store";
import { SectionLibraryReader } from "../packages/pageindex-retriever/test/support/library-reader.js";
import { option } from "./cli-option.js";
import { CORPUS_DIR } from "./corpus.js";
import { financeBench, firstHit, type Question, reference } from "./eval-offline-judge.js";
import { OracleJudge } from "./oracle-judge.js";
import { docIdOf } from "./tree-cache.js";

// The retriever under test: this checkout's sources (the built package may be older).
const { PageIndexRetriever } = await import("../packages/pageindex-retriever/src/index.js");
type Input = ConstructorParameters<typeof PageIndexRetriever>[0];

const CORPUS = resolve(option("corpus", CORPUS_DIR));
const NOISE = Number(option("noise", "0"));
const ONLY = option("only", "");
const VERBOSE = process.argv.includes("--verbose");
const K = 3;

interface Setting {
  name: string;
  reader: "before" | "after" | "store";
  model: boolean;
  named?: boolean;
  options?: Partial<Input>;
}

const SETTINGS: Setting[] = [
  { name: "named, offline", reader: "after", model: false, named: true },
  { name: "before, offline (all)", reader: "before", model: false },
  { name: "after, offline", reader: "after", model: false },
  { name: "after, offline, no margin", reader: "after", model: false, options: { documentMargin: Infinity } },
  { name: "after, offline, 1 document", reader: "after", model: false, options: { maxDocuments: 1 } },
  { name: "named, oracle", reader: "after", model: true, named: true },
  { name: "before, oracle (all)", reader: "before", model: true },
  { name: "before, oracle (llm)", reader: "before", model: true, options: { documentSelection: "llm" } },
  { name: "after, oracle", reader: "after", model: true },
  { name: "after, oracle, maxDocuments 1", reader: "after", model: true, options: { maxDocuments: 1 } },
  { name: "store, named, offline", reader: "store", model: false, named: true },
  { name: "store, offline", reader: "store", model: false },
  { name: "store, named, oracle", reader: "store", model: true, named: true },
  { name: "store, oracle", reader: "store", model: true },
];

interface Row {
  setting: string;
  questions: number;
  hit3: number;
  rightDocTop3: number;
  promptTokens: number;
  calls: number;
  roundTrips: number;
  misses: string[];
}

async function measure(
  setting: Setting,
  readers: Record<Setting["reader"], TreeReader>,
  questions: Question[],
  names: Map<string, string>,
): Promise<Row> {
  const oracle = new OracleJudge({ noise: NOISE });
  for (const q of questions) {
    oracle.gold.set(q.question, q.pages);
    oracle.goldDocs.set(q.question, names.get(docIdOf(q.doc)) as string);
  }
  let hit = 0;
  let rightDoc = 0;
  let tokens = 0;
  let calls = 0;
  let roundTrips = 0;
  const misses: string[] = [];
  for (const q of questions) {
    const docId = docIdOf(q.doc);
    oracle.reset();
    const retriever = new PageIndexRetriever({
      reader: readers[setting.reader],
      k: 10,
      cache: false,
      ...(setting.model ? { model: oracle } : {}),
      ...setting.options,
      ...(setting.named ? { docIds: [docId] } : {}),
    });
    const docs = await retriever.invoke(q.question);
    const rank = firstHit(docs, q);
    if (rank > 0 && rank <= K) hit += 1;
    const ranked = retriever.lastRun?.documentRanking?.map((r) => r.docId) ?? [
      ...new Set(docs.map((d) => d.metadata.docId)),
    ];
    const right = ranked.slice(0, K).includes(docId);
    if (right) rightDoc += 1;
    const stats = retriever.lastRun?.stats;
    const qTokens = oracle.prompts.reduce((a, b) => a + b, 0);
    tokens += qTokens;
    calls += stats?.calls ?? 0;
    roundTrips += stats?.roundTrips ?? 0;
    if (!right || !(rank > 0 && rank <= K)) {
      misses.push(
        `${q.id} (${q.doc} p${q.pages.join(",")}): ${right ? "right document" : `top ${ranked.slice(0, K).join(", ")}`}, hit rank ${rank}`,
      );
    }
    if (VERBOSE) {
      console.log(
        `  ${rank > 0 && rank <= K ? "HIT " : "miss"} ${right ? "doc" : "   "} ${q.id} calls ${stats?.calls ?? 0} rt ${stats?.roundTrips ?? 0} tokens ${qTokens} searched ${retriever.lastRun?.docIds.join(",")}`,
      );
      for (const [i, o] of oracle.opened.entries())
        console.log(`      ${oracle.prompts[i]} ${o.slice(0, 100)}`);
    }
  }
  const n = questions.length;
  return {
    setting: setting.name,
    questions: n,
    hit3: hit,
    rightDocTop3: rightDoc,
    promptTokens: tokens / n,
    calls: calls / n,
    roundTrips: roundTrips / n,
    misses,
  };
}

async function main(): Promise<void> {
  const fb = await financeBench(CORPUS);
  const ref = await reference(CORPUS);
  const markdownDir = join(CORPUS, "markdown");
  const markdown = await Promise.all(
    readdirSync(markdownDir)
      .filter((f) => f.endsWith(".md") && f !== "README.md")
      .map((f) => new MarkdownTreeLoader(join(markdownDir, f)).loadTree()),
  );
  const trees: TreeDocument[] = [...fb.trees, ...ref.trees, ...markdown];
  const questions: Question[] = [...fb.questions, ...ref.questions];
  const names = new Map(trees.map((t) => [t.docId, t.docName]));
  // The folder store: its SQLite section index is what users get (the stand-in above ranks by
  // plain BM25, without the store's field weights and length prior).
  const storeDir = mkdtempSync(join(tmpdir(), "eval-library-choice-"));
  const store = await PageIndexStore.fromPath(storeDir);
  for (const tree of trees) await store.addTree(tree);
  const readers = {
    before: new MemoryTreeReader(trees),
    after: new SectionLibraryReader(trees),
    store: store as TreeReader,
  };
  console.log(`${trees.length} documents, ${questions.length} questions, oracle noise ${NOISE}`);
  const rows: Row[] = [];
  for (const setting of SETTINGS.filter((s) => s.name.includes(ONLY))) {
    const row = await measure(setting, readers, questions, names);
    rows.push(row);
    console.log(
      `${row.setting.padEnd(34)} right doc top ${K} ${String(row.rightDocTop3).padStart(2)}/${row.questions}  hit@${K} ${String(row.hit3).padStart(2)}/${row.questions}` +
        `  prompt tokens/q ${Math.round(row.promptTokens).toString().padStart(6)}  calls ${row.calls.toFixed(2)}  round trips ${row.roundTrips.toFixed(2)}`,
    );
    if (VERBOSE) for (const m of row.misses) console.log(`    ${m}`);
  }
  const bench = resolve(".bench-out");
  mkdirSync(bench, { recursive: true });
  writeFileSync(
    join(bench, "eval-library-choice.json"),
    `${JSON.stringify({ noise: NOISE, rows }, null, 2)}\n`,
  );
  rmSync(storeDir, { recursive: true, force: true });
}

await main();
