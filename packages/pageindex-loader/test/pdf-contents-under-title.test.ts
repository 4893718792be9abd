/**
 * A printed contents that shares its page with what comes before it (issue 26, fourteenth
 * session's fresh batch): a DocBook article's title block (title, date, "This version:" and its
 * address, the authors) or a LaTeX report's licence paragraph, then "Table of Contents" well below
 * the page's first dozen lines. Its title still opens the contents: the lines above it are no
 * entries, and the page is a contents page however much prose comes first.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { layoutTree } from "./fixtures/layout-tree.js";
import { body, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const CHAPTERS = ["Introduction", "Tool chain", "Markup changes", "Converting documents", "Customizing"];

/** One page per chapter, its title set like body text after a gap: only the contents can place it. */
const chapterPages = (first: number): PageSpec[] =>
  CHAPTERS.map((t, i) => ({ lines: [{ text: t, gap: 14 }, ...body(20, first + i)] }));

const rows = (first: number): LineSpec[] =>
  CHAPTERS.map((t, i) => ({ text: `${t}${".".repeat(60 - t.length)}${first + i}`, gap: 4 }));

const contentsTitle: LineSpec = { text: "Table of Contents", size: 12, bold: true, gap: 14 };

const titles = (tree: TreeDocument): string[] => tree.nodes.map((n) => `${n.title} [${n.startPage}]`);
const expected = (first: number): string[] => CHAPTERS.map((t, i) => `${t} [${first + i}]`);

describe("a printed contents below other matter on its page", () => {
  it("reads its entries from its title on, under a title block of sixteen lines", async () => {
    const block: LineSpec[] = [
      { text: "Markup Language V5", size: 20, bold: true },
      { text: "The Transition Guide", size: 14, bold: true, gap: 6 },
      { text: "06 February 2008", gap: 10 },
      { text: "This version:", bold: true, gap: 8 },
      { text: "http://example.org/docs/howto/2008-02-06/", indent: 24 },
      { text: "Latest version:", bold: true },
      { text: "http://example.org/docs/howto/", indent: 24 },
      { text: "Previous versions:", bold: true },
      { text: "http://example.org/docs/howto/2007-10-28/", indent: 24 },
      { text: "http://example.org/docs/howto/2006-10-22/", indent: 24 },
      { text: "http://example.org/docs/howto/2006-05-16/", indent: 24 },
      { text: "Authors and other credited contributors:", bold: true },
      { text: "Ada Lovelace, <ada@example.org>", indent: 24 },
      { text: "Grace Hopper, <grace@example.org>", indent: 24 },
      { text: "Alan Turing, <alan@example.org>", indent: 24 },
      { text: "Edsger Dijkstra, <edsger@example.org> (contributor)", indent: 24 },
    ];
    const tree = await layoutTree([{ lines: [...block, contentsTitle, ...rows(2)] }, ...chapterPages(2)]);
    expect(titles(tree)).toEqual(expected(2));
  });

  it("takes a page whose licence paragraph comes first for the contents page its title names", async () => {
    // A report's licence fills the first half of the page; its long lines outnumber the entries,
    // so without its title the page reads as body text and the chapters, set like body text, are lost.
    const licence: LineSpec[] = [
      { text: "Manual of the Example Ledger", size: 17, bold: true },
      { text: "The Example Core Team", gap: 8 },
      ...body(22, 7),
    ];
    const tree = await layoutTree([
      { lines: [...licence, contentsTitle, ...rows(3)] },
      { lines: body(30, 3) },
      ...chapterPages(3),
    ]);
    expect(titles(tree)).toEqual(expected(3));
  });
});
