/**
 * A licence appendix's numbered clauses are its body, not chapters (issue 26's fresh batches:
 * massXpert's and mineXpert2's GPL clauses "0. Definitions." … "17." set as their chapters were
 * read as eighteen chapters; GNU Backgammon's FDL clauses "0. PREAMBLE" … "11." as sections). The
 * evidence is the printed contents', not the licence's words: a count of the chapters' numbering
 * starting afresh after the last listed chapter, none of it listed.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { contentsLine, layoutTree } from "./fixtures/layout-tree.js";
import { body, type PageSpec } from "./fixtures/pdf-builder.js";

const entry = contentsLine;
/** A page of two headings set alike (18 pt, regular, as DAPS sets chapters and sections), each over body text. */
const twoHeads = (first: string, second: string, seed: number): PageSpec => ({
  lines: [
    { text: first, size: 18, gap: 14 },
    ...body(5, seed),
    { text: second, size: 18, gap: 12 },
    ...body(8, seed + 1),
  ],
});
const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

/** Contents (page 2), chapters 1–3 with sections (pages 3–5), then an appendix on page 6 and `tail` after it. */
const manual = (appendix: string, tail: PageSpec[]): PageSpec[] => [
  { lines: body(10, 1) },
  {
    lines: [
      { text: "Contents", size: 20, bold: true, gap: 6 },
      entry("1 Generalities", 3),
      entry("1.1 Formulae", 3, 16),
      entry("2 Basics", 4),
      entry("2.1 Polymers", 4, 16),
      entry("3 Editing", 5),
      entry("3.1 Sequences", 5, 16),
      entry(appendix, 6),
    ],
  },
  twoHeads("1 Generalities", "1.1 Formulae", 3),
  twoHeads("2 Basics", "2.1 Polymers", 5),
  twoHeads("3 Editing", "3.1 Sequences", 7),
  ...tail,
];

describe("numbered runs that start afresh past the contents' chapters", () => {
  it("an unlisted count from 0 after the last listed chapter is the appendix's body, with its unlisted heads", async () => {
    const tree = await layoutTree(
      manual("A Terms of Use", [
        twoHeads("A Terms of Use", "Preamble", 9),
        twoHeads("0. Definitions.", "1. Source Code.", 11),
        twoHeads("2. Basic Permissions.", "3. Conveying Verbatim Copies.", 13),
        twoHeads("4. Additional Terms.", "How to Apply These Terms", 15),
      ]),
    );
    expect(outline(tree)).toEqual([
      "1 Generalities [3]",
      "  1.1 Formulae [3]",
      "2 Basics [4]",
      "  2.1 Polymers [4]",
      "3 Editing [5]",
      "  3.1 Sequences [5]",
      "A Terms of Use [6]",
    ]);
    // The clauses' text, and the unlisted heads around them, stay in the appendix.
    expect(tree.nodes.at(-1)?.text).toContain("4. Additional Terms.");
    expect(tree.nodes.at(-1)?.text).toContain("How to Apply These Terms");
  });

  it("an unlisted count that goes on from the listed chapters stays headings", async () => {
    // "4", "5", "6" continue the chapters' numbering (a contents page the reader missed): headings.
    const tree = await layoutTree(
      manual("A Terms of Use", [
        twoHeads("A Terms of Use", "4 Importing", 9),
        twoHeads("5 Exporting", "6 Scripting", 11),
      ]),
    );
    // (Where they nest is the contents-unlisted rule's business; here they are kept as headings.)
    expect(outline(tree).map((t) => t.trim())).toEqual(
      expect.arrayContaining(["A Terms of Use [6]", "4 Importing [6]", "5 Exporting [7]", "6 Scripting [7]"]),
    );
  });
});
