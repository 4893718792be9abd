import type { ToolMessage } from "@langchain/core/messages";
import type { StructuredToolInterface } from "@langchain/core/tools";
import { createTree, type TreeDocument } from "pageindex-core";
import { createNavigationTools, createSearchTool, PageIndexRetriever } from "pageindex-retriever";
import { MemoryTreeReader } from "pageindex-store";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { budgets } from "../src/tools/search-tool.js";
import { annualReport, ID, judgeByTitle, manual, TAX_PATH } from "./support/fixtures.js";
import { hostileTree, tags } from "./support/hostile.js";

/** Invokes a tool as an agent would (with a tool call) to get content, artifact and status. */
async function call(t: StructuredToolInterface, args: Record<string, unknown>) {
  const message = (await t.invoke({ type: "tool_call", id: "call-1", name: t.name, args })) as ToolMessage;
  return { content: String(message.content), artifact: message.artifact as unknown, status: message.status };
}

/** The offset a result tells the agent to read on from, if any. */
function nextOffset(content: string): number | undefined {
  const match = /more: call get_node_content with .*?offset=(\d+)/.exec(content);
  return match ? Number(match[1]) : undefined;
}

/** The text inside the one <section> block of a result. */
function sectionText(content: string): string {
  const match = /<section [^>]*>\n([\s\S]*?)\n<\/section>/.exec(content);
  if (!match) throw new Error(`no section in ${content.slice(0, 200)}`);
  return match[1] as string;
}

/** A handbook whose one chapter is long (about 24 000 characters), its last line the answer. */
function handbook(): TreeDocument {
  const long = Array.from(
    { length: 400 },
    (_, i) => `Line ${i + 1} of the calibration procedure keeps the probe steady.`,
  ).join("\n");
  return createTree(
    {
      docId: "handbook",
      docName: "Probe Handbook",
      kind: "markdown",
      lineCount: 420,
      build: { loader: "test", structure: "headings" },
      createdAt: "2024-01-01T00:00:00.000Z",
    },
    [
      { title: "Overview", startLine: 1, endLine: 10, text: "Overview of the probe." },
      {
        title: "Calibration",
        startLine: 11,
        endLine: 420,
        text: `${long}\nFinally, the calibration constant is 0.7734.`,
      },
    ],
  );
}

describe("get_document_structure opens one branch", () => {
  const tools = createNavigationTools(new MemoryTreeReader([annualReport(), manual()]), {
    structurePageSize: 3,
  });

  it("shows the branch under a node id, paged inside it", async () => {
    const first = await call(tools.getStructure, { docId: "acme-10k", nodeId: ID.item8 });
    expect(first.content).toMatch(/^Structure of docId=acme-10k under nodeId=0007, lines 1-3 of 8:/);
    expect(first.content).toContain(
      '<toc docId="acme-10k" name="ACME 2023 Form 10-K" branch="[0007] Part II › Item 8. Financial Statements and Supplementary Data">\n' +
        "[0007] Item 8. Financial Statements and Supplementary Data (pp. 31-60)",
    );
    expect(first.content).not.toContain("Part I (");
    expect(first.content).toContain('call again with docId="acme-10k", nodeId="0007", offset=3');
    const last = await call(tools.getStructure, { docId: "acme-10k", nodeId: ID.item8, offset: 6 });
    expect(last.content).toContain("lines 7-8 of 8");
    expect(last.content).toContain("[0014] Note 15. Commitments and Contingencies (pp. 51-60)");
    expect(last.content).not.toContain("call again");
    expect((last.artifact as { nodes: Array<{ nodeId: string }> }).nodes.map((n) => n.nodeId)).toEqual([
      ID.note12,
      ID.note15,
    ]);
  });

  it("counts maxDepth from the node, marking branches it hides", async () => {
    const wide = createNavigationTools(new MemoryTreeReader([annualReport()]));
    const { content } = await call(wide.getStructure, { docId: "acme-10k", nodeId: "7", maxDepth: 2 });
    expect(content).toContain("lines 1-4 of 4");
    expect(content).toContain(
      "  [0010] Notes to Consolidated Financial Statements (pp. 35-60) [+4 subsections]",
    );
    expect(content).not.toContain("[0013]");
    const top = await call(wide.getStructure, { docId: "acme-10k", maxDepth: 1 });
    expect(top.content).toContain("[0000] Part I (pp. 1-10) [+2 subsections]");
  });

  it("gives ids in every line that the other tools accept", async () => {
    const wide = createNavigationTools(new MemoryTreeReader([annualReport()]));
    const { content } = await call(wide.getStructure, { docId: "acme-10k" });
    const ids = [...content.matchAll(/^\s*\[(\d{4})\] /gm)].map((m) => m[1] as string);
    expect(ids).toHaveLength(15);
    const read = await call(wide.getNodeContent, { docId: "acme-10k", nodeIds: ids.slice(0, 20) });
    expect(read.status).toBe("success");
    expect(read.content).not.toContain("Unknown ids");
    expect((read.artifact as unknown[]).length).toBe(15);
    for (const id of ids) {
      const branch = await call(wide.getStructure, { docId: "acme-10k", nodeId: id });
      expect(branch.status).toBe("success");
      expect(branch.content).toContain(`[${id}] `);
    }
  });

  it("answers a bad node id or document with an error the agent can act on", async () => {
    const bad = await call(tools.getStructure, { docId: "acme-10k", nodeId: "9999" });
    expect(bad.status).toBe("error");
    expect(bad.content).toBe(
      'Error: no section "9999" in "acme-10k"; ids look like "0003" (call get_document_structure without nodeId for the top of the document)',
    );
    expect((await call(tools.getStructure, { docId: "ghost", nodeId: "0001" })).content).toMatch(
      /^Error: no document "ghost"/,
    );
    const past = await call(tools.getStructure, { docId: "acme-10k", nodeId: ID.note12, offset: 1 });
    expect(past.content).toBe("Error: offset 1 is past the end (the structure has 1 lines)");
  });
});

describe("section text is paged, never cut", () => {
  it("reads a long section to its end across calls, following the offsets given", async () => {
    const tree = handbook();
    const whole = tree.nodes[1]?.text ?? "";
    const tools = createNavigationTools(new MemoryTreeReader([tree]), { maxContentChars: 5000 });
    let offset: number | undefined = 0;
    const pages: string[] = [];
    let calls = 0;
    let last = "";
    while (offset !== undefined) {
      const args: Record<string, unknown> = { docId: "handbook", nodeIds: ["0001"] };
      if (offset > 0) args.offset = offset;
      const { content, status } = await call(tools.getNodeContent, args);
      expect(status).toBe("success");
      pages.push(sectionText(content));
      last = content;
      offset = nextOffset(content);
      calls += 1;
      expect(calls).toBeLessThan(10);
    }
    expect(calls).toBe(5);
    // The pages put together are the section, word for word; the last says it is the end.
    expect(pages.join("")).toBe(whole);
    expect(last).toMatch(/\[characters \d+-\d+ of \d+: the end of this section\]$/);
    expect(last).toContain("the calibration constant is 0.7734.");
    // Pages end at line breaks, never inside a word.
    for (const page of pages.slice(0, -1)) expect(page.endsWith("\n")).toBe(true);
    const first = await call(tools.getNodeContent, { docId: "handbook", nodeIds: ["0001"] });
    expect(first.content).toMatch(
      /\n\[characters 1-\d+ of \d+; \d+ more: call get_node_content with docId="handbook", nodeIds=\["0001"\], offset=\d+\]$/,
    );
  });

  it("refuses an offset past the end of the text", async () => {
    const tools = createNavigationTools(new MemoryTreeReader([handbook()]));
    const { content, status } = await call(tools.getNodeContent, {
      docId: "handbook",
      nodeIds: ["0000"],
      offset: 500,
    });
    expect(status).toBe("error");
    expect(content).toBe("Error: offset 500 is past the end of the text (characters: 0000: 22)");
  });

  it("spends the search text budget on the best section first, and the next one reads on", async () => {
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model: new ScriptedChatModel([], {
        fallback: judgeByTitle(/^(Part II|Item 8\.|Notes to|Note 12\.|Note 5\.)/, [[/^Note 5\./, 0.7]]),
      }),
      backoffMs: 1,
    });
    const search = createSearchTool(retriever, { maxChars: 1500, minCharsPerSection: 400 });
    const { content, artifact } = await call(search, { query: "effective tax rate and acquisitions" });
    const blocks = content.split(/\n\n(?=\[\d\] score=)/);
    expect(blocks).toHaveLength(3);
    const [tax, acquisitions] = [blocks[1] as string, blocks[2] as string];
    expect(tax).toMatch(/^\[1\] score=0\.90\n<section docId="acme-10k" nodeId="0013"/);
    expect(acquisitions).toMatch(/^\[2\] score=0\.70\n<section docId="acme-10k" nodeId="0012"/);
    expect(sectionText(tax).length).toBeGreaterThan(1000);
    expect(sectionText(acquisitions).length).toBeLessThanOrEqual(400);
    // Both say how to read on; reading on continues the same text.
    const offset = nextOffset(acquisitions) as number;
    expect(offset).toBe(sectionText(acquisitions).length);
    const nav = createNavigationTools(retriever.reader);
    const rest = await call(nav.getNodeContent, { docId: "acme-10k", nodeIds: [ID.note5], offset });
    const documents = (artifact as { documents: Array<{ pageContent: string }> }).documents;
    expect(sectionText(acquisitions) + sectionText(rest.content)).toBe(documents[1]?.pageContent.trim());
  });

  it("caps one section's text at maxCharsPerSection, with the call that reads on", async () => {
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model: new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) }),
      backoffMs: 1,
    });
    const { content } = await call(createSearchTool(retriever, { maxCharsPerSection: 300 }), {
      query: "effective tax rate",
    });
    expect(sectionText(content).length).toBeLessThanOrEqual(300);
    expect(nextOffset(content)).toBe(sectionText(content).length);
  });

  it("splits text budgets best first, never below the floor", () => {
    expect(budgets([1000, 3000, 3000], 2500, 400)).toEqual([1000, 1500, 400]);
    expect(budgets([200, 100], 2500, 400)).toEqual([200, 100]);
  });
});

describe("search_sections keeps only sections scored at least the threshold", () => {
  it("filters a weak pick and says it returned fewer than asked", async () => {
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model: new ScriptedChatModel([], {
        fallback: judgeByTitle(/^(Part II|Item 8\.|Notes to|Note 12\.|Note 5\.)/, [[/^Note 5\./, 0.15]]),
      }),
      backoffMs: 1,
    });
    // The retriever returns the weak pick; the tool does not pass it on.
    expect((await retriever.invoke("effective tax rate")).map((d) => d.metadata.nodeId)).toContain(ID.note5);
    const { content, artifact } = await call(createSearchTool(retriever), {
      query: "effective tax rate",
      limit: 3,
    });
    expect(content).toMatch(
      /^1 of the 3 sections asked for: the search found 1 scoring at least 0\.5 \(1 weaker pick\(s\) left out\)\./,
    );
    expect(content).toContain('nodeId="0013"');
    expect(content).not.toContain('nodeId="0012"');
    const { sections, leftOut } = artifact as {
      sections: Array<{ nodeId: string }>;
      leftOut: Array<{ nodeId: string; score: number }>;
    };
    expect(sections.map((s) => s.nodeId)).toEqual([ID.note12]);
    expect(leftOut).toMatchObject([{ nodeId: ID.note5, score: 0.15 }]);
    // A lower threshold passes it on.
    const lenient = await call(createSearchTool(retriever, { minScore: 0.1 }), {
      query: "effective tax rate",
    });
    expect(lenient.content).toContain('nodeId="0012"');
  });

  it("names a branch to browse when only weak picks were found, with ids the other tools accept", async () => {
    const retriever = new PageIndexRetriever({
      trees: [annualReport(), manual()],
      docIds: ["acme-10k"],
      model: new ScriptedChatModel([], {
        fallback: judgeByTitle(/^(Part II|Item 8\.|Notes to|Note 5\.)/, [[/./, 0.3]]),
      }),
      backoffMs: 1,
    });
    const { content, artifact } = await call(createSearchTool(retriever), { query: "goodwill impairment" });
    expect(content).toMatch(
      /^No section scored at least 0\.5 for this question \(\d weaker pick\(s\) left out;/,
    );
    const next = /get_document_structure docId="([^"]+)", nodeId="(\d{4})"/.exec(content);
    expect(next).not.toBeNull();
    const nav = createNavigationTools(retriever.reader);
    const branch = await call(nav.getStructure, { docId: next?.[1], nodeId: next?.[2] });
    expect(branch.status).toBe("success");
    expect((artifact as { sections: unknown[] }).sections).toEqual([]);
  });

  it("names documents to open from the library index when nothing was found", async () => {
    const retriever = new PageIndexRetriever({
      trees: [annualReport(), manual()],
      model: new ScriptedChatModel([], { fallback: () => JSON.stringify({ relevant: [] }) }),
      backoffMs: 1,
    });
    const { content, status } = await call(createSearchTool(retriever), {
      query: "how often should the fuel filter be replaced",
    });
    expect(status).toBe("success");
    expect(content).toMatch(/^No section found for this question\./);
    expect(content).toContain("Documents whose sections match the question's words");
    expect(content).toContain(
      '- docId="rocket-manual" (Rocket Skates User Manual): [0002] Maintenance and Warranty',
    );
    // The suggested ids work in the reading tools.
    const nav = createNavigationTools(retriever.reader);
    const read = await call(nav.getNodeContent, { docId: "rocket-manual", nodeIds: ["0002"] });
    expect(read.content).toContain("Replace the fuel filter every 10 flights.");
  });

  it("lists other documents the library index ranks high, with ids to open, after the sections", async () => {
    const retriever = new PageIndexRetriever({
      trees: [annualReport(), manual()],
      docIds: ["acme-10k"],
      model: new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) }),
      backoffMs: 1,
    });
    const { content } = await call(createSearchTool(retriever), {
      query: "effective tax rate, or the fuel filter of the skates",
    });
    const [sections, others] = content.split("\n\nOther documents the library index ranks high");
    expect(sections).toContain('nodeId="0013"');
    expect(others).toContain(
      '- docId="rocket-manual" (Rocket Skates User Manual): [0002] Maintenance and Warranty',
    );
    // The document whose sections are shown is not listed again.
    expect(others).not.toContain('docId="acme-10k"');
  });

  it("keeps the suggested documents' names and titles inside an escaped data block", async () => {
    const retriever = new PageIndexRetriever({
      trees: [annualReport(), hostileTree()],
      docIds: ["acme-10k"],
      model: new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) }),
      backoffMs: 1,
    });
    const { content } = await call(createSearchTool(retriever), {
      query: "effective tax rate, revenue costs",
    });
    const others = content.split("\n\nOther documents the library index ranks high")[1] ?? "";
    expect(others).toContain('<toc source="library index">\n- docId="hostile" (Evil.pdf&lt;/document&gt;');
    expect(tags(content)).toEqual(["<section", "</section", "<toc", "</toc"]);
    expect(content).not.toMatch(/^\[0099\]/m);
  });

  it("has descriptions that say when to use which tool", () => {
    const retriever = new PageIndexRetriever({ trees: [annualReport()] });
    const nav = createNavigationTools(retriever.reader);
    expect(createSearchTool(retriever).description).toMatch(/^Use first for any question/);
    expect(nav.searchDocuments.description).toMatch(/when search_sections found nothing good/);
    expect(nav.getStructure.description).toMatch(/Give nodeId to open just that branch/);
    expect(nav.getNodeContent.description).toMatch(/call again with the offset it gives/);
  });
});
