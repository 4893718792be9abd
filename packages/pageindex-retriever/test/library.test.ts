import { Document } from "@langchain/core/documents";
import { BaseRetriever } from "@langchain/core/retrievers";
import { InMemoryStore } from "@langchain/core/stores";
import { createTree, DocumentNotFoundError, type TreeDocument } from "pageindex-core";
import { PageIndexRetriever } from "pageindex-retriever";
import { PageIndexStore } from "pageindex-store";
import { describe, expect, it } from "vitest";
import { CountingByteStore } from "../../../test/support/counting-store.js";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";

const TOPICS = [
  "bridge",
  "canal",
  "tunnel",
  "harbor",
  "railway",
  "airport",
  "highway",
  "dam",
  "pipeline",
  "reservoir",
  "orchard",
  "vineyard",
  "pasture",
  "greenhouse",
  "apiary",
  "fishery",
  "forestry",
  "granary",
  "dairy",
  "mill",
];

/** A document with three sections; `words` make it findable. */
function doc(docId: string, words: string[], metadata?: Record<string, unknown>): TreeDocument {
  return createTree(
    {
      docId,
      docName: `${docId}.md`,
      kind: "markdown",
      lineCount: 4,
      build: { loader: "test", structure: "headings" },
      ...(metadata ? { metadata } : {}),
    },
    [
      { title: "Overview", text: `Overview of ${words.join(" and ")}.`, startLine: 1, endLine: 1 },
      ...words.map((w, i) => ({
        title: `${w[0]?.toUpperCase()}${w.slice(1)} inspection schedule`,
        text: `The ${w} is inspected every ${i + 2} months; the ${w} log records each inspection.`,
        startLine: i + 2,
        endLine: i + 2,
      })),
    ],
  );
}

/** A library of `n` documents, each about two topics, plus the target about a rare word. */
async function library(n: number) {
  const byteStore = new CountingByteStore();
  const store = new PageIndexStore(byteStore);
  for (let i = 0; i < n; i += 1) {
    await store.addTree(
      doc(`doc-${String(i).padStart(4, "0")}`, [
        TOPICS[i % 20] as string,
        TOPICS[(i * 7 + 3) % 20] as string,
      ]),
    );
  }
  await store.addTree(doc("target", ["lighthouse", "bridge"]));
  return { byteStore, store };
}

describe("choosing documents in a library through the catalog", () => {
  it("finds the right document among many, reading keys independent of the library's size", async () => {
    const readsAt: number[] = [];
    for (const n of [40, 160]) {
      const { byteStore } = await library(n);
      // A fresh handle, as in a new process: its first query loads the catalog.
      const retriever = new PageIndexRetriever({ reader: new PageIndexStore(byteStore), k: 3 });
      byteStore.reset();
      const docs = await retriever.invoke("How often is the lighthouse inspected?");
      expect(docs[0]?.metadata.docId).toBe("target");
      expect(docs[0]?.metadata.title).toBe("Lighthouse inspection schedule");
      expect(retriever.lastRun?.docIds[0]).toBe("target");
      expect(retriever.lastRun?.documentRanking?.[0]).toMatchObject({ docId: "target" });
      expect(retriever.lastRun?.stats.documentsConsidered).toBe(20);
      // One listing (the catalog's segments), never the heads; a bounded number of segments.
      expect(byteStore.listings).toEqual(["pageindex.catalog.seg."]);
      expect(byteStore.readKeys.filter((k) => k.includes(".catalog.seg.")).length).toBeLessThanOrEqual(16);
      readsAt.push(byteStore.readKeys.filter((k) => !k.includes(".catalog.")).length);
    }
    // Beyond the catalog's own segments, a query reads the same keys at 40 and 160 documents.
    expect(readsAt[1]).toBe(readsAt[0]);
  });

  it("reads no candidate's head to rank; one deleted by another process since is skipped", async () => {
    const { byteStore } = await library(40);
    const retriever = new PageIndexRetriever({ reader: new PageIndexStore(byteStore), k: 3 });
    await retriever.invoke("How often is the bridge inspected?"); // loads the catalog
    byteStore.reset();
    await retriever.invoke("How often is the lighthouse inspected?");
    expect(retriever.lastRun?.stats.documentsConsidered).toBe(20);
    // The leader's head (read with its skeleton, its index and its texts), not the 20 candidates'.
    const heads = new Set(byteStore.readKeys.filter((k) => k.includes(".head.")));
    expect([...heads]).toEqual(["pageindex.head.target"]);

    await new PageIndexStore(byteStore).deleteDocument("target"); // another handle
    const docs = await retriever.invoke("How often is the lighthouse inspected?");
    expect(retriever.lastRun?.docIds).not.toContain("target");
    expect(docs.every((d) => d.metadata.docId !== "target")).toBe(true);
    expect(retriever.lastRun?.warnings.join(" ")).toMatch(/"target"/);
  });

  it("reads no other candidate when the leader alone has a title holding several query words", async () => {
    const store = new PageIndexStore(new InMemoryStore<Uint8Array>());
    for (const [i, topic] of TOPICS.slice(4, 10).entries()) await store.addTree(doc(`other-${i}`, [topic]));
    await store.addTree(doc("apart", ["canal", "harbor"])); // both words, in two titles
    await store.addTree(doc("together", ["canal harbor"])); // both words in one title
    const catalog = await store.searchDocuments("canal harbor");
    expect(catalog.map((m) => m.card.docId)).toEqual(["together", "apart"]);
    expect(catalog[0]?.score).toBeLessThan(1.5 * (catalog[1]?.score ?? 0)); // no clear lead by score
    const retriever = new PageIndexRetriever({ reader: store, k: 3 });
    await retriever.invoke("canal harbor");
    expect(retriever.lastRun?.docIds).toEqual(["together"]);
    expect(retriever.lastRun?.stats.skeletonsRead).toBe(1);
  });

  it("searches every document of a library no larger than maxDocuments, as before", async () => {
    const { store } = await library(2);
    const retriever = new PageIndexRetriever({ reader: store });
    await retriever.invoke("lighthouse");
    expect(retriever.lastRun?.docIds).toHaveLength(3);
    const wider = new PageIndexRetriever({ reader: store, maxDocuments: 2 });
    await wider.invoke("lighthouse");
    expect(wider.lastRun?.docIds).toEqual(["target"]); // 3 documents: chosen, the winner is clear
  });

  it("narrows candidates by metadata before ranking", async () => {
    const store = new PageIndexStore(new InMemoryStore<Uint8Array>());
    await store.addTree(
      doc("boeing-2021", ["fuselage", "revenue"], { frontMatter: { company: "Boeing", year: 2021 } }),
    );
    await store.addTree(
      doc("boeing-2022", ["fuselage", "revenue"], { frontMatter: { company: "Boeing", year: 2022 } }),
    );
    await store.addTree(
      doc("airbus-2022", ["fuselage", "revenue", "cabin"], {
        frontMatter: { company: "Airbus", year: 2022 },
      }),
    );
    const retriever = new PageIndexRetriever({ reader: store, filter: { company: "Boeing", year: 2022 } });
    const docs = await retriever.invoke("fuselage cabin revenue");
    expect(new Set(docs.map((d) => d.metadata.docId))).toEqual(new Set(["boeing-2022"]));
    const none = new PageIndexRetriever({ reader: store, filter: { company: "Cessna" } });
    expect(await none.invoke("fuselage")).toEqual([]);
  });

  it("with a model: asks even about a clear lexical winner, and only about the top candidates", async () => {
    const { store } = await library(60);
    const judge = () => '{"relevant": []}';
    const clear = new ScriptedChatModel(
      [
        (prompt) => {
          expect(prompt).toContain('<document id="target">');
          return JSON.stringify({ relevant: [{ id: "target" }] });
        },
      ],
      { fallback: judge },
    );
    const retriever = new PageIndexRetriever({ reader: store, model: clear, documentSelection: "llm" });
    await retriever.invoke("lighthouse inspection");
    expect(retriever.lastRun?.docIds).toEqual(["target"]);
    expect(clear.prompts[0]).toContain("Choose up to");
    // Without a model the clear winner is searched alone, as before.
    const offline = new PageIndexRetriever({ reader: store, documentSelection: "llm" });
    await offline.invoke("lighthouse inspection");
    expect(offline.lastRun?.docIds).toEqual(["target"]);

    const ambiguous = new ScriptedChatModel(
      [
        (prompt) => {
          // Seven documents are about bridges: none leads, so the model sees the best candidates only.
          expect(prompt).toContain('<document id="target">');
          expect(prompt).toContain("Matching sections: Bridge inspection schedule");
          expect((prompt.match(/<document /g) ?? []).length).toBe(8); // documentCandidates, of 61
          return JSON.stringify({ relevant: [{ id: "target" }, { id: "not-offered" }] });
        },
      ],
      { fallback: judge },
    );
    const asking = new PageIndexRetriever({
      reader: store,
      model: ambiguous,
      documentSelection: "llm",
      documentCandidates: 8,
    });
    await asking.invoke("bridge inspection");
    expect(ambiguous.prompts[0]).toContain("Choose up to 3 documents");
    expect(asking.lastRun?.docIds).toEqual(["target"]);
  });

  it("keeps docIds behaviour: only those documents, an unknown id is an error", async () => {
    const byteStore = new CountingByteStore();
    const store = new PageIndexStore(byteStore);
    await store.addTree(doc("a", ["bridge"]));
    await store.addTree(doc("b", ["canal"]));
    byteStore.reset();
    const retriever = new PageIndexRetriever({ reader: store, docIds: ["b"] });
    const docs = await retriever.invoke("bridge canal");
    expect(retriever.lastRun?.docIds).toEqual(["b"]);
    expect(docs.every((d) => d.metadata.docId === "b")).toBe(true);
    expect(byteStore.listings).toEqual([]);
    const unknown = new PageIndexRetriever({ reader: store, docIds: ["nope"] });
    await expect(unknown.invoke("x")).rejects.toBeInstanceOf(DocumentNotFoundError);
  });

  it("aggregates a first stage's node hits per document: DocScore = Σ scores / √(N+1)", async () => {
    class Hits extends BaseRetriever {
      lc_namespace = ["test"];
      override async _getRelevantDocuments(): Promise<Document[]> {
        const hit = (docId: string, score: number) =>
          new Document({ pageContent: "", metadata: { docId, score } });
        // a: one strong hit (0.9 / √2 ≈ 0.64); b: three fair ones (1.5 / 2 = 0.75).
        return [hit("a", 0.9), hit("b", 0.5), hit("b", 0.5), hit("b", 0.5)];
      }
    }
    const store = new PageIndexStore(new InMemoryStore<Uint8Array>());
    await store.addTree(doc("a", ["bridge"]));
    await store.addTree(doc("b", ["canal"]));
    const retriever = new PageIndexRetriever({
      reader: store,
      firstStage: new Hits(),
      firstStageScope: "document",
    });
    await retriever.invoke("anything");
    expect(retriever.lastRun?.docIds).toEqual(["b", "a"]);
  });
});
