import {
  asksForBackMatter,
  branchOverview,
  createTree,
  detectBackMatter,
  isReadableSummary,
  looksLikePageList,
  meaningfulPageLabels,
  type NodeDraft,
  parseTree,
  physicalPagesOf,
  printedRange,
  readableSummary,
} from "pageindex-core";
import { describe, expect, it } from "vitest";

const misc: NodeDraft = {
  title: "7 R Miscellanea",
  text: "7 R Miscellanea",
  startPage: 40,
  children: [
    {
      title: "7.1 How can I sort the rows of a data frame?",
      text: "...",
      startPage: 40,
      endPage: 40,
      summary: "Use order() on one or more columns and index the data frame by the result.",
    },
    { title: "7.2 Why are factors confusing?", text: "...", startPage: 41, endPage: 41, summary: "F." },
    {
      title: "7.3 Floating point",
      text: "...",
      startPage: 42,
      endPage: 43,
      summary: "Why 0.1 + 0.2 == 0.3 is FALSE: binary fractions, all.equal() and tolerances in comparisons.",
    },
  ],
};

function tree(extra: Partial<NodeDraft> = {}) {
  return createTree(
    {
      docId: "faq",
      docName: "R FAQ",
      kind: "pdf",
      pageCount: 60,
      build: { loader: "t", structure: "outline" },
    },
    [{ ...misc, ...extra }],
  );
}

describe("readable summaries", () => {
  it("tells a summary from a bare heading, a variable name or a page number", () => {
    expect(isReadableSummary(undefined)).toBe(false);
    expect(isReadableSummary("R_DEFAULT_PACKAGES.", "Startup")).toBe(false);
    expect(isReadableSummary("7 R Miscellanea", "7 R Miscellanea")).toBe(false);
    expect(isReadableSummary("Chapter 1: Introduction 2", "Introduction")).toBe(false);
    expect(isReadableSummary("Explains how R finds its startup files and which variables it reads.")).toBe(
      true,
    );
  });

  it("gives a branch without an introduction an overview of its subsections, titles first", () => {
    const t = tree();
    const root = t.nodes[0];
    if (!root) throw new Error("no root");
    const text = readableSummary(t, root) ?? "";
    expect(text).toMatch(/^3 subsections: 7\.1 How can I sort/);
    expect(text).toContain("(Use order() on one or more columns");
    // "F." says nothing: the title alone.
    expect(text).toContain("; 7.2 Why are factors confusing?;");
    expect(text).toContain("7.3 Floating point");
    // A short budget keeps titles and counts the rest.
    expect(branchOverview([...t.nodes.slice(1)], 90)).toMatch(/and \d more$/);
    expect(branchOverview([...t.nodes.slice(1)], 90).length).toBeLessThanOrEqual(90);
  });

  it("prefers a readable introduction, then a stored branch summary", () => {
    const withIntro = tree({ prefixSummary: "Assorted questions on sorting, factors and floating point." });
    expect(readableSummary(withIntro, withIntro.nodes[0] as never)).toBe(
      "Assorted questions on sorting, factors and floating point.",
    );
    const stored = parseTree({
      ...tree(),
      nodes: tree().nodes.map((n, i) => (i === 0 ? { ...n, branchSummary: "Stored." } : n)),
    });
    expect(readableSummary(stored, stored.nodes[0] as never)).toBe("Stored.");
    expect(readableSummary(stored, stored.nodes[2] as never)).toBe("F.");
  });
});

describe("back matter", () => {
  it("is recognised by title, with numbering, and by the shape of its pages", () => {
    expect(detectBackMatter({ title: "Index" })).toBe("index");
    expect(detectBackMatter({ title: "Appendix C Concept Index", text: "" })).toBe("index");
    expect(detectBackMatter({ title: "Table of Contents" })).toBe("contents");
    expect(detectBackMatter({ title: "List of Figures" })).toBe("figures");
    expect(detectBackMatter({ title: "12. References" })).toBe("bibliography");
    expect(detectBackMatter({ title: "Glossary" })).toBe("glossary");
    const indexPage =
      "xls 23, 32 B cat 4, 27 close 22, 26 D F G H M N O odbcConnectExcel 12, 14 sqlQuery 8, 9, 31";
    expect(looksLikePageList(indexPage)).toBe(true);
    expect(detectBackMatter({ title: "Function index", summary: indexPage })).toBe("index");
    const toc = "Cover. Table of Contents Letter ........ 1 Business ....... 2 Risk Factors ...... 3";
    expect(detectBackMatter({ title: "Preface", text: toc })).toBe("contents");
  });

  it("leaves content alone, even when it is about indexes or contents", () => {
    expect(detectBackMatter({ title: "Indexing and selecting data" })).toBeUndefined();
    expect(
      detectBackMatter({ title: "Consumer price index", summary: "How inflation is measured." }),
    ).toBeUndefined();
    expect(
      detectBackMatter({ title: "Preface", text: "This book grew out of lecture notes." }),
    ).toBeUndefined();
    const prose =
      "Doxygen supports a special link marker which can be placed in a page to produce a table of contents. " +
      "The table lists all sections and subsections of the page with links to each of them in order.";
    expect(detectBackMatter({ title: "Table of Contents", text: prose })).toBeUndefined();
    expect(looksLikePageList("Revenue grew 9 % to 1,284 million in 2025 while costs fell.")).toBe(false);
  });

  it("is asked for only by questions that name it", () => {
    expect(asksForBackMatter("Where is the index entry for odbcConnect?", "index")).toBe(true);
    expect(asksForBackMatter("Show me the list of figures", "figures")).toBe(true);
    expect(asksForBackMatter("How do I connect to Excel?", "index")).toBe(false);
  });

  it("is stored on a node, and a tree without it stays valid", () => {
    const t = tree();
    const marked = {
      ...t,
      nodes: t.nodes.map((n, i) => (i === 3 ? { ...n, backMatter: "index" as const } : n)),
    };
    expect(parseTree(marked).nodes[3]?.backMatter).toBe("index");
    expect(parseTree(t).nodes[3]?.backMatter).toBeUndefined();
    expect(() =>
      parseTree({ ...marked, nodes: marked.nodes.map((n) => ({ ...n, backMatter: "cover" })) }),
    ).toThrow(/backMatter/);
  });
});

describe("page labels", () => {
  const labels = ["i", "ii", "iii", "iv", "1", "2", "3", "4", "A-1"];

  it("keeps labels only when they differ from the physical numbers", () => {
    expect(meaningfulPageLabels(null)).toBeUndefined();
    expect(meaningfulPageLabels(["1", "2", "3"])).toBeUndefined();
    expect(meaningfulPageLabels(labels)).toEqual(labels);
  });

  it("maps physical ranges to printed ones and printed numbers back", () => {
    expect(printedRange(labels, 5, 8)).toBe("1-4");
    expect(printedRange(labels, 2, 2)).toBe("ii");
    expect(printedRange(undefined, 5, 8)).toBeUndefined();
    expect(physicalPagesOf(labels, "4")).toEqual([8]);
    expect(physicalPagesOf(labels, "IV")).toEqual([4]);
    expect(physicalPagesOf(labels, "99")).toEqual([]);
    const all = [...labels, ...Array.from({ length: 51 }, (_, i) => String(i + 6))];
    const t = tree();
    expect(parseTree({ ...t, pageLabels: all }).pageLabels).toEqual(all);
    expect(() => parseTree({ ...t, pageLabels: labels })).toThrow(/9 labels for 60 pages/);
  });
});
