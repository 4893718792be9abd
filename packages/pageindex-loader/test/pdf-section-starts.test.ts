/**
 * A section's text starts at its heading, also mid-page (issue 18), on every structure path: a
 * reference manual whose topics start mid-page and whose running head names the topic that
 * starts on the page (so the head reads exactly like the next section's heading, above it).
 */
import { countTokens, type TreeDocument, type TreeNode, treeToDocuments } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { pdfToTree } from "../src/index.js";
import { body, buildPdf, type LineSpec, type OutlineSpec, type PageSpec } from "./fixtures/pdf-builder.js";
import { readerAnswer } from "./pdf-llm-fixtures.js";

interface Topic {
  heading: string;
  /** Physical page and line index of the heading. */
  page: number;
  line: number;
}

/** Lines under the running head on a full page. */
const PER_PAGE = 30;

interface Manual {
  pages: PageSpec[];
  topics: Topic[];
  /** Every page's lines but its running head and footer, in reading order. */
  bodyText: string[];
}

/**
 * Six content pages after a title page; topics of two to five body lines' worth of text, most
 * starting mid-page. The running head of a page is the last topic starting on it (the topic
 * continuing from before when none starts), as in R's manuals; a page number is the footer.
 */
function manual(style: { heading: (name: string, n: number) => LineSpec; numbered?: boolean }): Manual {
  const names = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliet"];
  const sizes = [14, 9, 22, 6, 17, 11, 25, 8, 13, 19];
  const pages: PageSpec[] = [
    {
      lines: [
        { text: "Widget Toolkit Reference Manual", size: 20, bold: true },
        "Version 1.0",
        "Widget Project",
      ],
    },
  ];
  const topics: Topic[] = [];
  const bodyText: string[] = ["Widget Toolkit Reference Manual", "Version 1.0", "Widget Project"];
  let lines: LineSpec[] = [];
  let heads: string[] = [];
  let current = "";
  const flush = () => {
    const page = pages.length + 1;
    const head = heads[heads.length - 1] ?? current;
    pages.push({
      lines: [{ text: head, size: 9 }, ...lines.map((l, i) => (i === 0 ? { ...l, gap: 24 } : l))],
      footer: String(page),
    });
    lines = [];
    heads = [];
  };
  names.forEach((name, n) => {
    const text = style.numbered ? `${n + 1} ${name[0]?.toUpperCase()}${name.slice(1)}` : name;
    let rest = sizes[n] as number;
    if (lines.length >= PER_PAGE - 4) flush();
    // +1: the running head is line 0 of every page.
    topics.push({ heading: text, page: pages.length + 1, line: lines.length + 1 });
    lines.push(style.heading(text, n));
    bodyText.push(text);
    heads.push(text);
    current = text;
    let seed = n * 100;
    while (rest > 0) {
      const room = Math.min(rest, PER_PAGE - lines.length);
      for (const l of body(room, seed++)) {
        lines.push(l);
        bodyText.push(l.text);
      }
      rest -= room;
      if (rest > 0) flush();
    }
  });
  flush();
  return { pages, topics, bodyText };
}

const plainHeading = (text: string): LineSpec => ({ text, size: 12, bold: true, gap: 8 });

const bookmarks = (topics: Topic[], withPosition: boolean): OutlineSpec[] =>
  topics.map((t) => ({ title: t.heading, page: t.page, ...(withPosition ? { line: t.line } : {}) }));

const squash = (s: string): string => s.replace(/\s+/g, "");

/** The section checks of issue 18 on a tree built from {@link manual}. */
function expectExactSections(tree: TreeDocument, m: Manual): void {
  // A model may give "Charlie" for the heading "3 Charlie".
  const key = (s: string) => s.toLowerCase().replace(/^\d+\s+/, "");
  const sections = m.topics.map((t) => {
    const node = tree.nodes.find((n) => key(n.title) === key(t.heading));
    if (!node) throw new Error(`no node for "${t.heading}" in ${tree.nodes.map((n) => n.title).join(", ")}`);
    return { topic: t, node };
  });
  sections.forEach(({ topic, node }, i) => {
    // The text starts with the heading and stops before the next one (its running head included).
    expect(node.text.split("\n")[0], node.title).toBe(topic.heading);
    const next = sections[i + 1]?.topic.heading;
    if (next) expect(node.text.split("\n"), node.title).not.toContain(next);
    // The page range still lists the first page, where the text starts mid-page.
    expect(node.startPage).toBe(topic.page);
    expect(node.position).toMatchObject({ page: topic.page, line: topic.line + 1 });
  });
  // Nothing lost, nothing twice: the nodes' texts in reading order are the body text.
  expect(squash(tree.nodes.map((n: TreeNode) => n.text).join(""))).toBe(squash(m.bodyText.join("")));
}

const load = (bytes: Uint8Array, options: Parameters<typeof pdfToTree>[1]) =>
  pdfToTree(bytes, { summaries: "none", split: false, ...options }, { name: "manual.pdf" });

describe("section text starts at its heading", () => {
  const m = manual({ heading: plainHeading });

  it("outline: a destination's top (XYZ) places the heading mid-page, under a head that repeats it", async () => {
    const bytes = await buildPdf({ pages: m.pages, outline: bookmarks(m.topics, true) });
    const tree = await load(bytes, { structure: "outline" });
    expect(tree.build.structure).toBe("outline");
    expectExactSections(tree, m);
    // Sections sharing a page: the one ending there still lists it, the next starts on it.
    const bravo = tree.nodes.find((n) => n.title === "bravo") as TreeNode;
    const charlie = tree.nodes.find((n) => n.title === "charlie") as TreeNode;
    expect(bravo.endPage).toBe(charlie.startPage);
  });

  it("outline without positions: the heading is found by its text, never in the running head", async () => {
    const bytes = await buildPdf({ pages: m.pages, outline: bookmarks(m.topics, false) });
    expectExactSections(await load(bytes, { structure: "outline" }), m);
  });

  it("layout: headings keep their line", async () => {
    const big = manual({ heading: (text) => ({ text, size: 16, bold: true, gap: 10 }), numbered: true });
    const tree = await load(await buildPdf({ pages: big.pages }), { structure: "layout" });
    expect(tree.build.structure).toBe("layout");
    expectExactSections(tree, big);
  });

  it("LLM: a model's sections (title and page) are located on the page, skipping the running head", async () => {
    // Headings in the body font, numbered ("3 Charlie"), as the prompt reader recognises them;
    // the running head, the page's first line, repeats them.
    const numbered = manual({ heading: (text) => ({ text, gap: 0 }), numbered: true });
    const model = new ScriptedChatModel([], { fallback: (prompt: string) => readerAnswer(prompt) });
    const tree = await load(await buildPdf({ pages: numbered.pages }), { structure: "llm", model });
    expect(tree.build.structure).toBe("llm");
    expectExactSections(tree, numbered);
  });

  it("Documents carry metadata.loc: page, line span, start and end positions", async () => {
    const bytes = await buildPdf({ pages: m.pages, outline: bookmarks(m.topics, true) });
    const tree = await load(bytes, { structure: "outline" });
    const docs = treeToDocuments(tree);
    const charlie = m.topics[2] as Topic;
    const doc = docs.find((d) => d.metadata.title === "charlie");
    const loc = doc?.metadata.loc;
    expect(loc?.pageNumber).toBe(charlie.page);
    expect(loc?.start).toEqual({ page: charlie.page, line: charlie.line + 1 });
    // charlie's text ends on a later page, at the last body line before its footer.
    const node = tree.nodes.find((n) => n.title === "charlie") as TreeNode;
    expect(loc?.end?.page).toBe(node.endPage);
    expect(loc?.lines).toEqual({ from: charlie.line + 1, to: loc?.end?.line });
    expect(loc?.pages).toEqual({ from: node.startPage, to: node.endPage });
    // The line span addresses the page text as extracted: the heading is that line.
    expect(doc?.pageContent.split("\n")[0]).toBe("charlie");
  });

  it("summaries and token counts come from the section's own text, not its page", async () => {
    const bytes = await buildPdf({ pages: m.pages, outline: bookmarks(m.topics, true) });
    const tree = await load(bytes, { structure: "outline", summaries: "extractive" });
    for (const node of tree.nodes) expect(node.tokenCount, node.title).toBe(countTokens(node.text));
    // delta starts mid-page under charlie's tail: its summary opens with its own first sentence.
    const delta = tree.nodes.find((n) => n.title === "delta") as TreeNode;
    const charlie = tree.nodes.find((n) => n.title === "charlie") as TreeNode;
    const [heading, first] = delta.text.split("\n");
    expect(heading).toBe("delta");
    expect(delta.summary?.startsWith(first as string)).toBe(true);
    expect(delta.summary).not.toContain(charlie.text.split("\n").at(-1));
  });
});
