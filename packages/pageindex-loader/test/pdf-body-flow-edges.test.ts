/**
 * A heading that recurs at the top of the body is no running head (issue 26): in a collection of
 * man pages each page opens with "NAME" right under its running head, on page after page, so
 * the furniture reading took it for a second head line and the NAME sections lost it. A line on
 * the body's ordinary leading with the line below it is body text; a head set apart still goes.
 */
import type { TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { buildPdf, type LineSpec, type OutlineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const COMMANDS = ["alpha", "bravo", "charlie", "delta", "echo", "foxtrot"];

/** One man page per page: running head, then NAME, SYNOPSIS and DESCRIPTION, each heading its lines. */
function manBook(nameGap: number): { pages: PageSpec[]; outline: OutlineSpec[] } {
  const pages: PageSpec[] = [];
  const outline: OutlineSpec[] = [];
  COMMANDS.forEach((cmd, k) => {
    const head = (text: string, gap: number): LineSpec => ({ text, size: 11, bold: true, gap });
    const lines: LineSpec[] = [
      { text: `${cmd.toUpperCase()}(1) User Commands ${cmd.toUpperCase()}(1)`, size: 10 },
      head("NAME", nameGap),
      { text: `${cmd} - do the ${cmd} thing to every file named`, indent: 36 },
      head("SYNOPSIS", 6),
      { text: `${cmd} [options] file ...`, indent: 36 },
      head("DESCRIPTION", 6),
      {
        text: `The ${cmd} command reads each file and writes what it found there to the standard output.`,
        indent: 36,
      },
      {
        text: `With no file, ${cmd} reads the standard input; options are described below in full.`,
        indent: 36,
      },
    ];
    pages.push({ lines, footer: String(k + 1) });
    outline.push({
      title: `${cmd.toUpperCase()}(1)`,
      page: k + 1,
      line: 1,
      children: ["NAME", "SYNOPSIS", "DESCRIPTION"].map((title, i) => ({
        title,
        page: k + 1,
        line: 1 + 2 * i,
      })),
    });
  });
  return { pages, outline };
}

const load = async (bytes: Uint8Array) =>
  pdfToTree(bytes, { summaries: "none", split: false, structure: "outline" }, { name: "book.pdf" });

/** The NAME sections, in page order (the tree's nodes are a flat list in reading order). */
const nameNodes = (nodes: readonly TreeNode[]): TreeNode[] => nodes.filter((n) => n.title === "NAME");

describe("edge lines in the body's flow", () => {
  it("keeps a heading recurring right under the running head as the section's first line", async () => {
    const book = manBook(2);
    const tree = await load(await buildPdf(book));
    const names = nameNodes(tree.nodes);
    expect(names).toHaveLength(COMMANDS.length);
    names.forEach((n, k) => {
      expect(n.text.split("\n")[0]).toBe("NAME");
      expect(n.text).toContain(`${COMMANDS[k]} - do the`);
    });
  });

  it("still takes a recurring line set apart from the body for a running head", async () => {
    // The same book with every page's NAME line moved up beside the head and apart from its text:
    // now it reads as a second head line and is cut from the sections' text.
    const book = manBook(2);
    for (const page of book.pages) {
      const lines = page.lines as LineSpec[];
      lines[2] = { ...(lines[2] as LineSpec), gap: 30 };
    }
    const tree = await load(await buildPdf(book));
    for (const n of nameNodes(tree.nodes)) expect(n.text.split("\n")[0]).not.toBe("NAME");
  });
});
