import {
  createTree,
  findNode,
  type NodeDraft,
  renderToc,
  type TreeDocument,
  type TreeNode,
} from "pageindex-core";
import { describe, expect, it } from "vitest";

const drafts: NodeDraft[] = [
  {
    title: "Guide",
    text: "# Guide\nIntro.",
    startLine: 1,
    ownEndLine: 2,
    prefixSummary: "What the guide is for.",
    children: [
      {
        title: "Install",
        text: "## Install\nRun it.",
        startLine: 3,
        endLine: 9,
        summary: `Install steps:\n  download,\tunpack and run ${"the installer ".repeat(6).trim()}.`,
      },
      {
        title: "Usage",
        text: "## Usage",
        startLine: 10,
        children: [{ title: "Flags", text: "### Flags\n--fast", startLine: 11, endLine: 12 }],
      },
    ],
  },
  { title: "Install", text: "# Install (appendix)", startLine: 13, endLine: 13, summary: "Appendix." },
];

function sampleTree(): TreeDocument {
  return createTree(
    {
      docId: "guide.md",
      docName: "guide.md",
      kind: "markdown",
      lineCount: 13,
      build: { loader: "test", structure: "headings" },
      createdAt: "2026-01-01T00:00:00.000Z",
    },
    drafts,
  );
}

describe("findNode", () => {
  it("returns the first match in pre-order and stops walking there", () => {
    const tree = sampleTree();
    const visited: string[] = [];
    const found = findNode(tree, (n: TreeNode) => {
      visited.push(n.nodeId);
      return n.title === "Install";
    });
    expect(found?.nodeId).toBe("0001");
    expect(visited).toEqual(["0000", "0001"]);
    expect(findNode(tree, (n) => n.level === 3)?.title).toBe("Flags");
  });

  it("returns undefined when nothing matches, after visiting every node once", () => {
    const tree = sampleTree();
    let calls = 0;
    expect(
      findNode(tree, () => {
        calls += 1;
        return false;
      }),
    ).toBeUndefined();
    expect(calls).toBe(5);
  });

  it("follows the links, not the order of the nodes array", () => {
    const tree = sampleTree();
    const shuffled = { rootIds: tree.rootIds, nodes: [...tree.nodes].reverse() };
    expect(findNode(shuffled, (n) => n.title === "Install")?.nodeId).toBe("0001");
  });
});

describe("renderToc with summaries", () => {
  it("puts each summary (or prefix summary) on the next line, one line, indented one step deeper", () => {
    expect(renderToc(sampleTree(), { summaries: true, summaryChars: 40 }).split("\n")).toEqual([
      "[0000] Guide (lines 1-12)",
      "  What the guide is for.",
      "  [0001] Install (lines 3-9)",
      "    Install steps: download, unpack and run…",
      "  [0002] Usage (lines 10-12)",
      "    [0003] Flags (lines 11-12)",
      "[0004] Install (lines 13-13)",
      "  Appendix.",
    ]);
  });

  it("keeps summaries whole up to summaryChars (default 200) and respects maxDepth, ids and indent", () => {
    const toc = renderToc(sampleTree(), {
      summaries: true,
      maxDepth: 2,
      ids: false,
      ranges: false,
      indent: "- ",
    });
    expect(toc.split("\n")).toEqual([
      "Guide",
      "- What the guide is for.",
      "- Install",
      "- - Install steps: download, unpack and run the installer the installer the installer the installer the installer the installer.",
      "- Usage",
      "Install",
      "- Appendix.",
    ]);
    expect(renderToc(sampleTree(), { summaries: false })).not.toContain("Appendix.");
  });
});
