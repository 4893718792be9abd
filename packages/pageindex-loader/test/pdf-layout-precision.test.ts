import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { hoistTrailingHeads } from "../src/pdf/read/lines.js";
import type { PdfLine } from "../src/pdf/types.js";
import { body, buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const layout = async (pages: PageSpec[]): Promise<TreeDocument> =>
  pdfToTree(
    await buildPdf({ pages }),
    { structure: "layout", summaries: "none", split: false, preface: false },
    { name: "fixture.pdf" },
  );

const titles = (tree: TreeDocument): string[] => tree.nodes.map((n) => n.title);
const h = (text: string, size = 14, gap = 12): LineSpec => ({ text, size, bold: true, gap });
const label = (text: string, gap = 8): LineSpec => ({ text, size: 10, bold: true, gap });
const small = (text: string): LineSpec => ({ text, size: 8 });

describe("layout path precision", () => {
  it("drops figure, table and box captions, source notes and 'continued' heads", async () => {
    const tree = await layout([
      { lines: [h("Overview", 16), ...body(10, 1), h("Figure 2.1. Revenue by segment", 12), ...body(6, 2)] },
      {
        lines: [
          h("Table 3 Operating expenses", 12),
          ...body(6, 3),
          h("Box 1.1. A sidebar on rates", 12),
          ...body(6, 4),
          h("Source: Federal Reserve staff", 12),
          ...body(6, 5),
        ],
      },
      { lines: [h("Results", 16), ...body(8, 6), h("Box 1.1—continued", 12), ...body(8, 7)] },
    ]);
    expect(titles(tree)).toEqual(["Overview", "Results"]);
  });

  it("drops table rows: a styled line of three or more cells", async () => {
    const tree = await layout([
      {
        lines: [
          h("Overview", 16),
          ...body(8, 1),
          { text: "", cells: ["Segment", "Region", "Sales channel"], size: 12, bold: true, gap: 12 },
          ...body(8, 2),
          h("Outlook", 16),
          ...body(8, 3),
        ],
      },
    ]);
    expect(titles(tree)).toEqual(["Overview", "Outlook"]);
  });

  it("drops labels over small print (a name over a job title), keeps a heading over body text", async () => {
    const tree = await layout([
      { lines: [h("Board of Governors", 16), ...body(10, 1)] },
      {
        lines: [
          h("Members", 12),
          ...body(4, 2),
          label("Jerome H. Powell", 14),
          small("Chair"),
          label("Lael Brainard", 14),
          small("Vice Chair (through"),
          small("February 20, 2023)"),
          h("Divisions and Officers", 12),
          ...body(6, 4),
        ],
      },
    ]);
    expect(titles(tree)).toEqual(["Board of Governors", "Members", "Divisions and Officers"]);
  });

  it("drops a run of same-looking labels with no body text between them (chart labels)", async () => {
    const tree = await layout([
      {
        lines: [
          h("Payment Services", 16),
          ...body(8, 1),
          label("Commercial checks collected", 20),
          { text: "33.8", size: 16, bold: true },
          label("Commercial ACH transfers"),
          { text: "157.9", size: 16, bold: true },
          label("Fedwire Funds transfers"),
          ...body(8, 2),
          h("Currency and Coin", 16),
          ...body(8, 3),
        ],
      },
    ]);
    expect(titles(tree)).toEqual(["Payment Services", "Currency and Coin"]);
  });

  it("keeps short real sections in a row: each is followed by body text", async () => {
    const tree = await layout([
      {
        lines: [
          h("Other Financial Information", 16),
          ...body(4, 1),
          label("Corporate Expenses", 14),
          ...body(2, 2),
          label("Restructuring Charges", 14),
          ...body(2, 3),
          label("Interest Expense", 14),
          ...body(2, 4),
          label("Income Taxes", 14),
          ...body(2, 5),
        ],
      },
    ]);
    expect(titles(tree)).toEqual([
      "Other Financial Information",
      "Corporate Expenses",
      "Restructuring Charges",
      "Interest Expense",
      "Income Taxes",
    ]);
  });

  it("drops six or more same-looking candidates crowding one page (a directory)", async () => {
    const entries = ["Class A", "Jeanne Hulit", "Sushil Tuli", "Class B", "Ronald Hanley", "Lauren Smith"];
    const tree = await layout([
      { lines: [h("Reserve Bank Directors", 16), ...body(10, 1)] },
      {
        lines: [
          h("District One", 14),
          ...body(3, 2),
          ...entries.flatMap((e, i) => [
            label(e, 12),
            { text: `Chief Executive Officer of the bank number ${i}` },
          ]),
        ],
      },
    ]);
    expect(titles(tree)).toEqual(["Reserve Bank Directors", "District One"]);
  });

  it("accepts a short bold line ending in a colon as a heading (colon dropped), not an unstyled one", async () => {
    const tree = await layout([
      {
        lines: [
          h("Quarterly Results", 16),
          ...body(4, 1),
          label("Key Points:", 14),
          ...body(4, 2),
          { text: "Revenue and operating income were as follows:", gap: 12 },
          ...body(4, 3),
          label("Guidance and Outlook:", 14),
          ...body(4, 4),
        ],
      },
    ]);
    expect(titles(tree)).toEqual(["Quarterly Results", "Key Points", "Guidance and Outlook"]);
  });

  /** A left-hand page's running foot at its fixed place, bold like a heading: "8 Chapter 2. Setup". */
  const foot = (text: string): PageSpec["drawnLast"] => [{ text, size: 10, bold: true, top: 700 }];

  it("drops a running foot that opens with the page's own number ('4 Chapter 1. Overview'), keeps the chapters", async () => {
    const chapters = ["1 Overview", "2 Setup", "3 Usage"];
    // A page of body text, then a chapter every third page; each even page ends with the book's
    // left-hand foot.
    const pages: PageSpec[] = Array.from({ length: 9 }, (_, i) => {
      const page = i + 2;
      const chapter = Math.floor(i / 3);
      const opening = i % 3 === 0 ? [h(chapters[chapter] as string, 18)] : [];
      const spec: PageSpec = { lines: [...opening, ...body(12, page)] };
      if (page % 2 === 0)
        spec.drawnLast = foot(`${page} Chapter ${chapter + 1}. ${chapters[chapter]?.slice(2)}`);
      return spec;
    });
    expect(titles(await layout([{ lines: body(12, 1) }, ...pages]))).toEqual(chapters);
  });

  it("drops the foot of a chapter's blank last page, which holds only the running head and the foot", async () => {
    const chapters = ["1 Overview", "2 Setup", "3 Usage"];
    // Chapters open on odd pages (3, 7, 11); each has a body page with the foot (even), a body
    // page (odd) and a blank left-hand page with the head and the foot (even, four pages apart).
    const head: LineSpec = { text: "Fixture Manual, Release 1.0", size: 10 };
    const pages: PageSpec[] = Array.from({ length: 12 }, (_, i) => {
      const page = i + 3;
      const name = chapters[Math.floor(i / 4)] as string;
      const lines = [
        [h(name, 18), ...body(12, page)],
        [head, ...body(12, page)],
        [head, ...body(12, page)],
        [head],
      ];
      const spec: PageSpec = { lines: lines[i % 4] as LineSpec[] };
      if (page % 2 === 0) spec.drawnLast = foot(`${page} Chapter ${name}`);
      return spec;
    });
    expect(titles(await layout([{ lines: body(12, 1) }, { lines: body(12, 2) }, ...pages]))).toEqual(
      chapters,
    );
  });

  it("keeps chapters of a page each, numbered in step with their pages ('1 Introduction' atop page 1, '2 Results' atop page 2)", async () => {
    const chapters = ["1 Introduction", "2 Results", "3 Outlook", "4 Appendix"];
    const pages: PageSpec[] = chapters.map((t, i) => ({ lines: [h(t, 14), ...body(12, i + 1)] }));
    expect(titles(await layout(pages))).toEqual(chapters);
  });

  it("sets an acronym title ('SSH') beside the pages of its look, not above them", async () => {
    const pages: PageSpec[] = ["SSH", "ssh", "ssh_file", "ssh_sftp"].map((title, i) => ({
      lines: [h(title, 16), ...body(8, i + 2), h("Functions", 12), ...body(8, i + 12)],
    }));
    const tree = await layout([{ lines: body(12, 1) }, ...pages]);
    expect(tree.nodes.filter((n) => n.level === 1).map((n) => n.title)).toEqual([
      "SSH",
      "ssh",
      "ssh_file",
      "ssh_sftp",
    ]);
  });

  it("reads a running head drawn last on the page before the page's body", async () => {
    const pages: PageSpec[] = [
      { lines: [h("Financial Statements", 16), ...body(20, 1)] },
      {
        lines: [h("Note 1. Basis of Presentation", 12), ...body(20, 2)],
        drawnLast: [{ text: "NOTES TO THE FINANCIAL STATEMENTS", size: 12, bold: true }],
      },
      { lines: [h("Note 2. Revenue", 12), ...body(20, 3)] },
    ];
    const tree = await layout(pages);
    const order = titles(tree);
    expect(order.indexOf("NOTES TO THE FINANCIAL STATEMENTS")).toBeGreaterThanOrEqual(0);
    expect(order.indexOf("NOTES TO THE FINANCIAL STATEMENTS")).toBeLessThan(
      order.indexOf("Note 1. Basis of Presentation"),
    );
    const note1 = tree.nodes.find((n) => n.title === "Note 1. Basis of Presentation");
    expect(note1?.text.startsWith("Note 1. Basis of Presentation")).toBe(true);
  });
});

describe("hoistTrailingHeads", () => {
  const line = (text: string, y: number, x = 72): PdfLine => ({
    text,
    size: 10,
    maxSize: 10,
    bold: false,
    italic: false,
    x,
    y,
    gapBefore: 0,
  });

  it("moves lines drawn last above the first line to the top, leaving a footer last, and recomputes gaps", () => {
    const out = hoistTrailingHeads(
      [line("body 1", 700), line("body 2", 688), line("HEADER", 760), line("58", 20)],
      792,
    );
    expect(out.map((l) => l.text)).toEqual(["HEADER", "body 1", "body 2", "58"]);
    expect(out.map((l) => l.gapBefore)).toEqual([32, 60, 12, 668]);
  });

  it("leaves two columns alone, even when the second starts higher than the first", () => {
    const lines = [
      line("left 1", 600),
      line("left 2", 588),
      line("right 1", 700, 320),
      line("right 2", 688, 320),
      line("right 3", 590, 320),
    ];
    expect(hoistTrailingHeads(lines, 792)).toBe(lines);
  });
});
