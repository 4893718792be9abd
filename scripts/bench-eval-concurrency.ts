/**
 * How long generating and grading 24 questions takes with a model that answers after 1 s
 * (issue 27, item 3): once with one call at a time, once with the default bound of 4 calls in
 * flight. Synthetic manuals in memory; a scripted model (test/support/scripted-model.ts) whose
 * every answer takes `--delay` ms. Generation (write + check per question), then the BM25
 * retriever over chunks with each answer answered and graded (2 calls per question).
 *
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/bench-eval-concurrency.ts
 *   [--count 24] [--delay 1000] [--concurrency 4]
 */
import { createTree, type NodeDraft } from "pageindex-core";
import {
  AnswerGrader,
  Bm25ChunkRetriever,
  chunkTrees,
  EvalModel,
  evaluateRetrievers,
  generateQuestions,
} from "pageindex-retriever/eval";
import { MemoryTreeReader } from "pageindex-store";
import { ScriptedChatModel } from "../test/support/scripted-model.js";

function args() {
  const argv = process.argv.slice(2);
  const value = (name: string, fallback: number) => {
    const i = argv.indexOf(name);
    return i < 0 ? fallback : Number(argv[i + 1]);
  };
  return {
    count: value("--count", 24),
    delay: value("--delay", 1000),
    concurrency: value("--concurrency", 4),
  };
}

const TOPICS = ["pump", "valve", "filter", "motor", "boiler", "fan", "sensor", "relay"];
const ASPECTS = ["pressure", "cleaning", "wiring", "noise", "startup", "storage"];

/** Eight small manuals of six sections each, every section a paragraph of its own words. */
function manuals() {
  return TOPICS.map((topic, d) =>
    createTree(
      {
        docId: topic,
        docName: `${topic}.md`,
        kind: "markdown",
        build: { loader: "bench", structure: "headings" },
        lineCount: 200,
      },
      [
        {
          title: `${topic} manual`,
          text: `About the ${topic}.`,
          startLine: 1,
          endLine: 200,
          children: ASPECTS.map(
            (aspect, i): NodeDraft => ({
              title: `${aspect} of the ${topic}`,
              text: Array.from(
                { length: 10 },
                (_, j) => `The ${topic} ${aspect} rule ${d}.${i}.${j} says to check part ${j} before use.`,
              ).join(" "),
              startLine: 2 + i * 30,
              endLine: 31 + i * 30,
            }),
          ),
        },
      ],
    ),
  );
}

/** A model answering every step after `delay` ms, by the prompt it gets. */
function slowModel(delay: number) {
  let n = 0;
  return new ScriptedChatModel([], {
    fallback: async (prompt) => {
      await new Promise((resolve) => setTimeout(resolve, delay));
      n += 1;
      if (/You write evaluation questions/.test(prompt))
        return JSON.stringify({
          question: `How do I deal with problem number ${n} here?`,
          answer: "Check the part.",
        });
      if (/You check evaluation questions/.test(prompt))
        return JSON.stringify({ answerable: true, titleOnly: false, reason: "the section says so" });
      if (/You grade answers/.test(prompt))
        return JSON.stringify({ grade: "correct", reason: "same as the reference" });
      return JSON.stringify({ answer: "Check the part before use." });
    },
  });
}

async function once(concurrency: number, count: number, delay: number) {
  const trees = manuals();
  const reader = new MemoryTreeReader(trees);
  const runner = new EvalModel({ model: slowModel(delay), label: "scripted", concurrency });
  const started = performance.now();
  const set = await generateQuestions({
    runner,
    reader,
    docIds: trees.map((t) => t.docId),
    count,
    difficulty: "measure",
  });
  const generated = performance.now();
  await evaluateRetrievers({
    questions: set.questions,
    retrievers: { bm25: new Bm25ChunkRetriever({ documents: chunkTrees(trees), k: 5 }) },
    grader: new AnswerGrader({ runner, reader }),
  });
  const ended = performance.now();
  return {
    questions: set.questions.length,
    calls: runner.calls.done,
    maxInFlight: runner.maxInFlight,
    generateS: (generated - started) / 1000,
    gradeS: (ended - generated) / 1000,
    totalS: (ended - started) / 1000,
  };
}

const { count, delay, concurrency } = args();
const sequential = await once(1, count, delay);
console.log(`sequential (1 call at a time): ${JSON.stringify(sequential)}`);
const bounded = await once(concurrency, count, delay);
console.log(`bounded (${concurrency} calls at a time): ${JSON.stringify(bounded)}`);
console.log(`ratio: ${(bounded.totalS / sequential.totalS).toFixed(2)} of the sequential time`);
