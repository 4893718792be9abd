/**
 * Chapter titles in Japanese ranged right (issue 26: cafeobj's LaTeX guides, read without their
 * printed contents, lost every chapter): kana and ideographs are set a full em wide, so a title's
 * right end is its left edge plus one em a character, and titles of two to twelve characters,
 * ranged right, start far apart. Their left edge is no indentation.
 */
import { describe, expect, it } from "vitest";
import type { Heading } from "../src/pdf/structure/candidates.js";
import { headingFeatures } from "../src/pdf/structure/heading-evidence.js";
import type { ParsedPage } from "../src/pdf/types.js";
import { parsedPage, pdfLine } from "./fixtures/pdf-lines.js";

/** The right edge of the text block; the left margin is 72 pt. */
const RIGHT = 523;
const TITLE_SIZE = 17;
const TITLES = ["用語", "コマンドの一覧と使い方の説明", "例題", "参考文献"];

/** A chapter's first page: its title ranged right (a full em a character), then body text at the margin. */
function chapterPage(title: string, pageNumber: number): ParsedPage {
  const heading = { ...pdfLine(title, 760, TITLE_SIZE), x: RIGHT - [...title].length * TITLE_SIZE };
  const body = Array.from({ length: 20 }, (_, i) =>
    pdfLine(`Body line ${i + 1} of chapter ${pageNumber} says what the tool does.`, 700 - 17 * i),
  );
  return parsedPage([heading, ...body], pageNumber);
}

describe("Japanese chapter titles ranged right", () => {
  it("reads no indentation into titles whose lengths set their left edges", () => {
    const pages = TITLES.map((t, i) => chapterPage(t, i + 1));
    const headings: Heading[] = TITLES.map((title, i) => ({
      title,
      page: i + 1,
      line: 0,
      style: { size: TITLE_SIZE, bold: false, italic: false, caps: false },
      strength: "strong",
    }));
    const features = headingFeatures(headings, {
      pages,
      body: { size: 10, bold: false, leading: 17 },
      hasToc: false,
    });
    expect(features.map((f) => f.indent)).toEqual(TITLES.map(() => 0));
  });
});
