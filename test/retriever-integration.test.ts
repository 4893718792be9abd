import { createStuffDocumentsChain } from "@langchain/classic/chains/combine_documents";
import { createRetrievalChain } from "@langchain/classic/chains/retrieval";
import { EnsembleRetriever } from "@langchain/classic/retrievers/ensemble";
import { MemoryVectorStore } from "@langchain/classic/vectorstores/memory";
import type { Document } from "@langchain/core/documents";
import { AIMessage, type BaseMessage, ToolMessage } from "@langchain/core/messages";
import { ChatPromptTemplate } from "@langchain/core/prompts";
import { RunnableLambda } from "@langchain/core/runnables";
import { fakeModel } from "@langchain/core/testing";
import { SyntheticEmbeddings } from "@langchain/core/utils/testing";
import { createAgent } from "langchain";
import { treeToDocuments } from "pageindex-core";
import { createPageIndexTools, PageIndexRetriever } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import {
  annualReport,
  ID,
  judgeByTitle,
  manual,
  offeredNodes,
  TAX_PATH,
} from "../packages/pageindex-retriever/test/support/fixtures.js";
import { ScriptedChatModel } from "./support/scripted-model.js";

const QUESTION = "What was the effective tax rate in 2023?";

function judgedRetriever(extra: Record<string, unknown> = {}) {
  const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
  return {
    model,
    retriever: new PageIndexRetriever({ trees: [annualReport(), manual()], model, backoffMs: 1, ...extra }),
  };
}

/** An answering model that records the prompt it got (what a RAG chain put in the context). */
function answerer(answer: string) {
  return new ScriptedChatModel([], { fallback: () => answer });
}

describe("PageIndexRetriever in LangChain compositions", () => {
  it("works in an LCEL chain with .pipe", async () => {
    const { retriever } = judgedRetriever();
    const format = RunnableLambda.from((docs: Document[]) =>
      docs.map((d) => `${d.metadata.title} (pp. ${d.metadata.startPage}-${d.metadata.endPage})`).join("\n"),
    );
    const prompt = ChatPromptTemplate.fromMessages([
      ["system", "Answer from these sections:\n{context}"],
      ["human", "{question}"],
    ]);
    const llm = answerer("21.4%");
    const chain = RunnableLambda.from(async (question: string) => ({
      context: await retriever.pipe(format).invoke(question),
      question,
    }))
      .pipe(prompt)
      .pipe(llm);
    const answer = await chain.invoke(QUESTION);
    expect(answer.content).toBe("21.4%");
    expect(llm.prompts[0]).toContain("Note 12. Income Taxes (pp. 46-50)");
  });

  it("drops into createRetrievalChain with createStuffDocumentsChain", async () => {
    const { retriever } = judgedRetriever();
    const llm = answerer("The effective tax rate was 21.4%.");
    const combineDocsChain = await createStuffDocumentsChain({
      llm,
      prompt: ChatPromptTemplate.fromMessages([
        ["system", "Use the context to answer.\n\n{context}"],
        ["human", "{input}"],
      ]),
    });
    const chain = await createRetrievalChain({ retriever, combineDocsChain });
    const result = await chain.invoke({ input: QUESTION });
    expect(result.answer).toBe("The effective tax rate was 21.4%.");
    expect(result.context.map((d: Document) => d.id)).toEqual([`acme-10k:${ID.note12}`]);
    expect(llm.prompts[0]).toContain("The effective tax rate was 21.4% in 2023 versus 19.8% in 2022.");
  });

  it("fuses with a vector retriever in an EnsembleRetriever, and uses one as a first stage", async () => {
    const tree = annualReport();
    const store = await MemoryVectorStore.fromDocuments(
      treeToDocuments(tree),
      new SyntheticEmbeddings({ vectorSize: 32 }),
    );
    const vector = store.asRetriever(3);
    const { retriever } = judgedRetriever();
    const ensemble = new EnsembleRetriever({ retrievers: [vector, retriever], weights: [0.5, 0.5] });
    const fused = await ensemble.invoke(QUESTION);
    const vectorOnly = await vector.invoke(QUESTION);
    expect(fused.length).toBeGreaterThanOrEqual(vectorOnly.length);
    expect(fused.some((d) => d.metadata.nodeId === ID.note12 && d.metadata.judge === "llm")).toBe(true);

    // Hybrid: the vector hits seed the tree search (their metadata carries docId/nodeId).
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(/Note 12|Income Taxes/) });
    const hybrid = new PageIndexRetriever({ trees: [tree], model, firstStage: vector, backoffMs: 1 });
    await hybrid.invoke(QUESTION);
    const seeded = new Set(vectorOnly.map((d) => d.metadata.parentId ?? d.metadata.nodeId));
    // Every judging call opened a node the vector hits pointed at, not the roots.
    for (const prompt of model.prompts) {
      expect(offeredNodes(prompt).every((n) => n.id !== ID.partI)).toBe(true);
    }
    expect(model.calls).toBeLessThanOrEqual(seeded.size);
    expect(hybrid.lastRun?.docIds).toEqual(["acme-10k"]);
  });

  it("gives an agent tools it calls to get the sections", async () => {
    const { retriever } = judgedRetriever();
    const model = fakeModel()
      .respondWithTools([{ name: "search_sections", args: { query: QUESTION }, id: "c1" }])
      .respondWithTools([{ name: "list_documents", args: {}, id: "c2" }])
      .respondWithTools([{ name: "get_document_structure", args: { docId: "acme-10k" }, id: "c3" }])
      .respondWithTools([
        { name: "get_document_structure", args: { docId: "acme-10k", offset: 10 }, id: "c4" },
      ])
      .respondWithTools([
        { name: "get_node_content", args: { docId: "acme-10k", nodeIds: [ID.note12, ID.note5] }, id: "c5" },
      ])
      .respondWithTools([{ name: "get_page_content", args: { docId: "acme-10k", pages: "46" }, id: "c6" }])
      .respondWithTools([{ name: "get_page_content", args: { docId: "acme-10k", pages: "9-x" }, id: "c7" }])
      .respond(new AIMessage("The effective tax rate was 21.4% (ACME 10-K, p. 46)."));
    const tools = createPageIndexTools(retriever, { navigation: { structurePageSize: 10 } });
    const agent = createAgent({ model, tools });
    const state = await agent.invoke({ messages: [{ role: "user", content: QUESTION }] });
    const messages = state.messages as BaseMessage[];
    const toolMessages = messages.filter((m): m is ToolMessage => ToolMessage.isInstance(m));
    expect(toolMessages.map((m) => m.name)).toEqual([
      "search_sections",
      "list_documents",
      "get_document_structure",
      "get_document_structure",
      "get_node_content",
      "get_page_content",
      "get_page_content",
    ]);
    const [search, list, structure, structureMore, nodes, pages, bad] = toolMessages.map((m) =>
      String(m.content),
    );
    const artifact = <T>(name: string, nth = 0) =>
      toolMessages.filter((m) => m.name === name)[nth]?.artifact as T;
    expect(search).toContain('location="pp. 46-50" source="ACME 2023 Form 10-K › Part II › ');
    expect(search).toContain("21.4%");
    const { sections } = artifact<{ sections: Array<{ nodeId: string; startPage: number }> }>(
      "search_sections",
    );
    expect(sections[0]).toMatchObject({ nodeId: ID.note12, startPage: 46 });

    expect(list).toContain('<document docId="acme-10k" kind="pdf" pages="60" sections="15">');
    expect(list).toContain('<document docId="rocket-manual"');
    expect(list).toContain("Name: Rocket Skates User Manual");

    // The structure comes in pages of 10 lines: the first page ends with a pointer to the next.
    expect(structure).toContain("lines 1-10 of 15");
    expect(structure).toContain("[0000] Part I (pp. 1-10)");
    expect(structure).not.toContain("[0013]");
    expect(structure).toContain('call again with docId="acme-10k", offset=10');
    expect(structureMore).toContain("lines 11-15 of 15");
    expect(structureMore).toContain("[0013] Note 12. Income Taxes (pp. 46-50)");
    const more = artifact<{ nodes: Array<{ nodeId: string }> }>("get_document_structure", 1);
    expect(more.nodes.map((n) => n.nodeId)).toEqual(["0010", "0011", "0012", "0013", "0014"]);

    expect(nodes).toContain(
      '<section docId="acme-10k" nodeId="0013" location="pp. 46-50" source="ACME 2023 Form 10-K › ',
    );
    expect(nodes).toContain("The effective tax rate was 21.4% in 2023");
    expect(nodes).toContain("In 2023 ACME acquired RoadRunner Traps for $1.2 billion.");
    const read = artifact<Document[]>("get_node_content");
    expect(read.map((d) => d.metadata.nodeId)).toEqual([ID.note12, ID.note5]);

    expect(pages).toContain(
      '<section docId="acme-10k" nodeId="0013" location="pp. 46-50" source="ACME 2023 Form 10-K › ',
    );
    expect(bad).toMatch(/^Error: bad page range: "9-x" is not a page/);
    expect(String(messages.at(-1)?.content)).toContain("21.4%");
    expect(model.callCount).toBe(8);
    // The model's last turn read every tool result, in order.
    const received = (model.calls.at(-1)?.messages ?? []).filter((m) => ToolMessage.isInstance(m));
    expect(received.map((m) => String(m.content))).toEqual([
      search,
      list,
      structure,
      structureMore,
      nodes,
      pages,
      bad,
    ]);
  });
});
