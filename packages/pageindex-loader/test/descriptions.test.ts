// Descriptions without a model: every loaded PDF and Markdown document gets one, made of what the
// document says about itself (metadata, title page, front matter, H1, first real paragraph,
// top-level sections), never of its first page's running text.
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { MarkdownTreeLoader, PageIndexLoader, pdfToTree } from "../src/index.js";
import { titlePage, usableTitle } from "../src/pdf/describe-facts.js";
import { body, buildPdf, type LineSpec, type PdfSpec } from "./fixtures/pdf-builder.js";
import { pdfLine } from "./fixtures/pdf-lines.js";

const markdown = (text: string, name = "doc.md") => MarkdownTreeLoader.fromText(text, { name }).loadTree();
const pdf = async (spec: PdfSpec, name = "doc.pdf") =>
  pdfToTree(await buildPdf(spec), { summaries: "none" }, { name });

const chapter = (title: string, seed: number): LineSpec[] => [
  { text: title, size: 16, bold: true, gap: 12 },
  ...body(8, seed),
];

describe("Markdown descriptions", () => {
  it("take the front matter's title and description, keywords and tags", async () => {
    const tree = await markdown(
      [
        "---",
        "title: Deployment Handbook",
        "description: How the platform team ships services to production.",
        "tags: [kubernetes, release]",
        "---",
        "# Handbook",
        "",
        "Welcome!",
        "",
        "## Build",
        "",
        "Build it.",
        "",
        "## Ship",
        "",
        "Ship it.",
      ].join("\n"),
    );
    expect(tree.description).toBe(
      "Deployment Handbook: How the platform team ships services to production. Keywords: kubernetes, release. Sections: Build, Ship.",
    );
  });

  it("without front matter: the only H1 and the first real paragraph, past badges, links and HTML", async () => {
    const tree = await markdown(
      [
        '<p align="center"><img src="logo.png" alt="Widget logo"></p>',
        "",
        "# Widget",
        "",
        "[![build](https://ci.test/badge.svg)](https://ci.test) [![npm](https://npm.test/v.svg)](https://npm.test)",
        "",
        "[Install](#install) | [Usage](#usage) | [License](#license)",
        "",
        "Contents",
        "",
        "Widget turns **spreadsheets** into typed APIs,",
        "with one command. It runs anywhere Node runs.",
        "",
        "## Install",
        "",
        "npm i widget",
        "",
        "## Usage",
        "",
        "widget build",
      ].join("\n"),
    );
    expect(tree.description).toBe(
      "Widget: Widget turns spreadsheets into typed APIs, with one command. It runs anywhere Node runs. Sections: Install, Usage.",
    );
    expect(tree.description).not.toMatch(/build|npm|logo|License/);
  });

  it("several H1s and no prose: the file name and the top-level titles", async () => {
    const tree = await markdown("# Part one\n\n- a\n- b\n\n# Part two\n\n- c\n", "notes.md");
    expect(tree.description).toBe("notes.md. Sections: Part one, Part two.");
  });

  it("an empty-ish document still gets one", async () => {
    expect((await markdown("#\n", "blank.md")).description).toBe("blank.md.");
    expect((await markdown("---\ntitle: Only metadata\n---\n", "meta.md")).description).toBe(
      "Only metadata.",
    );
    expect((await markdown("just a few words", "short.md")).description).toBe("short.");
  });

  it("with a model asked for it, the model's sentence; without asking, no call", async () => {
    const model = new FakeListChatModel({ responses: ['{"description": "A handbook for shipping."}'] });
    const text = "# Handbook\n\nHow we ship services to production every day.\n";
    const asked = await MarkdownTreeLoader.fromText(text, {
      name: "h.md",
      summaries: "none",
      description: true,
      model,
    }).loadTree();
    expect(asked.description).toBe("A handbook for shipping.");
    const quiet = new FakeListChatModel({ responses: ["never read"] });
    const notAsked = await MarkdownTreeLoader.fromText(text, {
      name: "h.md",
      summaries: "none",
      model: quiet,
    }).loadTree();
    expect(notAsked.description).toBe("Handbook: How we ship services to production every day.");
    expect(notAsked.build.usage?.calls).toBe(0);
  });
});

describe("PDF descriptions", () => {
  const titlePageSpec: PdfSpec = {
    pages: [
      {
        lines: [
          { text: "March 3, 2024", size: 10 },
          { text: "Harbour Authority", size: 26, bold: true, gap: 120 },
          { text: "Annual Safety Review", size: 26, bold: true },
          { text: "Incidents, inspections and training", size: 16, gap: 10 },
        ],
      },
      { lines: [...chapter("Incidents", 2), ...chapter("Inspections", 3)] },
      { lines: [...chapter("Training", 4), ...body(10, 5)] },
    ],
  };

  it("without metadata: the title page's largest lines and the subtitle under them, not the date or body text", async () => {
    const tree = await pdf(titlePageSpec, "review.pdf");
    expect(tree.description).toBe(
      "Harbour Authority Annual Safety Review — Incidents, inspections and training. Sections: Incidents, Inspections, Training.",
    );
  });

  it("with metadata: Title, Subject as the lead, Author and Keywords; the outline's sections", async () => {
    const tree = await pdf(
      {
        ...titlePageSpec,
        info: {
          title: "Harbour Authority Annual Safety Review 2023",
          subject: "Safety incidents, inspections and crew training at the port in 2023",
          keywords: ["safety", "port"],
          author: "Harbour Authority Safety Office",
        },
        outline: [
          { title: "Incidents", page: 2 },
          { title: "Inspections", page: 2, line: 9 },
          { title: "Training", page: 3 },
        ],
      },
      "review.pdf",
    );
    expect(tree.build.structure).toBe("outline");
    expect(tree.description).toBe(
      "Harbour Authority Annual Safety Review 2023 — Incidents, inspections and training (Harbour Authority Safety Office): Safety incidents, inspections and crew training at the port in 2023. Keywords: safety port. Sections: Incidents, Inspections, Training.",
    );
  });

  it("producer placeholders are not titles; an abstract gives the lead", async () => {
    expect(usableTitle("Microsoft Word - Budget Outlook.docx")).toBe("Budget Outlook");
    expect(usableTitle("report-2023_final.pdf")).toBeUndefined();
    expect(usableTitle("untitled")).toBeUndefined();
    const tree = await pdf(
      {
        info: { title: "paper.dvi", author: "Administrator" },
        pages: [
          {
            lines: [
              { text: "Tidal Models for Small Harbours", size: 18, bold: true },
              { text: "A. Author†, B. Author‡", size: 12 },
              { text: "Abstract", size: 12, bold: true, gap: 20 },
              { text: "We model tidal flow in small harbours with a shallow-water solver." },
              { text: "The model predicts silting within ten percent of surveys." },
              ...chapter("1 Introduction", 7),
            ],
          },
          { lines: [...chapter("2 Method", 8), ...chapter("3 Results", 9)] },
        ],
      },
      "paper.pdf",
    );
    expect(tree.description).toMatch(
      /^Tidal Models for Small Harbours: We model tidal flow in small harbours with a shallow-water solver\. The model predicts silting within ten percent of surveys\. Sections: .*Introduction/,
    );
    expect(tree.description).not.toMatch(/Author|Administrator|dvi/);
  });

  it("a page-range tree lists no 'Pages 1–5' sections; a one-line PDF still gets a description", async () => {
    const flat = await pdf(
      { pages: Array.from({ length: 3 }, (_, i) => ({ lines: body(20, i + 1) })) },
      "plain.pdf",
    );
    expect(flat.build.structure).toBe("flat");
    expect(flat.description).toBe("plain.pdf.");
    const tiny = await pdf({ pages: [{ lines: ["7"] }] }, "tiny.pdf");
    expect(tiny.description).toBe("tiny.pdf.");
  });

  it("is never the first page's running text", async () => {
    const tree = await pdf(
      {
        pages: [
          { lines: [...body(30, 11)] },
          { lines: [...chapter("Findings", 12), ...chapter("Outlook", 13)] },
        ],
      },
      "memo.pdf",
    );
    const firstLine = body(1, 11)[0]?.text ?? "";
    expect(tree.description).not.toContain(firstLine.slice(0, 30));
  });

  it("PageIndexLoader sets it too, for both formats", async () => {
    const bytes = await buildPdf(titlePageSpec);
    const fromPdf = await new PageIndexLoader(new File([bytes], "review.pdf")).loadTree();
    expect(fromPdf.description).toMatch(/^Harbour Authority Annual Safety Review/);
    const fromMd = await new PageIndexLoader(
      new File(["# Guide\n\nHow to use the guide well.\n"], "g.md"),
    ).loadTree();
    expect(fromMd.description).toBe("Guide: How to use the guide well.");
  });

  it("titlePage skips running heads (furniture) and byline lines", () => {
    const line = (text: string, size: number) => pdfLine(text, 700, size);
    const page = {
      pageNumber: 1,
      text: "",
      tokenCount: 0,
      top: 792,
      height: 792,
      lines: [
        line("ACME JOURNAL OF PORTS", 20),
        line("Silting in Small Harbours", 18),
        ...Array(20).fill(line("body text here", 10)),
      ],
    };
    expect(titlePage([page], new Map([[1, new Set([0])]]), { boldTitle: false }).title).toBe(
      "Silting in Small Harbours",
    );
  });
});
