/**
 * LLM calls to index each corpus PDF: our `auto` path, our LLM path forced, and PageIndex's
 * method by its formula (≈ 20 TOC checks + page groups + 3 × sections), for the same sections.
 *
 * No real model runs here. The calls are counted with an oracle chat model that answers every
 * prompt of the pipeline correctly, from the document's structure as the no-LLM paths found it
 * (outline, or layout): it lists the sections that start on the pages it is shown and confirms a
 * claimed (title, page) when the structure has it. The oracle never reports a table of contents,
 * so the forced LLM path runs its most expensive mode (reading the whole document in page
 * groups), the mode PageIndex's formula also describes. A correct oracle is the best case for
 * call counts; a real model that errs adds re-location calls (bounded: 3 rounds) on both sides.
 *
 * Reads ../shared/corpus (FinanceBench and PageIndex sample PDFs); exits cleanly when absent.
 * Run: pnpm build && npx tsx scripts/eval-pdf-llm-calls.ts
 */
import { readFileSync } from "node:fs";
import { basename } from "node:path";
import type { TreeDocument } from "pageindex-core";
import { pdfToTree } from "pageindex-loader";
import { titleSimilarity } from "../packages/pageindex-loader/src/pdf/structure/titles.js";
import { ScriptedChatModel } from "../test/support/scripted-model.js";
import { corpusPdfs } from "./corpus.js";

interface Truth {
  code: string;
  title: string;
  page: number;
}

/** The structure's sections in document order with dotted codes ("2.1"); no Preface. */
function truthOf(tree: TreeDocument): Truth[] {
  const byId = new Map(tree.nodes.map((n) => [n.nodeId, n]));
  const out: Truth[] = [];
  const visit = (ids: string[], prefix: string) => {
    ids.forEach((id, i) => {
      const node = byId.get(id);
      if (!node) return;
      const code = prefix ? `${prefix}.${i + 1}` : String(i + 1);
      if (node.startPage !== undefined && node.title !== "Preface")
        out.push({ code, title: node.title, page: node.startPage });
      visit(node.childIds, code);
    });
  };
  visit(tree.rootIds, "");
  return out;
}

const shownPages = (prompt: string): Set<number> =>
  new Set([...prompt.matchAll(/<page physical_page="(\d+)">/g)].map((m) => Number(m[1])));

/** JSON objects on the lines of the prompt's `<toc>` block (the claims or the sections so far). */
function tocItems(prompt: string): Array<Record<string, unknown>> {
  const block = /<toc>\n([\s\S]*?)\n<\/toc>/.exec(prompt)?.[1] ?? "";
  return block.split("\n").flatMap((line) => {
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return [];
    }
  });
}

/** Answers each pipeline task from the known structure, as a capable model would. */
function oracle(truth: Truth[]): (prompt: string) => string {
  return (prompt) => {
    const task = /Task: ([a-z -]+)\./.exec(prompt)?.[1] ?? "";
    const pages = shownPages(prompt);
    switch (task) {
      case "table-of-contents detection":
        return JSON.stringify({
          pages: [...pages].map((n) => ({ physical_page: n, is_toc: false, has_page_numbers: false })),
        });
      case "structure extraction":
      case "structure continuation": {
        const listed = tocItems(prompt);
        const last = listed[listed.length - 1];
        const after = Number(last?.physical_page ?? 0);
        const seen = new Set(listed.map((e) => `${e.title}@${e.physical_page}`));
        const sections = truth
          .filter((t) => pages.has(t.page) && t.page >= after && !seen.has(`${t.title}@${t.page}`))
          .map((t) => ({ structure: t.code, title: t.title, physical_page: t.page }));
        return JSON.stringify({ sections });
      }
      case "section check":
        return JSON.stringify({
          checks: tocItems(prompt).map((c) => ({
            index: c.index,
            appears: truth.some(
              (t) => t.page === Number(c.physical_page) && titleSimilarity(t.title, String(c.title)) >= 0.8,
            ),
            starts_at_top: false,
          })),
        });
      case "section location":
        return JSON.stringify({ sections: [] });
      default:
        // Summaries and descriptions.
        return prompt.includes('{"description"')
          ? JSON.stringify({ description: "A filing." })
          : JSON.stringify({ summary: "What this section covers." });
    }
  };
}

function callsOf(tree: TreeDocument): { total: number; steps: string } {
  const byStep = tree.build.usage?.byStep ?? {};
  return {
    total: tree.build.usage?.calls ?? 0,
    steps: Object.entries(byStep)
      .map(([step, u]) => `${step} ${u.calls}`)
      .join(", "),
  };
}

const files = corpusPdfs();

console.log(
  "file | pages | page groups | sections | PageIndex ≈ 20 + groups + 3 × sections | ours, auto (structure) | ours, auto + LLM summaries | ours, LLM path forced | forced, by step",
);
console.log("--- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---");
const sum = { pageindex: 0, auto: 0, summaries: 0, forced: 0 };
for (const file of files) {
  const bytes = new Uint8Array(readFileSync(file));
  const name = basename(file);
  const build = (options: Parameters<typeof pdfToTree>[1]) =>
    pdfToTree(bytes.slice(), { summaries: "none", ...options }, { name, path: name });

  const reference = await build({});
  const truth = truthOf(reference);
  const model = () => new ScriptedChatModel([], { fallback: oracle(truth) });
  const auto = await build({ model: model() });
  const summarised = await build({ model: model(), summaries: "llm" });
  const forced = await build({ model: model(), structure: "llm" });

  const tokens = reference.nodes.reduce((s, n) => s + n.tokenCount, 0);
  const groups = Math.max(1, Math.ceil(tokens / 20_000));
  const pages = reference.pageCount ?? 0;
  const pageIndex = Math.min(20, pages) + groups + 3 * truth.length;
  const f = callsOf(forced);
  sum.pageindex += pageIndex;
  sum.auto += callsOf(auto).total;
  sum.summaries += callsOf(summarised).total;
  sum.forced += f.total;
  console.log(
    [
      name,
      pages,
      groups,
      `${truth.length} (${reference.build.structure})`,
      pageIndex,
      callsOf(auto).total,
      callsOf(summarised).total,
      `${f.total} (${forced.build.structure}, ${truthOf(forced).length} sections)`,
      f.steps,
    ].join(" | "),
  );
}
console.log(
  `**all** | | | | ${sum.pageindex} | ${sum.auto} | ${sum.summaries} | ${sum.forced} | forced LLM path: ${(sum.pageindex / Math.max(1, sum.forced)).toFixed(1)}× fewer calls than PageIndex's formula`,
);
