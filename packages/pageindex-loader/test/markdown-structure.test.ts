import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { EmptyDocumentError, markdownToTree } from "../src/index.js";
import { parseMarkdown } from "../src/markdown/parse.js";

/** The shape under test: one row per node, in pre-order. */
function rows(tree: TreeDocument) {
  return tree.nodes.map((n) => ({
    id: n.nodeId,
    title: n.title,
    level: n.level,
    heading: n.headingLevel,
    parent: n.parentId,
    lines: [n.startLine, n.ownEndLine, n.endLine],
  }));
}

const row = (
  id: string,
  title: string,
  level: number,
  heading: number | undefined,
  parent: string | null,
  lines: [number, number, number],
) => ({ id, title, level, heading, parent, lines });

const md = (...lines: string[]) => `${lines.join("\n")}\n`;
const build = (text: string, name = "doc.md") => markdownToTree(text, { summaries: "none", docName: name });

describe("Markdown headings → tree", () => {
  it("nests ATX headings, attaches level skips to the nearest shallower heading, keeps empty sections and a preface", async () => {
    const text = md(
      "Intro line one.", // 1
      "", // 2
      "# Title *one* ##", // 3
      "Body of one.", // 4
      "", // 5
      "#### Deep `code` [link](http://x.test)", // 6
      "deep body", // 7
      "## Two", // 8
      "### Empty", // 9
      "## Three", // 10
      "text", // 11
    );
    const tree = await build(text);
    expect(rows(tree)).toEqual([
      row("0000", "Preface", 1, undefined, null, [1, 2, 2]),
      row("0001", "Title one", 1, 1, null, [3, 5, 11]),
      row("0002", "Deep code link", 2, 4, "0001", [6, 7, 7]),
      row("0003", "Two", 2, 2, "0001", [8, 8, 9]),
      row("0004", "Empty", 3, 3, "0003", [9, 9, 9]),
      row("0005", "Three", 2, 2, "0001", [10, 11, 11]),
    ]);
    expect(tree.rootIds).toEqual(["0000", "0001"]);
    expect(tree.nodes[1]?.childIds).toEqual(["0002", "0003", "0005"]);
    expect(tree.lineCount).toBe(11);
    expect(tree.nodes.map((n) => n.text)).toEqual([
      "Intro line one.",
      "# Title *one* ##\nBody of one.",
      "#### Deep `code` [link](http://x.test)\ndeep body",
      "## Two",
      "### Empty",
      "## Three\ntext",
    ]);
    expect(tree.build.structure).toBe("headings");
    expect(tree.kind).toBe("markdown");
  });

  it("reads setext headings and ignores # lines in fences, indented code and HTML blocks; front matter is metadata", async () => {
    const text = md(
      "---", // 1
      "title: Front Title", // 2
      "tags: [a, b]", // 3
      "---", // 4
      "Setext One", // 5
      "==========", // 6
      "", // 7
      "```python", // 8
      "# not a heading", // 9
      "```", // 10
      "", // 11
      "~~~", // 12
      "## also not", // 13
      "~~~", // 14
      "", // 15
      "    # indented code", // 16
      "", // 17
      "<div>", // 18
      "# inside html", // 19
      "</div>", // 20
      "", // 21
      "Setext Two", // 22
      "----------", // 23
      "text after", // 24
    );
    const tree = await build(text);
    expect(rows(tree)).toEqual([
      row("0000", "Setext One", 1, 1, null, [5, 21, 24]),
      row("0001", "Setext Two", 2, 2, "0000", [22, 24, 24]),
    ]);
    expect(tree.metadata).toEqual({ frontMatter: { title: "Front Title", tags: ["a", "b"] } });
    expect(tree.nodes[0]?.text).toContain("# not a heading");
    expect(tree.nodes[0]?.text).toContain("# inside html");
  });

  it("puts blank-only text before the first heading in no node, and starts a preface at its first content line", async () => {
    expect(rows(await build(md("", "   ", "# A", "a")))).toEqual([row("0000", "A", 1, 1, null, [3, 4, 4])]);
    expect(rows(await build(md("---", "x: 1", "---", "", "Lead.", "", "# A")))).toEqual([
      row("0000", "Preface", 1, undefined, null, [5, 6, 6]),
      row("0001", "A", 1, 1, null, [7, 7, 7]),
    ]);
  });

  it("renders inline markup in titles as plain text and handles closing sequences", async () => {
    const text = md(
      "# Hello **bold** _em_ `code` [link](u) ![img alt](x.png) <span>html</span> &amp; \\*esc\\*",
      "## Title ###",
      "## Title #not",
      "#",
      "Multi-line",
      "setext *title*",
      "---",
    );
    const tree = await build(text);
    expect(tree.nodes.map((n) => n.title)).toEqual([
      "Hello bold em code link img alt html & *esc*",
      "Title",
      "Title #not",
      "(untitled)",
      "Multi-line setext title",
    ]);
    expect(rows(tree).slice(1)).toEqual([
      row("0001", "Title", 2, 2, "0000", [2, 2, 2]),
      row("0002", "Title #not", 2, 2, "0000", [3, 3, 3]),
      row("0003", "(untitled)", 1, 1, null, [4, 4, 7]),
      row("0004", "Multi-line setext title", 2, 2, "0003", [5, 7, 7]),
    ]);
  });

  it("does not treat headings inside block quotes or list items as sections", async () => {
    const text = md("# Top", "> # quoted", "", "- # in a list", "", "## Real", "x");
    expect(rows(await build(text))).toEqual([
      row("0000", "Top", 1, 1, null, [1, 5, 7]),
      row("0001", "Real", 2, 2, "0000", [6, 7, 7]),
    ]);
  });

  it("keeps an unclosed fence to the end of the document and honours long and tilde fences", async () => {
    const text = md(
      "# A",
      "~~~~",
      "```",
      "# no",
      "```",
      "~~~~",
      "## B",
      "```",
      "# still code",
      "## also code",
    );
    expect(rows(await build(text))).toEqual([
      row("0000", "A", 1, 1, null, [1, 6, 10]),
      row("0001", "B", 2, 2, "0000", [7, 10, 10]),
    ]);
  });

  it("counts lines the same with CRLF, CR and a missing final newline", async () => {
    const lf = rows(await build("# A\nx\n\n## B\ny"));
    expect(rows(await build("# A\r\nx\r\n\r\n## B\r\ny"))).toEqual(lf);
    expect(rows(await build("# A\rx\r\r## B\ry"))).toEqual(lf);
    const crlf = await build("# A\r\nx\r\n\r\n## B\r\ny\r\n");
    expect(crlf.lineCount).toBe(5);
    expect(crlf.nodes[0]?.text).toBe("# A\nx");
    expect(lf).toEqual([row("0000", "A", 1, 1, null, [1, 3, 5]), row("0001", "B", 2, 2, "0000", [4, 5, 5])]);
  });

  it("strips a UTF-8 BOM before looking for front matter", async () => {
    const tree = await build("\uFEFF---\ntitle: T\n---\n# H\n");
    expect(tree.metadata).toEqual({ frontMatter: { title: "T" } });
    expect(rows(tree)).toEqual([row("0000", "H", 1, 1, null, [4, 4, 4])]);
  });
});

describe("front matter edge cases", () => {
  it("does not let a leading --- rule without a closing line swallow the document", async () => {
    const tree = await build(md("---", "# A", "text"));
    expect(tree.metadata).toBeUndefined();
    // The rule alone is no content: no Preface node.
    expect(rows(tree)).toEqual([row("0000", "A", 1, 1, null, [2, 3, 3])]);
  });

  it("keeps invalid YAML as raw front matter with a warning", async () => {
    const tree = await build(md("---", "title: [unclosed", "---", "# H"));
    expect(tree.metadata).toEqual({ frontMatter: { raw: "title: [unclosed" } });
    expect(tree.build.warnings?.[0]).toMatch(/front matter is not valid YAML/);
    expect(rows(tree)).toEqual([row("0000", "H", 1, 1, null, [4, 4, 4])]);
  });

  it("reads a block whose YAML is not a mapping as Markdown (a rule and a setext heading)", async () => {
    const tree = await build(md("---", "just prose here", "---", "# H"));
    expect(tree.metadata).toBeUndefined();
    expect(rows(tree)).toEqual([
      row("0000", "just prose here", 1, 2, null, [2, 3, 3]),
      row("0001", "H", 1, 1, null, [4, 4, 4]),
    ]);
  });

  it("treats empty front matter as an empty mapping", async () => {
    const tree = await build(md("---", "---", "# H"));
    expect(tree.metadata).toEqual({ frontMatter: {} });
    expect(rows(tree)).toEqual([row("0000", "H", 1, 1, null, [3, 3, 3])]);
  });
});

describe("front matter syntaxes", () => {
  it("closes YAML front matter with ... as well as ---", async () => {
    const tree = await build(md("---", "title: Dots", "tags: [a]", "...", "# H", "x"));
    expect(tree.metadata).toEqual({ frontMatter: { title: "Dots", tags: ["a"] } });
    expect(rows(tree)).toEqual([row("0000", "H", 1, 1, null, [5, 6, 6])]);
  });

  it("keeps TOML front matter (+++) as raw text, marked as TOML", async () => {
    const tree = await build(md("+++", 'title = "Hugo page"', "draft = false", "+++", "", "# H"));
    expect(tree.metadata).toEqual({
      frontMatter: { raw: 'title = "Hugo page"\ndraft = false' },
      frontMatterFormat: "toml",
    });
    expect(rows(tree)).toEqual([row("0000", "H", 1, 1, null, [6, 6, 6])]);
  });

  it("does not mix fences: +++ does not close YAML, ... does not close TOML; unclosed blocks are Markdown", async () => {
    const yaml = await build(md("---", "a: 1", "+++", "# H"));
    expect(yaml.metadata).toBeUndefined();
    expect(yaml.nodes.map((n) => n.title)).toEqual(["Preface", "H"]);
    const toml = await build(md("+++", "a = 1", "...", "# H"));
    expect(toml.metadata).toBeUndefined();
    expect(rows(toml)).toEqual([
      row("0000", "Preface", 1, undefined, null, [1, 3, 3]),
      row("0001", "H", 1, 1, null, [4, 4, 4]),
    ]);
  });
});

describe("prefaces without content", () => {
  it("are dropped when only comments, link definitions and rules precede the first heading", async () => {
    const text = md(
      "<!-- generated, do not edit -->",
      "",
      "[ref]: https://x.test",
      "",
      "***",
      "",
      "# A",
      "text",
    );
    const tree = await build(text);
    expect(rows(tree)).toEqual([row("0000", "A", 1, 1, null, [7, 8, 8])]);
    expect(tree.lineCount).toBe(8);
  });

  it("are kept, from their first line, when a comment is followed by prose", async () => {
    const tree = await build(md("<!-- note -->", "Lead.", "", "# A"));
    expect(rows(tree)).toEqual([
      row("0000", "Preface", 1, undefined, null, [1, 3, 3]),
      row("0001", "A", 1, 1, null, [4, 4, 4]),
    ]);
    expect(tree.nodes[0]?.text).toBe("<!-- note -->\nLead.");
  });
});

describe("HTML headings", () => {
  it("make a standalone <h1>…<h6> block a section at its level; other HTML blocks stay text", async () => {
    const text = md(
      '<h1 align="center">', // 1
      '  <img src="logo.png" alt="Logo"><br>', // 2
      "  My &amp; Project", // 3
      "</h1>", // 4
      "", // 5
      '<p align="center">Badges</p>', // 6
      "", // 7
      '<h3 id="use">Usage <code>cli</code></h3>', // 8
      "", // 9
      "<h2>Install</h2>", // 10
      "Run it.", // 11
      "", // 12
      "<div><h2>In a div</h2></div>", // 13
      "", // 14
      "<h2>A</h2><h2>B</h2>", // 15
      "", // 16
      "## Markdown again", // 17
    );
    const tree = await build(text);
    expect(rows(tree)).toEqual([
      row("0000", "Logo My & Project", 1, 1, null, [1, 7, 17]),
      row("0001", "Usage cli", 2, 3, "0000", [8, 16, 16]),
      row("0002", "Markdown again", 2, 2, "0000", [17, 17, 17]),
    ]);
    expect(tree.nodes[1]?.text).toContain("<h2>Install</h2>\nRun it.");
  });

  it("title an element without text (untitled) and ignore headings nested in lists or quotes", async () => {
    const tree = await build(md("<h2></h2>", "", "> <h1>Quoted</h1>", "", "- <h1>Listed</h1>"));
    expect(rows(tree)).toEqual([row("0000", "(untitled)", 1, 2, null, [1, 5, 5])]);
  });
});

describe("long titles", () => {
  it("are capped at 200 characters on a word boundary with an ellipsis; the node text keeps the heading", async () => {
    const heading = `# ${"word ".repeat(5_000).trim()}`;
    const tree = await build(md(heading, "body"));
    const title = tree.nodes[0]?.title ?? "";
    expect(title).toBe(`${"word ".repeat(39)}word…`);
    expect(title.length).toBeLessThanOrEqual(200);
    expect(tree.nodes[0]?.text).toBe(`${heading}\nbody`);
  });

  it("are cut mid-word when there is no space, for HTML headings and front matter titles too", async () => {
    const long = "x".repeat(25_000);
    const html = await build(md(`<h1>${long}</h1>`));
    expect(html.nodes[0]?.title).toBe(`${"x".repeat(199)}…`);
    const fm = await build(md("---", `title: ${long}`, "---", "body"));
    expect(fm.nodes[0]?.title).toBe(`${"x".repeat(199)}…`);
  });

  it("never end in half an emoji: a cut inside a surrogate pair backs up before it", async () => {
    const tree = await build(md(`# ${"😀".repeat(150)}`));
    expect(tree.nodes[0]?.title).toBe(`${"😀".repeat(99)}…`);
  });
});

describe("documents without headings", () => {
  it("become one node titled after the file, covering the content lines", async () => {
    const tree = await build(md("", "Just some text.", "", "More text."), "notes.md");
    expect(rows(tree)).toEqual([row("0000", "notes", 1, undefined, null, [2, 4, 4])]);
    expect(tree.nodes[0]?.text).toBe("Just some text.\n\nMore text.");
    expect(tree.build.structure).toBe("flat");
  });

  it("take the front matter title when there is one", async () => {
    const tree = await build(md("---", "title: From YAML", "---", "body"), "x.md");
    expect(rows(tree)).toEqual([row("0000", "From YAML", 1, undefined, null, [4, 4, 4])]);
  });

  it("with only front matter, are one empty node over the whole file, titled from the front matter or the file", async () => {
    const tree = await build(md("---", "a: 1", "---"), "fm.md");
    expect(rows(tree)).toEqual([row("0000", "fm", 1, undefined, null, [1, 3, 3])]);
    expect([tree.nodes[0]?.text, tree.nodes[0]?.tokenCount]).toEqual(["", 0]);
    const titled = await build(md("---", "title: Only YAML", "...", "", "<!-- nothing else -->"), "x.md");
    expect(rows(titled)).toEqual([row("0000", "Only YAML", 1, undefined, null, [1, 5, 5])]);
    expect(titled.nodes[0]?.text).toBe("");
  });

  it("treat a # line in code as text, not a heading", async () => {
    const tree = await build(md("```", "# comment", "```"), "code.md");
    expect(rows(tree)).toEqual([row("0000", "code", 1, undefined, null, [1, 3, 3])]);
  });

  it("reject empty and whitespace-only text with a typed error", async () => {
    await expect(build("", "empty.md")).rejects.toThrow(EmptyDocumentError);
    await expect(build(" \n\t\n", "blank.md")).rejects.toThrow(/blank\.md is empty/);
  });
});

describe("thinning", () => {
  const words = (n: number) => Array.from({ length: n }, (_, i) => `word${i % 10}`).join(" ");
  const text = md(
    "# Root", // 1
    words(5), // 2
    "## Small", // 3
    "tiny", // 4
    "### Smaller", // 5
    "tiny too", // 6
    "## Big", // 7
    words(400), // 8
    "### Leaf", // 9
    "leaf text", // 10
  );

  it("is off by default", async () => {
    expect((await build(text)).nodes).toHaveLength(5);
  });

  it("merges a subtree under the threshold into its root and leaves the rest", async () => {
    const tree = await markdownToTree(text, {
      summaries: "none",
      docName: "t.md",
      thinning: { minTokens: 50 },
    });
    expect(rows(tree)).toEqual([
      row("0000", "Root", 1, 1, null, [1, 2, 10]),
      row("0001", "Small", 2, 2, "0000", [3, 6, 6]),
      row("0002", "Big", 2, 2, "0000", [7, 8, 10]),
      row("0003", "Leaf", 3, 3, "0002", [9, 10, 10]),
    ]);
    expect(tree.nodes[1]?.text).toBe("## Small\ntiny\n### Smaller\ntiny too");
    expect(tree.build.options).toMatchObject({ thinning: { minTokens: 50 } });
  });

  it("collapses the whole tree when everything is small", async () => {
    const tree = await markdownToTree(text, {
      summaries: "none",
      docName: "t.md",
      thinning: { minTokens: 100_000 },
    });
    expect(rows(tree)).toEqual([row("0000", "Root", 1, 1, null, [1, 10, 10])]);
    expect(tree.nodes[0]?.text).toBe(text.trimEnd());
  });
});

describe("parseMarkdown", () => {
  it("reports top-level headings with 1-based lines, including setext underlines", () => {
    const parsed = parseMarkdown("Title\n=====\n\n## Sub ##\n");
    expect(parsed.headings).toEqual([
      { level: 1, title: "Title", line: 1, lastLine: 2 },
      { level: 2, title: "Sub", line: 4, lastLine: 4 },
    ]);
    expect(parsed.lineCount).toBe(4);
  });

  it("reads HTML headings and comment blocks in linear time when a long line has no '>' or '-->'", () => {
    // Lazy or `[^>]*` tag patterns rescan to the end from every `<`: minutes for these lines.
    const n = 256_000;
    const started = performance.now();
    const heading = parseMarkdown(`<h2>Tags ${"<".repeat(n)} <!-- c --> <b>end</b></h2>\n`);
    const images = parseMarkdown(`<h2>${"<img ".repeat(n / 5)}</h2>\n`);
    const comments = parseMarkdown(`${"<!-- ".repeat(n / 5)}\n\n# A\n`);
    // Linear, not quadratic (minutes); the bound leaves room for a loaded machine.
    expect(performance.now() - started).toBeLessThan(30_000);
    expect(heading.headings[0]?.title.startsWith("Tags <<<")).toBe(true);
    expect(heading.headings[0]?.title.endsWith("…")).toBe(true);
    expect(images.headings[0]?.level).toBe(2);
    // An unclosed comment is not a comment: the block is content, so it makes a preface.
    expect(comments.firstContentLine).toBe(1);
  });

  it("handles a large generated document in one pass", () => {
    const section = (i: number) => `## Section ${i}\n\n${"Lorem ipsum dolor sit amet. ".repeat(20)}\n\n`;
    const text = Array.from({ length: 5000 }, (_, i) => section(i)).join("");
    const parsed = parseMarkdown(text);
    expect(parsed.headings).toHaveLength(5000);
    expect(parsed.headings[4999]).toEqual({
      level: 2,
      title: "Section 4999",
      line: 4999 * 4 + 1,
      lastLine: 4999 * 4 + 1,
    });
  });
});
