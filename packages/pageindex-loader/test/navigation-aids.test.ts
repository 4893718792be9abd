import { MarkdownTreeLoader, summarizeBranches } from "pageindex-loader";
import { findNode } from "pageindex-store";
import { describe, expect, it } from "vitest";

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
