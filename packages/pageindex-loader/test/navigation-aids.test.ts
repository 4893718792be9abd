import { findNode } from "pageindex-core";
import { MarkdownTreeLoader, PdfTreeLoader } from "pageindex-loader";
import { describe, expect, it } from "vitest";
import { summarizeBranches } from "../src/common/summarize.js";
import { body, buildPdf } from "./fixtures/pdf-builder.js";

const MARKDOWN = `# Miscellanea

## Sorting data frames

Use order() on one or more columns and index the data frame by the result; decreasing = TRUE reverses it.

## Factors

Factors store categories as integer codes with labels; levels() lists them and droplevels() removes unused ones.

# Index

cat 4, 27 close 22, 26 odbcConnectExcel 12, 14 sqlQuery 8, 9, 31 xls 23, 32 zoo 3, 5
`;

async function load(summaries?: "none" | "extractive") {
  return new MarkdownTreeLoader(new TextEncoder().encode(MARKDOWN), {
    docName: "faq.md",
    ...(summaries ? { summaries } : {}),
  }).loadTree();
}

describe("navigation aids written at index time", () => {
  it("gives a branch with an empty introduction a summary of what its subsections cover", async () => {
    const tree = await load();
    const misc = findNode(tree, (n) => n.title === "Miscellanea");
    expect(misc?.prefixSummary).toBeUndefined();
    expect(misc?.branchSummary).toMatch(/^2 subsections: Sorting data frames \(Use order\(\)/);
    expect(misc?.branchSummary).toContain("; Factors (store categories as integer codes");
    // Leaves keep their own summary and get no branch summary.
    expect(findNode(tree, (n) => n.title === "Factors")?.branchSummary).toBeUndefined();
  });

  it("marks back matter by title and page-list shape", async () => {
    const tree = await load();
    expect(findNode(tree, (n) => n.title === "Index")?.backMatter).toBe("index");
    expect(tree.nodes.filter((n) => n.backMatter)).toHaveLength(1);
  });

  it("writes no summaries when they are off; branch summaries then come from titles alone", async () => {
    const tree = await load("none");
    const misc = findNode(tree, (n) => n.title === "Miscellanea");
    expect(misc?.branchSummary).toBeUndefined();
    summarizeBranches(tree);
    expect(misc?.branchSummary).toBe("2 subsections: Sorting data frames; Factors");
    // A readable introduction makes the branch summary unnecessary (a stale one is removed).
    if (misc) misc.prefixSummary = "Assorted questions about sorting data frames and using factors in R.";
    summarizeBranches(tree);
    expect(misc?.branchSummary).toBeUndefined();
  });
});

describe("page labels", () => {
  it("keeps a PDF's printed page labels when they differ from the physical numbers", async () => {
    const pages = Array.from({ length: 4 }, (_, i) => ({ lines: [`Section ${i + 1}`, ...body(3, i + 1)] }));
    const outline = [
      { title: "Preface", page: 1 },
      { title: "Chapter 1", page: 3 },
    ];
    const labelled = await buildPdf({
      pages,
      outline,
      pageLabels: [
        { from: 1, style: "r" },
        { from: 3, style: "D" },
      ],
    });
    const tree = await new PdfTreeLoader(labelled, { docName: "labelled.pdf" }).loadTree();
    expect(tree.pageLabels).toEqual(["i", "ii", "1", "2"]);
    const plain = await new PdfTreeLoader(await buildPdf({ pages, outline }), {
      docName: "plain.pdf",
    }).loadTree();
    expect(plain.pageLabels).toBeUndefined();
  });
});
