/**
 * A contents page the contents reader does not take (here: past the pages it scans) (issue 26: gri's manual "nests every chapter
 * under Short Contents"; the fourteenth session's libgcrypt manual read without its contents, 23 %):
 * its title, set larger than the chapters, became the first heading and held them, leaving the
 * appendix (a keyword outranks it) beside it. A contents title is no section, read or not.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { layoutTree } from "./fixtures/layout-tree.js";
import { body, type PageSpec } from "./fixtures/pdf-builder.js";

const CHAPTERS = [
  "1 Introduction",
  "2 Preparation",
  "3 Generalities",
  "4 Handlers",
  "5 Ciphers",
  "Appendix A Licence",
];

const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

describe("a contents title the contents reader did not take", () => {
  it("is no section holding the chapters", async () => {
    // The contents comes after a long preface, past the pages the contents reader scans.
    const contents: PageSpec = {
      lines: [
        { text: "Short Contents", size: 20, bold: true, gap: 6 },
        ...CHAPTERS.map((t, i) => ({ text: `${t}${".".repeat(60 - t.length)}${i + 23}`, gap: 4 })),
      ],
    };
    const preface = Array.from({ length: 21 }, (_, i): PageSpec => ({ lines: body(30, 40 + i) }));
    const pages: PageSpec[] = [
      ...preface,
      contents,
      ...CHAPTERS.map((t, i) => ({
        lines: [{ text: t, size: 17, bold: true, gap: 14 }, ...body(24, i + 3)],
      })),
    ];
    expect(outline(await layoutTree(pages))).toEqual(CHAPTERS.map((t, i) => `${t} [${i + 23}]`));
  });
});
