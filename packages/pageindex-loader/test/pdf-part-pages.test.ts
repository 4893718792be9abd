/**
 * A part's page holding only its label and title ("Part I" over "Using the Compiler"), and
 * chapters opening with "Chapter 1" over their title (issue 26, fourteenth session's fresh batch:
 * asn1c's LaTeX book read without its contents, 40 %; Ikarus's guide the same). The label rule
 * took the part's title, with nothing but the page number after it, and the labels and titles of
 * one look around it for a run of captions; the parts and chapters were left as bare "Part I" and
 * "Chapter 1". A title its label introduces is no caption.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { layoutTree } from "./fixtures/layout-tree.js";
import { body, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const big = (text: string, gap = 30): LineSpec => ({ text, size: 25, bold: true, gap });

const partPage = (label: string, title: string): PageSpec => ({
  lines: [big(label, 200), big(title)],
  footer: "3",
});
const chapterPages = (label: string, title: string, seed: number): PageSpec[] => [
  { lines: [big(label, 60), big(title), ...body(20, seed)] },
  { lines: body(30, seed + 50) },
];

const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

describe("a part's page with its label and title only", () => {
  it("keeps the part's and the chapters' titles, read without a contents", async () => {
    const pages: PageSpec[] = [
      { lines: body(30, 1) },
      partPage("Part I", "Using the Compiler"),
      ...chapterPages("Chapter 1", "Introduction to the Compiler", 2),
      ...chapterPages("Chapter 2", "Quick Start", 3),
      partPage("Part II", "Notation Basics"),
      ...chapterPages("Chapter 3", "Abstract Syntax Notation", 4),
      ...chapterPages("Chapter 4", "Encoding Rules", 5),
    ];
    expect(outline(await layoutTree(pages))).toEqual([
      "Using the Compiler [2]",
      "  Introduction to the Compiler [3]",
      "  Quick Start [5]",
      "Notation Basics [7]",
      "  Abstract Syntax Notation [8]",
      "  Encoding Rules [10]",
    ]);
  });
});
