// Markdown indexing throughput (no LLM): the tree loader with extractive summaries and with
// none, its parse step alone, and LangChain's MarkdownTextSplitter on the same text, one run
// each after a warm-up. Reads ../shared/corpus/markdown when present and always a generated
// 20 MB document; then 2 MB single-line documents (base64, a data URI, one letter repeated, a
// "=" ruler), the whitespace-free runs whose token counting used to take seconds.
// Usage: pnpm build && npx tsx scripts/bench-markdown.ts
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MarkdownTextSplitter } from "@langchain/textsplitters";
import { markdownToTree, parseMarkdown } from "pageindex-loader";
import { countTokens } from "pageindex-store";
import { CORPUS_DIR } from "./corpus.js";

/** A deterministic 20 MB document with the usual mix: nested headings, code with `#` comments, lists, tables. */
function generated(targetBytes: number): string {
  const words = "alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu".split(" ");
  const sentence = (seed: number) =>
    `${Array.from({ length: 12 }, (_, k) => words[(seed * 7 + k * 3) % words.length]).join(" ")}.`;
  const parts: string[] = [];
  let size = 0;
  for (let i = 0; size < targetBytes; i++) {
    const level = i % 7 === 0 ? 1 : i % 3 === 0 ? 3 : 2;
    const block = [
      `${"#".repeat(level)} Section ${i} *${words[i % words.length]}*`,
      "",
      Array.from({ length: 8 }, (_, k) => sentence(i + k)).join(" "),
      "",
      "```python",
      `# comment ${i}, not a heading`,
      `value_${i} = compute(${i})`,
      "```",
      "",
      `- item [link](https://example.test/${i})`,
      `- item \`code ${i}\``,
      "",
      "| key | value |",
      "|-----|-------|",
      `| k${i} | v${i} |`,
      "",
      "",
    ].join("\n");
    parts.push(block);
    size += block.length;
  }
  return parts.join("");
}

function time<T>(work: () => T): { ms: number; value: T } {
  const start = performance.now();
  const value = work();
  return { ms: performance.now() - start, value };
}

async function timeAsync<T>(work: () => Promise<T>): Promise<{ ms: number; value: T }> {
  const start = performance.now();
  const value = await work();
  return { ms: performance.now() - start, value };
}

const inputs: Array<{ name: string; text: string }> = [];
const corpus = join(CORPUS_DIR, "markdown");
if (existsSync(corpus)) {
  for (const file of readdirSync(corpus)
    .filter((f) => f.endsWith(".md") && f !== "README.md")
    .sort()) {
    inputs.push({ name: file, text: readFileSync(join(corpus, file), "utf8") });
  }
} else {
  console.log(`Corpus not found at ${corpus}: benchmarking the generated document only.`);
}
inputs.push({ name: "generated-20MB.md", text: generated(20 * 1024 * 1024) });

const splitter = new MarkdownTextSplitter({ chunkSize: 1000, chunkOverlap: 200 });
// Warm-up: JIT, the tokenizer's rank table, the parser instances.
await markdownToTree(inputs[0]?.text.slice(0, 200_000) ?? "# w\n", {
  summaries: "extractive",
  docName: "warm",
});
await splitter.splitText(inputs[0]?.text.slice(0, 200_000) ?? "# w\n");

const mbps = (bytes: number, ms: number) => (bytes / 1024 / 1024 / (ms / 1000)).toFixed(2);
console.log(
  "| document | MB | nodes | parse only MB/s | loader, summaries none MB/s | loader, extractive MB/s | MarkdownTextSplitter MB/s (chunks) | loader (extractive) time / splitter time |",
);
console.log("|---|---|---|---|---|---|---|---|");
for (const { name, text } of inputs) {
  const bytes = Buffer.byteLength(text);
  const parse = time(() => parseMarkdown(text));
  const none = await timeAsync(() => markdownToTree(text, { summaries: "none", docName: name }));
  const extractive = await timeAsync(() => markdownToTree(text, { summaries: "extractive", docName: name }));
  const split = await timeAsync(() => splitter.splitText(text));
  console.log(
    `| ${name} | ${(bytes / 1024 / 1024).toFixed(2)} | ${none.value.nodes.length} | ${mbps(bytes, parse.ms)} | ${mbps(bytes, none.ms)} | ${mbps(bytes, extractive.ms)} | ${mbps(bytes, split.ms)} (${split.value.length}) | ${(extractive.ms / split.ms).toFixed(2)}× |`,
  );
}
console.log(
  "\nThe loader counts tokens of every node (o200k_base, pageindex-store countTokens); the splitter measures characters only.",
);

/** Deterministic base64-alphabet text (a stand-in for an embedded file). */
function base64Run(length: number): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  let s = 7;
  let out = "";
  for (let i = 0; i < length; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out += alphabet[s % alphabet.length];
  }
  return out;
}

const LINE = 2 * 1024 * 1024;
const lines: Array<{ name: string; text: string }> = [
  { name: "base64", text: base64Run(LINE) },
  { name: "data URI image", text: `![logo](data:image/png;base64,${base64Run(LINE - 40)})` },
  { name: "one letter", text: "a".repeat(LINE) },
  { name: '"=" ruler', text: "=".repeat(LINE) },
];
console.log("\n| 2 MB single line | tokens | countTokens ms | loader (summaries none) ms |");
console.log("|---|---|---|---|");
for (const { name, text } of lines) {
  const counted = time(() => countTokens(text));
  const tree = await timeAsync(() =>
    markdownToTree(`# Line\n\n${text}\n`, { summaries: "none", docName: name }),
  );
  console.log(`| ${name} | ${counted.value} | ${counted.ms.toFixed(0)} | ${tree.ms.toFixed(0)} |`);
}
