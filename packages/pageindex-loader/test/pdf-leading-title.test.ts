/**
 * A document's title set as its first heading on a page that also carries prose (issue 26,
 * fourteenth session's fresh batch: GnuCOBOL's Texinfo manual opens with its title, authors and a
 * paragraph on one page; Apt-Cacher-NG's Halibut manual, xsdcxx's html2ps guides and others the
 * same). The title-page rule leaves a page with prose, so the title, set above every other
 * heading, held the numbered chapters and left the appendices beside it. It is the document's
 * title: the chapters and appendices are the top level.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { layoutTree } from "./fixtures/layout-tree.js";
import { body, filler, type PageSpec } from "./fixtures/pdf-builder.js";

const SECTIONS = [
  "1 Getting started",
  "2 Compiling",
  "3 Customizing",
  "4 Optimizing",
  "5 Debugging",
  "Appendix A Compiler options",
  "Appendix B Reserved words",
];

const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

describe("a document's title on a first page with prose", () => {
  it("is the document's title, not a section over the chapters", async () => {
    const first: PageSpec = {
      lines: [
        { text: "Example COBOL Manual", size: 20, bold: true },
        { text: "Ada Lovelace, Grace Hopper", gap: 30 },
        { text: "Edition 3.1" },
        { text: filler(14, 1), gap: 20 },
        { text: filler(14, 2) },
        { text: filler(14, 3) },
      ],
    };
    const pages: PageSpec[] = [
      first,
      ...SECTIONS.map((t, i) => ({
        lines: [{ text: t, size: 16, bold: true, gap: 14 }, ...body(22, i + 4)],
      })),
      ...[1, 2, 3].map((n) => ({ lines: body(30, 20 + n) })),
    ];
    expect(outline(await layoutTree(pages))).toEqual(SECTIONS.map((t, i) => `${t} [${i + 2}]`));
  });
});
