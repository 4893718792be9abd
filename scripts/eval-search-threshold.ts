/**
 * Where `search_sections` should cut (issue 29, item 3): the scores of the sections the retriever
 * returns on the library dev set, split into gold picks (the section holds a gold page or line,
 * eval-library.ts's rule) and the rest, with the offline judge (library-wide, as the agent tool
 * searches) and the oracle judge (scripts/oracle-judge.ts with `noise`: gold picks at 0.9, near
 * misses at 0.2). For each threshold: gold picks kept, other picks dropped, questions that keep
 * a gold pick.
 *
 * Run: pnpm run build && npx tsx scripts/eval-search-threshold.ts [--split dev|validation|all] [--store DIR]
 * Tune on dev only. Prints aggregates (never a question's gold). `--store` opens that store folder
 * instead of the cached store of the current commit.
 */
import { readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { PageIndexRetriever } from "pageindex-retriever";
import { PageIndexStore } from "pageindex-store";
import { goldNumbers, holdsGold } from "./library-devset/gold.js";
import {
  inSplit,
  type LibraryQuestion,
  libraryFiles,
  libraryStore,
  libraryTrees,
} from "./library-devset/library.js";
import { OracleJudge } from "./oracle-judge.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const THRESHOLDS = [0, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9];

async function main(): Promise<void> {
  const argv = process.argv.slice(2);
  const i = argv.indexOf("--split");
  const split = i < 0 ? "dev" : (argv[i + 1] ?? "dev");
  if (!["dev", "validation", "all"].includes(split))
    throw new Error("--split must be dev, validation or all");
  const s = argv.indexOf("--store");
  const storeDir = s < 0 ? undefined : argv[s + 1];
  const all = (
    JSON.parse(readFileSync(join(HERE, "library-devset", "questions.json"), "utf8")) as {
      questions: LibraryQuestion[];
    }
  ).questions;
  const questions = all.filter((q) => inSplit(q, split));
  const trees = await libraryTrees(libraryFiles());
  const store = storeDir ? await PageIndexStore.fromPath(storeDir) : (await libraryStore(trees)).store;
  const oracle = new OracleJudge({ noise: 2 });
  for (const q of questions) {
    oracle.gold.set(q.question, goldNumbers(q));
    const tree = trees.find((t) => t.docId === q.docId);
    oracle.goldDoc.set(q.question, { docId: q.docId, docName: tree?.docName ?? q.docId });
  }
  const settings = [
    { name: "offline, library-wide", retriever: new PageIndexRetriever({ reader: store, cache: false }) },
    {
      name: "oracle with near misses, library-wide",
      retriever: new PageIndexRetriever({
        reader: store,
        cache: false,
        model: oracle,
        documentSelection: "llm",
      }),
    },
  ];
  for (const { name, retriever } of settings) {
    const picks: Array<{ q: string; score: number; gold: boolean }> = [];
    for (const q of questions) {
      const docs = await retriever.invoke(q.question);
      for (const d of docs) picks.push({ q: q.id, score: Number(d.metadata.score), gold: holdsGold(d, q) });
    }
    const gold = picks.filter((p) => p.gold);
    const other = picks.filter((p) => !p.gold);
    const withGold = new Set(gold.map((p) => p.q));
    console.log(
      `\n${name}: ${questions.length} questions (split ${split}), ${picks.length} picks, ${gold.length} gold ` +
        `(${withGold.size} questions with a gold pick)`,
    );
    console.log(
      "| threshold | gold picks kept | other picks dropped | questions keeping a gold pick | picks kept per question |\n| ---: | ---: | ---: | ---: | ---: |",
    );
    for (const t of THRESHOLDS) {
      const keptGold = gold.filter((p) => p.score >= t);
      const dropped = other.filter((p) => p.score < t).length;
      const kept = picks.filter((p) => p.score >= t).length;
      console.log(
        `| ${t.toFixed(1)} | ${keptGold.length}/${gold.length} | ${dropped}/${other.length} | ` +
          `${new Set(keptGold.map((p) => p.q)).size}/${withGold.size} | ${(kept / questions.length).toFixed(2)} |`,
      );
    }
    const quantiles = (xs: number[]) => {
      const s = [...xs].sort((a, b) => a - b);
      const at = (f: number) => (s.length ? (s[Math.floor(f * (s.length - 1))] as number).toFixed(2) : "–");
      return `min ${at(0)}, 25% ${at(0.25)}, median ${at(0.5)}, 75% ${at(0.75)}, max ${at(1)}`;
    };
    console.log(`gold scores: ${quantiles(gold.map((p) => p.score))}`);
    console.log(`other scores: ${quantiles(other.map((p) => p.score))}`);
  }
  await store.close();
}

await main();
