/**
 * Heading location trusts the outline's destination (issue 26): a reference manual whose help
 * pages start mid-page under running heads, each heading set as "name<far right>Description",
 * followed by a Usage block whose first line calls the topic (`as.function(x, ...)`). The
 * bookmarks (no arity: "as.function", not "as.function/2") point at the heading line; the
 * section must start there, never at the Usage line that reads like the bookmark's title.
 */
import type { TreeDocument, TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { locateHeading } from "../src/pdf/structure/heading-position.js";
import { body, buildPdf, type LineSpec, type OutlineSpec, type PageSpec } from "./fixtures/pdf-builder.js";
import { parsedPage, pdfLine } from "./fixtures/pdf-lines.js";

interface Topic {
  name: string;
  description: string;
  page: number;
  /** Line index of the heading on its page (the running head is line 0). */
  line: number;
}

const TOPICS: Array<[string, string]> = [
  ["as.function", "Convert Object to Function"],
  ["as.list", "Lists, Generic and Recursive Vectors"],
  ["attach", "Attach Set of Objects to Search Path"],
  ["with.default", "Evaluate an Expression in a Data Environment"],
  ["abbreviate", "Abbreviate Strings"],
  ["agrep", "Approximate String Matching"],
  ["all.equal", "Test if Two Objects are Nearly Equal"],
];

/** Lines under the running head on a full page. */
const PER_PAGE = 32;

/**
 * Help pages of 8 to 16 lines each, flowing across pages; every page's running head is the
 * first topic on it (the one continuing from before when none starts), a page number its footer.
 */
function referenceManual(): { pages: PageSpec[]; topics: Topic[] } {
  const pages: PageSpec[] = [
    { lines: [{ text: "The R Base Package", size: 20, bold: true }, "Reference Manual"] },
  ];
  const topics: Topic[] = [];
  let lines: LineSpec[] = [];
  let head = "";
  const flush = () => {
    pages.push({ lines: [{ text: head, size: 9 }, ...lines], footer: String(pages.length + 1) });
    lines = [];
  };
  TOPICS.forEach(([name, description], n) => {
    const block: LineSpec[] = [
      { text: "", cells: [name, description], size: 12, bold: true, gap: 14 },
      { text: "Description", bold: true, gap: 4 },
      ...body(1 + (n % 2), n * 10),
      { text: "Usage", bold: true, gap: 4 },
      { text: `${name}(x, ...)` },
      { text: "Arguments", bold: true, gap: 4 },
      ...body(2 + (n % 3), n * 10 + 3),
      { text: "Examples", bold: true, gap: 4 },
      { text: `${name}(1:10)` },
    ];
    if (lines.length + 3 > PER_PAGE) flush();
    if (lines.length === 0) head = name;
    topics.push({ name, description, page: pages.length + 1, line: lines.length + 1 });
    for (const l of block) {
      if (lines.length >= PER_PAGE) {
        flush();
        head = name;
      }
      lines.push(l);
    }
  });
  flush();
  return { pages, topics };
}

const bookmarks = (topics: readonly Topic[]): OutlineSpec[] =>
  topics.map((t) => ({ title: t.name, page: t.page, line: t.line }));

function expectHelpPages(tree: TreeDocument, topics: readonly Topic[]): void {
  topics.forEach((t, i) => {
    const node = tree.nodes.find((n) => n.title === t.name) as TreeNode;
    expect(node, t.name).toBeDefined();
    const lines = node.text.split("\n");
    // The heading line opens the section, and its Description stays with it.
    expect(lines[0], t.name).toContain(t.name);
    expect(lines[0], t.name).toContain(t.description);
    expect(lines[1], t.name).toBe("Description");
    expect(lines).toContain(`${t.name}(x, ...)`);
    expect(node.position).toMatchObject({ page: t.page, line: t.line + 1 });
    // Nothing of the next help page is left at this one's end.
    const next = topics[i + 1];
    if (next) expect(node.text, t.name).not.toContain(next.description);
  });
}

describe("a destination decides where a bookmark without arity starts", () => {
  const manual = referenceManual();

  it("starts every help page at its heading line, not at its Usage call line", async () => {
    // The shape the issue describes: some topics start mid-page under a running head.
    expect(manual.topics.some((t) => t.line > 1)).toBe(true);
    const bytes = await buildPdf({ pages: manual.pages, outline: bookmarks(manual.topics) });
    const tree = await pdfToTree(bytes, { structure: "outline", summaries: "none", split: false });
    expect(tree.build.structure).toBe("outline");
    expectHelpPages(tree, manual.topics);
  });

  it("reads a call of a title that is no call (`as.function(x, ...)`) as a usage line", () => {
    const page = parsedPage([
      pdfLine("as.function", 760, 9),
      pdfLine("as.function\tConvert Object to Function", 700, 12),
      pdfLine("Description", 682),
      pdfLine("as.function is a generic function.", 668),
      pdfLine("Usage", 650),
      pdfLine("as.function(x, ...)", 636),
    ]);
    // With the destination's top just above the heading, and without a position at all.
    expect(locateHeading(page, "as.function", { y: 712, skip: new Set([0]) })).toBe(1);
    expect(locateHeading(page, "as.function", { skip: new Set([0]) })).toBe(1);
    // A name/arity bookmark still finds its call line: the rule it was written for.
    expect(locateHeading(page, "as.function/2", { y: 640, skip: new Set([0]) })).toBe(5);
  });
});
