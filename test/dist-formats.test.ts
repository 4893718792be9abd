import { execFile } from "node:child_process";
import { dirname } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

/**
 * The built packages, loaded the way a user's app loads them: `require()` resolves to
 * `dist/*.cjs` and `import` to `dist/*.mjs` through each package's `exports`. Runs in a child
 * Node process because vitest transforms imports itself and would hide a broken CJS interop
 * (an ESM-only dependency wrapped wrongly by the CJS build fails only at call time).
 */
const run = promisify(execFile);
const cwd = dirname(fileURLToPath(import.meta.url)); // resolves the workspace packages from test/

/** Loads the core, loader, store and retriever, builds a tree with LLM summaries, and searches it with a model. */
const SCRIPT = (load: string) => `
${load}
const markdown = "# Manual\\n\\nIntro.\\n\\n## Install\\n\\n" + "Unpack the archive and run the installer. ".repeat(60) +
  "\\n\\n## Tuning\\n\\n" + "Raise the cache size for large libraries. ".repeat(60);
(async () => {
  const summaries = new FakeListChatModel({ responses: [JSON.stringify({ summary: "Sizing the cache." })] });
  const tree = await markdownToTree(markdown, { docName: "manual.md", summaries: "llm", model: summaries });
  const store = new PageIndexStore(new InMemoryStore());
  await store.addTree(tree);
  const tuning = tree.nodes.find((n) => n.title === "Tuning");
  const judge = new FakeListChatModel({
    // The default strategy shows the whole (small) table of contents in one prompt.
    responses: [JSON.stringify({ relevant: [{ id: tuning.nodeId, score: 0.9, reason: "cache" }] })],
  });
  const retriever = new PageIndexRetriever({ reader: store, model: judge, k: 1 });
  const docs = await retriever.invoke("How big should the cache be?");
  console.log(JSON.stringify({ summary: tuning.summary, title: docs[0]?.metadata.title, judge: docs[0]?.metadata.judge, tokens: countTokens(tuning.text) === tuning.tokenCount }));
})().catch((error) => { console.error(error && error.stack || error); process.exit(1); });
`;

const CJS = SCRIPT(`
const { countTokens } = require("pageindex-core");
const { markdownToTree } = require("pageindex-loader");
const { PageIndexStore } = require("pageindex-store");
const { PageIndexRetriever } = require("pageindex-retriever");
const { InMemoryStore } = require("@langchain/core/stores");
const { FakeListChatModel } = require("@langchain/core/utils/testing");
`);

const ESM = SCRIPT(`
import { countTokens } from "pageindex-core";
import { markdownToTree } from "pageindex-loader";
import { PageIndexStore } from "pageindex-store";
import { PageIndexRetriever } from "pageindex-retriever";
import { InMemoryStore } from "@langchain/core/stores";
import { FakeListChatModel } from "@langchain/core/utils/testing";
`);

describe("built packages load and run from require() and import", () => {
  for (const [format, script, flags] of [
    ["CommonJS", CJS, ["--input-type=commonjs"]],
    ["ESM", ESM, ["--input-type=module"]],
  ] as const) {
    it(`${format}: LLM summaries and a model-judged search run (bounded concurrency included)`, async () => {
      const { stdout } = await run(process.execPath, [...flags, "-e", script], { cwd, timeout: 150_000 });
      expect(JSON.parse(stdout.trim())).toEqual({
        summary: "Sizing the cache.",
        title: "Tuning",
        judge: "llm",
        tokens: true,
      });
    });
  }
});
