/**
 * A LaTeX book's chapter labels ("Chapter 2" set large over the chapter's title) atop chapters a
 * page or two long (issue 26: 4ti2's manual, CMUCL's design notes, GAP's and Maxima's books read
 * without their printed contents). Folded, their digits make one recurring text at the top of
 * nearby pages, which read as a running head: the label went, and the first chapter, whose label
 * stayed, held all the others. A label set at a title's size is a heading's, not furniture.
 */
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";
import { childTitles, topTitles } from "./fixtures/tree-titles.js";

const CHAPTERS: [title: string[], sections: string[]][] = [
  [["Getting Started"], ["Installing the Tools", "A First Session"]],
  [["Linear Systems"], ["Encoding a System", "Solving It"]],
  // A title wrapped over two lines neither cut mid-phrase nor at the column's edge.
  [
    ["Encrypted Links", "Between Daemons"],
    ["Ports and Channels", "Certificates"],
  ],
  [["Command Reference"], ["Options Common to Every Command", "Exit Status"]],
  [["Building from Source"], ["Configuring the Build", "Running the Tests"]],
];

const body = (topic: string, n: number): LineSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    text: `Line ${i + 1} on ${topic.toLowerCase()} tells the reader what the program does next here.`,
  }));

/**
 * Its label and title atop each chapter's first page, a section on it and on the next. The first
 * and fourth chapters run two pages longer, so the labels of the first and the last have no other
 * within two pages and stay; those of the three between read as a running head.
 */
function book(runningHead?: (page: number) => LineSpec): PageSpec[] {
  const pages: PageSpec[] = [];
  CHAPTERS.forEach(([title, sections], c) => {
    const [first, second] = sections as [string, string];
    const opening: LineSpec[] = [
      { text: `Chapter ${c + 1}`, size: 20, bold: true, gap: 60 },
      ...title.map((t, i): LineSpec => ({ text: t, size: 25, bold: true, gap: i === 0 ? 30 : 0 })),
      ...body(title.join(" "), 4).map((l, i) => (i === 0 ? { ...l, gap: 30 } : l)),
      { text: `${c + 1}.1 ${first}`, size: 14, bold: true, gap: 20 },
      ...body(first, 20),
    ];
    const next: LineSpec[] = [{ text: `${c + 1}.2 ${second}`, size: 14, bold: true }, ...body(second, 24)];
    const more =
      c === 0 || c === CHAPTERS.length - 2 ? [body(`${second} again`, 28), body(`more ${second}`, 28)] : [];
    for (const lines of [opening, next, ...more]) {
      const n = pages.length + 1;
      pages.push({
        lines: runningHead && lines !== opening ? [runningHead(n), ...lines] : lines,
        footer: String(n),
      });
    }
  });
  return pages;
}

const load = async (pages: PageSpec[]) =>
  pdfToTree(await buildPdf({ pages }), { structure: "layout", summaries: "none", split: false });

describe("chapter labels atop short chapters", () => {
  it("keeps every chapter at the top, its sections under it", async () => {
    const tree = await load(book());
    expect(topTitles(tree.nodes)).toEqual(CHAPTERS.map(([title]) => title.join(" ")));
    CHAPTERS.forEach(([title, sections], c) => {
      expect(childTitles(tree.nodes, title.join(" "))).toEqual(
        sections.map((s, i) => `${c + 1}.${i + 1} ${s}`),
      );
    });
  });

  it("still drops a running head set just above the body whose number follows the page", async () => {
    const head = (n: number): LineSpec => ({ text: `Release Notes for the Tools ${n}`, size: 11 });
    const tree = await load(book(head));
    expect(topTitles(tree.nodes)).toEqual(CHAPTERS.map(([title]) => title.join(" ")));
    expect(tree.nodes.some((n) => n.title.startsWith("Release Notes"))).toBe(false);
  });
});
