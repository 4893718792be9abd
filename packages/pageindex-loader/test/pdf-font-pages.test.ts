/**
 * Fonts named from a few light pages' operator lists (read/font-pages.ts): which pages are
 * chosen, and that text on pages never drawn still gets its weight.
 */
import { describe, expect, it } from "vitest";
import { fontPages } from "../src/pdf/read/font-pages.js";
import { readPdf } from "../src/pdf/read/read-pdf.js";
import { body, buildPdf, type PageSpec } from "./fixtures/pdf-builder.js";

describe("fontPages", () => {
  it("names each font on the lightest page that uses it, not the first", () => {
    const chosen = fontPages([
      { fontIds: ["regular", "bold"], items: 900 },
      { fontIds: ["regular"], items: 40 },
      { fontIds: ["regular", "bold"], items: 30 },
      { fontIds: ["bold"], items: 500 },
    ]);
    expect(chosen).toEqual([2]);
  });

  it("covers every font, in reading order, and passes over unreadable and textless pages", () => {
    const chosen = fontPages([
      { fontIds: ["a", "b"], items: 10 },
      undefined,
      { fontIds: [], items: 0 },
      { fontIds: ["c"], items: 5 },
      { fontIds: ["b", "c", "d"], items: 400 },
      { fontIds: ["d"], items: 8 },
    ]);
    expect(chosen).toEqual([0, 3, 5]);
    expect(fontPages([])).toEqual([]);
  });

  it("prefers one page holding many fonts over many pages holding one each", () => {
    const fonts = ["a", "b", "c", "d", "e"];
    const pages = [...fonts.map((f) => ({ fontIds: [f], items: 30 })), { fontIds: fonts, items: 60 }];
    expect(fontPages(pages)).toEqual([5]);
  });
});

describe("readPdf with fonts named on light pages", () => {
  it("finds bold headings bold on every page, also on the heavy pages never drawn", async () => {
    // Page 1 is heavy (a full page of body text), later pages are light: both fonts are learnt
    // from a light page's operator list, and the weight must still reach page 1's heading.
    const pages: PageSpec[] = [
      { lines: [{ text: "1 Overview of the plant", size: 14, bold: true }, ...body(44, 1)] },
      { lines: [{ text: "2 Pumps", size: 14, bold: true }, ...body(3, 2)] },
      { lines: [...body(30, 3), { text: "3 Valves", size: 14, bold: true, gap: 8 }, ...body(4, 4)] },
      { lines: body(40, 5) },
    ];
    const pdf = await readPdf(await buildPdf({ pages }), { source: "fonts.pdf" });
    const bold = pdf.pages.map((p) => p.lines.filter((l) => l.bold).map((l) => l.text));
    expect(bold).toEqual([["1 Overview of the plant"], ["2 Pumps"], ["3 Valves"], []]);
    const bodyLines = pdf.pages.flatMap((p) => p.lines.filter((l) => !l.bold));
    expect(bodyLines.length).toBeGreaterThan(100);
    expect(bodyLines.every((l) => l.size === 10)).toBe(true);
  });

  it("leaves the outline unread when asked to (a forced layout or model build)", async () => {
    const bytes = await buildPdf({
      pages: [{ lines: ["Intro", ...body(5, 1)] }, { lines: ["Usage", ...body(5, 2)] }],
      outline: [
        { title: "Intro", page: 1 },
        { title: "Usage", page: 2 },
      ],
    });
    expect((await readPdf(bytes.slice(), { source: "o.pdf" })).outline.map((e) => e.title)).toEqual([
      "Intro",
      "Usage",
    ]);
    const skipped = await readPdf(bytes.slice(), { source: "o.pdf", outline: false });
    expect(skipped.outline).toEqual([]);
    expect(skipped.pages.map((p) => p.lines[0]?.text)).toEqual(["Intro", "Usage"]);
  });
});
