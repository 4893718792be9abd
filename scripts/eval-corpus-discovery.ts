/**
 * Cross-document discovery, offline: every document of ../shared/corpus (the FinanceBench filings,
 * PageIndex's sample PDFs, the Markdown specifications) in one folder store, and each question
 * (FinanceBench's and the held-out reference questions of eval-offline-judge.ts) asked twice:
 * with its document named (`docIds`) and with none named, the retriever choosing through the
 * catalog. Reported: hit@3 (a returned section's own pages hold an evidence page) in both
 * settings, and whether the right document is among the top 3 documents (the retriever's
 * ranking; the catalog's own ranking, `searchDocuments`, beside it).
 *
 * Settings without a named document: `all` (the default: every document while the library has at
 * most `documentCandidates`, here 14 ≤ 20 — today's behaviour), and `catalog` (documentCandidates
 * below the library's size, so the catalog ranks, the sections re-rank and the best 3 are
 * searched), with DocScore `sum` (PageIndex's Σ/√(N+1)) and `best`.
 *
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/eval-corpus-discovery.ts [--verbose]
 * Writes .bench-out/eval-corpus-discovery.json.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { MarkdownTreeLoader } from "pageindex-loader";
import { LexicalIndexes, PageIndexRetriever, type PageIndexRetrieverInput } from "pageindex-retriever";
import { PageIndexStore } from "pageindex-store";
import { requireCorpus } from "./corpus.js";
import { financeBench, firstHit, type Question, reference } from "./eval-offline-judge.js";
import { docIdOf } from "./tree-cache.js";

const VERBOSE = process.argv.includes("--verbose");
const K = 3;

interface Setting {
  name: string;
  options: Partial<PageIndexRetrieverInput>;
  named?: boolean;
}

const SETTINGS: Setting[] = [
  { name: "named (docIds)", options: {}, named: true },
  { name: "all (default)", options: {} },
  { name: "catalog M=10 sum", options: { documentCandidates: 10, documentScoring: "sum" } },
  { name: "catalog M=10 best", options: { documentCandidates: 10, documentScoring: "best" } },
  { name: "catalog M=10 no re-rank", options: { documentCandidates: 10, documentRerank: 0 } },
  { name: "catalog M=10 one document", options: { documentCandidates: 10, maxDocuments: 1 } },
  { name: "llm, no model (lexical choice)", options: { documentSelection: "llm", documentCandidates: 10 } },
];

async function main(): Promise<void> {
  const corpus = requireCorpus();
  const fb = await financeBench(corpus);
  const ref = await reference(corpus);
  const markdownDir = join(corpus, "markdown");
  const markdown = await Promise.all(
    readdirSync(markdownDir)
      .filter((f) => f.endsWith(".md") && f !== "README.md")
      .map((f) => new MarkdownTreeLoader(join(markdownDir, f)).loadTree()),
  );
  const trees = [...fb.trees, ...ref.trees, ...markdown];
  const questions: Question[] = [...fb.questions, ...ref.questions];
  const dir = mkdtempSync(join(tmpdir(), "eval-corpus-discovery-"));
  const out: Record<string, unknown> = { documents: trees.length, questions: questions.length };
  try {
    const store = await PageIndexStore.fromPath(dir);
    const lexical = new LexicalIndexes(store);
    for (const tree of trees) {
      await store.addTree(tree);
      await lexical.get(await store.getSkeleton(tree.docId)); // as `pageindex index` saves it
    }
    console.log(
      `${trees.length} documents, ${questions.length} questions; hit@${K} and right document in top ${K}`,
    );
    let catalogTop = 0;
    for (const q of questions) {
      const hits = await store.searchDocuments(q.question, { limit: K });
      if (hits.some((h) => h.card.docId === docIdOf(q.doc))) catalogTop += 1;
    }
    console.log(
      `catalog alone (searchDocuments): right document in top ${K}: ${pct(catalogTop / questions.length)}`,
    );
    out.catalogTop3 = catalogTop / questions.length;
    for (const setting of SETTINGS) {
      let hit = 0;
      let rightDoc = 0;
      let ms = 0;
      const misses: string[] = [];
      for (const q of questions) {
        const docId = docIdOf(q.doc);
        const retriever = new PageIndexRetriever({
          reader: store,
          k: 10,
          cache: false,
          ...setting.options,
          ...(setting.named ? { docIds: [docId] } : {}),
        });
        const started = performance.now();
        const docs = await retriever.invoke(q.question);
        ms += performance.now() - started;
        const rank = firstHit(docs, q);
        if (rank > 0 && rank <= K) hit += 1;
        const ranked = retriever.lastRun?.documentRanking?.map((r) => r.docId) ?? [
          ...new Set(docs.map((d) => d.metadata.docId)),
        ];
        if (ranked.slice(0, K).includes(docId)) rightDoc += 1;
        else misses.push(`${q.id} (${q.doc}): top ${ranked.slice(0, K).join(", ")}`);
      }
      const row = {
        hit3: hit / questions.length,
        rightDocTop3: rightDoc / questions.length,
        msPerQuery: ms / questions.length,
      };
      out[setting.name] = { ...row, misses };
      console.log(
        `${setting.name.padEnd(32)} hit@${K} ${pct(row.hit3)}   right document in top ${K} ${pct(row.rightDocTop3)}   ${row.msPerQuery.toFixed(0)} ms/query`,
      );
      if (VERBOSE) for (const m of misses) console.log(`    wrong documents: ${m}`);
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  const bench = resolve(".bench-out");
  mkdirSync(bench, { recursive: true });
  writeFileSync(join(bench, "eval-corpus-discovery.json"), `${JSON.stringify(out, null, 2)}\n`);
}

function pct(x: number): string {
  return `${(x * 100).toFixed(0).padStart(3)} %`;
}

await main();
