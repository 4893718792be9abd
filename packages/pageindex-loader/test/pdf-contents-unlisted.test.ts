/**
 * What a printed contents says by what it lists (issue 26, a fresh batch of Debian manuals read
 * with main's code before any change). A short contents on one page followed by the full contents
 * on the next is two contents, not one run (OpenOCD's Texinfo manual nested every chapter under
 * "About", 88 %); and a heading set in the look of the contents' entries but not listed there
 * belongs to the entry before it (massXpert's and mineXpert2's preface sections, numbered 1 to 4
 * under an unnumbered "Preface", were read as chapters beside it).
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { contentsLine, layoutTree } from "./fixtures/layout-tree.js";
import { body, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const entry = contentsLine;
const contents = (title: string, lines: LineSpec[]): PageSpec => ({
  lines: [{ text: title, size: 20, bold: true, gap: 6 }, ...lines],
});
/** A page opening with `title` at `size`, then body text. */
const opening = (title: string, size: number, seed: number, bold = true): PageSpec => ({
  lines: [{ text: title, size, bold, gap: 14 }, ...body(18, seed)],
});
/** A page opening with `first`, a few lines, then `second` and more lines (each [title, size, bold]). */
const twoHeads = (
  first: [string, number, boolean],
  second: [string, number, boolean],
  seed: number,
): PageSpec => ({
  lines: [
    { text: first[0], size: first[1], bold: first[2], gap: 14 },
    ...body(5, seed),
    { text: second[0], size: second[1], bold: second[2], gap: 12 },
    ...body(8, seed + 1),
  ],
});
const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

describe("what a printed contents lists", () => {
  it("a short contents followed on the next page by the full one is read as two contents", async () => {
    // Texinfo's front matter: "Short Contents" (chapters only, numbers in an indented gutter after
    // the unnumbered "About"), then "Table of Contents" with the sections. Body from page 4.
    const chapters: Array<[string, number, Array<[string, number]>]> = [
      ["1 Resources", 5, [["1.1 Repository", 5]]],
      [
        "2 Hardware",
        6,
        [
          ["2.1 Choosing an Adapter", 6],
          ["2.2 USB Adapters", 7],
        ],
      ],
      ["3 Running", 8, [["3.1 Simple Setup", 8]]],
      ["4 Configuration", 9, [["4.1 Server Options", 9]]],
    ];
    const tree = await layoutTree([
      { lines: body(10, 1) },
      contents("Short Contents", [
        entry("About", 4),
        ...chapters.map(([t, n]) => entry(t, n, 12)),
        entry("Index", 10, 12),
      ]),
      contents("Table of Contents", [
        entry("About", 4),
        ...chapters.flatMap(([t, n, sections]) => [
          entry(t, n),
          ...sections.map(([s, m]) => entry(s, m, 16)),
        ]),
        entry("Index", 10),
      ]),
      opening("About", 20, 4),
      twoHeads(["1 Resources", 20, true], ["1.1 Repository", 14, true], 5),
      twoHeads(["2 Hardware", 20, true], ["2.1 Choosing an Adapter", 14, true], 7),
      opening("2.2 USB Adapters", 14, 9),
      twoHeads(["3 Running", 20, true], ["3.1 Simple Setup", 14, true], 10),
      twoHeads(["4 Configuration", 20, true], ["4.1 Server Options", 14, true], 12),
      opening("Index", 20, 14),
    ]);
    expect(outline(tree)).toEqual([
      "About [4]",
      "1 Resources [5]",
      "  1.1 Repository [5]",
      "2 Hardware [6]",
      "  2.1 Choosing an Adapter [6]",
      "  2.2 USB Adapters [7]",
      "3 Running [8]",
      "  3.1 Simple Setup [8]",
      "4 Configuration [9]",
      "  4.1 Server Options [9]",
      "Index [10]",
    ]);
  });

  it("headings set as the listed ones but missing from the contents sit inside the entry before them", async () => {
    // The contents lists the preface and the chapters with their sections, not the preface's own
    // numbered sections; every heading is set alike (one size, one weight), as DAPS sets them.
    const tree = await layoutTree([
      { lines: body(10, 1) },
      contents("Contents", [
        entry("Preface", 3),
        entry("1 Generalities", 5),
        entry("1.1 Formulae", 5, 16),
        entry("1.2 Data Format", 6, 16),
        entry("2 Basics", 7),
        entry("2.1 Polymers", 7, 16),
        entry("2.2 Structures", 8, 16),
      ]),
      {
        lines: [
          { text: "Preface", size: 18, gap: 14 },
          ...body(4, 3),
          { text: "1 Intended Audience", size: 18, gap: 12 },
          ...body(6, 4),
          { text: "2 Feedback", size: 18, gap: 12 },
          ...body(6, 5),
        ],
      },
      twoHeads(["3 Project History", 18, false], ["4 Licence", 18, false], 6),
      twoHeads(["1 Generalities", 18, false], ["1.1 Formulae", 18, false], 8),
      opening("1.2 Data Format", 18, 10, false),
      twoHeads(["2 Basics", 18, false], ["2.1 Polymers", 18, false], 11),
      opening("2.2 Structures", 18, 13, false),
    ]);
    expect(outline(tree)).toEqual([
      "Preface [3]",
      "  1 Intended Audience [3]",
      "  2 Feedback [3]",
      "  3 Project History [4]",
      "  4 Licence [4]",
      "1 Generalities [5]",
      "  1.1 Formulae [5]",
      "  1.2 Data Format [6]",
      "2 Basics [7]",
      "  2.1 Polymers [7]",
      "  2.2 Structures [8]",
    ]);
  });

  it("an unlisted heading numbered in the entry's own series, or unnumbered, is still its sibling", async () => {
    // "2 Methods" continues the chapters' numbering (a contents page the reader missed would leave
    // it out), and "Glossary" is back matter the contents leaves out: neither goes inside the entry
    // before it.
    const tree = await layoutTree([
      { lines: body(10, 1) },
      contents("Contents", [entry("1 Start", 3), entry("3 End", 5)]),
      opening("1 Start", 18, 3, false),
      opening("2 Methods", 18, 5, false),
      twoHeads(["3 End", 18, false], ["Glossary", 18, false], 7),
    ]);
    expect(outline(tree)).toEqual(["1 Start [3]", "2 Methods [4]", "3 End [5]", "Glossary [5]"]);
  });
});
