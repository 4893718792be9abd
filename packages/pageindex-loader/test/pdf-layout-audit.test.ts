import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { assembleLines, type RawTextItem } from "../src/pdf/read/lines.js";
import { findFurniture } from "../src/pdf/structure/style.js";
import { judgeLayout } from "../src/pdf/structure/sufficiency.js";
import type { ParsedPage, PdfLine, SectionEntry } from "../src/pdf/types.js";
import { layoutTree } from "./fixtures/layout-tree.js";
import { body, buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const layout = layoutTree;

/** "title (start-end)" lines, indented by level. */
const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} (${n.startPage}-${n.endPage})`);
const h = (text: string, size = 14, gap = 12): LineSpec => ({ text, size, bold: true, gap });

describe("layout path: audit regressions", () => {
  it("a running head with a roman page number and a year is furniture, not a TOC entry", async () => {
    // Front matter numbered i, ii…, body 1, 2…; the head "ii<tab>Annual Report | 2023" is on
    // left-hand pages only, not on chapter openings, so its nearest repeat is three pages away.
    // It must not become a TOC entry (page 2023, or a title joined to the next line) that
    // swallows what follows.
    const head = (printed: string): LineSpec => ({
      text: "",
      cells: [printed, "Annual Report | 2023"],
      size: 9,
    });
    const toc = (title: string, page: number, level = 1): LineSpec => ({
      text: `${title} ${".".repeat(Math.max(3, 60 - title.length))} ${page}`,
      indent: (level - 1) * 18,
      bold: level === 1,
    });
    const opening = (title: string, seed: number, sub?: string): PageSpec => ({
      lines: [h(title, 16, 20), ...body(6, seed), ...(sub ? [h(sub, 12), ...body(6, seed + 50)] : [])],
    });
    const left = (printed: number, seed: number): PageSpec => ({
      lines: [head(String(printed)), ...body(14, seed)],
    });
    const tree = await layout([
      { lines: [h("Annual Report 2023", 22, 30), ...body(4, 1)] },
      {
        lines: [
          h("Contents", 20, 20),
          toc("A Overview", 1),
          toc("B Monetary Policy", 2),
          toc("Developments in 2023", 2, 2),
          toc("C Supervision", 4),
        ],
      },
      {
        lines: [
          head("ii"),
          toc("Budgets of the Banks", 4, 2),
          toc("D Policy Actions", 6),
          toc("E Litigation", 8),
          toc("F Statistical Tables", 9),
        ],
      },
      opening("A Overview", 2),
      opening("B Monetary Policy", 3, "Developments in 2023"),
      left(3, 4),
      opening("C Supervision", 5, "Budgets of the Banks"),
      left(5, 6),
      opening("D Policy Actions", 7),
      left(7, 8),
      opening("E Litigation", 9),
      { lines: [head("9"), h("F Statistical Tables", 16, 20), ...body(10, 10)] },
    ]);
    expect(tree.nodes.some((n) => /Annual Report \|/.test(n.title))).toBe(false);
    // The report's title, set above every heading on its first page beside text, is the
    // document's title (document-shape.ts leadingTitle), not a section before the chapters.
    expect(tree.metadata?.pdf).toMatchObject({ titlePage: "Annual Report 2023" });
    expect(outline(tree)).toEqual([
      "A Overview (4-4)",
      "B Monetary Policy (5-6)",
      "  Developments in 2023 (5-6)",
      "C Supervision (7-8)",
      "  Budgets of the Banks (7-8)",
      "D Policy Actions (9-10)",
      "E Litigation (11-11)",
      "F Statistical Tables (12-12)",
    ]);
  });

  it("a person's initial is not letter numbering: a directory of names is not a list of sections", async () => {
    const person = (name: string, role: string): LineSpec[] => [
      { text: name, size: 10, bold: true, gap: 9 },
      { text: role, size: 8 },
    ];
    const tree = await layout([
      { lines: [h("Overview", 16), ...body(12, 1)] },
      {
        lines: [
          h("Division of Research", 16),
          ...person("Nellisha Ramdass", "Deputy Director"),
          ...person("J. David Lopez-Salido", "Senior Associate Director"),
          ...person("Matthew M. Luecke", "Senior Associate Director"),
          ...person("S. Wayne Passmore", "Associate Director"),
          ...person("V. Nicole Bynum", "Assistant Director"),
        ],
      },
      {
        lines: [
          h("Directors", 16),
          ...body(4, 2),
          ...person("R. Glenn Sherrill Jr., 2023", "Chairman, SteelFab Inc."),
          ...person("Bernett William Mazyck, 2024", "President, Community Development"),
        ],
      },
      {
        lines: [
          h("Appendix", 16),
          h("A. First Topic", 12),
          ...body(6, 3),
          h("B. Second Topic", 12),
          ...body(6, 4),
          h("D. Fourth Topic", 12),
          ...body(6, 5),
        ],
      },
    ]);
    expect(outline(tree)).toEqual([
      "Overview (1-1)",
      "Division of Research (2-2)",
      "Directors (3-3)",
      "Appendix (4-4)",
      "  A. First Topic (4-4)",
      "  B. Second Topic (4-4)",
      "  D. Fourth Topic (4-4)",
    ]);
  });

  it("folds edge roman page numbers in linear time, even on a page-top line of 300k blanks", () => {
    const line = (text: string, y: number): PdfLine => ({
      text,
      size: 10,
      maxSize: 10,
      bold: false,
      italic: false,
      x: 72,
      y,
      gapBefore: 0,
    });
    const page = (n: number, head: string): ParsedPage => ({
      pageNumber: n,
      text: "",
      tokenCount: 0,
      top: 792,
      height: 792,
      lines: [line(head, 760), line("Body text of the page.", 400)],
    });
    const heads = ["Annual Report | ii", "Annual Report | iii", "Annual Report | 1", "Annual Report | 2"];
    const pages = heads.map((head, i) => page(i + 1, head));
    pages.push(page(5, `-${" ".repeat(300_000)}x`));
    const started = performance.now();
    const furniture = findFurniture(pages);
    // Linear, not quadratic (that took minutes); the bound leaves room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(20_000);
    // Roman front-matter numbers and arabic body numbers make one running head.
    expect([1, 2, 3, 4].map((n) => furniture.get(n)?.has(0))).toEqual([true, true, true, true]);
  });

  it("an outline's roman numbers count apart from its letters: II. after I., A., B. is not an initial", async () => {
    const b = (text: string): LineSpec => ({ text, size: 11, bold: true, gap: 12 });
    const tree = await layout([
      {
        lines: [
          h("Report", 18),
          ...body(4, 1),
          b("I. Background"),
          ...body(4, 2),
          b("A. Data"),
          ...body(4, 3),
        ],
      },
      {
        lines: [
          b("B. Methods"),
          ...body(4, 4),
          b("II. Results"),
          ...body(4, 5),
          b("A. Findings"),
          ...body(4, 6),
        ],
      },
    ]);
    expect(outline(tree)).toEqual([
      "Report (1-2)",
      "  I. Background (1-2)",
      "    A. Data (1-1)",
      "    B. Methods (2-2)",
      "  II. Results (2-2)",
      "    A. Findings (2-2)",
    ]);
  });

  it("a numbered 'Note 12 —' parents the same-look headings up to the next note; after the series they are siblings", async () => {
    const b = (text: string, gap = 12): LineSpec => ({ text, size: 10, bold: true, gap });
    const tree = await layout([
      {
        lines: [
          h("Notes to the Financial Statements", 16),
          ...body(4, 1),
          b("Note 11 — Leases"),
          ...body(8, 2),
        ],
      },
      {
        lines: [
          b("Note 12 — Income Taxes"),
          ...body(5, 3),
          b("Deferred Tax Assets"),
          ...body(5, 4),
          b("Uncertain Tax Positions"),
          ...body(5, 5),
        ],
      },
      { lines: [b("Note 13 — Legal Proceedings"), ...body(6, 6), b("Pending Matters"), ...body(6, 7)] },
      { lines: [b("Note 14 — Segments"), ...body(6, 10), b("Quarterly Financial Data"), ...body(8, 8)] },
      { lines: [b("Signatures"), ...body(6, 9)] },
    ]);
    expect(outline(tree)).toEqual([
      "Notes to the Financial Statements (1-5)",
      "  Note 11 — Leases (1-1)",
      "  Note 12 — Income Taxes (2-2)",
      "    Deferred Tax Assets (2-2)",
      "    Uncertain Tax Positions (2-2)",
      "  Note 13 — Legal Proceedings (3-3)",
      "    Pending Matters (3-3)",
      "  Note 14 — Segments (4-4)",
      // After the series' last member there is no telling its sub-headings from what follows
      // the notes: same-look headings there are siblings.
      "  Quarterly Financial Data (4-4)",
      "  Signatures (5-5)",
    ]);
  });

  it("'Chapter IV' in body type after a gap is a heading that nests its numbered sections", async () => {
    const tree = await layout([
      { lines: [h("Handbook", 20), ...body(6, 1)] },
      {
        lines: [
          { text: "Chapter III Scope", gap: 18 },
          ...body(6, 2),
          h("1.1 Who Is Covered", 12),
          ...body(6, 3),
        ],
      },
      {
        lines: [
          { text: "Chapter IV Enforcement", gap: 18 },
          ...body(6, 4),
          h("1.1 Penalties", 12),
          ...body(5, 5),
          h("1.2 Appeals", 12),
          ...body(5, 6),
        ],
      },
    ]);
    expect(outline(tree)).toEqual([
      "Handbook (1-1)",
      // A PART/Chapter keyword outranks a bare styled title.
      "Chapter III Scope (2-2)",
      "  1.1 Who Is Covered (2-2)",
      "Chapter IV Enforcement (3-3)",
      "  1.1 Penalties (3-3)",
      "  1.2 Appeals (3-3)",
    ]);
  });

  it("joins a heading wrapped at the column edge, not a stack of short headings; a 'Page' column header is no heading", async () => {
    const b = (text: string, gap = 12): LineSpec => ({ text, size: 10, bold: true, gap });
    const tree = await layout([
      { lines: [h("Annual Report", 20), ...body(10, 1)] },
      {
        lines: [
          b("Index to the Financial Statements"),
          { text: "Page", bold: true, indent: 380, gap: 6 },
          ...body(4, 2),
          b("Notes to the Consolidated Financial Statements"),
          b("Summary of Business Segment Data", 0),
          ...body(8, 3),
        ],
      },
      {
        lines: [
          h("Quantitative and Qualitative Disclosures About Market"),
          h("Risk Exposure", 14, 0),
          ...body(6, 4),
          h("Liquidity and Capital Resources of the"),
          h("Company", 14, 0),
          ...body(6, 5),
        ],
      },
    ]);
    expect(tree.nodes.map((n) => n.title)).toEqual([
      "Annual Report",
      "Index to the Financial Statements",
      "Notes to the Consolidated Financial Statements",
      "Summary of Business Segment Data",
      "Quantitative and Qualitative Disclosures About Market Risk Exposure",
      "Liquidity and Capital Resources of the Company",
    ]);
  });

  it("author, affiliation and e-mail lines under a paper's title are not headings", async () => {
    const tree = await layout([
      {
        lines: [
          h("Similarity Search at Scale", 18),
          h("Yu Tang†, Leong Hou U‡, Nikos Mamoulis†", 12),
          h("†The University of Hong Kong ‡University of Macau", 11),
          h("{ytang, nikos}@cs.hku.hk ‡ryanlhu@umac.mo", 11),
          h("ABSTRACT", 12),
          ...body(8, 1),
          h("1. INTRODUCTION", 12),
          ...body(10, 2),
        ],
      },
      { lines: [h("2. RELATED WORK", 12), ...body(12, 3)] },
    ]);
    expect(tree.nodes.map((n) => n.title)).toEqual([
      "Similarity Search at Scale",
      "ABSTRACT",
      "1. INTRODUCTION",
      "2. RELATED WORK",
    ]);
  });

  it("a section sign before a number heads a statute's section; it is no affiliation mark", async () => {
    const tree = await layout([
      { lines: [h("Model Act", 18), ...body(6, 1), h("§ 1 Scope", 12), ...body(8, 2)] },
      { lines: [h("§ 2 Definitions", 12), ...body(8, 3), h("§ 3 Penalties", 12), ...body(8, 4)] },
    ]);
    expect(tree.nodes.map((n) => n.title)).toEqual([
      "Model Act",
      "§ 1 Scope",
      "§ 2 Definitions",
      "§ 3 Penalties",
    ]);
  });

  it("a word hyphenated across a heading's two lines is one word again; a numbered title's hanging line joins it", async () => {
    const tree = await layout([
      { lines: [h("1.6 Signatures"), ...body(8, 1)] },
      { lines: [h("1.7 Coercive Signature Match-"), h("ing", 14, 0), ...body(8, 2)] },
      {
        lines: [
          h("2 Programming with ML", 16),
          { text: "Modules", size: 16, bold: true, indent: 24 },
          ...body(8, 3),
          h("Results", 16),
          h("Discussion", 16, 0),
          ...body(6, 4),
        ],
      },
    ]);
    expect(tree.nodes.map((n) => n.title)).toEqual([
      "1.6 Signatures",
      "1.7 Coercive Signature Matching",
      "2 Programming with ML Modules",
      "Results",
      "Discussion",
    ]);
  });

  it("a whitespace item far narrower than a word space is a kern, not a word break (TeX output)", () => {
    // pdf.js items of "the types are." as a TeX PDF gives them: a 0.36 pt " " inside "types".
    const item = (str: string, x: number, width: number): RawTextItem => ({
      str,
      transform: [1, 0, 0, 12, x, 700],
      width,
      height: 12,
      fontName: "f1",
      hasEOL: false,
    });
    const lines = assembleLines(
      [
        item("the", 178.56, 16.2),
        item(" ", 194.76, 3.96),
        item("t", 198.72, 4.56),
        item("yp", 202.92, 12.6),
        item(" ", 215.52, 0.36),
        item("es", 215.88, 9.72),
        item(" ", 225.6, 4.08),
        item("are.", 229.68, 18.84),
      ],
      () => ({ bold: false, italic: false }),
      792,
    );
    expect(lines.map((l) => l.text)).toEqual(["the types are."]);
  });

  it("a line's weight counts its visible characters: no spaces of any width, no leader runs", () => {
    // A bold title, then a regular run of an em space, dot leaders, two no-break spaces and the
    // page number: 5 bold characters of 7 visible, so the line is bold.
    const item = (str: string, x: number, width: number, fontName: string): RawTextItem => ({
      str,
      transform: [12, 0, 0, 12, x, 700],
      width,
      height: 12,
      fontName,
      hasEOL: false,
    });
    const lines = assembleLines(
      [item("Intro", 100, 30, "bold"), item("\u2003......\u00a0\u00a012", 131, 60, "regular")],
      (font) => ({ bold: font === "bold", italic: false }),
      792,
    );
    expect(lines.map((l) => [l.text, l.bold])).toEqual([["Intro\u2003...... 12", true]]);
    // Spaced dots (Texinfo's ". . . .") are leaders too: 5 bold of 7, bold.
    const spaced = assembleLines(
      [item("Intro", 100, 30, "bold"), item(" . . . . . . 12", 131, 60, "regular")],
      (font) => ({ bold: font === "bold", italic: false }),
      792,
    );
    expect(spaced.map((l) => [l.text, l.bold])).toEqual([["Intro . . . . . . 12", true]]);
    // A lone dot ends a sentence and still counts.
    const sentence = assembleLines(
      [item("Intro", 100, 30, "bold"), item(" a. b. c. d. e. f.", 131, 60, "regular")],
      (font) => ({ bold: font === "bold", italic: false }),
      792,
    );
    expect(sentence.map((l) => l.bold)).toEqual([false]);
  });

  it("page labels map a printed TOC's numbers, roman ones too, when titles cannot vote for an offset", async () => {
    // Headings drawn differently from their TOC titles ("Foreword" vs "A word first"): no title
    // is found, so only the PDF's page labels (i, ii, iii, then 1, 2…) can place the entries.
    const toc = (title: string, printed: string): LineSpec => ({
      text: `${title} ${".".repeat(40)} ${printed}`,
    });
    const page = (title: string, seed: number): PageSpec => ({
      lines: [h(title, 16, 20), ...body(12, seed)],
    });
    const pages: PageSpec[] = [
      { lines: [h("Field Manual", 22, 30), ...body(3, 1)] },
      {
        lines: [
          h("Contents", 18, 20),
          toc("Foreword", "iii"),
          toc("Getting Started", "1"),
          toc("Maintenance", "3"),
          toc("Troubleshooting", "4"),
        ],
      },
      page("A word first", 2),
      page("Before you begin", 3),
      { lines: body(20, 4) },
      page("Keeping it running", 5),
      page("When things go wrong", 6),
    ];
    const labels = [
      { from: 1, style: "r" as const },
      { from: 4, style: "D" as const },
    ];
    const read = async (withLabels: boolean) =>
      pdfToTree(
        await buildPdf({ pages, ...(withLabels ? { pageLabels: labels } : {}) }),
        { structure: "layout", summaries: "none", split: false, preface: false },
        { name: "fixture.pdf" },
      );
    const starts = (tree: TreeDocument) =>
      Object.fromEntries(
        ["Foreword", "Getting Started", "Maintenance", "Troubleshooting"].map((t) => [
          t,
          tree.nodes.find((n) => n.title === t)?.startPage,
        ]),
      );
    expect(starts(await read(true))).toEqual({
      Foreword: 3,
      "Getting Started": 4,
      Maintenance: 6,
      Troubleshooting: 7,
    });
    // Without labels the printed numbers cannot be mapped: the entries are not placed.
    expect(Object.values(starts(await read(false))).every((p) => p === undefined)).toBe(true);
  });

  it("judges layout headings by density and coverage before skipping a model", () => {
    const at = (...pages: number[]): SectionEntry[] =>
      pages.map((page) => ({ title: `p${page}`, page, children: [] }));
    expect(judgeLayout(at(1, 5, 9), 12)).toEqual({ ok: true });
    // Nested starts count too.
    expect(judgeLayout([{ title: "a", page: 1, children: at(6, 12) }], 15)).toEqual({ ok: true });
    expect(judgeLayout(at(1, 1), 10).shortfall).toBe("1 section start(s)");
    expect(judgeLayout(at(3, 50, 90), 100).shortfall).toBe(
      "sections start on 3 pages of 100, fewer than one per 20",
    );
    // A third of 60 pages is 20: pages 21-45 without a start are too many.
    expect(judgeLayout(at(1, 5, 10, 20, 46, 50), 60).shortfall).toBe(
      "no section starts on pages 21–45 (25 pages)",
    );
    // The tail after the last heading counts.
    expect(judgeLayout(at(1, 2, 3), 20).shortfall).toBe("no section starts on pages 4–20 (17 pages)");
  });
});
