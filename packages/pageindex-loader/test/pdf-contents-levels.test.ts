/**
 * Levels read from a printed contents where a new numbering kind appears (issue 26: the
 * contents' sizes and margins are evidence every document with one carries). A book's part
 * lines ("I Foundations") come after its first chapter and are set a step larger; its appendices
 * ("A. Background") come after the last chapter at that chapter's margin. Neither is a child of
 * the entry before it, though a roman numeral or a letter is new there.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { layoutTree } from "./fixtures/layout-tree.js";
import { body, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const leader = (t: string, n: number): string => `${t} ${". ".repeat(Math.max(4, 28 - t.length / 2))}${n}`;
const entry = (t: string, n: number, extra: Partial<LineSpec> = {}): LineSpec => ({
  text: leader(t, n),
  size: 11,
  gap: 4,
  ...extra,
});
const contents = (lines: LineSpec[]): PageSpec => ({
  lines: [{ text: "Contents", size: 20, bold: true, gap: 6 }, ...lines],
});
/**
 * A book from its headings: page 1 front matter, page 2 the contents, then a page per heading
 * (its title at `size`, then body text), each listed in the contents as `entryLook` sets it.
 */
const book = (headings: Array<[title: string, size: number, entryLook: Partial<LineSpec>]>): PageSpec[] => [
  { lines: body(10, 1) },
  contents(headings.map(([t, , look], i) => entry(t, i + 3, look))),
  ...headings.map(([t, size], i) => ({
    lines: [{ text: t, size, bold: true, gap: 14 }, ...body(18, i + 2)],
  })),
];
const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

describe("printed contents levels across numbering kinds", () => {
  it("a part line set larger after the first chapter holds the chapters after it", async () => {
    const chapter = { bold: true };
    const section = { indent: 16 };
    const part = { size: 12, bold: true, gap: 12 };
    const tree = await layoutTree(
      book([
        ["1 Introduction", 20, chapter],
        ["1.1 Scope", 14, section],
        ["I Foundations", 20, part],
        ["2 Numbers", 20, chapter],
        ["2.1 Integers", 14, section],
        ["3 Geometry", 20, chapter],
        ["3.1 Triangles", 14, section],
        ["II Practice", 20, part],
        ["4 Exercises", 20, chapter],
        ["4.1 Drills", 14, section],
      ]),
    );
    expect(outline(tree)).toEqual([
      "1 Introduction [3]",
      "  1.1 Scope [4]",
      "I Foundations [5]",
      "  2 Numbers [6]",
      "    2.1 Integers [7]",
      "  3 Geometry [8]",
      "    3.1 Triangles [9]",
      "II Practice [10]",
      "  4 Exercises [11]",
      "    4.1 Drills [12]",
    ]);
  });

  it("an appendix at the last chapter's margin and size is its sibling", async () => {
    const top = { size: 13 };
    const section = { indent: 16 };
    const tree = await layoutTree(
      book([
        ["1. Overview", 18, top],
        ["1.1. Goals", 13, section],
        ["2. Usage", 18, top],
        ["A. Background", 18, top],
        ["A.1. Terms", 13, section],
        ["B. Licence", 18, top],
      ]),
    );
    expect(outline(tree)).toEqual([
      "1. Overview [3]",
      "  1.1. Goals [4]",
      "2. Usage [5]",
      "A. Background [6]",
      "  A.1. Terms [7]",
      "B. Licence [8]",
    ]);
  });
});
