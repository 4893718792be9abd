import {
  checkTreeLinks,
  checkTreeStructure,
  createTree,
  documentsToTree,
  fromPageIndexJson,
  getNode,
  type NodeDraft,
  nodeDocumentId,
  parseTree,
  pathToRoot,
  renderToc,
  subtreeText,
  subtreeTokenCount,
  type TreeDocument,
  type TreeNode,
  TreeValidationError,
  toDocId,
  toPageIndexJson,
  treeToDocuments,
  walk,
} from "pageindex-core";
import { describe, expect, it } from "vitest";

const drafts: NodeDraft[] = [
  { title: "Cover", text: "Acme Corp annual report", startPage: 1 },
  {
    title: "Item 7. Management's Discussion",
    text: "Item 7 intro",
    startPage: 3,
    ownEndPage: 3,
    children: [
      { title: "Results of Operations", text: "Revenue grew 12%.", startPage: 3, endPage: 5 },
      { title: "Liquidity", text: "Cash was $2B.", startPage: 6, endPage: 7 },
    ],
  },
  {
    title: "Item 8. Financial Statements",
    text: "",
    startPage: 8,
    children: [{ title: "Note 1", text: "Basis of presentation", startPage: 9, endPage: 12 }],
  },
];

function sampleTree(): TreeDocument {
  return createTree(
    {
      docId: "acme-10k",
      docName: "acme-10k.pdf",
      kind: "pdf",
      pageCount: 12,
      build: { loader: "test", structure: "outline" },
      createdAt: "2026-01-01T00:00:00.000Z",
    },
    drafts,
  );
}

describe("createTree", () => {
  it("assigns pre-order ids, levels, links and union ranges", () => {
    const tree = sampleTree();
    expect(tree.rootIds).toEqual(["0000", "0001", "0004"]);
    expect(tree.nodes.map((n) => [n.nodeId, n.level, n.parentId, n.childIds])).toEqual([
      ["0000", 1, null, []],
      ["0001", 1, null, ["0002", "0003"]],
      ["0002", 2, "0001", []],
      ["0003", 2, "0001", []],
      ["0004", 1, null, ["0005"]],
      ["0005", 2, "0004", []],
    ]);
    const item7 = getNode(tree, "0001");
    expect([item7?.startPage, item7?.ownEndPage, item7?.endPage]).toEqual([3, 3, 7]);
    const item8 = getNode(tree, "0004");
    expect([item8?.startPage, item8?.ownEndPage, item8?.endPage]).toEqual([8, undefined, 12]);
    expect(getNode(tree, "0002")?.tokenCount).toBeGreaterThan(3);
    expect(checkTreeLinks(tree)).toEqual([]);
  });

  it("rejects a child that starts before its parent", () => {
    expect(() =>
      createTree({ docId: "x", docName: "x", kind: "pdf", build: { loader: "t", structure: "llm" } }, [
        { title: "A", startPage: 5, children: [{ title: "B", startPage: 2 }] },
      ]),
    ).toThrow(/pages 2-2 fall outside parent 0000's 5-5/);
  });
});

describe("helpers", () => {
  const tree = sampleTree();
  it("walks in document order, finds paths and subtree text", () => {
    const seen: string[] = [];
    walk(tree, (node) => void seen.push(node.nodeId));
    expect(seen).toEqual(["0000", "0001", "0002", "0003", "0004", "0005"]);
    expect(pathToRoot(tree, "0003").map((n) => n.title)).toEqual([
      "Item 7. Management's Discussion",
      "Liquidity",
    ]);
    expect(pathToRoot(tree, "nope")).toEqual([]);
    expect(subtreeText(tree, "0001")).toBe("Item 7 intro\n\nRevenue grew 12%.\n\nCash was $2B.");
    expect(subtreeTokenCount(tree, "0001")).toBe(
      (getNode(tree, "0001")?.tokenCount ?? 0) +
        (getNode(tree, "0002")?.tokenCount ?? 0) +
        (getNode(tree, "0003")?.tokenCount ?? 0),
    );
  });

  it("renders an indented table of contents", () => {
    expect(renderToc(tree, { maxDepth: 2 })).toBe(
      [
        "[0000] Cover (p. 1)",
        "[0001] Item 7. Management's Discussion (pp. 3-7)",
        "  [0002] Results of Operations (pp. 3-5)",
        "  [0003] Liquidity (pp. 6-7)",
        "[0004] Item 8. Financial Statements (pp. 8-12)",
        "  [0005] Note 1 (pp. 9-12)",
      ].join("\n"),
    );
    expect(renderToc(tree, { maxDepth: 1, ids: false, ranges: false })).toBe(
      "Cover\nItem 7. Management's Discussion\nItem 8. Financial Statements",
    );
  });

  it("derives safe document ids", () => {
    expect(toDocId("../../etc/passwd")).toBe("passwd");
    expect(toDocId("Regulation Best Interest_Interpretive release.pdf")).toBe(
      "Regulation-Best-Interest_Interpretive-release.pdf",
    );
    expect(toDocId("..")).toMatch(/^doc-[0-9a-f]{8}$/);
    expect(toDocId("Ünïcode résumé.md")).toBe("Unicode-resume.md");
  });
});

describe("Documents", () => {
  it("turns every node into a Document with the metadata navigation needs, and back", () => {
    const tree = sampleTree();
    const docs = treeToDocuments(tree);
    expect(docs).toHaveLength(6);
    const liquidity = docs[3];
    expect(liquidity?.id).toBe(nodeDocumentId("acme-10k", "0003"));
    expect(liquidity?.pageContent).toBe("Cash was $2B.");
    expect(liquidity?.metadata).toMatchObject({
      docId: "acme-10k",
      nodeId: "0003",
      parentId: "0001",
      childIds: [],
      level: 2,
      isLeaf: true,
      title: "Liquidity",
      path: ["Item 7. Management's Discussion", "Liquidity"],
      startPage: 6,
      endPage: 7,
      docName: "acme-10k.pdf",
      kind: "pdf",
      loc: { pageNumber: 6, pages: { from: 6, to: 7 } },
    });
    const back = documentsToTree(docs, { createdAt: tree.createdAt, build: tree.build });
    expect(back.nodes).toEqual(tree.nodes);
    expect(back.rootIds).toEqual(tree.rootIds);
  });

  it("round-trips a Markdown tree: line ranges, heading levels and every document-level field", () => {
    const tree = createTree(
      {
        docId: "ops-manual.md",
        docName: "ops-manual.md",
        kind: "markdown",
        source: "/docs/ops-manual.md",
        lineCount: 40,
        description: "How to install and upgrade the service",
        contentHash: "9f86d081884c7d65",
        createdAt: "2026-02-03T04:05:06.000Z",
        build: { loader: "markdown", structure: "headings", options: { summaries: "extractive" } },
        metadata: { title: "Operator manual", tags: ["ops", "runbook"] },
      },
      [
        {
          title: "Operator manual",
          headingLevel: 1,
          startLine: 5,
          ownEndLine: 7,
          text: "# Operator manual\nRead this first.",
          prefixSummary: "Read this first.",
          children: [
            {
              title: "Install",
              headingLevel: 2,
              startLine: 8,
              ownEndLine: 11,
              text: "## Install",
              children: [
                {
                  title: "Linux",
                  headingLevel: 4,
                  startLine: 12,
                  endLine: 20,
                  text: "#### Linux",
                  summary: "apt",
                },
              ],
            },
            { title: "Upgrade", headingLevel: 2, startLine: 21, endLine: 40, text: "## Upgrade" },
          ],
        },
      ],
    );
    const docs = treeToDocuments(tree);
    expect(docs[2]?.metadata).toMatchObject({
      title: "Linux",
      level: 3,
      headingLevel: 4,
      startLine: 12,
      endLine: 20,
      loc: { lines: { from: 12, to: 20 } },
    });
    expect(docs[2]?.metadata.loc?.pageNumber).toBeUndefined();
    const { description, contentHash, createdAt, build, metadata } = tree;
    const back = documentsToTree(docs, { description, contentHash, createdAt, build, metadata });
    expect(back).toEqual(tree);
    expect(documentsToTree(docs, { createdAt, docName: "renamed.md" }).docName).toBe("renamed.md");
  });

  it("refuses documents that do not form one tree", () => {
    const docs = treeToDocuments(sampleTree());
    expect(() => documentsToTree(docs.filter((d) => d.metadata.nodeId !== "0001"))).toThrow(
      TreeValidationError,
    );
  });
});

describe("parseTree", () => {
  const valid = () => JSON.parse(JSON.stringify(sampleTree())) as TreeDocument;
  const problems = (value: unknown) => {
    try {
      parseTree(value);
      return [];
    } catch (error) {
      expect(error).toBeInstanceOf(TreeValidationError);
      return (error as TreeValidationError).issues.map((i) => `${i.path}: ${i.message}`);
    }
  };

  it("accepts a sound tree from JSON text", () => {
    expect(parseTree(JSON.stringify(sampleTree())).nodes).toHaveLength(6);
  });
  it("says where bad JSON and missing fields are", () => {
    expect(problems("{nope")[0]).toMatch(/^\(root\): not valid JSON/);
    const tree = valid() as unknown as { nodes: Array<Record<string, unknown>> };
    delete tree.nodes[2]?.title;
    expect(problems(tree)).toEqual(["nodes[2].title: Invalid input: expected string, received undefined"]);
  });
  it("finds duplicate ids", () => {
    const tree = valid();
    (tree.nodes[3] as { nodeId: string }).nodeId = "0002";
    expect(problems(tree)).toContain('nodes[3]: duplicate node id "0002"');
  });
  it("finds a cycle", () => {
    const tree = valid();
    const item7 = tree.nodes[1] as { parentId: string | null };
    item7.parentId = "0002";
    (tree.nodes[2] as { childIds: string[] }).childIds = ["0001"];
    tree.rootIds = ["0000", "0004"];
    const found = problems(tree);
    expect(found).toContain("node 0001: cannot be reached from any root (cycle or orphan)");
  });
  it("rejects nodes out of pre-order, saying which node is where", () => {
    const tree = valid();
    // Swap "Results of Operations" (0002) and "Liquidity" (0003): links intact, order not.
    [tree.nodes[2], tree.nodes[3]] = [tree.nodes[3] as TreeNode, tree.nodes[2] as TreeNode];
    expect(problems(tree)).toEqual([
      expect.stringMatching(
        /^nodes\[2\]: node "0003" is out of pre-order: it is at position 2 but belongs at position 3; position 2 belongs to node "0002"/,
      ),
    ]);
    const rootsLast = valid();
    rootsLast.nodes.push(rootsLast.nodes.shift() as TreeNode);
    expect(problems(rootsLast)[0]).toMatch(/^nodes\[0\]: node "0001" .* belongs at position 1;/);
    expect(problems(valid())).toEqual([]);
  });

  it("finds a child pointing at a missing parent", () => {
    const tree = valid();
    (tree.nodes[5] as { parentId: string }).parentId = "9999";
    expect(problems(tree)).toContain('node 0005: parent "9999" does not exist');
  });
  it("rejects ids that could escape a store root", () => {
    const tree = valid();
    tree.docId = "../evil";
    expect(problems(tree)[0]).toMatch(/^docId: document ids may only contain/);
  });
});

describe("checkTreeStructure", () => {
  const skeleton = () => {
    const tree = JSON.parse(JSON.stringify(sampleTree())) as { nodes: Array<Record<string, unknown>> };
    for (const node of tree.nodes) delete node.text; // a store's skeleton: no texts
    return tree;
  };
  const problems = (tree: unknown) => checkTreeStructure(tree).map((i) => `${i.path}: ${i.message}`);

  it("passes a sound skeleton", () => {
    expect(problems(skeleton())).toEqual([]);
  });
  it("finds the fields navigation reads of the wrong type, then stops before the links", () => {
    const tree = skeleton();
    (tree.nodes[1] as Record<string, unknown>).childIds = "0002";
    (tree.nodes[2] as Record<string, unknown>).startPage = "3";
    (tree.nodes[4] as Record<string, unknown>).nodeId = "../x";
    expect(problems(tree)).toEqual([
      "nodes[1].childIds: missing or of the wrong type",
      "nodes[2].startPage: missing or of the wrong type",
      "nodes[4].nodeId: missing or of the wrong type",
    ]);
    expect(problems({ ...skeleton(), nodes: [null] })).toEqual(["nodes: missing or of the wrong type"]);
    expect(problems("tree")).toEqual(["(root): not an object"]);
  });
  it("finds what the links check finds: missing children, pages past the document", () => {
    const tree = skeleton();
    (tree.nodes[4] as { childIds: string[] }).childIds.push("0099");
    (tree.nodes[3] as Record<string, unknown>).endPage = 40;
    const found = problems(tree);
    expect(found).toContain('node 0004.childIds[1]: child "0099" does not exist');
    expect(found).toContain("node 0003: page 40 is past the document's last page 12");
  });
});

describe("PageIndex JSON", () => {
  const json = {
    doc_name: "report.pdf",
    doc_description: "An annual report.",
    structure: [
      { title: "Intro", node_id: "0000", start_index: 1, end_index: 2, summary: "s0" },
      {
        title: "Part I",
        node_id: "0001",
        start_index: 3,
        end_index: 3,
        nodes: [
          { title: "Item 1", node_id: "0002", start_index: 3, end_index: 6 },
          { title: "Item 2", node_id: "0003", start_index: 7, end_index: 9 },
        ],
      },
    ],
  };

  it("imports with union ranges and exports PageIndex's quirk back unchanged", () => {
    const tree = fromPageIndexJson(json);
    expect(tree.docId).toBe("report.pdf");
    expect(tree.description).toBe("An annual report.");
    expect(tree.pageCount).toBe(9);
    const part = getNode(tree, "0001");
    expect([part?.startPage, part?.ownEndPage, part?.endPage]).toEqual([3, 3, 9]);
    expect(toPageIndexJson(tree)).toEqual(json);
  });

  it("exports trees built without ownEndPage using the first child's start", () => {
    const out = toPageIndexJson(sampleTree());
    expect(out.structure[2]).toMatchObject({
      title: "Item 8. Financial Statements",
      start_index: 8,
      end_index: 9,
    });
  });

  it("imports Markdown trees with line numbers and reassigns duplicate ids", () => {
    const tree = fromPageIndexJson({
      doc_name: "guide.md",
      structure: [
        { title: "A", node_id: "1", line_num: 1, nodes: [{ title: "B", node_id: "1", line_num: 4 }] },
        { title: "C", line_num: 9 },
      ],
    });
    expect(tree.kind).toBe("markdown");
    expect(tree.nodes.map((n) => [n.nodeId, n.title, n.startLine, n.ownEndLine, n.endLine])).toEqual([
      ["0000", "A", 1, 3, 8],
      ["0001", "B", 4, 8, 8],
      ["0002", "C", 9, 9, 9],
    ]);
  });

  it("names the file and the bad node in errors", () => {
    expect(() => fromPageIndexJson({ structure: [{ title: 3 }] }, { source: "bad.json" })).toThrow(
      /Invalid bad\.json: 1 problem\(s\)\n {2}- structure\[0\]\.title/,
    );
    expect(() => fromPageIndexJson("not json", { source: "x.json" })).toThrow(/not valid JSON/);
  });

  it("repairs a section that ends before it starts, with a warning", () => {
    const tree = fromPageIndexJson({ structure: [{ title: "A", start_index: 5, end_index: 4 }] });
    expect(getNode(tree, "0000")?.endPage).toBe(5);
    expect(tree.build.warnings?.[0]).toMatch(/ended \(page 4\) before it started/);
  });
});

describe("countTokens", () => {
  it("counts ordinary text exactly and pathological runs in linear time", async () => {
    const { countTokens } = await import("pageindex-core");
    expect(countTokens("")).toBe(0);
    expect(countTokens("Hello world, this is  a test.\n\n  Next para")).toBe(12);
    // 200 kB without whitespace: quadratic BPE would take minutes; sliced it is a fraction of a second.
    const run = countTokens("=".repeat(200_000));
    expect(run).toBeGreaterThanOrEqual(200_000 / 64);
    expect(run).toBeLessThan(200_000);
  });
});
