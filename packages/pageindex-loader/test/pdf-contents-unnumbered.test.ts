/**
 * Where a printed contents sets an unnumbered chapter (issue 26, the fifteenth session's study of
 * a fresh batch with the train side): LaTeX's and dblatex's contents put a numbered chapter's
 * number at the margin and its title past it, where its sections' numbers start; an unnumbered
 * chapter ("Index", "References") has no number, so its title stands at the sections' margin,
 * in the chapters' weight. Read by margin alone it was a section of the last chapter (GNU
 * Prolog's "References" and "Index", the Debian FAQ's "Index").
 */
import { describe, expect, it } from "vitest";
import { chapterPage, contentsLine, layoutTree, outlineLines } from "./fixtures/layout-tree.js";
import { body, type LineSpec } from "./fixtures/pdf-builder.js";

/** Where a section's number (and a chapter's title) starts in the contents. */
const SECTION_MARGIN = 15;
/** A chapter's contents entry: bold, no leaders. */
const chapterEntry = (title: string, page: number, indent = 0): LineSpec => ({
  text: `${title} ${page}`,
  size: 11,
  bold: true,
  gap: 8,
  indent,
});

describe("an unnumbered chapter in a printed contents", () => {
  it("set in the chapters' weight at the sections' margin is a chapter, not the last one's section", async () => {
    const tree = await layoutTree([
      { lines: body(10, 1) },
      {
        lines: [
          { text: "Contents", size: 20, bold: true, gap: 6 },
          chapterEntry("1 Overview", 3),
          contentsLine("1.1 Authors", 3, SECTION_MARGIN),
          contentsLine("1.2 Feedback", 3, SECTION_MARGIN),
          chapterEntry("2 Installing", 4),
          contentsLine("2.1 Requirements", 4, SECTION_MARGIN),
          contentsLine("2.2 Building", 4, SECTION_MARGIN),
          chapterEntry("References", 5, SECTION_MARGIN),
          chapterEntry("Index", 6, SECTION_MARGIN),
        ],
      },
      chapterPage("1 Overview", ["1.1 Authors", "1.2 Feedback"], 3),
      chapterPage("2 Installing", ["2.1 Requirements", "2.2 Building"], 6),
      chapterPage("References", [], 9),
      chapterPage("Index", [], 11),
    ]);
    expect(outlineLines(tree)).toEqual([
      "1 Overview [3]",
      "  1.1 Authors [3]",
      "  1.2 Feedback [3]",
      "2 Installing [4]",
      "  2.1 Requirements [4]",
      "  2.2 Building [4]",
      "References [5]",
      "Index [6]",
    ]);
  });
});
