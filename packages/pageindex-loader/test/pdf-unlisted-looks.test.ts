/**
 * Headings of a look the printed contents never lists (issue 26, fourteenth session's fresh
 * batch: Ikarus's reference entries "port-mode ⇥ procedure", set at 16.5 pt beside its sections'
 * 15 pt bold; Verilator's, Doxygen's and ReportLab's manuals show the same). The contents lists
 * every chapter and section, so a heading it leaves out is below them however large it is set:
 * it nests under the section before it instead of standing beside it.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { layoutTree } from "./fixtures/layout-tree.js";
import { body, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const leader = (t: string, n: number): string => `${t} ${". ".repeat(Math.max(4, 28 - t.length / 2))}${n}`;
const row = (t: string, n: number, indent = 0): LineSpec => ({
  text: leader(t, n),
  size: 11,
  gap: 4,
  indent,
});

const chapter = (t: string): LineSpec => ({ text: t, size: 22, bold: true, gap: 14 });
const section = (t: string): LineSpec => ({ text: t, size: 15, bold: true, gap: 14 });
/** A reference entry: its name set large, not bold, its kind ranged right. */
const entry = (name: string): LineSpec => ({ text: `${name}\tprocedure`, size: 16.5, gap: 14 });

const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`);

describe("headings of a look the printed contents never lists", () => {
  it("nest under the section before them, though set larger than it", async () => {
    const pages: PageSpec[] = [
      { lines: body(10, 1) },
      {
        lines: [
          { text: "Contents", size: 20, bold: true, gap: 6 },
          row("1 The library", 3),
          row("1.1 Parameters", 4, 16),
          row("1.2 Printing", 5, 16),
          row("2 Sockets", 6),
          row("2.1 Connecting", 7, 16),
        ],
      },
      { lines: [chapter("1 The library"), ...body(20, 3)] },
      { lines: [section("1.1 Parameters"), ...body(6, 4), entry("make-parameter"), ...body(8, 5)] },
      { lines: [section("1.2 Printing"), ...body(6, 6), entry("pretty-print"), ...body(8, 7)] },
      { lines: [chapter("2 Sockets"), ...body(20, 8)] },
      { lines: [section("2.1 Connecting"), ...body(6, 9), entry("tcp-connect"), ...body(8, 10)] },
    ];
    expect(outline(await layoutTree(pages))).toEqual([
      "1 The library [3]",
      "  1.1 Parameters [4]",
      "    make-parameter procedure [4]",
      "  1.2 Printing [5]",
      "    pretty-print procedure [5]",
      "2 Sockets [6]",
      "  2.1 Connecting [7]",
      "    tcp-connect procedure [7]",
    ]);
  });
});
