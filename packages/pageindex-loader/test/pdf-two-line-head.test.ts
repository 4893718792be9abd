/**
 * A running head of two lines with the page number beside the second (issue 26, fifteenth
 * session's fresh batch: dblatex sets a long title as "Nautilus-Actions Configuration Tool" over
 * "User's Manual", with "29 / 44" at the right a few points lower). The page number sits on the
 * head's band, not in the body; taken for the body's first line, it kept "User's Manual" out of
 * the furniture, and on the contents' second page that line became an entry holding every
 * section after it.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { contentsLine, layoutTree } from "./fixtures/layout-tree.js";
import { body, headingLine, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const SECTIONS: Array<[title: string, level: number]> = [
  ["1 Getting Started", 1],
  ["1.1 Starting the Tool", 2],
  ["1.2 The First Run", 2],
  ["1.3 Creating an Action", 2],
  ["2 Using the Tool", 1],
  ["2.1 Defining Conditions", 2],
];
const FIRST_BODY_PAGE = 4;
const PAGES = 3 + SECTIONS.length;

/** A page under the two-line head, its page number drawn at the right just below the second line. */
const headed = (page: number, lines: LineSpec[]): PageSpec => ({
  lines: [
    { text: "Widget Actions Configuration Tool", size: 10 },
    { text: "User's Manual", size: 10 },
    ...lines.map((l, i) => (i === 0 ? { ...l, gap: (l.gap ?? 0) + 40 } : l)),
  ],
  drawnLast: [{ text: `${page} / ${PAGES}`, size: 9, indent: 400, top: 93 }],
});
const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

describe("a two-line running head beside its page number", () => {
  it("is furniture on every page: not a contents entry, not a section", async () => {
    const entry = (i: number): LineSpec => {
      const [title, level] = SECTIONS[i] as [string, number];
      return contentsLine(title, FIRST_BODY_PAGE + i, (level - 1) * 20);
    };
    const pages: PageSpec[] = [
      headed(1, body(14, 1)),
      headed(2, [{ text: "Contents", size: 20, bold: true, gap: 6 }, entry(0), entry(1), entry(2)]),
      headed(3, [entry(3), entry(4), entry(5)]),
      ...SECTIONS.map(([title, level], i) =>
        headed(FIRST_BODY_PAGE + i, [headingLine(title, level === 1 ? 16 : 13), ...body(16, i + 2)]),
      ),
    ];
    const tree = await layoutTree(pages);
    expect(outline(tree)).toEqual([
      "1 Getting Started [4]",
      "  1.1 Starting the Tool [5]",
      "  1.2 The First Run [6]",
      "  1.3 Creating an Action [7]",
      "2 Using the Tool [8]",
      "  2.1 Defining Conditions [9]",
    ]);
  });
});
