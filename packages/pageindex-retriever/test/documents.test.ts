import { Document } from "@langchain/core/documents";
import { BaseRetriever } from "@langchain/core/retrievers";
import { DocumentNotFoundError } from "pageindex-core";
import { PageIndexRetriever } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { DOCUMENT_CHOICE_PATHS } from "./support/catalog-reader.js";
import { annualReport, ID, judgeByTitle, manual, offeredNodes, SpyReader } from "./support/fixtures.js";

// These tests pin how `expand` (the default before `auto`) searches.
const fast = { backoffMs: 1, timeoutMs: 2000, strategy: "expand" as const };
const trees = () => [annualReport(), manual(), annualReport("beta-10k", "BETA 2023 Form 10-K")];

class FixedRetriever extends BaseRetriever {
  lc_namespace = ["test"];
  queries: string[] = [];
  constructor(private readonly hits: Document[]) {
    super();
  }
  override async _getRelevantDocuments(query: string): Promise<Document[]> {
    this.queries.push(query);
    return this.hits;
  }
}

describe("which documents are searched", () => {
  it("searches all documents by default, an explicit list when given", async () => {
    const model = new ScriptedChatModel([], { fallback: () => '{"relevant": []}' });
    const all = new PageIndexRetriever({ trees: trees(), model, ...fast });
    await all.invoke("warranty");
    expect(all.lastRun?.docIds).toEqual(["acme-10k", "beta-10k", "rocket-manual"]); // catalog order: by id
    expect(model.calls).toBe(3);

    const only = new PageIndexRetriever({
      trees: trees(),
      model: new ScriptedChatModel([], { fallback: judgeByTitle(/Maintenance/) }),
      docIds: ["rocket-manual"],
      ...fast,
    });
    const docs = await only.invoke("warranty");
    expect(docs.map((d) => d.id)).toEqual(["rocket-manual:0002"]);
  });

  it("rejects an unknown document id clearly", async () => {
    const retriever = new PageIndexRetriever({ trees: trees(), docIds: ["nope"] });
    await expect(retriever.invoke("x")).rejects.toBeInstanceOf(DocumentNotFoundError);
  });

  it("lets the model choose documents from their descriptions", async () => {
    const model = new ScriptedChatModel(
      [
        (prompt) => {
          expect(prompt).toContain("How to assemble, operate and maintain ACME rocket skates.");
          return JSON.stringify({
            relevant: [{ id: "rocket-manual", reason: "a manual" }, { id: "ghost-doc" }],
          });
        },
      ],
      { fallback: judgeByTitle(/Maintenance/) },
    );
    const retriever = new PageIndexRetriever({
      trees: trees(),
      model,
      documentSelection: "llm",
      documentMargin: Number.POSITIVE_INFINITY, // always ask the model
      ...fast,
    });
    const docs = await retriever.invoke("How often should the fuel filter be replaced?");
    expect(retriever.lastRun?.docIds).toEqual(["rocket-manual"]);
    expect(docs.map((d) => d.id)).toEqual(["rocket-manual:0002"]);
    expect(retriever.lastRun?.stats).toMatchObject({ calls: 2, roundTrips: 2 });
  });

  it.each(DOCUMENT_CHOICE_PATHS)(
    "chooses documents lexically when the model's choice is unusable ($path)",
    async ({ path, reader }) => {
      const model = new ScriptedChatModel(['{"relevant": [{"id": "ghost"}]}'], {
        fallback: judgeByTitle(/Maintenance/),
      });
      const retriever = new PageIndexRetriever({
        reader: reader(trees()),
        model,
        documentSelection: "llm",
        documentMargin: Number.POSITIVE_INFINITY,
        maxDocuments: 1,
        ...fast,
      });
      await retriever.invoke("fuel filter warranty");
      expect(model.prompts[0]).toContain(path === "library" ? "Candidate documents:" : "Choose up to");
      expect(retriever.lastRun?.docIds).toEqual(["rocket-manual"]);
      const warnings = retriever.lastRun?.warnings.join(" ");
      if (path === "library") {
        expect(warnings).toMatch(/library choice: dropped ids not offered \(ghost\)/);
        expect(warnings).toMatch(/library choice unusable \(only ids not offered\); chose lexically/);
      } else expect(warnings).toMatch(/document choice unusable/);
      expect(retriever.lastRun?.stats.fallbacks).toBe(1);
    },
  );

  it("starts from a first-stage retriever's nodes (hybrid)", async () => {
    const first = new FixedRetriever([
      new Document({ pageContent: "tax", metadata: { docId: "beta-10k", nodeId: ID.note12 } }),
      new Document({ pageContent: "?", metadata: { docId: "unknown-doc", nodeId: "0001" } }),
    ]);
    const reader = new SpyReader(trees());
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(/Note 12/) });
    const retriever = new PageIndexRetriever({ reader, model, firstStage: first, ...fast });
    const docs = await retriever.invoke("effective tax rate");
    expect(first.queries).toEqual(["effective tax rate"]);
    // The leaf hit is judged with its siblings: one call instead of four levels.
    expect(model.calls).toBe(1);
    expect(offeredNodes(model.prompts[0] as string).map((n) => n.id)).toEqual([
      ID.note1,
      ID.note5,
      ID.note12,
      ID.note15,
    ]);
    expect(docs.map((d) => d.id)).toEqual([`beta-10k:${ID.note12}`]);
    expect(retriever.lastRun?.docIds).toEqual(["beta-10k"]);
    expect(retriever.lastRun?.warnings.join(" ")).toMatch(/ignored 1 hit/);
  });

  it("uses first-stage hits only to pick documents with firstStageScope 'document'", async () => {
    const first = new FixedRetriever([
      new Document({ pageContent: "", metadata: { docId: "rocket-manual" } }),
    ]);
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(/Operation/) });
    const retriever = new PageIndexRetriever({
      trees: trees(),
      model,
      firstStage: first,
      firstStageScope: "document",
      ...fast,
    });
    const docs = await retriever.invoke("braking");
    expect(model.calls).toBe(1);
    expect(docs.map((d) => d.id)).toEqual(["rocket-manual:0001"]);
  });
});
