/**
 * A bookmark whose destination lands inside a paragraph, on a line that continues a word broken
 * by a hyphen (issue 26: a DocBook/dblatex "Index" anchor set after "exam-" / "ples"): the
 * section starts where that word starts, so no word is cut between two texts and nothing is
 * lost or duplicated against the page's text as the loader joins it.
 */
import type { TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { locateHeading } from "../src/pdf/structure/heading-position.js";
import { buildPdf, type PageSpec } from "./fixtures/pdf-builder.js";
import { parsedPage, pdfLine } from "./fixtures/pdf-lines.js";

const PARAGRAPH = [
  "If your document contains nontrivial examples of program code, we recommend releasing these exam-",
  "ples in parallel under your choice of free software license, such as the GNU General Public",
  "License, to permit their use in free software.",
];

const pages: PageSpec[] = [
  { lines: [{ text: "Foreword", size: 16, bold: true }, "This manual is free documentation."], footer: "i" },
  {
    lines: [
      { text: "Copying Conditions", size: 16, bold: true, gap: 4 },
      "You may copy and distribute the document in any medium, commercially or not,",
      "provided that this license is reproduced in all copies.",
      { text: "Addendum", size: 13, bold: true, gap: 6 },
      "To use this license in a document you have written, include a copy of it.",
      ...PARAGRAPH,
    ],
    footer: "1",
  },
];

const load = async (bytes: Uint8Array): Promise<TreeNode[]> =>
  (await pdfToTree(bytes, { structure: "outline", summaries: "none", split: false }, { name: "fdl.pdf" }))
    .nodes;

const squash = (s: string) => s.replace(/\s+/g, "");

describe("a destination on a line that continues a hyphenated word", () => {
  it("starts the section at the line where the word starts, cutting no word", async () => {
    const bytes = await buildPdf({
      pages,
      outline: [
        { title: "Foreword", page: 1, line: 0 },
        { title: "Copying Conditions", page: 2, line: 0 },
        { title: "Addendum", page: 2, line: 3 },
        // Line 6 is "ples in parallel …", the second half of "examples".
        { title: "Index", page: 2, line: 6 },
      ],
    });
    const nodes = await load(bytes);
    const texts = new Map(nodes.map((n) => [n.title, n.text]));
    expect([...texts.keys()]).toEqual(["Foreword", "Copying Conditions", "Addendum", "Index"]);
    const addendum = texts.get("Addendum") as string;
    const index = texts.get("Index") as string;
    expect(addendum.trimEnd().endsWith("include a copy of it.")).toBe(true);
    expect(index.startsWith("If your document contains")).toBe(true);
    expect(index).toContain("these examples\n");
    for (const text of texts.values()) {
      expect(text).not.toMatch(/exam-\s*$/);
      expect(text).not.toMatch(/^ples/);
    }
    // Nothing lost or doubled: the texts in order are the page's text.
    const printed = pages.flatMap((p) => p.lines ?? []).map((l) => (typeof l === "string" ? l : l.text));
    expect(squash(nodes.map((n) => n.text).join(""))).toBe(
      squash(printed.join("")).replace("exam-ples", "examples"),
    );
  });

  it("moves up across several broken lines and skips running heads, but keeps a line that starts a word", () => {
    const p = parsedPage([
      pdfLine("Running head", 760, 9),
      pdfLine("a paragraph that hyphen-", 700),
      pdfLine("ates twice in a row, con-", 688),
      pdfLine("tinuing here.", 676),
      pdfLine("A new sentence starts here.", 664),
    ]);
    const skip = new Set([0]);
    expect(locateHeading(p, "Index", { y: 680, skip })).toBe(1);
    expect(locateHeading(p, "Index", { y: 668, skip })).toBe(4);
  });
});
