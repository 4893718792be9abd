import { InMemoryStore } from "@langchain/core/stores";
import { createTree } from "pageindex-core";
import { PageIndexRetriever } from "pageindex-retriever";
import { PageIndexStore, StoreCorruptionError } from "pageindex-store";
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

  it("a corrupt text chunk at collect time: the other results come back, with a warning", async () => {
    const bytes = new InMemoryStore<Uint8Array>();
    // One node per chunk, so one chunk can be broken while its siblings stay readable.
    const writer = new PageIndexStore(bytes, { chunkChars: 1 });
    for (const name of ["kettle", "toaster"]) await writer.addTree(manual(name, name));
    const reader = new PageIndexStore(bytes, { onProblem: () => undefined });
    const retriever = new PageIndexRetriever({ reader, k: 4 });
    const question = "descale the kettle or the toaster with citric acid";
    const before = (await retriever.invoke(question)).map((d) => `${d.metadata.docId}:${d.metadata.nodeId}`);
    expect(before.some((id) => id.startsWith("kettle:"))).toBe(true);
    expect(before.some((id) => id.startsWith("toaster:"))).toBe(true);
    // The chunk breaks after the search read what it navigates by (skeletons, lexical indexes).
    const skeleton = await reader.getSkeleton("kettle");
    const descaling = skeleton.nodes.find((n) => n.title === "Descaling")?.nodeId as string;
    for await (const key of bytes.yieldKeys("pageindex.doc.kettle.")) {
      const chunk = key.match(/\.text\.(\d+)$/)?.[1];
      if (chunk !== undefined && skeleton.nodes[Number(chunk)]?.nodeId === descaling) {
        await bytes.mset([[key, new TextEncoder().encode("garbage")]]);
      }
    }
    await expect(reader.getNodeTexts("kettle", [descaling])).rejects.toBeInstanceOf(StoreCorruptionError);
    const docs = await retriever.invoke(question);
    const found = docs.map((d) => `${d.metadata.docId}:${d.metadata.nodeId}`);
    // The kettle's section holds the broken chunk (its subtree does): left out; the toaster's stays.
    expect(found).toEqual(before.filter((id) => !id.startsWith("kettle:")));
    expect(docs.every((d) => d.pageContent.length > 0)).toBe(true);
    expect(docs.map((d) => d.metadata.rank)).toEqual(docs.map((_, i) => i + 1));
    expect(retriever.lastRun?.warnings.join("\n")).toMatch(
      /left out section \d+ of "kettle": its text cannot be read/,
    );
  });

  it("a corrupt text chunk in a store written with addTree (no saved lexical index): left out with a warning", async () => {
    const bytes = new InMemoryStore<Uint8Array>();
    const writer = new PageIndexStore(bytes, { chunkChars: 1 });
    for (const name of ["kettle", "toaster"]) await writer.addTree(manual(name, name));
    // Broken before any query: the first lexical index of "kettle" must be built around it.
    const skeleton = await writer.getSkeleton("kettle");
    const descaling = skeleton.nodes.find((n) => n.title === "Descaling")?.nodeId as string;
    for await (const key of bytes.yieldKeys("pageindex.doc.kettle.")) {
      const chunk = key.match(/\.text\.(\d+)$/)?.[1];
      if (chunk !== undefined && skeleton.nodes[Number(chunk)]?.nodeId === descaling) {
        await bytes.mset([[key, new TextEncoder().encode("garbage")]]);
      }
    }
    const reader = new PageIndexStore(bytes, { onProblem: () => undefined });
    for (const question of ["descale the kettle with citric acid", "store the toaster dry"]) {
      const retriever = new PageIndexRetriever({ reader, k: 4 });
      const docs = await retriever.invoke(question);
      expect(docs.length).toBeGreaterThan(0);
      expect(docs.every((d) => d.pageContent.length > 0)).toBe(true);
      expect(docs.some((d) => d.metadata.docId === "kettle" && d.metadata.nodeId === descaling)).toBe(false);
      expect(retriever.lastRun?.warnings.join("\n")).toMatch(
        new RegExp(
          `section\\(s\\) of "kettle" \\(${descaling}\\) cannot be read|left out section \\d+ of "kettle"`,
        ),
      );
    }
  });
});
