// The section-start check (scripts/section-starts-score.ts): a C function's bookmark
// ("ei_encode_atom()") is headed by the function's declaration, as Erlang's C references print it,
// while a sentence naming the function or another function's declaration is not its heading.

import type { TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { parsedPage, pdfLine } from "../../packages/pageindex-loader/test/fixtures/pdf-lines.js";
import { isHeading, score, withoutHeadings } from "../../scripts/section-starts-score.js";

describe("C function bookmarks", () => {
  it("reads the declaration as the heading, whatever the return type and arguments", () => {
    const decl = "int ei_encode_atom_len(char *buf, int *index, const char *p, int len)";
    expect(isHeading("ei_encode_atom_len()", decl, undefined)).toBe(true);
    expect(isHeading("ei_global_names()", "char **ei_global_names(ec,fd,count)", undefined)).toBe(true);
    expect(isHeading("ei_x_new()", "int ei_x_new(ei_x_buff* x)", undefined)).toBe(true);
  });

  it("does not read another function's declaration or a description as the heading", () => {
    const other = "int ei_x_encode_atom_len(ei_x_buff* x, const char *p, int len)";
    expect(isHeading("ei_encode_atom_len()", other, undefined)).toBe(false);
    expect(
      isHeading("ei_decode_ulong()", "Decodes an unsigned long integer from the binary format.", undefined),
    ).toBe(false);
  });

  it("counts a section opening at its declaration as starting at its heading", () => {
    // One description shared by two functions, each bookmark at its own declaration; the page
    // also names the second function in its description.
    const page = parsedPage([
      pdfLine("int ei_encode_atom(char *buf, int *index, const char *p)", 700),
      pdfLine("int ei_encode_atom_len(char *buf, int *index, const char *p, int len)", 686),
      pdfLine("Encodes an atom in the binary format, or see the", 660),
      pdfLine("ei_encode_atom_len() function.", 648),
    ]);
    const sections = [
      { title: "ei_encode_atom()", startPage: 1, text: page.lines[0]?.text ?? "" },
      {
        title: "ei_encode_atom_len()",
        startPage: 1,
        text: page.lines
          .slice(1)
          .map((l) => l.text)
          .join("\n"),
      },
    ];
    const s = score(sections, [page], new Map());
    expect(s.bad).toEqual([]);
    expect([s.checkable, s.starting]).toEqual([2, 2]);
  });
});

describe("furniture freed for section headings", () => {
  // A LibreOffice guide: the same running head tops every page, and the loader's "Preface" (the
  // text before the first bookmark) is placed at the top of page 1 without a heading of its own.
  const head = "W1RETAP\tUser Guide";
  const pages = [
    parsedPage([pdfLine(head, 776), pdfLine("W1RETAP", 730), pdfLine("A sensor logger", 700)], 1),
    parsedPage([pdfLine(head, 776), pdfLine("1 Introduction", 740), pdfLine("It logs.", 720)], 2),
  ];
  const furniture = new Map([
    [1, new Set([0])],
    [2, new Set([0])],
  ]);
  const node = (title: string, text: string, page: number, line: number): TreeNode =>
    ({ title, text, startPage: page, position: { page, line } }) as TreeNode;

  it("keeps a running head the headingless preface starts at, so it is not counted lost", () => {
    const nodes = [
      node("Preface", "W1RETAP\nA sensor logger", 1, 1),
      node("1 Introduction", "1 Introduction\nIt logs.", 2, 2),
    ];
    const free = withoutHeadings(furniture, nodes, pages);
    expect([...(free.get(1) ?? [])]).toEqual([0]);
    const s = score(
      nodes.map((n) => ({ title: n.title, text: n.text, startPage: n.startPage ?? 1 })),
      pages,
      free,
    );
    expect([s.lost, s.duplicated]).toEqual([0, 0]);
  });

  it("frees a furniture line that a section's text opens with", () => {
    const nodes = [node("W1RETAP User Guide", `${head}\nW1RETAP\nA sensor logger`, 1, 1)];
    expect([...(withoutHeadings(furniture, nodes, pages).get(1) ?? [])]).toEqual([]);
  });
});
