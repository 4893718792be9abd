/**
 * A book's title printed again after its title page (DocBook's verso page: the full title over the
 * copyright lines) is the title, not a first section (issue 26's fresh batches: XMLStarlet's,
 * GPSBabel's, massXpert's and mineXpert2's guides each had it as an extra top node on page 2).
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { contentsLine, layoutTree } from "./fixtures/layout-tree.js";
import { body, type PageSpec } from "./fixtures/pdf-builder.js";

const chapter = (n: number, seed: number): PageSpec => ({
  lines: [
    { text: `${n} Chapter ${["One", "Two", "Three"][n - 1]}`, size: 20, bold: true, gap: 14 },
    ...body(18, seed),
  ],
});
const outline = (tree: TreeDocument): string[] => tree.nodes.map((n) => `${n.title} [${n.startPage}]`);

/** Title page, a second page opening with `again` over copyright lines, contents, three chapters. */
const book = (again: string): PageSpec[] => [
  {
    lines: [
      { text: "The Widget Toolkit User Guide", size: 24, bold: true, gap: 200 },
      { text: "Widget Project Team", size: 14, gap: 40 },
    ],
  },
  {
    lines: [
      { text: again, size: 14, bold: true, gap: 60 },
      { text: "Copyright © 2021 Widget Project Team", size: 10, gap: 14 },
      { text: "Permission is granted to copy, distribute and modify this document.", size: 10, gap: 12 },
    ],
  },
  {
    lines: [
      { text: "Contents", size: 20, bold: true, gap: 6 },
      contentsLine("1 Chapter One", 4),
      contentsLine("2 Chapter Two", 5),
      contentsLine("3 Chapter Three", 6),
    ],
  },
  chapter(1, 4),
  chapter(2, 6),
  chapter(3, 8),
];

describe("the title printed again after the title page", () => {
  it("is the title, not a section", async () => {
    const tree = await layoutTree(book("The Widget Toolkit User Guide: Building Interfaces"));
    expect(outline(tree)).toEqual(["1 Chapter One [4]", "2 Chapter Two [5]", "3 Chapter Three [6]"]);
  });

  it("another heading on that page stays a section", async () => {
    const tree = await layoutTree(book("Release Notes for This Edition"));
    expect(outline(tree)[0]).toBe("Release Notes for This Edition [2]");
  });
});
