/** A node's text position (issue 18): stored, validated, carried to Documents as `metadata.loc`. */
import {
  createTree,
  documentsToTree,
  type NodeDraft,
  parseTree,
  type TreeDocument,
  TreeValidationError,
  toPageIndexJson,
  treeToDocuments,
} from "pageindex-core";
import { describe, expect, it } from "vitest";

const init = {
  docId: "manual",
  docName: "manual.pdf",
  kind: "pdf" as const,
  build: { loader: "pdf", structure: "outline" as const },
  pageCount: 9,
};

const drafts: NodeDraft[] = [
  {
    title: "abbreviate",
    text: "abbreviate\nAbbreviate strings.",
    startPage: 3,
    ownEndPage: 4,
    position: { page: 3, line: 21, endPage: 4, endLine: 7 },
  },
  { title: "agrep", text: "agrep\nApproximate matching.", startPage: 4, endPage: 6 },
];

describe("node text position", () => {
  const tree = createTree(init, drafts);

  it("is kept by createTree and survives a JSON round trip; a tree without it still parses", () => {
    expect(tree.nodes[0]?.position).toEqual({ page: 3, line: 21, endPage: 4, endLine: 7 });
    expect(parseTree(JSON.stringify(tree))).toEqual(tree);
    const old = JSON.parse(JSON.stringify(tree)) as TreeDocument;
    delete old.nodes[0]?.position;
    expect(parseTree(old).nodes[0]?.position).toBeUndefined();
  });

  it("rejects a position off the node's first page, ending before it starts, or past its pages", () => {
    const bad = (position: NonNullable<NodeDraft["position"]>) => () =>
      createTree(init, [{ ...(drafts[0] as NodeDraft), position }]);
    expect(bad({ page: 2, line: 1, endPage: 4, endLine: 1 })).toThrow(/not on the node's first page 3/);
    expect(bad({ page: 3, line: 9, endPage: 3, endLine: 2 })).toThrow(TreeValidationError);
    expect(bad({ page: 3, line: 1, endPage: 5, endLine: 1 })).toThrow(/past the node's last page 4/);
    expect(() =>
      parseTree({ ...tree, nodes: [{ ...tree.nodes[0], position: { page: 3, line: 0 } }, tree.nodes[1]] }),
    ).toThrow(TreeValidationError);
  });

  it("becomes metadata.loc (page, lines, start, end) and comes back from the Documents", () => {
    const [doc, plain] = treeToDocuments(tree);
    expect(doc?.metadata.loc).toEqual({
      pageNumber: 3,
      pages: { from: 3, to: 4 },
      lines: { from: 21, to: 7 },
      start: { page: 3, line: 21 },
      end: { page: 4, line: 7 },
    });
    // Without a position, the page span only, as before.
    expect(plain?.metadata.loc).toEqual({ pageNumber: 4, pages: { from: 4, to: 6 } });
    const back = documentsToTree(treeToDocuments(tree), { createdAt: tree.createdAt });
    expect(back.nodes[0]?.position).toEqual(tree.nodes[0]?.position);
  });

  it("leaves the PageIndex JSON export as it was", () => {
    const withPos = JSON.stringify(toPageIndexJson(tree));
    const without = JSON.stringify(
      toPageIndexJson(
        createTree(
          init,
          drafts.map(({ position: _, ...d }) => d),
        ),
      ),
    );
    expect(withPos).toBe(without);
    expect(withPos).not.toContain("position");
  });
});
