/**
 * A printed contents line's look is its title's, not its leaders' (issue 26, a third fresh batch
 * of Debian manuals read with main's code before any change). Texinfo sets a chapter's entry in
 * bold and its spaced dot leaders (". . . . 95") in another font; counted as text, the leaders
 * outweighed a short title ("Index", "Concept Index") while a long one ("Appendix A GNU General
 * Public License") kept its weight, so the index read as a lighter line nested under the appendix
 * (Octave's queueing manual and numdiff's, both with the index a level too deep).
 */
import { describe, expect, it } from "vitest";
import { chapterPage, contentsLine, layoutTree, outlineLines } from "./fixtures/layout-tree.js";
import { body, type LineSpec } from "./fixtures/pdf-builder.js";

/** Leaders filling the line to the page number: fewer dots after a longer title. */
const leaders = (title: string, page: number): string =>
  `${". ".repeat(Math.max(3, 40 - title.length))}${page}`;
/** A chapter's contents entry: its title in bold, its leaders and page number in roman. */
const chapterEntry = (title: string, page: number): LineSpec => ({
  text: title,
  size: 11,
  bold: true,
  gap: 8,
  tail: { text: leaders(title, page) },
});

describe("a printed contents line's look", () => {
  it("reads a short bold entry after long leaders as bold: the index after an appendix is its sibling", async () => {
    const licence = "Appendix A GNU General Public License";
    const tree = await layoutTree([
      { lines: body(10, 1) },
      {
        lines: [
          { text: "Table of Contents", size: 20, bold: true, gap: 6 },
          chapterEntry("1 Introduction", 3),
          contentsLine("1.1 Scope", 3, 18),
          chapterEntry("2 Usage", 4),
          contentsLine("2.1 Options", 4, 18),
          chapterEntry(licence, 5),
          chapterEntry("Index", 6),
        ],
      },
      chapterPage("1 Introduction", ["1.1 Scope"], 3),
      chapterPage("2 Usage", ["2.1 Options"], 5),
      chapterPage(licence, [], 7),
      chapterPage("Index", [], 9),
    ]);
    expect(outlineLines(tree)).toEqual([
      "1 Introduction [3]",
      "  1.1 Scope [3]",
      "2 Usage [4]",
      "  2.1 Options [4]",
      `${licence} [5]`,
      "Index [6]",
    ]);
  });
});
