// The layout dev set's reference (scripts/reference-pages.ts): a bookmark a page off its printed
// title moves to the one neighbour that prints it; nothing else moves; an outline whose titles no
// page prints is no reference.
import { describe, expect, it } from "vitest";
import type { ParsedPage, PdfLine } from "../../packages/pageindex-loader/src/pdf/types.js";
import { noReference, onPrintedPages } from "../../scripts/reference-pages.js";

const line = (text: string, y: number, size = 10): PdfLine => ({
  text,
  size,
  maxSize: size,
  bold: size > 10,
  italic: false,
  x: 72,
  y,
  gapBefore: 14,
});

/** A page of a heading (when given) over body lines, with a running head at the top. */
const page = (pageNumber: number, heading?: string): ParsedPage => {
  const lines = [
    line("The Widget Manual", 760),
    ...(heading ? [line(heading, 700, 16)] : []),
    line(`Body text of page ${pageNumber} goes on about widgets and their parts.`, 680),
    line("More body text follows here, as any page of a manual has.", 666),
  ];
  return {
    pageNumber,
    text: lines.map((l) => l.text).join("\n"),
    tokenCount: 40,
    lines,
    top: 792,
    height: 792,
  };
};
/** The running head on every page is furniture, as the starts evaluation skips it. */
const furniture = (pages: ParsedPage[]) => new Map(pages.map((p) => [p.pageNumber, new Set([0])]));

describe("reference entries on the pages that print their titles", () => {
  it("moves a bookmark one page before its printed title, and only that one", () => {
    const pages = [page(1), page(2, "1 Introduction"), page(3), page(4, "2 Usage"), page(5, "3 Options")];
    const reference = [
      { title: "1 Introduction", page: 2, level: 1 },
      { title: "2 Usage", page: 3, level: 1 },
      { title: "3 Options", page: 5, level: 1 },
    ];
    const out = onPrintedPages(reference, pages, furniture(pages));
    expect(out.entries.map((e) => e.page)).toEqual([2, 4, 5]);
    expect(out.moved).toBe(1);
    expect(noReference(out)).toBe(false);
  });

  it("leaves an entry whose title is printed on both neighbours, or only in a running head", () => {
    const pages = [page(1, "Usage"), page(2), page(3, "Usage"), page(4)];
    const both = onPrintedPages([{ title: "Usage", page: 2, level: 1 }], pages, furniture(pages));
    expect(both.entries[0]?.page).toBe(2);
    expect(both.moved).toBe(0);
    const head = onPrintedPages([{ title: "The Widget Manual", page: 2, level: 1 }], pages, furniture(pages));
    expect(head.entries[0]?.page).toBe(2);
    expect(head.unprinted).toBe(1);
  });

  it("an outline of file names no page prints is no reference", () => {
    const pages = [page(1, "1 Introduction"), page(2, "2 Usage"), page(3, "3 Options")];
    const files = [1, 2, 3].map((n) => ({ title: `Manual-${n}.cpt`, page: n, level: 1 }));
    const out = onPrintedPages(files, pages, furniture(pages));
    expect(out.unprinted).toBe(3);
    expect(noReference(out)).toBe(true);
  });
});
