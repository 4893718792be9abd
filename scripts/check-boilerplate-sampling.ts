/**
 * Which sections question generation samples on the library dev set (issue 27, item 2): 100
 * questions generated over every document of scripts/library-devset with an instant scripted
 * writer (the sampling, not the wording, is under test), difficulty control off. Writes each
 * sampled section (document, title path, the start of its text) for a person to check for
 * boilerplate (licence, edition, acknowledgements, contents, prefaces about the manual), and
 * each section passed over as boilerplate on the way.
 *
 * Run: pnpm -r --filter "./packages/**" run build && npx tsx scripts/check-boilerplate-sampling.ts
 *   [--count 100] [--seed 1] [--out FILE]
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { titlePath } from "pageindex-core";
import { generateQuestions, isBoilerplate } from "pageindex-retriever/eval";
import { MemoryTreeReader } from "pageindex-store";
import { sampleSections } from "../packages/pageindex-retriever/src/eval/sample-sections.js";
import { ScriptedChatModel } from "../test/support/scripted-model.js";
import { libraryFiles, libraryTrees } from "./library-devset/library.js";

const HERE = dirname(fileURLToPath(import.meta.url));
const argv = process.argv.slice(2);
const value = (name: string) => {
  const i = argv.indexOf(name);
  return i < 0 ? undefined : argv[i + 1];
};
const count = Number(value("--count") ?? 100);
const seed = Number(value("--seed") ?? 1);
const out = value("--out") ?? join(HERE, "..", ".bench-out", "boilerplate-sampling.md");

const trees = await libraryTrees(libraryFiles(), false, () => {});
const reader = new MemoryTreeReader(trees);
const byId = new Map(trees.map((t) => [t.docId, t]));
const start = (docId: string, nodeId: string) =>
  (byId.get(docId)?.nodes.find((n) => n.nodeId === nodeId)?.text ?? "").replace(/\s+/g, " ").slice(0, 160);

// The wording does not matter here: a question from the section's first words, always kept.
const model = new ScriptedChatModel([], {
  fallback: (prompt) =>
    /You write evaluation questions/.test(prompt)
      ? JSON.stringify({
          question: `What does it say about ${(/<section[^>]*>\s*([^<]*)/.exec(prompt)?.[1] ?? "it").split(/\s+/).slice(0, 5).join(" ")}?`,
          answer: "It says so.",
        })
      : JSON.stringify({ answerable: true, titleOnly: false, reason: "scripted" }),
});
const set = await generateQuestions({
  model,
  reader,
  docIds: trees.map((t) => t.docId),
  count,
  seed,
  difficulty: "off",
});

// The sections passed over on the way, in the order generation met them.
const order = sampleSections(await Promise.all(trees.map((t) => reader.getSkeleton(t.docId))), { seed });
const lastKept = set.questions.at(-1)?.evidence[0];
const skipped: string[] = [];
for (const s of order) {
  const text = byId.get(s.docId)?.nodes.find((n) => n.nodeId === s.node.nodeId)?.text ?? "";
  if (
    isBoilerplate(s.path, text, {
      opening: s.node.startPage === 1 || s.node.startLine === 1,
      docName: s.docName,
    })
  )
    skipped.push(`- ${s.docId} · ${s.path.join(" › ")} — ${start(s.docId, s.node.nodeId)}`);
  if (s.docId === lastKept?.doc && s.node.nodeId === lastKept.nodeId) break;
}

const lines = [
  `# Sections sampled for ${set.questions.length} generated questions (seed ${seed}, ${trees.length} documents)`,
  "",
  `Tried ${set.tried}; dropped ${JSON.stringify(set.dropped)}; boilerplate passed over: ${set.skipped.boilerplate}.`,
  "",
  "## Sampled",
  "",
  ...set.questions.map((q, i) => {
    const e = q.evidence[0];
    const tree = byId.get(e?.doc ?? "");
    const path = tree && e?.nodeId ? titlePath(tree, e.nodeId).join(" › ") : "";
    return `${i + 1}. ${e?.doc} · ${path} — ${start(e?.doc ?? "", e?.nodeId ?? "")}`;
  }),
  "",
  "## Passed over as boilerplate",
  "",
  ...skipped,
  "",
];
mkdirSync(dirname(out), { recursive: true });
writeFileSync(out, lines.join("\n"));
console.log(
  `${set.questions.length} sampled, ${set.skipped.boilerplate} passed over as boilerplate; wrote ${out}`,
);
