/**
 * Numbers with a three-digit component (issue 26: yosys's command reference read without its
 * printed contents, "C.100 logger" on; the same in elk's, form's, pari's and verilator's
 * references). The dotted pattern read at most two digits a component, so from the hundredth
 * command on the heads carried no numbering and left the appendix's list (yosys's nested under
 * "C.99").
 */
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { parseNumbering } from "../src/pdf/structure/numbering.js";
import { body, buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";
import { childTitles, topTitles } from "./fixtures/tree-titles.js";

describe("parseNumbering with long components", () => {
  it.each([
    ["C.100 logger – set logger properties", "C.100", 2],
    ["5.101 spinorb", "5.101", 2],
    ["18.1.100 Verilator 3.805 2010-11-02", "18.1.100", 3],
  ])("reads %s", (text, value, depth) => {
    expect(parseNumbering(text)).toEqual({ kind: "dotted", depth, value });
  });

  it.each([
    "2019.1 was released in spring",
    "127.0.0.1 localhost",
    "23.000 sectors could not be read",
    "342.000 sectors total",
  ])("leaves %s unnumbered", (text) => {
    expect(parseNumbering(text)).toBeUndefined();
  });
});

/** Enough commands past the hundredth that, unnumbered, they would read as a look of their own. */
const COUNT = 140;
const command = (k: number): string => `C.${k} cmd${k} – run pass number ${k}`;

/** A manual of two chapters and an appendix of more than a hundred numbered commands. */
function manual(): PageSpec[] {
  const pages: PageSpec[] = ["Introduction", "Usage"].map((title, c) => ({
    lines: [
      { text: `${c + 1} ${title}`, size: 16, bold: true, gap: 40 },
      ...body(8, c + 1),
      { text: `${c + 1}.1 Getting ${title} Right`, size: 12, bold: true, gap: 16 },
      ...body(8, c + 5),
    ],
    footer: String(c + 1),
  }));
  let lines: LineSpec[] = [{ text: "Appendix C Command Reference", size: 16, bold: true, gap: 40 }];
  for (let k = 1; k <= COUNT; k++) {
    lines.push({ text: command(k), size: 12, bold: true, gap: 16 }, ...body(3, k));
    // Pages break inside a command's text, as a reference's do.
    if (lines.length > 24) {
      pages.push({ lines, footer: String(pages.length + 1) });
      lines = body(2, k + 200);
    }
  }
  pages.push({ lines, footer: String(pages.length + 1) });
  return pages;
}

describe("a reference of more than a hundred numbered commands", () => {
  it("keeps the hundredth command and on beside the ninety-ninth", async () => {
    const tree = await pdfToTree(await buildPdf({ pages: manual() }), {
      structure: "layout",
      summaries: "none",
      split: false,
    });
    expect(topTitles(tree.nodes)).toEqual(["1 Introduction", "2 Usage", "Appendix C Command Reference"]);
    expect(childTitles(tree.nodes, "Appendix C Command Reference")).toEqual(
      Array.from({ length: COUNT }, (_, i) => command(i + 1)),
    );
    expect(childTitles(tree.nodes, command(99))).toEqual([]);
  });
});
