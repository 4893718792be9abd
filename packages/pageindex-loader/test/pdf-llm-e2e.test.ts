/**
 * End-to-end tests of the PDF loader's LLM path: real PDFs (pdf-lib, no outline, headings set in
 * the body font so the layout path finds nothing) indexed with a fake chat model that reads each
 * prompt and answers like a capable model, plus the faults real models show.
 */
import type { TreeDocument, TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import {
  InvalidInputError,
  type PdfProgressEvent,
  PdfTreeLoader,
  type PdfTreeLoaderOptions,
  pdfToTree,
} from "../src/index.js";
import { body, buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";
import { readerAnswer, taskOf } from "./pdf-llm-fixtures.js";

// ---------------------------------------------------------------------------------------------
// Fixture PDFs: a cover, an "In this report" contents page listing "page code title" (page
// first, as designed reports print it, so the layout path does not read it as a TOC), and
// content pages with a running header, headings in the body font, prose and a printed page
// number that is physical − offset.

interface Section {
  code: string;
  title: string;
  /** Physical page of the heading. */
  page: number;
  /** Heading is the first line under the running header (default true); otherwise after prose. */
  top?: boolean;
  /** Listed in the printed contents (default true). */
  listed?: boolean;
}

const HEADER = "Northwind Holdings plc | Annual Report 2023";
const TOC_TITLE = "In this report";

interface ReportSpec {
  pageCount: number;
  sections: Section[];
  /** Printed page number = physical − offset. */
  offset: number;
}

const heading = (s: Section): string => `${s.code} ${s.title}`;

function reportPages(spec: ReportSpec): PageSpec[] {
  const pages: PageSpec[] = [
    {
      lines: [
        "Northwind Holdings plc",
        "Annual Report and Accounts 2023",
        "Registered in England No. 0412876",
      ],
    },
    {
      lines: [
        TOC_TITLE,
        ...spec.sections
          .filter((s) => s.listed !== false)
          .map((s) => `${String(s.page - spec.offset).padStart(2, "0")} ${heading(s)}`),
      ],
    },
  ];
  for (let n = 3; n <= spec.pageCount; n++) {
    const lines: LineSpec[] = [{ text: HEADER }];
    const here = spec.sections.filter((s) => s.page === n);
    // Headings are plain body lines: same font, size and weight, no extra space before them.
    if (here[0]?.top === false) lines.push(...body(4, n * 10));
    here.forEach((s, i) => {
      if (i > 0) lines.push(...body(3, n * 10 + i));
      lines.push({ text: heading(s) });
    });
    lines.push(...body(here.length > 0 ? 7 : 10, n));
    pages.push({ lines, footer: String(n - spec.offset) });
  }
  return pages;
}

/** The annual report: 17 pages, contents on page 2, printed numbers 2 below the physical pages. */
const REPORT: ReportSpec = {
  pageCount: 17,
  offset: 2,
  sections: [
    { code: "1", title: "Chairman's statement", page: 3 },
    { code: "2", title: "Strategic report", page: 5 },
    { code: "2.1", title: "Our business model", page: 6, top: false },
    { code: "2.2", title: "Market review", page: 8 },
    { code: "3", title: "Governance", page: 10 },
    { code: "3.1", title: "Board of directors", page: 11 },
    { code: "3.2", title: "Remuneration report", page: 12, top: false },
    { code: "4", title: "Financial statements", page: 14 },
    { code: "4.1", title: "Income statement", page: 15 },
    { code: "4.2", title: "Balance sheet", page: 16, top: false },
  ],
};

const REPORT_OUTLINE = [
  "Preface (1-2)",
  "Chairman's statement (3-4)",
  "Strategic report (5-9)",
  "  Our business model (6-7)",
  "  Market review (8-9)",
  "Governance (10-13)",
  "  Board of directors (11-12)",
  "  Remuneration report (12-13)",
  "Financial statements (14-17)",
  "  Income statement (15-16)",
  "  Balance sheet (16-17)",
];

/** A report whose Governance chapter (5 pages) has subsections the contents page does not list. */
const CHAPTERS: ReportSpec = {
  pageCount: 13,
  offset: 2,
  sections: [
    { code: "1", title: "Chairman's statement", page: 3 },
    { code: "2", title: "Strategic report", page: 5 },
    { code: "3", title: "Governance", page: 7 },
    { code: "3.1", title: "Board of directors", page: 8, listed: false },
    { code: "3.2", title: "Remuneration report", page: 10, listed: false },
    { code: "4", title: "Financial statements", page: 12 },
  ],
};

let reportBytes: Promise<Uint8Array> | undefined;
const reportPdf = () => {
  reportBytes ??= buildPdf({ pages: reportPages(REPORT) });
  return reportBytes;
};

// ---------------------------------------------------------------------------------------------
// The fake model: detection and transformation of this report's contents page are read here;
// every other task (location, checks, structure extraction) by the shared prompt reader.

function pagesOf(prompt: string): Array<{ n: number; lines: string[] }> {
  return [...prompt.matchAll(/<page physical_page="(\d+)">\n([\s\S]*?)\n<\/page>/g)].map((m) => ({
    n: Number(m[1]),
    lines: (m[2] as string).split("\n"),
  }));
}

function lastTocBlock(prompt: string): string {
  const blocks = [...prompt.matchAll(/<toc>\n([\s\S]*?)\n<\/toc>/g)];
  return blocks[blocks.length - 1]?.[1] ?? "";
}

const TOC_LINE = /^(\d{1,3})\s+(\d+(?:\.\d+)*)\s+(.+)$/;

interface TocEntryAnswer {
  structure: string;
  title: string;
  page: number;
}

function readTocEntries(prompt: string): TocEntryAnswer[] {
  return lastTocBlock(prompt)
    .split("\n")
    .map((l) => TOC_LINE.exec(l.trim()))
    .filter((m): m is RegExpExecArray => m !== null)
    .map((m) => ({ structure: m[2] as string, title: m[3] as string, page: Number(m[1]) }));
}

function reportAnswer(prompt: string): string {
  switch (taskOf(prompt)) {
    case "table-of-contents detection":
      return JSON.stringify({
        pages: pagesOf(prompt).map((p) => {
          const isToc = p.lines[0]?.trim() === TOC_TITLE;
          return {
            physical_page: p.n,
            is_toc: isToc,
            has_page_numbers: isToc && p.lines.some((l) => TOC_LINE.test(l.trim())),
          };
        }),
      });
    case "table-of-contents transformation":
      return JSON.stringify({ entries: readTocEntries(prompt) });
    default:
      return readerAnswer(prompt);
  }
}

type Answer = (prompt: string) => string | Error;

/** A text-only chat model answering every call with `answer(prompt)`. */
function fakeModel(answer: Answer = reportAnswer): ScriptedChatModel {
  return new ScriptedChatModel([], {
    fallback: (prompt: string) => {
      const a = answer(prompt);
      if (a instanceof Error) throw a;
      return a;
    },
  });
}

// ---------------------------------------------------------------------------------------------
// Helpers.

const load = (bytes: Uint8Array, options: PdfTreeLoaderOptions = {}) =>
  pdfToTree(bytes, { summaries: "none", ...options }, { name: "report.pdf" });

/** "title (start-end)" lines, indented by level. */
function outlineOf(tree: TreeDocument): string[] {
  return tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} (${n.startPage}-${n.endPage})`);
}

function byTitle(tree: TreeDocument, title: string): TreeNode {
  const node = tree.nodes.find((n) => n.title === title);
  if (!node) throw new Error(`no node "${title}" in\n${outlineOf(tree).join("\n")}`);
  return node;
}

/** Calls by step, from the tree's recorded usage. */
function callsByStep(tree: TreeDocument): Record<string, number> {
  return Object.fromEntries(
    Object.entries(tree.build.usage?.byStep ?? {}).map(([step, u]) => [step, u.calls]),
  );
}

interface PdfMeta {
  attempts: Array<{ path: string; used: boolean; detail: string }>;
  split?: unknown;
}
const pdfMeta = (tree: TreeDocument): PdfMeta => tree.metadata?.pdf as PdfMeta;
const attemptsOf = (tree: TreeDocument) => pdfMeta(tree).attempts;

// ---------------------------------------------------------------------------------------------

describe("PDF loader, LLM path end to end", () => {
  it("auto: no outline, no usable layout → the model reads the offset printed contents", async () => {
    const model = fakeModel();
    const tree = await load(await reportPdf(), { model });

    expect(tree.build.structure).toBe("llm");
    expect(outlineOf(tree)).toEqual(REPORT_OUTLINE);
    const attempts = attemptsOf(tree);
    expect(attempts.map((a) => [a.path, a.used])).toEqual([
      ["outline", false],
      ["layout", false],
      ["llm", true],
    ]);
    expect(attempts[1]?.detail).toMatch(/^found 0 heading/);
    expect(attempts[2]?.detail).toBe("mode toc-with-pages, 10 sections placed");

    // One call per step: 4 pages judged at once, one TOC piece, one offset lookup, one batch of checks.
    expect(callsByStep(tree)).toEqual({ "toc-detect": 1, "toc-transform": 1, "toc-offset": 1, verify: 1 });
    expect(tree.build.usage?.calls).toBe(model.calls);
    expect(tree.build.usage?.failures).toBe(0);
    expect(tree.build.model).toBe("scripted");
    expect(tree.build.warnings).toEqual([]);
    // The offset came from locating entries: printed page 1 is physical page 3.
    const offsetPrompt = model.prompts.find((p) => taskOf(p) === "section location") ?? "";
    expect(offsetPrompt).toContain('<page physical_page="3">');
    expect(offsetPrompt).not.toContain('<page physical_page="2">');

    // Node text: cut at the heading line of the next section, running header left out.
    const strategic = byTitle(tree, "Strategic report");
    const model21 = byTitle(tree, "Our business model");
    expect(strategic.text.startsWith("2 Strategic report")).toBe(true);
    expect(strategic.text).not.toContain("Our business model");
    expect(strategic.ownEndPage).toBe(6);
    expect(model21.text.startsWith("2.1 Our business model")).toBe(true);
    expect(model21.text).not.toContain("Market review");
    expect(model21.text).not.toContain(HEADER);
    // The shared page 6 is split: the prose above the heading belongs to "Strategic report".
    const page6Prose = body(4, 60)[0]?.text as string;
    expect(strategic.text).toContain(page6Prose);
    expect(model21.text).not.toContain(page6Prose);
    // Preface: the cover and the contents page.
    const preface = byTitle(tree, "Preface");
    expect(preface.text).toContain("Annual Report and Accounts 2023");
    expect(preface.text).toContain(TOC_TITLE);
    expect(byTitle(tree, "Chairman's statement").text.startsWith("1 Chairman's statement")).toBe(true);
  });

  it("structure: 'llm' gives the same tree, and the loader class wires the model the same way", async () => {
    const bytes = await reportPdf();
    const tree = await new PdfTreeLoader(bytes, {
      model: fakeModel(),
      structure: "llm",
      summaries: "none",
    }).loadTree();
    expect(tree.build.structure).toBe("llm");
    expect(outlineOf(tree)).toEqual(REPORT_OUTLINE);
    // Forced: the cheaper paths are not tried.
    expect(attemptsOf(tree).map((a) => a.path)).toEqual(["llm"]);
  });

  it("survives prose around JSON, malformed JSON, invalid ids/pages and a wrong page that verification catches", async () => {
    const seen: Record<string, number> = {};
    const model = fakeModel((prompt) => {
      const task = taskOf(prompt);
      seen[task] = (seen[task] ?? 0) + 1;
      const good = reportAnswer(prompt);
      switch (task) {
        case "table-of-contents detection":
          return `Sure! Here is my judgment of each page:\n\`\`\`json\n${good}\n\`\`\`\nLet me know if you need more.`;
        case "table-of-contents transformation": {
          // First an answer without any JSON; after the loader's feedback, JSON with one misread page.
          if (!prompt.includes("could not be used")) {
            return "The contents list the chairman's statement, the strategic report, governance and the accounts.";
          }
          const entries = readTocEntries(prompt).map((e) =>
            e.title === "Board of directors" ? { ...e, page: e.page + 1 } : e,
          );
          return JSON.stringify({ entries });
        }
        case "section location": {
          // Claims about an index that was never listed and a page outside those shown go first.
          const { sections } = JSON.parse(good) as { sections: unknown[] };
          const bogus = [
            { index: 42, physical_page: 5 },
            { index: 0, physical_page: 99 },
          ];
          return JSON.stringify({ sections: [...bogus, ...sections] });
        }
        case "section check":
          // Python-style dict: single quotes, True/False, trailing commas.
          return good
            .replace(/"/g, "'")
            .replace(/true/g, "True")
            .replace(/false/g, "False")
            .replace(/}/g, ",}")
            .replace(/]/g, ",]");
        default:
          return good;
      }
    });
    const tree = await load(await reportPdf(), { model });

    expect(tree.build.structure).toBe("llm");
    expect(outlineOf(tree)).toEqual(REPORT_OUTLINE);
    // The misread page (physical 12) was checked, denied, re-located between its confirmed
    // neighbours and checked again.
    const checks = model.prompts.filter((p) => taskOf(p) === "section check");
    expect(checks[0]).toContain('"title":"Board of directors","physical_page":12');
    expect(checks[1]).toContain('"title":"Board of directors","physical_page":11');
    expect(byTitle(tree, "Board of directors").startPage).toBe(11);
    expect(callsByStep(tree)).toEqual({
      "toc-detect": 1,
      "toc-transform": 2,
      "toc-offset": 1,
      verify: 2,
      relocate: 1,
    });
    expect(tree.build.usage?.failures).toBe(0);
    expect(tree.build.warnings).toEqual([]);
    expect(seen["table-of-contents transformation"]).toBe(2);
  });

  it.each([
    ["always throws", (): string | Error => new Error("model backend exploded")],
    ["always answers garbage", (): string | Error => "I am sorry, I cannot help with that request."],
  ])(
    "total model failure (%s) → a page-range tree with warnings, never an exception",
    async (_name, answer) => {
      const model = fakeModel(answer);
      const tree = await load(await reportPdf(), { model });
      // Labelled for what it is: page ranges, not a structure the model found.
      expect(tree.build.structure).toBe("flat");

      // The model is given up on after 3 failed calls in a row (each tried 3 times).
      expect(model.calls).toBe(9);
      expect(tree.build.usage?.calls).toBe(9);
      expect(tree.build.usage?.failures).toBe(3);
      expect(callsByStep(tree)).toEqual({ "toc-detect": 9 });
      const warnings = tree.build.warnings ?? [];
      expect(warnings.some((w) => /^llm: toc-detect: 3 model call\(s\) gave no usable answer/.test(w))).toBe(
        true,
      );
      expect(warnings).toContain("llm: the model failed 3 calls in a row; stopped calling it");
      expect(warnings).toContain(
        "llm: no mode produced a verified structure; the document is split into page-range nodes",
      );
      // Every page is covered by page-range nodes, in order, without gaps.
      const roots = tree.rootIds.map((id) => tree.nodes.find((n) => n.nodeId === id) as TreeNode);
      expect(roots.map((n) => n.title)).toEqual(["Pages 1–5", "Pages 6–10", "Pages 11–15", "Pages 16–17"]);
      expect(roots.map((n) => [n.startPage, n.endPage])).toEqual([
        [1, 5],
        [6, 10],
        [11, 15],
        [16, 17],
      ]);
      expect(roots[0]?.text).toContain("Annual Report and Accounts 2023");
      expect(attemptsOf(tree).slice(-2)).toEqual([
        { path: "llm", used: false, detail: "mode partial, the model placed no section" },
        { path: "flat", used: true, detail: "4 page-range nodes" },
      ]);
      expect(warnings).toContain("no document structure found; the tree is made of page ranges");
    },
  );

  it("auto with a model: a 17-page report whose only headings are its cover's lines goes to the model", async () => {
    const pages = reportPages(REPORT);
    pages[0] = {
      lines: [
        { text: "Northwind Holdings plc", size: 22, bold: true },
        { text: "Annual Report and Accounts 2023", size: 16, bold: true, gap: 10 },
        "Registered in England No. 0412876",
      ],
    };
    const bytes = await buildPdf({ pages });
    // The cover is a title page: its lines name the document and are not sections.
    const offline = await load(bytes);
    expect(offline.build.structure).toBe("flat");
    expect(attemptsOf(offline)[1]).toMatchObject({ path: "layout", used: false });

    const tree = await load(bytes, { model: fakeModel() });
    expect(tree.build.structure).toBe("llm");
    const layout = attemptsOf(tree)[1];
    expect(layout).toMatchObject({ path: "layout", used: false });
    expect(layout?.detail).toMatch(/^found 0 heading\(s\)/);
    expect(outlineOf(tree).slice(1)).toEqual(REPORT_OUTLINE.slice(1));
  });

  it("auto with a model: every mode fails → verified sections plus page-range nodes for the rest", async () => {
    // The contents page is read with half its page numbers wrong (verification: ≤ 60 % right),
    // then locating titles and reading the pages fail, so only the verified entries survive.
    const wrong: Record<string, number> = { "1": 9, "2.1": 1, "3": 2, "3.2": 13, "4.1": 4 };
    let locates = 0;
    const model = fakeModel((prompt) => {
      switch (taskOf(prompt)) {
        case "table-of-contents transformation":
          return JSON.stringify({
            entries: readTocEntries(prompt).map((e) => ({ ...e, page: wrong[e.structure] ?? e.page })),
          });
        case "structure extraction":
          return new Error("400 context length exceeded");
        case "section location":
          // The offset lookup (the first location call) works; locating titles later does not.
          return ++locates > 1 ? "[]]]" : reportAnswer(prompt);
        default:
          return reportAnswer(prompt);
      }
    });
    const tree = await load(await reportPdf(), { model, retries: 0 });
    expect(tree.build.structure).toBe("llm");
    expect(attemptsOf(tree)[2]?.detail).toBe("mode partial, 3 sections placed, page ranges for the rest");
    expect(tree.build.warnings).toContain(
      "llm: no mode produced a verified structure; kept 3 verified section(s) from toc-with-pages and page-range nodes for the rest",
    );
    // The verified entries where the report has them; a page-range node for the pages before
    // them; no wrongly numbered entry survives.
    expect(outlineOf(tree)).toEqual([
      "Pages 1–10 (1-10)",
      "Board of directors (11-13)",
      "Financial statements (14-17)",
      "  Balance sheet (16-17)",
    ]);
    expect(byTitle(tree, "Board of directors").text.startsWith("3.1 Board of directors")).toBe(true);
  });

  it("structure: 'llm' forced and the model fails → still a page-range tree, not an exception", async () => {
    const model = fakeModel(() => new Error("401 invalid api key"));
    const tree = await load(await reportPdf(), { model, structure: "llm" });
    expect(tree.build.structure).toBe("flat");
    expect(attemptsOf(tree).map((a) => [a.path, a.used])).toEqual([
      ["llm", false],
      ["flat", true],
    ]);
    expect(tree.nodes.map((n) => n.title)).toEqual(["Pages 1–5", "Pages 6–10", "Pages 11–15", "Pages 16–17"]);
    expect(tree.build.warnings).toContain("llm: the model failed 3 calls in a row; stopped calling it");
  });

  it("structure: 'llm' without a model is refused before the file is read", async () => {
    expect(() => new PdfTreeLoader("report.pdf", { structure: "llm" })).toThrow(InvalidInputError);
    // Not even a PDF: the options are checked first.
    const refused = load(new TextEncoder().encode("not a pdf"), { structure: "llm", docName: "report.pdf" });
    await expect(refused).rejects.toBeInstanceOf(InvalidInputError);
    await expect(refused).rejects.toThrow('structure: "llm" needs a chat model (the model option)');
    await expect(refused).rejects.toMatchObject({ source: "report.pdf" });
  });

  it("splits a large section with the model when the layout finds no sub-headings", async () => {
    const bytes = await buildPdf({ pages: reportPages(CHAPTERS) });
    const events: PdfProgressEvent[] = [];
    const model = fakeModel();
    const tree = await load(bytes, {
      model,
      split: { maxPages: 2, maxTokens: 100 },
      onProgress: (e) => events.push(e),
    });

    expect(tree.build.structure).toBe("llm");
    expect(outlineOf(tree)).toEqual([
      "Preface (1-2)",
      "Chairman's statement (3-4)",
      "Strategic report (5-6)",
      "Governance (7-11)",
      "  Board of directors (8-9)",
      "  Remuneration report (10-11)",
      "Financial statements (12-13)",
    ]);
    expect(pdfMeta(tree).split).toEqual({ byLayout: 0, byLlm: 1, byPages: 0 });
    const governance = byTitle(tree, "Governance");
    expect(governance.ownEndPage).toBe(7);
    expect(governance.text).not.toContain("Board of directors");
    expect(byTitle(tree, "Board of directors").text.startsWith("3.1 Board of directors")).toBe(true);
    // Structure: 4 calls; the split: one reading of Governance's pages and one check.
    expect(callsByStep(tree)).toEqual({
      "toc-detect": 1,
      "toc-transform": 1,
      "toc-offset": 1,
      verify: 2,
      "no-toc-structure": 1,
    });
    const splitRead = model.prompts.find((p) => taskOf(p) === "structure extraction") ?? "";
    const shown = pagesOf(splitRead).map((p) => p.n);
    expect(shown).toEqual([7, 8, 9, 10, 11]);
    // The model is told which section it is reading.
    expect(splitRead).toContain("belong to one section of a larger document");
    expect(splitRead).toMatch(/titled: <toc>\s*Governance/);

    // Progress: model calls counted as they happen, during structure and during the split.
    const calls = events.map((e) => e.llmCalls);
    expect(calls).toEqual([...calls].sort((a, b) => a - b));
    expect(events.at(-1)).toMatchObject({ phase: "done", llmCalls: 6, pagesParsed: 13, pageCount: 13 });
    const structure = events.filter((e) => e.phase === "structure").map((e) => e.llmCalls);
    // Layout steps come first (no calls yet), then one event per model call.
    expect([...new Set(structure)]).toEqual([0, 1, 2, 3, 4]);
    const split = events.filter((e) => e.phase === "split").map((e) => e.llmCalls);
    expect([...new Set(split)]).toEqual([4, 5, 6]);
  });
});
