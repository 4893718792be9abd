import {
  createTree,
  documentsToTree,
  fromPageIndexJson,
  MAX_TREE_DEPTH,
  type NodeDraft,
  parseTree,
  TreeValidationError,
  treeToDocuments,
} from "pageindex-core";
import { describe, expect, it } from "vitest";

const build = { loader: "test", structure: "outline" as const };
const init = { docId: "deep", docName: "deep.pdf", kind: "text" as const, build };

/** A chain of `depth` nested drafts. */
function chain(depth: number): NodeDraft {
  let draft: NodeDraft = { title: "leaf", text: "x" };
  for (let i = depth - 1; i > 0; i -= 1) draft = { title: `level ${i}`, text: "x", children: [draft] };
  return draft;
}

/** A valid tree of `depth` levels, as plain nodes (built without createTree, which refuses it). */
function deepNodes(depth: number) {
  const nodes = Array.from({ length: depth }, (_, i) => ({
    nodeId: String(i).padStart(5, "0"),
    title: `level ${i + 1}`,
    level: i + 1,
    parentId: i === 0 ? null : String(i - 1).padStart(5, "0"),
    childIds: i === depth - 1 ? [] : [String(i + 1).padStart(5, "0")],
    text: "x",
    tokenCount: 1,
  }));
  return { ...init, schemaVersion: 1, createdAt: new Date(0).toISOString(), rootIds: ["00000"], nodes };
}

describe("trees nested thousands of levels deep (hostile input)", () => {
  it("createTree takes the limit and refuses one level more with a typed error, not a stack overflow", () => {
    expect(createTree(init, [chain(MAX_TREE_DEPTH)]).nodes).toHaveLength(MAX_TREE_DEPTH);
    for (const depth of [MAX_TREE_DEPTH + 1, 10_000]) {
      expect(() => createTree(init, [chain(depth)])).toThrow(TreeValidationError);
      expect(() => createTree(init, [chain(depth)])).toThrow(/limited to 256 levels/);
    }
  });

  it("parseTree, documentsToTree and PageIndex JSON import refuse 10,000 levels with a typed error", () => {
    const tree = deepNodes(10_000);
    expect(() => parseTree(tree)).toThrow(TreeValidationError);
    expect(() => parseTree(tree)).toThrow(/nested 257 levels deep/);

    const docs = treeToDocuments(createTree(init, [chain(3)]));
    docs[2]?.metadata.childIds.push("more");
    const deepDocs = [...docs.slice(0, 2)];
    // A metadata chain 10,000 long.
    let parent = docs[1]?.metadata.nodeId as string;
    for (let i = 0; i < 10_000; i += 1) {
      const id = `n${i}`;
      const previous = deepDocs.at(-1);
      previous?.metadata.childIds.splice(0, previous.metadata.childIds.length, id);
      deepDocs.push({
        ...docs[2],
        id,
        pageContent: "x",
        metadata: { ...docs[2]?.metadata, nodeId: id, parentId: parent, childIds: [] },
      } as never);
      parent = id;
    }
    expect(() => documentsToTree(deepDocs)).toThrow(TreeValidationError);

    let json: Record<string, unknown> = { title: "leaf", node_id: "x" };
    for (let i = 0; i < 10_000; i += 1) json = { title: `t${i}`, node_id: `n${i}`, nodes: [json] };
    expect(() => fromPageIndexJson({ structure: [json] })).toThrow(TreeValidationError);
    // As text too (JSON.stringify of it would overflow: the text is built by hand).
    const text = `{"structure": [${'{"title": "t", "nodes": ['.repeat(10_000)}{"title": "leaf"}${"]}".repeat(10_000)}]}`;
    expect(() => fromPageIndexJson(text)).toThrow(TreeValidationError);
  });
});
