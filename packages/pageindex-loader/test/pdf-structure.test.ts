import { getNode, type TreeDocument, type TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { detectFormat } from "../src/auto-loader.js";
import {
  InvalidInputError,
  NotAPdfError,
  PageIndexLoader,
  type PdfProgressEvent,
  PdfStructureError,
  PdfTreeLoader,
  pdfToTree,
} from "../src/index.js";
import { body, buildPdf, type LineSpec, type PageSpec, tocPage } from "./fixtures/pdf-builder.js";

const load = (bytes: Uint8Array, options: Parameters<typeof pdfToTree>[1] = {}) =>
  pdfToTree(bytes, { summaries: "none", ...options }, { name: "fixture.pdf" });

/** "title (start-end)" lines, indented by level: compact to compare whole trees. */
function outlineOf(tree: TreeDocument): string[] {
  return tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} (${n.startPage}-${n.endPage})`);
}

const byTitle = (tree: TreeDocument, title: string): TreeNode => {
  const node = tree.nodes.find((n) => n.title === title);
  if (!node) throw new Error(`no node "${title}" in\n${outlineOf(tree).join("\n")}`);
  return node;
};

const h = (text: string, size: number, bold = true, gap = 12): LineSpec => ({ text, size, bold, gap });

describe("outline path", () => {
  const pages: PageSpec[] = [
    { lines: [h("Annual Report", 20), ...body(8, 1)] },
    { lines: [h("Introduction", 16), ...body(10, 2), h("Scope", 13), ...body(6, 3)] },
    { lines: body(20, 4) },
    { lines: [h("Results", 16), ...body(12, 5)] },
    { lines: body(10, 6) },
  ];
  const outline = [
    {
      title: "Introduction ........ 2",
      page: 2,
      line: 0,
      children: [{ title: "  Scope\t", page: 2, line: 11, named: true }],
    },
    { title: "Results", page: 4, line: 0, named: true },
  ];

  it("uses the bookmarks: cleaned titles, physical pages, nesting, Preface, shared page cut", async () => {
    const tree = await load(await buildPdf({ pages, outline }));
    expect(tree.build.structure).toBe("outline");
    expect(tree.pageCount).toBe(5);
    expect(outlineOf(tree)).toEqual([
      "Preface (1-1)",
      "Introduction (2-3)",
      "  Scope (2-3)",
      "Results (4-5)",
    ]);

    const intro = byTitle(tree, "Introduction");
    const scope = byTitle(tree, "Scope");
    // Both start on page 2: Introduction's own text stops at the Scope heading.
    expect(intro.ownEndPage).toBe(2);
    expect(intro.text.startsWith("Introduction")).toBe(true);
    expect(intro.text).not.toContain("Scope");
    expect(scope.text.startsWith("Scope")).toBe(true);
    expect(scope.text).not.toContain("Results");
    expect(byTitle(tree, "Preface").text).toContain("Annual Report");
    expect(tree.nodes.every((n) => n.tokenCount > 0)).toBe(true);
    expect(tree.metadata?.pdf).toMatchObject({ attempts: [{ path: "outline", used: true }] });
  });

  it("falls through to layout when the outline is one entry, or points outside the document", async () => {
    const thin = await load(await buildPdf({ pages, outline: [{ title: "Everything", page: 1 }] }));
    expect(thin.build.structure).toBe("layout");
    const meta = (thin.metadata?.pdf ?? {}) as {
      attempts: Array<{ path: string; used: boolean; detail: string }>;
    };
    const attempts = meta.attempts;
    expect(attempts[0]).toMatchObject({ path: "outline", used: false });
    expect(attempts[0]?.detail).toMatch(/too thin/);

    const outside = await load(
      await buildPdf({
        pages,
        outline: [
          { title: "A", page: 40 },
          { title: "B", page: 41 },
          { title: "C", page: 2 },
        ],
      }),
    );
    expect(outside.build.structure).toBe("layout");
    const outsideAttempts = (outside.metadata?.pdf as typeof meta | undefined)?.attempts ?? [];
    expect(outsideAttempts[0]).toMatchObject({
      path: "outline",
      used: false,
      detail: "2 of 3 bookmarks point outside the document or have no title",
    });
    expect(outsideAttempts[1]).toMatchObject({ path: "layout", used: true });

    await expect(load(await buildPdf({ pages }), { structure: "outline" })).rejects.toBeInstanceOf(
      PdfStructureError,
    );
  });

  it("drops a single bookmark that points nowhere and says so", async () => {
    const bytes = await buildPdf({
      pages,
      outline: [...outline, { title: "A", page: 2 }, { title: "B", page: 4 }, { title: "Ghost", page: 77 }],
    });
    const tree = await load(bytes);
    expect(tree.build.structure).toBe("outline");
    expect(tree.nodes.some((n) => n.title === "Ghost")).toBe(false);
    expect(tree.build.warnings?.join("\n")).toMatch(/1 bookmark/);
  });
});

describe("layout path", () => {
  it("builds a hierarchy from font sizes and weights", async () => {
    const bytes = await buildPdf({
      pages: [
        { lines: [h("Guide to Widgets", 22), ...body(6, 1), h("Chapter One Overview", 16), ...body(8, 2)] },
        { lines: [h("Background", 12.5), ...body(10, 3), h("Goals", 12.5), ...body(8, 4)] },
        { lines: [h("Chapter Two Design", 16), ...body(10, 5), h("Parts", 12.5), ...body(10, 6)] },
      ],
    });
    const tree = await load(bytes);
    expect(tree.build.structure).toBe("layout");
    expect(outlineOf(tree)).toEqual([
      "Guide to Widgets (1-3)",
      "  Chapter One Overview (1-2)",
      "    Background (2-2)",
      "    Goals (2-2)",
      "  Chapter Two Design (3-3)",
      "    Parts (3-3)",
    ]);
    expect(byTitle(tree, "Background").text).not.toContain("Goals");
  });

  it("nests by numbering when every heading has the same look", async () => {
    const plain = (text: string): LineSpec => ({ text, gap: 14 });
    const bytes = await buildPdf({
      pages: [
        {
          lines: [
            plain("PART I"),
            plain("Item 1. Business"),
            ...body(10, 1),
            plain("Item 1A. Risk Factors"),
            ...body(8, 2),
          ],
        },
        { lines: [plain("PART II"), plain("Item 7. Management's Discussion and Analysis"), ...body(12, 3)] },
        {
          lines: [
            h("1 Introduction", 11),
            ...body(5, 4),
            h("1.1 Motivation", 11),
            ...body(5, 5),
            h("1.1.1 History", 11),
            ...body(4, 6),
            h("2 Method", 11),
            ...body(5, 7),
          ],
        },
      ],
    });
    const tree = await load(bytes);
    expect(outlineOf(tree)).toEqual([
      "PART I (1-1)",
      "  Item 1. Business (1-1)",
      "  Item 1A. Risk Factors (1-1)",
      "PART II (2-3)",
      "  Item 7. Management's Discussion and Analysis (2-3)",
      "    1 Introduction (3-3)",
      "      1.1 Motivation (3-3)",
      "        1.1.1 History (3-3)",
      "    2 Method (3-3)",
    ]);
  });

  it("reads a printed table of contents whose page numbers are offset from physical pages", async () => {
    // Headings are plain body lines: only the printed TOC can find them.
    const section = (title: string, seed: number, printed: number): PageSpec => ({
      lines: [{ text: title, gap: 14 }, ...body(15, seed)],
      footer: String(printed),
    });
    const entries = [
      { title: "Overview of the Market", page: 1 },
      { title: "Customer Segments", page: 2, level: 2 },
      { title: "Pricing Strategy", page: 3, level: 2 },
      { title: "Financial Outlook", page: 5 },
    ];
    const bytes = await buildPdf({
      pages: [
        { lines: [h("Strategy Review 2024", 20), ...body(4, 1)] },
        tocPage(entries),
        section("Overview of the Market", 2, 1),
        section("Customer Segments", 3, 2),
        section("Pricing Strategy", 4, 3),
        { lines: body(20, 5), footer: "4" },
        section("Financial Outlook", 6, 5),
      ],
    });
    const tree = await load(bytes, { structure: "layout" });
    expect(tree.metadata?.pdf).toMatchObject({ printedToc: { pages: [2], offset: 2, placed: 4 } });
    const starts = Object.fromEntries(entries.map((e) => [e.title, byTitle(tree, e.title).startPage]));
    expect(starts).toEqual({
      "Overview of the Market": 3,
      "Customer Segments": 4,
      "Pricing Strategy": 5,
      "Financial Outlook": 7,
    });
    expect(byTitle(tree, "Customer Segments").parentId).toBe(byTitle(tree, "Overview of the Market").nodeId);
    // The TOC page itself is not a section heading source.
    expect(tree.nodes.filter((n) => n.title === "Pricing Strategy")).toHaveLength(1);
    expect(byTitle(tree, "Pricing Strategy").endPage).toBe(6);
  });

  it("reads a 10-K style index: running 'Table of Contents' header, subtitle lines, a 'Page' column header", async () => {
    const RUNNING = { text: "Table of Contents", size: 8 };
    const content = (lines: Array<LineSpec | string>, printed: number): PageSpec => ({
      lines: [RUNNING, ...lines],
      footer: String(printed),
    });
    const bytes = await buildPdf({
      pages: [
        { lines: [h("ACME CORPORATION", 20), "FORM 10-K", ...body(4, 1)] },
        {
          lines: [
            RUNNING,
            { text: "ACME CORPORATION", bold: true, gap: 20 },
            { text: "Index to the Form 10-K", bold: true },
            { text: "For the Fiscal Year Ended December 31, 2024", bold: true },
            { text: "", cells: ["PART I", "", "", "Page"], bold: true, gap: 8 },
            { text: "", cells: ["Item 1.", "Business", "1"] },
            { text: "", cells: ["Item 1A.", "Risk Factors", "2"] },
            { text: "", cells: ["PART II"], bold: true },
            { text: "", cells: ["Item 7.", "Management's Discussion", "3"] },
          ],
        },
        content([{ text: "PART I", bold: true, gap: 14 }, "Item 1. Business", ...body(12, 3)], 1),
        content(["Item 1A. Risk Factors", ...body(14, 4)], 2),
        content(
          [{ text: "PART II", bold: true, gap: 14 }, "Item 7. Management's Discussion", ...body(12, 5)],
          3,
        ),
      ],
    });
    const tree = await load(bytes, { structure: "layout" });
    expect(tree.metadata?.pdf).toMatchObject({ printedToc: { pages: [2], offset: 2 } });
    const titles = tree.nodes.map((n) => n.title);
    // The TOC's own subtitle lines are not sections, and the column header is not part of a title.
    expect(titles.some((t) => /Fiscal Year|Index to/.test(t))).toBe(false);
    expect(titles.some((t) => /\bPage\b/.test(t))).toBe(false);
    const partI = byTitle(tree, "PART I");
    expect([partI.startPage, partI.endPage]).toEqual([3, 4]);
    expect(partI.childIds.map((id) => getNode(tree, id)?.title)).toEqual([
      "Item 1. Business",
      "Item 1A. Risk Factors",
    ]);
    expect(byTitle(tree, "Item 1A. Risk Factors").startPage).toBe(4);
    expect(byTitle(tree, "PART II").startPage).toBe(5);
  });

  it("splits a section over the page and token budget: by sub-headings, else by page ranges", async () => {
    const long = (seed: number): PageSpec => ({ lines: body(40, seed) });
    const withSubheads: PageSpec[] = [
      { lines: [h("Main Section", 16), ...body(30, 1)] },
      long(2),
      { lines: [{ text: "FIRST TOPIC", gap: 14 }, ...body(30, 3)] },
      long(4),
      { lines: [{ text: "SECOND TOPIC", gap: 14 }, ...body(30, 5)] },
      long(6),
      { lines: [h("Closing", 16), ...body(5, 7)] },
    ];
    const bytes = await buildPdf({ pages: withSubheads });
    const tree = await load(bytes, { split: { maxPages: 2, maxTokens: 1000 } });
    const main = byTitle(tree, "Main Section");
    expect(main.childIds.map((id) => getNode(tree, id)?.title)).toEqual(["FIRST TOPIC", "SECOND TOPIC"]);
    expect(((tree.metadata?.pdf ?? {}) as { split: { byLayout: number } }).split.byLayout).toBe(1);

    const unsplit = await load(bytes, { split: false });
    expect(byTitle(unsplit, "Main Section").childIds).toHaveLength(0);

    const noSubheads = await buildPdf({
      pages: [
        { lines: [h("Only Heading", 16), ...body(30, 1)] },
        ...[2, 3, 4, 5, 6].map(long),
        { lines: [h("End", 16)] },
      ],
    });
    const ranged = await load(noSubheads, { split: { maxPages: 2, maxTokens: 1000 } });
    const only = byTitle(ranged, "Only Heading");
    const kids = only.childIds.map((id) => getNode(ranged, id) as TreeNode);
    // Each filler page holds ~600 tokens, so the 1000-token budget makes one node per page.
    expect(kids.map((k) => k.title)).toEqual(["Page 3", "Page 4", "Page 5", "Page 6"]);
    expect(kids.every((k) => k.tokenCount <= 1000)).toBe(true);
    expect(only.ownEndPage).toBe(2);
  });

  it("falls back to page ranges when nothing marks a heading", async () => {
    const bytes = await buildPdf({ pages: [1, 2, 3].map((s) => ({ lines: body(30, s) })) });
    const tree = await load(bytes);
    expect(tree.build.structure).toBe("flat");
    expect(tree.nodes.map((n) => n.title)).toEqual(["Pages 1–3"]);
    expect(tree.build.warnings?.join(" ")).toMatch(/page ranges/);
    await expect(load(bytes, { structure: "layout" })).rejects.toBeInstanceOf(PdfStructureError);
  });
});

describe("loader API", () => {
  const pdf = () =>
    buildPdf({
      pages: [
        { lines: [h("First Part", 16), ...body(12, 1)] },
        { lines: [h("Second Part", 16), ...body(12, 2)] },
      ],
    });

  it("load() returns node Documents; progress reports phases; summaries by default", async () => {
    const events: PdfProgressEvent[] = [];
    const loader = new PdfTreeLoader(new Blob([await pdf()]), {
      docName: "parts.pdf",
      onProgress: (e) => events.push(e),
    });
    const docs = await loader.load();
    expect(docs.map((d) => d.metadata.title)).toEqual(["First Part", "Second Part"]);
    expect(docs[0]?.metadata).toMatchObject({ docId: "parts.pdf", startPage: 1, endPage: 1, kind: "pdf" });
    expect(docs[0]?.metadata.summary).toBeTruthy();
    expect(docs[1]?.pageContent.startsWith("Second Part")).toBe(true);
    expect(events.filter((e) => e.phase === "parse").map((e) => e.pagesParsed)).toEqual([1, 2]);
    expect(events.at(-1)).toMatchObject({ phase: "done", pageCount: 2, llmCalls: 0 });
    expect(new Set(events.map((e) => e.phase))).toEqual(
      new Set(["parse", "structure", "split", "summarize", "done"]),
    );
    // The structure phase moves step by step, so a bar does not sit on the last parsed page.
    const steps = events.filter((e) => e.phase === "structure").map((e) => `${e.step}/${e.steps}`);
    expect(steps).toEqual(["0/3", "1/3", "2/3", "3/3"]);
  });

  it("lets timers run between structure steps (a timer-drawn progress bar redraws)", async () => {
    const seen = new Set<string>();
    let phase = "";
    let running = true;
    const turn = () => {
      seen.add(phase);
      if (running) setImmediate(turn);
    };
    setImmediate(turn);
    try {
      await new PdfTreeLoader(new Blob([await pdf()]), {
        summaries: "none",
        onProgress: (e) => {
          phase = `${e.phase}:${e.step ?? ""}`;
        },
      }).load();
    } finally {
      running = false;
    }
    // Other work ran while the structure was being built, not only after it.
    expect([...seen].filter((p) => p.startsWith("structure:")).length).toBeGreaterThanOrEqual(2);
  });

  it("rejects bad options at construction", () => {
    expect(() => new PdfTreeLoader("x.pdf", { structure: "llm" })).toThrow(InvalidInputError);
    expect(() => new PdfTreeLoader("x.pdf", { split: { maxPages: 0 } })).toThrow(InvalidInputError);
  });

  it("PageIndexLoader picks the PDF loader by content, Markdown otherwise", async () => {
    const fromPdf = await new PageIndexLoader(await pdf(), { pdf: { summaries: "none" } }).loadTree();
    expect(fromPdf.kind).toBe("pdf");
    const fromMd = await new PageIndexLoader({ text: "# Title\n\nBody text.", name: "notes.md" }).loadTree();
    expect(fromMd.kind).toBe("markdown");
    // Content wins over a wrong extension; a ".pdf" name (any case) without the header goes to
    // the PDF loader, which says it is not a PDF instead of indexing it as text.
    const misnamed = new File([await pdf()], "notes.md");
    expect((await new PageIndexLoader(misnamed, { pdf: { summaries: "none" } }).loadTree()).kind).toBe("pdf");
    const fake = new PageIndexLoader({ text: "# Not a PDF", name: "SCAN.PDF" }).loadTree();
    await expect(fake).rejects.toBeInstanceOf(NotAPdfError);
    expect(detectFormat(new TextEncoder().encode("# Title"), "notes.txt")).toBe("markdown");
    expect(detectFormat(new TextEncoder().encode("# Title"), "report.pdf")).toBe("pdf");
    expect(detectFormat(new TextEncoder().encode("%PDF-1.7\n"))).toBe("pdf");
  });
});
