import type { TreeDocument, TreeNode } from "pageindex-store";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { body, buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const layout = async (pages: PageSpec[]): Promise<TreeDocument> =>
  pdfToTree(
    await buildPdf({ pages }),
    { structure: "layout", summaries: "none", split: false, preface: false },
    { name: "fixture.pdf" },
  );

/** "title (start-end)" lines, indented by level. */
const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} (${n.startPage}-${n.endPage})`);
const h = (text: string, size = 14, gap = 12): LineSpec => ({ text, size, bold: true, gap });
const roots = (tree: TreeDocument): TreeNode[] => tree.nodes.filter((n) => n.parentId === null);

describe("layout path: audit regressions", () => {
  it("a running head with a roman page number and a year is furniture, not a TOC entry", async () => {
    // Front matter numbered i, ii…, body 1, 2…: "ii<tab>Annual Report | 2023" heads the TOC's
    // second page and must not become an entry for page 2023 that swallows what follows.
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
    const section = (title: string, printed: number, seed: number): PageSpec => ({
      lines: [head(String(printed)), h(title, 16, 20), ...body(14, seed)],
    });
    const tree = await layout([
      { lines: [head("i"), h("Annual Report 2023", 22, 30), ...body(4, 1)] },
      {
        lines: [
          head("i"),
          h("Contents", 20, 20),
          toc("A Overview", 1),
          toc("B Monetary Policy", 2),
          toc("Developments in 2023", 2, 2),
          toc("C Supervision", 3),
        ],
      },
      {
        lines: [
          head("ii"),
          toc("Budgets of the Banks", 3, 2),
          toc("D Policy Actions", 4),
          toc("E Litigation", 5),
          toc("F Statistical Tables", 6),
        ],
      },
      section("A Overview", 1, 2),
      {
        lines: [
          head("2"),
          h("B Monetary Policy", 16, 20),
          ...body(6, 3),
          h("Developments in 2023", 12),
          ...body(6, 4),
        ],
      },
      {
        lines: [
          head("3"),
          h("C Supervision", 16, 20),
          ...body(6, 5),
          h("Budgets of the Banks", 12),
          ...body(6, 6),
        ],
      },
      section("D Policy Actions", 4, 7),
      section("E Litigation", 5, 8),
      section("F Statistical Tables", 6, 9),
    ]);
    expect(tree.nodes.some((n) => /Annual Report \|/.test(n.title))).toBe(false);
    expect(roots(tree).map((n) => `${n.title} ${n.startPage}`)).toEqual([
      "Annual Report 2023 1",
      "A Overview 4",
      "B Monetary Policy 5",
      "C Supervision 6",
      "D Policy Actions 7",
      "E Litigation 8",
      "F Statistical Tables 9",
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
});
