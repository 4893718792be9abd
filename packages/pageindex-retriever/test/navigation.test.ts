import { createTree, type NodeDraft, rootsOf, type TreeDocument } from "pageindex-core";
import { PageIndexRetriever } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { chooseDocumentsPrompt } from "../src/judge/prompts.js";
import { groupRange, type LevelEntry, levelEntries } from "../src/search/groups.js";
import { buildOutline } from "../src/search/outline.js";
import { judgeByTitle, offeredNodes } from "./support/fixtures.js";

// Subtrees this small would be returned whole instead of opened: open them, as in a real manual.
const fast = { backoffMs: 1, timeoutMs: 2000, cache: false as const, collapseBelowTokens: 0 };

const INTRO =
  "1 Connecting. Before you connect, install the driver: the macOS installers come in two builds, one for " +
  "Intel processors and one for arm64 (Apple silicon); pick the build that matches your machine, run it, and " +
  "restart the session so the new driver is found when the package loads.";

/** A small manual: a chapter with an introduction of its own, a chapter without one, an index. */
function guide(): TreeDocument {
  const labels = ["i", "ii", ...Array.from({ length: 28 }, (_, i) => String(i + 1))];
  const drafts: NodeDraft[] = [
    {
      title: "1 Connecting",
      startPage: 3,
      ownEndPage: 3,
      text: INTRO,
      tokenCount: 70,
      prefixSummary: "How to install the driver: macOS installers for Intel and arm64.",
      children: [
        {
          title: "1.1 Excel files",
          startPage: 4,
          endPage: 6,
          text: "odbcConnectExcel opens an Excel workbook as a database; sheets become tables.",
          summary: "odbcConnectExcel opens an Excel workbook as a database; sheets become tables.",
        },
        {
          title: "1.2 Databases",
          startPage: 7,
          endPage: 10,
          text: "odbcConnect opens a DSN; sqlQuery runs a query and returns a data frame.",
          summary: "odbcConnect opens a DSN; sqlQuery runs a query and returns a data frame.",
        },
      ],
    },
    {
      title: "2 Miscellanea",
      startPage: 11,
      ownEndPage: 11,
      text: "2 Miscellanea",
      children: [
        {
          title: "2.1 Sorting",
          startPage: 11,
          endPage: 15,
          text: "Sort a data frame with order() on its columns.",
          summary: "Sort a data frame with order() on its columns, decreasing or not.",
        },
        {
          title: "2.2 Factors",
          startPage: 16,
          endPage: 20,
          text: "Factors store categories as integer codes.",
          summary: "Factors store categories as integer codes with labels and levels.",
        },
      ],
    },
    {
      title: "Index",
      startPage: 21,
      endPage: 30,
      text: "Index cat 4, 27 close 22, 26 excel 4, 5 odbcConnectExcel 4, 5, 6 sqlQuery 8, 9 sort 11 factor 16",
      summary: "cat 4, 27 close 22, 26 excel 4, 5 odbcConnectExcel 4, 5, 6 sqlQuery 8, 9 sort 11 factor 16",
    },
  ];
  const tree = createTree(
    {
      docId: "guide",
      docName: "ODBC guide",
      kind: "pdf",
      pageCount: 30,
      build: { loader: "t", structure: "outline" },
    },
    drafts,
  );
  return { ...tree, pageLabels: labels };
}

const titleOf = (tree: TreeDocument, id: string) => tree.nodes.find((n) => n.nodeId === id)?.title;

describe("back matter", () => {
  it("is never returned ahead of content by the offline judge, unless the question asks for it", async () => {
    const tree = guide();
    const retriever = new PageIndexRetriever({ trees: [tree], k: 3, ...fast });
    const docs = await retriever.invoke("open an excel workbook with odbcConnectExcel");
    const titles = docs.map((d) => d.metadata.title);
    expect(titles[0]).toBe("1.1 Excel files");
    const index = titles.indexOf("Index");
    if (index >= 0) expect(titles.slice(index).every((t) => t === "Index")).toBe(true);

    const asked = await retriever.invoke("which index entries list odbcConnectExcel");
    expect(asked.map((d) => d.metadata.title)).toContain("Index");
  });

  it("is marked in judge prompts, with printed page numbers beside physical ones", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(/^1\.1 Excel/) });
    const retriever = new PageIndexRetriever({ trees: [guide()], model, strategy: "expand", ...fast });
    await retriever.invoke("open an excel workbook");
    const first = model.prompts[0] as string;
    expect(first).toContain("Title: Index [back matter: index]");
    expect(first).toContain("Location: pp. 3-10 [printed 1-8]");
  });
});

describe("branch summaries at query time", () => {
  it("shows what a branch without an introduction covers (trees stored before branch summaries)", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(/^2\.1 Sorting/) });
    const retriever = new PageIndexRetriever({ trees: [guide()], model, strategy: "expand", ...fast });
    await retriever.invoke("sort rows");
    expect(model.prompts[0]).toContain("Summary: 2 subsections: 2.1 Sorting (Sort a data frame with order()");
    // An outline shows it while the subsections are collapsed, and drops it once they are listed.
    const tree = guide();
    const roots = levelEntries(tree, null, rootsOf(tree), 24);
    const options = { fanOut: 24, budget: 10_000, summaryChars: 150, deepSummaryChars: 150 };
    const collapsed = buildOutline(tree, roots, { ...options, lookahead: false }).text;
    expect(collapsed).toMatch(
      /\[\d+\] 2 Miscellanea \(pp\. 11-20\) \[printed 9-18\] \[\+2 subsections\]\n\s+2 subsections:/,
    );
    const expanded = buildOutline(tree, roots, { ...options, lookahead: true }).text;
    expect(expanded).toMatch(
      /\[\d+\] 2 Miscellanea \(pp\. 11-20\) \[printed 9-18\]\n\s+\[\d+\] 2\.1 Sorting/,
    );
  });
});

describe("an opened section's own introduction", () => {
  it("is offered among its subsections, and picking it returns the section itself", async () => {
    const tree = guide();
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(/^(1 Connecting|Introduction of)/) });
    const retriever = new PageIndexRetriever({ trees: [tree], model, strategy: "expand", k: 3, ...fast });
    const docs = await retriever.invoke("which installer do I need on an arm64 Mac?");
    const opened = offeredNodes(model.prompts[1] as string);
    expect(opened[0]?.title).toBe('Introduction of "1 Connecting" (its own text, before its subsections)');
    expect(docs.map((d) => d.metadata.title)).toEqual(["1 Connecting"]);
    expect(docs[0]?.pageContent).toContain("arm64");
    expect(retriever.lastRun?.visited.every((v) => titleOf(tree, v.nodeId) !== undefined)).toBe(true);
  });

  it("is not offered for a section with no text of its own", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(/^(2 Miscellanea|2\.1 Sorting)/) });
    await new PageIndexRetriever({ trees: [guide()], model, strategy: "expand", ...fast }).invoke(
      "sort rows",
    );
    expect(offeredNodes(model.prompts[1] as string).map((n) => n.title)).toEqual([
      "2.1 Sorting",
      "2.2 Factors",
    ]);
  });
});

describe("weak branches", () => {
  const judge = judgeByTitle(/^(1 Connecting|2 Miscellanea|1\.1 Excel|2\.1 Sorting)/, [
    [/^2 Miscellanea/, 0.2],
  ]);

  it("are not opened once stronger sections fill k, and stay results ranked by their score", async () => {
    const model = new ScriptedChatModel([], { fallback: judge });
    const retriever = new PageIndexRetriever({ trees: [guide()], model, strategy: "expand", k: 1, ...fast });
    const docs = await retriever.invoke("open an excel workbook");
    expect(model.calls).toBe(2); // the roots, then "1 Connecting"; "2 Miscellanea" (0.2) is not opened
    expect(docs[0]?.metadata.title).toBe("1.1 Excel files");

    const every = new ScriptedChatModel([], { fallback: judge });
    await new PageIndexRetriever({
      trees: [guide()],
      model: every,
      strategy: "expand",
      k: 1,
      weakBranchScore: 0,
      ...fast,
    }).invoke("open an excel workbook");
    expect(every.calls).toBe(3);
  });

  it("are opened while nothing stronger was found", async () => {
    const model = new ScriptedChatModel([], {
      fallback: judgeByTitle(/^(2 Miscellanea|2\.1 Sorting)/, [[/^2 Miscellanea/, 0.2]]),
    });
    const retriever = new PageIndexRetriever({ trees: [guide()], model, strategy: "expand", k: 1, ...fast });
    const docs = await retriever.invoke("sort rows");
    expect(model.calls).toBe(2);
    expect(docs[0]?.metadata.title).toBe("2.1 Sorting");
  });

  it("get a neutral second look: an empty answer is fine", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(/^2 Miscellanea/) });
    await new PageIndexRetriever({ trees: [guide()], model, strategy: "expand", ...fast }).invoke(
      "colour maps",
    );
    const second = model.prompts.find((p) => p.includes("Second look")) as string;
    expect(second).toContain("an empty list is the right answer when none does");
    expect(second).not.toContain("One of those judgments is wrong");
  });
});

describe("sibling groups", () => {
  it("never share a page, so an answer on one page follows one path", () => {
    // 100 sections, every third one starting on the page where the one before ends.
    let page = 1;
    const sections: NodeDraft[] = Array.from({ length: 100 }, (_, i) => {
      const start = i % 3 === 1 ? page : page + 1;
      page = start + 1;
      return { title: `Function ${i}`, startPage: start, endPage: page, text: `f${i}` };
    });
    const tree = createTree(
      {
        docId: "ref",
        docName: "ref",
        kind: "pdf",
        pageCount: page,
        build: { loader: "t", structure: "outline" },
      },
      [{ title: "Reference", startPage: 1, text: "", children: sections }],
    );
    const chapter = rootsOf(tree)[0];
    if (!chapter) throw new Error("no chapter");
    const children = tree.nodes.filter((n) => n.parentId === chapter.nodeId);
    const groups = levelEntries(tree, chapter, children, 24).filter(
      (e): e is Extract<LevelEntry, { kind: "group" }> => e.kind === "group",
    );
    expect(groups.length).toBeGreaterThan(1);
    expect(groups.every((g) => g.group.nodes.length <= 24)).toBe(true);
    expect(groups.flatMap((g) => g.group.nodes)).toHaveLength(100);
    for (let i = 1; i < groups.length; i += 1) {
      const before = groupRange((groups[i - 1] as (typeof groups)[number]).group);
      const after = groupRange((groups[i] as (typeof groups)[number]).group);
      expect(after.start).toBeGreaterThan(before.end as number);
    }
  });

  it("picked next to each other, are opened together in one prompt", async () => {
    const sections: NodeDraft[] = Array.from({ length: 600 }, (_, i) => ({
      title: `Function ${i}`,
      startPage: i + 2,
      endPage: i + 2,
      text: `f${i}`,
    }));
    const tree = createTree(
      {
        docId: "ref",
        docName: "ref",
        kind: "pdf",
        pageCount: 601,
        build: { loader: "t", structure: "outline" },
      },
      [{ title: "Reference", startPage: 1, text: "", children: sections }],
    );
    // Picks the second and third groups of the chapter, then what is inside them.
    const model = new ScriptedChatModel([], {
      fallback: (prompt: string) =>
        JSON.stringify({
          relevant: offeredNodes(prompt)
            .filter((n) => /^0000~[23](\.\d+)?$/.test(n.id) || /^(Reference|Function 6\d)$/.test(n.title))
            .map((n) => ({ id: n.id, score: 0.9 })),
        }),
    });
    const retriever = new PageIndexRetriever({ trees: [tree], model, strategy: "expand", ...fast });
    await retriever.invoke("function sixty");
    const joined = model.prompts.filter((p) => p.includes("group 0000~2+3\n"));
    expect(joined).toHaveLength(1);
    expect(model.prompts.some((p) => /group 0000~[23]\n/.test(p))).toBe(false);
  });
});

describe("the document-choice prompt", () => {
  it("never shows a placeholder for a document without a description", () => {
    const [, human] = chooseDocumentsPrompt(
      "sort rows",
      [
        { docId: "a", docName: "imported.json" },
        { docId: "b", docName: "faq.pdf", description: "Frequently asked questions about R." },
      ],
      2,
      undefined,
    );
    const text = String(human?.content);
    expect(text).not.toContain("(none)");
    expect(text).toContain("Description: Frequently asked questions about R.");
  });
});
