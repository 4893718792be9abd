import { InMemoryStore } from "@langchain/core/stores";
import { PageIndexRetriever } from "pageindex-retriever";
import { createTree, PageIndexStore, StoreCorruptionError } from "pageindex-store";
import { describe, expect, it } from "vitest";

const build = { loader: "test", structure: "headings" as const };
const filler = (topic: string) => `${topic} `.repeat(80);

function manual(docId: string, topic: string) {
  return createTree({ docId, docName: `${docId}.md`, kind: "markdown", build }, [
    {
      title: `${topic} manual`,
      text: `About the ${topic}.`,
      children: [
        { title: "Descaling", text: `Descale the ${topic} with citric acid. ${filler(topic)}` },
        { title: "Storage", text: `Store the ${topic} dry. ${filler("shelf")}` },
      ],
    },
  ]);
}

/** A store of `names` whose `broken` document's skeleton bytes are garbage, opened by a fresh handle. */
async function storeWithCorrupt(names: string[], broken: string) {
  const bytes = new InMemoryStore<Uint8Array>();
  const writer = new PageIndexStore(bytes);
  for (const name of names) await writer.addTree(manual(name, name));
  for await (const key of bytes.yieldKeys(`pageindex.doc.${broken}.`)) {
    if (key.endsWith(".skeleton")) await bytes.mset([[key, new TextEncoder().encode("not a skeleton")]]);
  }
  return new PageIndexStore(bytes, { onProblem: () => undefined });
}

describe("a corrupt document in the store", () => {
  for (const names of [
    ["kettle", "toaster"], // a small library: every document searched
    ["kettle", "toaster", "iron", "blender", "mixer"], // through the catalog
  ]) {
    it(`is skipped with a warning while the others are searched (${names.length} documents)`, async () => {
      const reader = await storeWithCorrupt(names, "kettle");
      await expect(reader.getSkeleton("kettle")).rejects.toBeInstanceOf(StoreCorruptionError);
      const retriever = new PageIndexRetriever({ reader, k: 3 });
      const docs = await retriever.invoke("descale the kettle or the toaster with citric acid");
      expect(docs.length, JSON.stringify(retriever.lastRun?.warnings)).toBeGreaterThan(0);
      expect(docs.every((d) => d.metadata.docId !== "kettle")).toBe(true);
      expect(retriever.lastRun?.warnings.join("\n")).toMatch(/skipped document "kettle": it cannot be read/);
    });
  }

  it("gives way to the next document when the catalog's clear leader cannot be read", async () => {
    const reader = await storeWithCorrupt(["kettle", "toaster", "iron", "blender", "mixer"], "kettle");
    const retriever = new PageIndexRetriever({ reader, k: 3 });
    const docs = await retriever.invoke("kettle");
    expect(retriever.lastRun?.warnings.join("\n")).toMatch(/skipped document "kettle"/);
    expect(docs.every((d) => d.metadata.docId !== "kettle")).toBe(true);
  });

  it("still fails, with the corruption error, when it is the only document asked for", async () => {
    const reader = await storeWithCorrupt(["kettle", "toaster"], "kettle");
    const retriever = new PageIndexRetriever({ reader, docIds: ["kettle"] });
    await expect(retriever.invoke("descale")).rejects.toBeInstanceOf(StoreCorruptionError);
  });
});
