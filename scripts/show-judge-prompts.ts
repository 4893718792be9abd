/**
 * Prints the judge prompts three real questions produce, before and after a change (issue 14's
 * closing note): FinanceBench questions over their 10-K filings (../shared/corpus; exits cleanly
 * when absent), each asked of a retriever whose chat model is the oracle judge of bench-cost
 * (a scripted model that picks the offered sections holding the evidence pages), so the search
 * follows the same path a good model would and every prompt on it is captured.
 *
 * "After" is this checkout's retriever over trees built by this checkout's loader. "Before" is
 * another version's retriever source (`--before`, e.g. the branch's base exported with
 * `git archive <commit> packages | tar -x -C /tmp/pageindex-before`, run through tsx; its
 * imports resolve to this checkout's store, whose changes are additive) over the same trees with
 * the fields that version did not write (branchSummary, backMatter, pageLabels) removed.
 *
 * Run: pnpm run build && npx tsx scripts/show-judge-prompts.ts
 *      [--before /tmp/pageindex-before/packages/pageindex-retriever/src/index.ts]
 *      [--questions financebench_id_01079,financebench_id_00799,...] [--strategy auto|expand|beam]
 *      [--out FILE]
 * Writes the prompts to --out (default: judge-prompts.txt in the OS temp folder).
 */
import { existsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import type { TreeDocument } from "pageindex-core";
import * as retrieverPackage from "pageindex-retriever";
import { option } from "./cli-option.js";
import { CORPUS_DIR, financeBenchQuestions } from "./corpus.js";
import { OracleJudge } from "./oracle-judge.js";
import { cachedPdfTree, docIdOf } from "./tree-cache.js";

const BEFORE = option("before", "");
const OUT = option("out", join(tmpdir(), "judge-prompts.txt"));
/** The search strategy both versions run (`expand` shows every child with its summary line). */
const STRATEGY = option("strategy", "auto") as retrieverPackage.SearchStrategy;
/** One question per filing, of three kinds: a list over years, a ratio, a segment detail. */
const QUESTIONS = option(
  "questions",
  "financebench_id_01079,financebench_id_00799,financebench_id_01290",
).split(",");

type Retriever = typeof retrieverPackage.PageIndexRetriever;

/** A tree as the previous version's loader wrote it: without the fields added since. */
function withoutNewFields(tree: TreeDocument): TreeDocument {
  const { pageLabels: _labels, ...rest } = tree;
  return {
    ...rest,
    nodes: tree.nodes.map(({ branchSummary: _b, backMatter: _m, position: _p, ...node }) => node),
  };
}

async function promptsOf(Retriever: Retriever, tree: TreeDocument, question: string, pages: number[]) {
  const oracle = new OracleJudge();
  oracle.gold.set(question, pages);
  const retriever = new Retriever({ trees: [tree], model: oracle, k: 3, cache: false, strategy: STRATEGY });
  const docs = await retriever.invoke(question);
  const found = docs.map((d) => `${d.metadata.title} (pp. ${d.metadata.startPage}-${d.metadata.endPage})`);
  return { prompts: oracle.texts, tokens: oracle.prompts, found };
}

async function main() {
  const dir = join(CORPUS_DIR, "financebench");
  if (!existsSync(dir)) {
    console.log(`Corpus not found at ${dir}: nothing to show.`);
    return;
  }
  const before = BEFORE
    ? ((await import(resolve(BEFORE))) as typeof retrieverPackage).PageIndexRetriever
    : undefined;
  const all = financeBenchQuestions(dir);
  const out: string[] = [];
  for (const id of QUESTIONS) {
    const q = all.find((x) => x.id === id);
    if (!q) {
      console.log(`no question ${id}: skipped`);
      continue;
    }
    const question = q.question.replace(/\s+/g, " ");
    const tree = await cachedPdfTree(join(dir, "pdfs", `${q.doc}.pdf`), "pageindex-show-prompts");
    if (tree.docId !== docIdOf(q.doc)) throw new Error(`unexpected document id ${tree.docId}`);
    const runs: Array<[string, Retriever, TreeDocument]> = [];
    if (before) runs.push(["BEFORE", before, withoutNewFields(tree)]);
    runs.push(["AFTER", retrieverPackage.PageIndexRetriever, tree]);
    for (const [label, Retriever, t] of runs) {
      const { prompts, tokens, found } = await promptsOf(Retriever, t, question, q.pages);
      const head = `${"#".repeat(100)}\n# ${label} — ${q.id} (${q.doc}, evidence pp. ${q.pages.join(", ")})\n# ${question}\n# ${prompts.length} prompt(s), ${tokens.join(" + ")} tokens; returned: ${found.join(" | ")}\n${"#".repeat(100)}`;
      out.push(
        head,
        ...prompts.map((p, i) => `----- prompt ${i + 1} of ${prompts.length} (${tokens[i]} tokens)\n${p}`),
      );
      console.log(head.split("\n").slice(1, 4).join("\n"));
    }
  }
  writeFileSync(OUT, `${out.join("\n\n")}\n`);
  console.log(`\nwrote ${OUT}`);
}

await main();
