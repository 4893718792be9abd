import { toSkeleton } from "pageindex-core";
import { MemoryTreeReader } from "pageindex-store";
import { describe, expect, it } from "vitest";
import { NodeTermIndex, nodeFields } from "../src/lexical/node-index.js";
import { decodeNodeFields, encodeNodeFields } from "../src/lexical/persisted.js";
import { annualReport, ID } from "./support/fixtures.js";

async function indexed() {
  const tree = annualReport();
  const skeleton = toSkeleton(tree);
  const texts = await new MemoryTreeReader([tree]).getNodeTexts(
    tree.docId,
    tree.nodes.map((n) => n.nodeId),
  );
  return { skeleton, texts };
}

describe("a saved lexical index", () => {
  it("scores exactly like the index built from the texts, at a fraction of their size", async () => {
    const { skeleton, texts } = await indexed();
    const bytes = encodeNodeFields(skeleton, { withText: true, fields: nodeFields(skeleton, texts) });
    const counted = decodeNodeFields(skeleton, bytes);
    expect(counted?.withText).toBe(true);
    const built = new NodeTermIndex(skeleton, texts);
    const loaded = new NodeTermIndex(skeleton, counted);
    for (const query of ["effective tax rate 2023", "operating cash flow", "gross margin revenue"]) {
      const a = built.score(query);
      const b = loaded.score(query);
      expect([...b.own]).toEqual([...a.own]);
      expect([...b.subtree]).toEqual([...a.subtree]);
      expect(b.matched(ID.note12)).toEqual(a.matched(ID.note12));
    }
    const textBytes = [...texts.values()].reduce((sum, t) => sum + Buffer.byteLength(t), 0);
    expect(bytes.length).toBeLessThan(textBytes);
  });

  it("is refused when built from another skeleton or unreadable", async () => {
    const { skeleton, texts } = await indexed();
    const bytes = encodeNodeFields(skeleton, { withText: true, fields: nodeFields(skeleton, texts) });
    const renamed = {
      ...skeleton,
      nodes: skeleton.nodes.map((n) => (n.nodeId === ID.note12 ? { ...n, title: "Note 12. Taxes" } : n)),
    };
    expect(decodeNodeFields(renamed, bytes)).toBeUndefined();
    expect(decodeNodeFields(skeleton, bytes.slice(0, bytes.length - 8))).toBeUndefined();
    expect(decodeNodeFields(skeleton, new TextEncoder().encode("{}"))).toBeUndefined();
  });
});
