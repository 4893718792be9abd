import type { ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import {
  createNavigationTools,
  createPageIndexTools,
  createSearchTool,
  InvalidPageRangeError,
  PageIndexRetriever,
  parsePageRanges,
} from "pageindex-retriever";
import { MemoryTreeReader } from "pageindex-store";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { annualReport, ID, judgeByTitle, manual, TAX_PATH } from "./support/fixtures.js";

/** Invokes a tool as an agent would (with a tool call) to get content and artifact. */
async function call(t: StructuredToolInterface, args: Record<string, unknown>) {
  const message = (await t.invoke({ type: "tool_call", id: "call-1", name: t.name, args })) as ToolMessage;
  return { content: String(message.content), artifact: message.artifact as unknown };
}

describe("parsePageRanges", () => {
  it("parses pages and ranges", () => {
    expect(parsePageRanges("5-7,12")).toEqual([5, 6, 7, 12]);
    expect(parsePageRanges(" 12 , 5 – 6; 5")).toEqual([5, 6, 12]);
  });
  it.each([
    ["", /empty/],
    ["abc", /"abc" is not a page/],
    ["7-5", /ends before it starts/],
    ["0-2", /start at 1/],
    ["1-55", /spans more than 50/],
    ["58-61", /beyond the last page \(60\)/],
    [",", /no pages/],
  ])("rejects %j", (spec, message) => {
    expect(() => parsePageRanges(spec, { pageCount: 60 })).toThrow(InvalidPageRangeError);
    expect(() => parsePageRanges(spec, { pageCount: 60 })).toThrow(message);
  });
});

describe("navigation tools", () => {
  const reader = new MemoryTreeReader([annualReport(), manual()]);
  const tools = createNavigationTools(reader, { structurePageSize: 6 });

  it("lists documents", async () => {
    const { content, artifact } = await call(tools.listDocuments, {});
    expect(content).toContain("docId=acme-10k: ACME 2023 Form 10-K (pdf, 60 pages, 15 sections)");
    expect(content).toContain("rocket skates");
    expect(artifact).toHaveLength(2);
  });

  it("pages through a document's structure", async () => {
    const first = await call(tools.getStructure, { docId: "acme-10k" });
    expect(first.content).toContain("lines 1-6 of 15");
    expect(first.content).toContain("[0000] Part I (pp. 1-10)");
    expect(first.content).toContain("call again with offset=6");
    const last = await call(tools.getStructure, { docId: "acme-10k", offset: 12 });
    expect(last.content).toContain("[0014] Note 15. Commitments and Contingencies (pp. 51-60)");
    expect(last.content).not.toContain("call again");
    const top = await call(tools.getStructure, { docId: "acme-10k", maxDepth: 1 });
    expect(top.content).toContain("lines 1-2 of 2");
    expect((await call(tools.getStructure, { docId: "acme-10k", offset: 99 })).content).toMatch(
      /^Error: offset 99/,
    );
    expect((await call(tools.getStructure, { docId: "ghost" })).content).toMatch(
      /^Error: no document "ghost"/,
    );
  });

  it("reads nodes by id, reporting unknown ids", async () => {
    const { content, artifact } = await call(tools.getNodeContent, {
      docId: "acme-10k",
      nodeIds: ["13", "9999"],
    });
    expect(content).toContain("Note 12. Income Taxes (pp. 46-50) [docId=acme-10k nodeId=0013]");
    expect(content).toContain("<section");
    expect(content).toContain("21.4%");
    expect(content).toContain("Unknown ids skipped: 9999");
    expect((artifact as Array<{ metadata: { nodeId: string } }>).map((d) => d.metadata.nodeId)).toEqual([
      ID.note12,
    ]);
    expect((await call(tools.getNodeContent, { docId: "acme-10k", nodeIds: ["x"] })).content).toMatch(
      /^Error: no section "x"/,
    );
  });

  it("reads the sections covering a page range", async () => {
    const { content, artifact } = await call(tools.getPageContent, { docId: "acme-10k", pages: "46-47,12" });
    const ids = (artifact as Array<{ metadata: { nodeId: string } }>).map((d) => d.metadata.nodeId);
    // Own page spans only: Part II or Item 7 (which merely contain page 12) are not returned whole.
    expect(ids).toEqual([ID.results, ID.note12]);
    expect(content).toContain("Sections covering pages 12, 46, 47");
    const bad = await call(tools.getPageContent, { docId: "acme-10k", pages: "7-5" });
    expect(bad.content).toBe('Error: bad page range: range "7-5" ends before it starts');
    expect(bad.artifact).toEqual({ error: 'bad page range: range "7-5" ends before it starts' });
    const beyond = await call(tools.getPageContent, { docId: "acme-10k", pages: "70" });
    expect(beyond.content).toMatch(/beyond the last page \(60\)/);
  });
});

describe("search tool", () => {
  it("returns sections with citations as content and Documents as artifact", async () => {
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model: new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) }),
      backoffMs: 1,
    });
    const search = createSearchTool(retriever);
    expect(search.name).toBe("search_documents");
    const { content, artifact } = await call(search, { query: "effective tax rate" });
    expect(content).toContain(
      "[1] ACME 2023 Form 10-K — Part II > Item 8. Financial Statements and Supplementary Data > Notes to Consolidated Financial Statements > Note 12. Income Taxes (pp. 46-50) [docId=acme-10k nodeId=0013]",
    );
    expect(content).toContain("21.4%");
    const { sections, documents } = artifact as {
      sections: Array<Record<string, unknown>>;
      documents: unknown[];
    };
    expect(sections[0]).toMatchObject({ docId: "acme-10k", nodeId: ID.note12, startPage: 46, endPage: 50 });
    expect(documents).toHaveLength(1);
    expect((await call(search, { query: "  " })).content).toMatch(/^Error: the query is empty/);
  });

  it("bundles every tool for an agent", () => {
    const retriever = new PageIndexRetriever({ trees: [annualReport()] });
    expect(createPageIndexTools(retriever).map((t) => t.name)).toEqual([
      "search_documents",
      "list_documents",
      "get_document_structure",
      "get_node_content",
      "get_page_content",
    ]);
  });
});
