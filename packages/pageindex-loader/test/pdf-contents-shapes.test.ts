/**
 * Printed contents pages in the shapes producers set them (issue 26: "the printed table of
 * contents and its page numbers" is evidence every document with one carries): leaders running
 * into the page number, page numbers drawn as their own runs on the entry's baseline, contents
 * without page numbers running over several pages. In each, the sections are set like body text,
 * so only the contents can place them, and no line of the contents may become a section.
 */
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { layoutTree } from "./fixtures/layout-tree.js";
import { body, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const CHAPTERS = [
  "Overview",
  "Installation",
  "Configuration",
  "Running jobs",
  "Monitoring",
  "Troubleshooting",
];

/** One page per chapter, its title set like body text after a gap: only the contents can place it. */
const chapterPages = (first: number): PageSpec[] =>
  CHAPTERS.map((t, i) => ({ lines: [{ text: t, gap: 14 }, ...body(20, first + i)] }));

const titled = (lines: LineSpec[]): PageSpec => ({
  lines: [{ text: "Contents", size: 16, bold: true, gap: 6 }, ...lines],
});

const placed = (tree: TreeDocument): string[] => tree.nodes.map((n) => `${n.title} [${n.startPage}]`);
const expected = (first: number): string[] => CHAPTERS.map((t, i) => `${t} [${first + i}]`);

describe("printed contents in every producer's shape", () => {
  it("reads leaders that run into the page number ('Overview.........3')", async () => {
    const toc = titled(
      CHAPTERS.map((t, i) => ({ text: `${t}${".".repeat(60 - t.length)}${i + 3}`, gap: 4 })),
    );
    const tree = await layoutTree([{ lines: body(10, 1) }, toc, ...chapterPages(3)]);
    expect(placed(tree)).toEqual(expected(3));
  });

  it("takes an unnumbered first row ending in a colon ('Topics documented:') for the list's caption, not an entry", async () => {
    // R's Rd2pdf: "R topics documented:" over indented entries, no "Contents" title. Joined to the
    // first entry as its wrap, it held every other entry one level down.
    const rows = CHAPTERS.map((t, i) => ({
      text: `${t}${".".repeat(60 - t.length)}${i + 3}`,
      gap: 4,
      indent: 24,
    }));
    const toc: PageSpec = { lines: [{ text: "Topics documented:", bold: true, gap: 6 }, ...rows] };
    const tree = await layoutTree([{ lines: body(10, 1) }, toc, ...chapterPages(3)]);
    expect(placed(tree)).toEqual(expected(3));
  });

  it("reads a contents' last page that holds only its last two entries and the page's number", async () => {
    const rows = CHAPTERS.map((t, i) => ({ text: `${t}${".".repeat(60 - t.length)}${i + 4}`, gap: 4 }));
    const tree = await layoutTree([
      { lines: body(10, 1) },
      { ...titled(rows.slice(0, 4)), footer: "2" },
      { lines: rows.slice(4), footer: "3" },
      ...chapterPages(4),
    ]);
    expect(placed(tree)).toEqual(expected(4));
  });

  it("keeps a contents' bottom entries that differ from page to page only in their numbers ('Release 2.9 (2023-09-10) .... 5')", async () => {
    // Release notes: every entry reads alike with its digits folded, as a running foot would.
    const releases = Array.from({ length: 9 }, (_, i) => `Release 2.${9 - i} (2023-0${9 - i}-1${i})`);
    const row = (t: string, i: number): LineSpec => ({
      text: `${t}${".".repeat(60 - t.length)}${i + 5}`,
      gap: 4,
    });
    const rows = releases.map(row);
    // Each section mid-page, after a few lines, set like body text: only the contents places it.
    const sections: PageSpec[] = releases.map((t, i) => ({
      lines: [...body(3, i + 5), { text: t, gap: 14 }, ...body(16, i + 50)],
    }));
    const tree = await layoutTree([
      { lines: body(10, 1) },
      titled(rows.slice(0, 3)),
      { lines: rows.slice(3, 6) },
      { lines: rows.slice(6) },
      ...sections,
    ]);
    expect(placed(tree)).toEqual(releases.map((t, i) => `${t} [${i + 5}]`));
  });

  it("reads page numbers drawn as their own runs before the entry's title, on its baseline, over two pages", async () => {
    // ReportLab's contents: each entry's leaders and number are drawn first, at the right margin.
    const row = (t: string, i: number): LineSpec => ({
      text: t,
      gap: 6,
      drawnFirst: `. . . . . . . ${i + 4}`,
    });
    const rows = CHAPTERS.map(row);
    const tree = await layoutTree([
      { lines: body(10, 1) },
      titled(rows.slice(0, 3)),
      { lines: rows.slice(3) },
      ...chapterPages(4),
    ]);
    expect(placed(tree)).toEqual(expected(4));
  });

  it("a page titled 'Tables' after the contents lists captions, not more contents", async () => {
    const leader = (t: string, n: number) => `${t}${".".repeat(60 - t.length)}${n}`;
    const toc = titled(CHAPTERS.map((t, i) => ({ text: leader(t, i + 4), gap: 4 })));
    const tables: PageSpec = {
      lines: [
        { text: "Tables", size: 16, bold: true, gap: 6 },
        ...["Supported platforms", "Package names", "Job states", "Log levels"].map((t, i) => ({
          text: `${i + 1}\t${leader(t, i + 5)}`,
          gap: 4,
        })),
      ],
    };
    const tree = await layoutTree([{ lines: body(10, 1) }, toc, tables, ...chapterPages(4)]);
    expect(placed(tree)).toEqual(expected(4));
  });

  it("reads a contents without page numbers on to its untitled second page, and not a chapter's own list of its sections", async () => {
    const chapters: Array<[string, string, string]> = [
      ["Overview", "Scope", "Terms"],
      ["Installation", "Packages", "Building"],
      ["Configuration", "Files", "Options"],
      ["Running jobs", "Queues", "Limits"],
    ];
    // SWIG's contents: chapters bold at the margin, sections indented, no page numbers.
    const entries = (n: number): LineSpec[] => {
      const [title, a, b] = chapters[n - 1] as [string, string, string];
      return [
        { text: `${n} ${title}`, bold: true, gap: 6 },
        { text: `${n}.1 ${a}`, indent: 18, gap: 2 },
        { text: `${n}.2 ${b}`, indent: 18, gap: 2 },
      ];
    };
    // Each chapter opens with its sections' bare titles, then the sections follow on the next page.
    const pages = chapters.flatMap(([title, a, b], i): PageSpec[] => [
      {
        lines: [
          { text: `${i + 1} ${title}`, size: 16, bold: true, gap: 14 },
          { text: a, indent: 18, gap: 6 },
          { text: b, indent: 18, gap: 2 },
          ...body(10, 10 + i),
        ],
      },
      {
        lines: [
          { text: `${i + 1}.1 ${a}`, size: 12, bold: true, gap: 14 },
          ...body(8, 20 + i),
          { text: `${i + 1}.2 ${b}`, size: 12, bold: true, gap: 14 },
          ...body(8, 30 + i),
        ],
      },
    ]);
    const tree = await layoutTree([
      titled([...entries(1), ...entries(2)]),
      { lines: [...entries(3), ...entries(4)] },
      ...pages,
    ]);
    expect(tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title} [${n.startPage}]`)).toEqual(
      chapters.flatMap(([title, a, b], i) => [
        `${i + 1} ${title} [${2 * i + 3}]`,
        `  ${i + 1}.1 ${a} [${2 * i + 4}]`,
        `  ${i + 1}.2 ${b} [${2 * i + 4}]`,
      ]),
    );
  });

  it("reads a contents page on to a list of figures lower on it, and not the list", async () => {
    const row = (t: string, n: number): LineSpec => ({
      text: `${t} ${".".repeat(50 - t.length)} ${n}`,
      gap: 4,
    });
    const rows = CHAPTERS.map((t, i) => row(t, i + 4));
    const figures = ["Job flow", "Queue states", "Log levels"].map((t, i) => row(`${i + 1} ${t}`, i + 5));
    const tree = await layoutTree([
      { lines: body(10, 1) },
      titled(rows.slice(0, 3)),
      { lines: [...rows.slice(3), { text: "List of Figures", size: 16, bold: true, gap: 12 }, ...figures] },
      ...chapterPages(4),
    ]);
    expect(placed(tree)).toEqual(expected(4));
  });

  it("skips the running head of the contents' later pages ('2 CONTENTS'), which is no entry", async () => {
    const row = (t: string, n: number): LineSpec => ({
      text: `${t} ${".".repeat(50 - t.length)} ${n}`,
      gap: 4,
    });
    const rows = CHAPTERS.map((t, i) => row(`${i + 1} ${t}`, i + 4));
    const tree = await layoutTree([
      { lines: body(10, 1) },
      titled(rows.slice(0, 3)),
      { lines: [{ text: "", cells: ["2", "CONTENTS"] }, ...rows.slice(3)] },
      ...CHAPTERS.map((t, i) => ({ lines: [{ text: `${i + 1} ${t}`, gap: 14 }, ...body(20, 4 + i)] })),
    ]);
    expect(placed(tree)).toEqual(CHAPTERS.map((t, i) => `${i + 1} ${t} [${i + 4}]`));
  });
});
