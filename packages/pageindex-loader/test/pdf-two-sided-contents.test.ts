/**
 * A printed contents in a two-sided book (issue 26, fifteenth session's fresh batch): the text
 * block stands further right on every even page, the contents pages' too, so an entry's margin
 * is only comparable with the margins of its own side. LaTeXML's manual sets its chapters at
 * 160.7 points on even pages where its subsections stand on odd ones; read as they stand, a
 * chapter on an even contents page ranks below the odd page's sections and holds what follows.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { contentsLine, layoutTree } from "./fixtures/layout-tree.js";
import { body, headingLine, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

/** Even pages' text block stands this much further right. */
const SHIFT = 40;
const onSide = (page: number, lines: LineSpec[]): PageSpec => ({
  lines: lines.map((l) => (page % 2 === 0 ? { ...l, indent: (l.indent ?? 0) + SHIFT } : l)),
});
const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

/** Chapters at the margin, sections indented 20 points; unnumbered, one weight: margins rank them. */
const HEADINGS: Array<[title: string, level: number]> = [
  ["Getting Started", 1],
  ["Installing the Tools", 2],
  ["Writing a First Program", 2],
  ["Reference of Commands", 1],
  ["Options and Switches", 2],
  ["Environment Variables", 2],
];
const FIRST_BODY_PAGE = 5;

describe("two-sided printed contents", () => {
  it("a chapter entry on an even contents page is not read as a section of the odd page before it", async () => {
    const entry = (i: number): LineSpec => {
      const [title, level] = HEADINGS[i] as [string, number];
      return contentsLine(title, FIRST_BODY_PAGE + i, (level - 1) * 20);
    };
    const pages: PageSpec[] = [
      onSide(1, body(12, 1)),
      onSide(2, body(16, 2)),
      // Contents: the first chapter and its first section on page 3, the rest on page 4.
      onSide(3, [{ text: "Contents", size: 20, bold: true, gap: 6 }, entry(0), entry(1)]),
      onSide(4, [entry(2), entry(3), entry(4), entry(5)]),
      ...HEADINGS.map(([title, level], i) =>
        onSide(FIRST_BODY_PAGE + i, [headingLine(title, level === 1 ? 18 : 14), ...body(18, i + 3)]),
      ),
    ];
    const tree = await layoutTree(pages);
    expect(outline(tree)).toEqual([
      "Getting Started [5]",
      "  Installing the Tools [6]",
      "  Writing a First Program [7]",
      "Reference of Commands [8]",
      "  Options and Switches [9]",
      "  Environment Variables [10]",
    ]);
  });
});
