import { createHash } from "node:crypto";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { BaseDocumentLoader } from "@langchain/core/document_loaders/base";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { parseTree, UsageTracker } from "pageindex-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  EmptyDocumentError,
  InvalidInputError,
  MarkdownTreeLoader,
  type MarkdownTreeLoaderOptions,
  PdfTreeLoader,
  type PdfTreeLoaderOptions,
  SourceNotFoundError,
  UnsupportedContentError,
} from "../src/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pageindex-md-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const sentences = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `The ${topic} rule ${i} applies to every module.`).join(" ");

const GUIDE = [
  "---", // 1
  "title: Style Guide", // 2
  "---", // 3
  "# Style Guide", // 4
  "", // 5
  "This guide sets the house style.", // 6
  "", // 7
  "## Naming", // 8
  "", // 9
  sentences("naming", 40), // 10
  "", // 11
  "## Imports", // 12
  "", // 13
  "Import modules, not names.", // 14
  "", // 15
  "### Ordering", // 16
  "", // 17
  sentences("ordering", 40), // 18
].join("\n");

describe("MarkdownTreeLoader", () => {
  it("is a LangChain document loader reading a path; load() gives one Document per node", async () => {
    const path = join(dir, "style guide.md");
    await writeFile(path, GUIDE);
    const loader = new MarkdownTreeLoader(path);
    expect(loader).toBeInstanceOf(BaseDocumentLoader);
    const docs = await loader.load();
    expect(
      docs.map((d) => [
        d.id,
        d.metadata.title,
        d.metadata.parentId,
        d.metadata.startLine,
        d.metadata.endLine,
      ]),
    ).toEqual([
      ["style-guide.md:0000", "Style Guide", null, 4, 18],
      ["style-guide.md:0001", "Naming", "0000", 8, 11],
      ["style-guide.md:0002", "Imports", "0000", 12, 18],
      ["style-guide.md:0003", "Ordering", "0002", 16, 18],
    ]);
    expect(docs[3]?.metadata).toMatchObject({
      docId: "style-guide.md",
      path: ["Style Guide", "Imports", "Ordering"],
      isLeaf: true,
      level: 3,
      headingLevel: 3,
      source: path,
      kind: "markdown",
    });
    expect(docs[2]?.pageContent).toBe("## Imports\n\nImport modules, not names.");
    expect(docs[2]?.metadata.prefixSummary).toBe("Import modules, not names.");
  });

  it("records build info, hash, line count and front matter in the tree, which passes the schema", async () => {
    const tree = await MarkdownTreeLoader.fromText(GUIDE, { name: "guide.md" }).loadTree();
    expect(parseTree(JSON.parse(JSON.stringify(tree)))).toEqual(JSON.parse(JSON.stringify(tree)));
    expect(tree).toMatchObject({
      docId: "guide.md",
      docName: "guide.md",
      kind: "markdown",
      lineCount: 18,
      contentHash: createHash("sha256").update(GUIDE).digest("hex"),
      metadata: { frontMatter: { title: "Style Guide" } },
      build: {
        loader: "markdown",
        structure: "headings",
        options: { summaries: "extractive", thinning: false, description: false, summaryChars: 300 },
        usage: { calls: 0, promptTokens: 0, completionTokens: 0, failures: 0 },
        warnings: [],
      },
    });
    expect(tree.build.model).toBeUndefined();
    expect(tree.source).toBeUndefined();
    expect(tree.nodes.map((n) => n.tokenCount > 0)).toEqual([true, true, true, true]);
  });

  it("reads Blobs and bytes, naming unnamed input after its content hash", async () => {
    const fromFile = await new MarkdownTreeLoader(new File([GUIDE], "blob.md")).loadTree();
    expect(fromFile.docName).toBe("blob.md");
    const fromBytes = await new MarkdownTreeLoader(new TextEncoder().encode(GUIDE)).loadTree();
    const hash = createHash("sha256").update(GUIDE).digest("hex");
    expect(fromBytes.docId).toBe(`markdown-${hash.slice(0, 12)}`);
    expect(fromBytes.nodes.map((n) => n.title)).toEqual(fromFile.nodes.map((n) => n.title));
    const custom = await new MarkdownTreeLoader(new Blob([GUIDE]), {
      docId: "my-doc",
      docName: "Mine",
    }).loadTree();
    expect([custom.docId, custom.docName]).toEqual(["my-doc", "Mine"]);
  });

  it("throws typed errors naming the file for missing, binary, non-UTF-8 and empty files", async () => {
    const missing = join(dir, "missing.md");
    await expect(new MarkdownTreeLoader(missing).load()).rejects.toThrow(SourceNotFoundError);
    await expect(new MarkdownTreeLoader(missing).load()).rejects.toThrow(missing);

    const binary = join(dir, "binary.md");
    await writeFile(binary, Buffer.from([0x23, 0x20, 0x41, 0x00, 0xff, 0x10]));
    await expect(new MarkdownTreeLoader(binary).load()).rejects.toThrow(UnsupportedContentError);
    await expect(new MarkdownTreeLoader(binary).load()).rejects.toThrow(`${binary} looks binary`);

    const latin1 = join(dir, "latin1.md");
    await writeFile(latin1, Buffer.from("# Caf\xe9\n", "latin1"));
    await expect(new MarkdownTreeLoader(latin1).load()).rejects.toThrow(`${latin1} is not valid UTF-8`);

    const empty = join(dir, "empty.md");
    await writeFile(empty, "");
    await expect(new MarkdownTreeLoader(empty).load()).rejects.toThrow(EmptyDocumentError);
    await expect(new MarkdownTreeLoader(empty).load()).rejects.toThrow(`${empty} is empty`);
  });

  it("checks options in the constructor", () => {
    expect(() => new MarkdownTreeLoader("x.md", { summaries: "llm" })).toThrow(InvalidInputError);
    expect(() => new MarkdownTreeLoader("x.md", { thinning: { minTokens: -1 } })).toThrow(/minTokens/);
    expect(() => new MarkdownTreeLoader("x.md", { docId: "../evil" })).toThrow(/Invalid document id/);
  });

  it("names the model option when it is given a model's name instead of a chat model", () => {
    const byName = { summaries: "llm", model: "gpt-4o-mini" } as unknown as MarkdownTreeLoaderOptions;
    expect(() => new MarkdownTreeLoader("x.md", byName)).toThrow(InvalidInputError);
    expect(() => new MarkdownTreeLoader("x.md", byName)).toThrow(
      'model: got the string "gpt-4o-mini": pass a chat model object, e.g. new ChatOpenAI({ model: "gpt-4o-mini" })',
    );
    const notAModel = { model: {} } as unknown as PdfTreeLoaderOptions;
    expect(() => new PdfTreeLoader("x.pdf", notAModel)).toThrow(/model: got an object without invoke\(\)/);
    expect(
      () => new MarkdownTreeLoader("x.md", { model: new FakeListChatModel({ responses: [] }) }),
    ).not.toThrow();
  });

  it("summarises with a chat model: leaves get summary, internal nodes prefixSummary, failures fall back", async () => {
    // Sections over 200 tokens, in document order: Naming (leaf) then Ordering (leaf).
    const model = new FakeListChatModel({ responses: ['{"summary": "Naming rules."}', "Sorry, I cannot."] });
    const usage = new UsageTracker();
    const tree = await MarkdownTreeLoader.fromText(GUIDE, {
      name: "guide.md",
      summaries: "llm",
      model,
      concurrency: 1,
      retries: 0,
      usage,
    }).loadTree();
    expect(tree.nodes.map((n) => [n.title, n.summary, n.prefixSummary])).toEqual([
      ["Style Guide", undefined, "This guide sets the house style."],
      ["Naming", "Naming rules.", undefined],
      ["Imports", undefined, "Import modules, not names."],
      [
        "Ordering",
        "The ordering rule 0 applies to every module. The ordering rule 1 applies to every module. The ordering rule 2 applies to every module. The ordering rule 3 applies to every module. The ordering rule 4 applies to every module. The ordering rule 5 applies to every module.",
        undefined,
      ],
    ]);
    expect(tree.build.warnings).toHaveLength(1);
    expect(tree.build.warnings?.[0]).toMatch(/^summary of "Ordering" \(0003\) fell back to extractive/);
    expect(tree.build.model).toBe("fake-list");
    expect(tree.build.usage).toMatchObject({ calls: 2, failures: 1 });
    expect(tree.build.options).toMatchObject({ summaries: "llm", summaryThreshold: 200, concurrency: 1 });
    expect(usage.total.calls).toBe(2);
  });

  it("adds a description: extractive without a model, from the model when given", async () => {
    const plain = await MarkdownTreeLoader.fromText(GUIDE, { name: "g.md", description: true }).loadTree();
    expect(plain.description).toBe(
      "Style Guide: This guide sets the house style. Sections: Naming, Imports.",
    );
    const model = new FakeListChatModel({
      responses: ['{"description": "A house style guide for modules."}'],
    });
    const withModel = await MarkdownTreeLoader.fromText(GUIDE, {
      name: "g.md",
      description: true,
      summaries: "none",
      model,
    }).loadTree();
    expect(withModel.description).toBe("A house style guide for modules.");
    expect(withModel.nodes.every((n) => n.summary === undefined && n.prefixSummary === undefined)).toBe(true);
    expect(withModel.build.usage?.byStep?.describe?.calls).toBe(1);
    expect(withModel.build.model).toBe("fake-list");
  });

  it("indexes a 20 MB generated document", async () => {
    const parts: string[] = [];
    let size = 0;
    let chapters = 0;
    let sections = 0;
    const body = `${sentences("generated", 12)}\n\n\`\`\`\n# a comment, not a heading\n\`\`\`\n\n`;
    while (size < 20 * 1024 * 1024) {
      const chapter = `# Chapter ${chapters}\n\n${body}`;
      parts.push(chapter);
      size += chapter.length;
      chapters += 1;
      for (let s = 0; s < 9; s++) {
        const section = `## Section ${chapters}.${s}\n\n${body}`;
        parts.push(section);
        size += section.length;
        sections += 1;
      }
    }
    const tree = await MarkdownTreeLoader.fromText(parts.join(""), { name: "big.md" }).loadTree();
    expect(tree.nodes).toHaveLength(chapters + sections);
    expect(tree.rootIds).toHaveLength(chapters);
  }, 180_000);
});
