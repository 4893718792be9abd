/**
 * The agent tools with a capable model (issue 29): `createAgent` from `langchain` with
 * `createPageIndexTools` over the library dev set (scripts/library-devset/: the folder store
 * cached in ~/.cache/pageindex-devset), a ChatOpenAI pointed at the llm-bridge
 * (/work/shared/tools/llm-bridge: whoever answers its prompt files is the model), no document
 * named. The retriever behind `search_sections` is offline (the lexical judge): the agent is
 * the only model.
 *
 * Per question it records whether the agent read a gold passage (got it in a tool result):
 * - `quoteRead`: the quote the question was written from (drafts.json) appears in the text of
 *   a tool result (compared on letters and digits only, so line breaks and hyphens do not matter);
 * - `goldSection`: a section returned in a tool result's artifact holds a gold page or line
 *   (eval-library.ts's rule) — a weaker test: the section may have been shown only in part;
 * plus tool calls, model turns, characters of tool results and the prompt tokens the bridge counted.
 *
 * HONESTY: the answerer of the bridge must never see gold. This script prints only the question
 * texts while it runs; gold is read only to score, after every agent has finished, and the
 * per-question scores go to the JSON file, not to the terminal.
 *
 * Run (after `pnpm run build`):
 *   QUEUE=/tmp/agent-queue PORT=8772 node /work/shared/tools/llm-bridge/server.mjs &
 *   npx tsx scripts/eval-agent-tools.ts --label before [--n 15] [--port 8772] [--concurrency 5]
 *     [--store DIR]
 * `--store` opens that store folder instead of the cached store of the current commit (so a
 * before/after pair reads the same store). Writes .bench-out/eval-agent-tools-<label>.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import type { DocumentInterface } from "@langchain/core/documents";
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { ChatOpenAI } from "@langchain/openai";
import { createAgent } from "langchain";
import { createPageIndexTools, PageIndexRetriever } from "pageindex-retriever";
import { PageIndexStore } from "pageindex-store";
import { holdsGold } from "./library-devset/gold.js";
import { type LibraryQuestion, libraryFiles, libraryStore, libraryTrees } from "./library-devset/library.js";

const HERE = dirname(fileURLToPath(import.meta.url));

const SYSTEM_PROMPT =
  "You answer users' questions about a library of software documentation (the documentation packages of " +
  "a Linux distribution: manuals, references, READMEs). No document is named: find the passage that " +
  "answers with the tools, read it, then answer briefly from what you read, naming the document and the " +
  "pages or lines.";

function args() {
  const argv = process.argv.slice(2);
  const value = (name: string) => {
    const i = argv.indexOf(name);
    return i < 0 ? undefined : argv[i + 1];
  };
  const label = value("--label");
  if (!label || !/^[\w-]+$/.test(label))
    throw new Error("--label NAME (letters, digits, - or _) is required");
  return {
    label,
    n: Number(value("--n") ?? 15),
    port: Number(value("--port") ?? 8772),
    concurrency: Number(value("--concurrency") ?? 5),
    store: value("--store"),
  };
}

/** Letters and digits only, lower-cased: a quote matches text whatever its line breaks and hyphens. */
function squash(text: string): string {
  return text
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, "");
}

/** Every Document-like value inside a tool artifact (arrays and objects, a few levels deep). */
function documentsIn(value: unknown, depth = 0): DocumentInterface[] {
  if (depth > 3 || value === null || typeof value !== "object") return [];
  const v = value as Record<string, unknown>;
  if (typeof v.pageContent === "string" && typeof v.metadata === "object")
    return [v as unknown as DocumentInterface];
  const children = Array.isArray(value) ? value : Object.values(v);
  return children.flatMap((child) => documentsIn(child, depth + 1));
}

interface Run {
  messages: BaseMessage[];
  error?: string;
  ms: number;
}

interface Score {
  id: string;
  quoteRead: boolean;
  goldSection: boolean;
  toolCalls: number;
  turns: number;
  toolChars: number;
  promptTokens: number;
  tools: string[];
  answer: string;
  error?: string;
}

function score(q: LibraryQuestion, quote: string | undefined, run: Run): Score {
  const toolMessages = run.messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
  const aiMessages = run.messages.filter((m): m is AIMessage => AIMessage.isInstance(m));
  const text = toolMessages.map((m) =>
    typeof m.content === "string" ? m.content : JSON.stringify(m.content),
  );
  const read = squash(text.join("\n"));
  const last = aiMessages.at(-1);
  return {
    id: q.id,
    quoteRead: quote !== undefined && read.includes(squash(quote)),
    goldSection: toolMessages.some((m) => documentsIn(m.artifact).some((d) => holdsGold(d, q))),
    toolCalls: aiMessages.reduce((s, m) => s + (m.tool_calls?.length ?? 0), 0),
    turns: aiMessages.length,
    toolChars: text.reduce((s, t) => s + t.length, 0),
    promptTokens: aiMessages.reduce((s, m) => s + (m.usage_metadata?.input_tokens ?? 0), 0),
    tools: aiMessages.flatMap((m) => (m.tool_calls ?? []).map((c) => `${c.name}(${JSON.stringify(c.args)})`)),
    answer: typeof last?.content === "string" ? last.content : "",
    ...(run.error ? { error: run.error } : {}),
  };
}

async function main(): Promise<void> {
  const { label, n, port, concurrency, store: storeDir } = args();
  const file = join(HERE, "library-devset", "questions.json");
  const all = (JSON.parse(readFileSync(file, "utf8")) as { questions: LibraryQuestion[] }).questions;
  const questions = all.filter((q) => q.split === "dev").slice(0, n);

  let store: PageIndexStore;
  let dir: string;
  if (storeDir) {
    dir = resolve(storeDir);
    store = await PageIndexStore.fromPath(dir);
  } else {
    const trees = await libraryTrees(libraryFiles());
    ({ store, dir } = await libraryStore(trees));
  }
  console.log(`store ${dir}; ${questions.length} questions; model at http://127.0.0.1:${port}/v1\n`);

  const retriever = new PageIndexRetriever({ reader: store, cache: false });
  const model = new ChatOpenAI({
    model: "llm-bridge",
    apiKey: "none",
    configuration: { baseURL: `http://127.0.0.1:${port}/v1` },
    maxRetries: 0,
    timeout: 3 * 3600e3,
  });
  const agent = createAgent({ model, tools: createPageIndexTools(retriever), systemPrompt: SYSTEM_PROMPT });

  const runs = new Map<string, Run>();
  let next = 0;
  const worker = async () => {
    while (next < questions.length) {
      const q = questions[next++] as LibraryQuestion;
      console.log(`${q.id}: ${q.question}`);
      const started = performance.now();
      try {
        const state = await agent.invoke(
          { messages: [{ role: "user", content: q.question }] },
          { recursionLimit: 41 },
        );
        runs.set(q.id, { messages: state.messages as BaseMessage[], ms: performance.now() - started });
      } catch (error) {
        runs.set(q.id, { messages: [], error: (error as Error).message, ms: performance.now() - started });
      }
      console.log(`${q.id}: finished`);
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, concurrency) }, worker));

  // Scoring starts here, after every agent has finished: gold and quotes are read only now.
  const drafts = JSON.parse(readFileSync(join(HERE, "library-devset", "drafts.json"), "utf8")) as string[][];
  const quotes = new Map(drafts.map(([docId, question, quote]) => [`${docId}\u0000${question}`, quote]));
  const scores = questions.map((q) =>
    score(q, quotes.get(`${q.docId}\u0000${q.question}`), runs.get(q.id) ?? { messages: [], ms: 0 }),
  );
  const mean = (f: (s: Score) => number) => scores.reduce((s, x) => s + f(x), 0) / Math.max(1, scores.length);
  const summary = {
    questions: scores.length,
    quoteRead: scores.filter((s) => s.quoteRead).length,
    goldSection: scores.filter((s) => s.goldSection).length,
    toolCallsPerQuestion: mean((s) => s.toolCalls),
    toolResultCharsPerQuestion: mean((s) => s.toolChars),
    toolResultTokensPerQuestion: mean((s) => s.toolChars / 4),
    promptTokensPerQuestion: mean((s) => s.promptTokens),
    errors: scores.filter((s) => s.error).length,
  };
  const out = resolve(".bench-out");
  mkdirSync(out, { recursive: true });
  const path = join(out, `eval-agent-tools-${label}.json`);
  writeFileSync(path, `${JSON.stringify({ label, store: dir, summary, questions: scores }, null, 2)}\n`);
  console.log(
    `\n| run | read the gold quote | got a gold section | tool calls / question | tool-result tokens / question (chars / 4) | prompt tokens / question | errors |\n` +
      `| --- | ---: | ---: | ---: | ---: | ---: | ---: |\n` +
      `| ${label} | ${summary.quoteRead}/${summary.questions} | ${summary.goldSection}/${summary.questions} | ` +
      `${summary.toolCallsPerQuestion.toFixed(2)} | ${summary.toolResultTokensPerQuestion.toFixed(0)} | ` +
      `${summary.promptTokensPerQuestion.toFixed(0)} | ${summary.errors} |\n\nper question: ${path}`,
  );
  await store.close();
}

await main();
