/**
 * Chapter titles in Japanese ranged right (issue 26: cafeobj's LaTeX guides, read without their
 * printed contents, lost every chapter): kana and ideographs are set a full em wide, so a title's
 * right end is its left edge plus one em a character, and titles of two to twelve characters,
 * ranged right, start far apart. Their left edge is no indentation.
 */
import { describe, expect, it } from "vitest";
import type { Heading } from "../src/pdf/structure/candidates.js";
import { headingFeatures } from "../src/pdf/structure/heading-evidence.js";
import type { ParsedPage, PdfLine } from "../src/pdf/types.js";

/** The right edge of the text block; the left margin is 72 pt. */
const RIGHT = 523;
const TITLE_SIZE = 17;
const TITLES = ["用語", "コマンドの一覧と使い方の説明", "例題", "参考文献"];

const line = (text: string, x: number, y: number, size: number): PdfLine => ({
  text,
  size,
  maxSize: size,
  bold: true,
  italic: false,
  x,
  y,
  gapBefore: 17,
});

/** A chapter's first page: its title ranged right (a full em a character), then body text at the margin. */
function chapterPage(title: string, pageNumber: number): ParsedPage {
  const lines = [
    line(title, RIGHT - [...title].length * TITLE_SIZE, 700, TITLE_SIZE),
    ...Array.from({ length: 20 }, (_, i) =>
      line(`Body line ${i + 1} of chapter ${pageNumber} says what the tool does.`, 72, 650 - 17 * i, 10),
    ),
  ];
  return {
    pageNumber,
    text: lines.map((l) => l.text).join("\n"),
    tokenCount: 0,
    lines,
    top: 792,
    height: 792,
  };
}

describe("Japanese chapter titles ranged right", () => {
  it("reads no indentation into titles whose lengths set their left edges", () => {
    const pages = TITLES.map((t, i) => chapterPage(t, i + 1));
    const headings: Heading[] = TITLES.map((title, i) => ({
      title,
      page: i + 1,
      line: 0,
      style: { size: TITLE_SIZE, bold: true, italic: false, caps: false },
      strength: "strong",
    }));
    const features = headingFeatures(headings, {
      pages,
      body: { size: 10, bold: true, leading: 17 },
      hasToc: false,
    });
    expect(features.map((f) => f.indent)).toEqual(TITLES.map(() => 0));
  });
});
