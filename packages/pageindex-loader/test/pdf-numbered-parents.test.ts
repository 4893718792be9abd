/**
 * A chapter the heading model dropped while it kept the chapter's numbered sections (issue 26, the
 * fifteenth session's fresh batch read without its contents): the sections' numbers ("1.1" after
 * "1. Introduction") name it as their parent, so it is put back. PMW's, SDoP's and xfpt's manuals
 * lost every chapter this way (their trees scored 0.4 to 2.1 %). A list item numbered like a
 * chapter but set no larger than the section after it, a chapter of another number, and a section
 * a printed contents placed leave the model's choice as it was.
 */
import { describe, expect, it } from "vitest";
import type { Heading } from "../src/pdf/structure/candidates.js";
import { keepNumberedParents } from "../src/pdf/structure/numbered-parents.js";
import { parseNumbering } from "../src/pdf/structure/numbering.js";

/** A strong candidate `title` on page `page` at `size` points, bold. */
const candidate = (title: string, page: number, size: number, extra: Partial<Heading> = {}): Heading => {
  const h: Heading = {
    title,
    page,
    line: 0,
    style: { size, bold: true, italic: false, caps: false },
    strength: "strong",
    ...extra,
  };
  const numbering = parseNumbering(title);
  if (numbering) h.numbering = numbering;
  return h;
};
const titles = (hs: readonly Heading[]): string[] => hs.map((h) => h.title);

describe("numbered parents the heading model dropped", () => {
  const chapter1 = candidate("1. Introduction", 5, 16);
  const s11 = candidate("1.1 Installing", 5, 13);
  const s12 = candidate("1.2 Running", 6, 13);
  const chapter2 = candidate("2. Processing Instructions", 9, 16);
  const s21 = candidate("2.1 Including other files", 9, 13);

  it("puts back a chapter set above its first kept section, in document order", () => {
    const all = [chapter1, s11, s12, chapter2, s21];
    expect(titles(keepNumberedParents(all, [s11, s12, s21]))).toEqual(titles(all));
  });

  it("leaves a dropped line no larger than the section after it (a list item '3.' before '3.1')", () => {
    const item = candidate("3. Write the functions", 12, 13);
    const s31 = candidate("3.1 Functions", 12, 13);
    expect(titles(keepNumberedParents([item, s31], [s31]))).toEqual(["3.1 Functions"]);
  });

  it("leaves a dropped line whose next kept section is another number's", () => {
    const stray = candidate("4. The input file", 20, 16);
    const s51 = candidate("5.1 Output", 21, 13);
    expect(titles(keepNumberedParents([stray, s51], [s51]))).toEqual(["5.1 Output"]);
  });

  it("leaves a dropped line when another number of its depth comes before its sections", () => {
    const first = candidate("6. Overview", 30, 16);
    const second = candidate("6. Details", 31, 16);
    const s61 = candidate("6.1 Scope", 31, 13);
    expect(titles(keepNumberedParents([first, second, s61], [second, s61]))).toEqual([
      "6. Details",
      "6.1 Scope",
    ]);
  });

  it("leaves the sections a printed contents placed to the contents", () => {
    const stray = candidate("7. The input file", 40, 16);
    const listed = candidate("7.1 Syntax", 41, 13, { tocLevel: 2 });
    expect(titles(keepNumberedParents([stray, listed], [listed]))).toEqual(["7.1 Syntax"]);
  });
});
