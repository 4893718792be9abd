/**
 * Two bookmarks for one heading (issue 26: bacula's LaTeX manuals follow each `\section` with an
 * `\addcontentsline` of the same title, so the outline holds the section and a child repeating
 * it whose destination points just under the heading): one heading is one section, starting at
 * the heading, with the repeat's children under it; a bookmark whose own heading is the next line
 * ("1.1 Introduction" under the chapter "Introduction") keeps its own section.
 */
import type { TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { repeatsHeading } from "../src/pdf/structure/repeated-bookmarks.js";
import { body, buildPdf, headingLine, type PageSpec } from "./fixtures/pdf-builder.js";
import { parsedPage, pdfLine } from "./fixtures/pdf-lines.js";

const load = async (bytes: Uint8Array): Promise<TreeNode[]> =>
  (await pdfToTree(bytes, { structure: "outline", summaries: "none", split: false }, { name: "dev.pdf" }))
    .nodes;

const squash = (s: string) => s.replace(/\s+/g, "");
const printedText = (pages: PageSpec[]) =>
  squash(
    pages
      .flatMap((p) => p.lines ?? [])
      .map((l) => (typeof l === "string" ? l : l.text))
      .join(""),
  );

/** A first page with its own bookmark: an outline on one page only is too thin to be used. */
const FOREWORD: PageSpec = { lines: [headingLine("Foreword", 16), ...body(2, 9)], footer: "i" };
const foreword = { title: "Foreword", page: 1, line: 0 };

// Page 2: "Contributions" (line 0), "1.3 Patches for Released Versions" (line 4), its
// subsection "Backports" (line 8), "1.4 Debugging" (line 11).
const pages: PageSpec[] = [
  FOREWORD,
  {
    lines: [
      headingLine("1.2 Contributions", 14, { bold: true }),
      ...body(3, 1),
      headingLine("1.3 Patches for Released Versions", 14, { bold: true, gap: 12 }),
      ...body(3, 2),
      headingLine("Backports", 12, { bold: true, gap: 10 }),
      ...body(2, 3),
      headingLine("1.4 Debugging", 14, { bold: true, gap: 12 }),
      ...body(3, 4),
    ],
    footer: "1",
  },
];

describe("a bookmark repeating the heading before it", () => {
  it("is merged into that heading's section, which starts at the heading and keeps the repeat's children", async () => {
    const bytes = await buildPdf({
      pages,
      outline: [
        foreword,
        { title: "Contributions", page: 2, line: 0 },
        {
          title: "Patches for Released Versions",
          page: 2,
          line: 4,
          // The repeat points under the heading, at the paragraph's first line.
          children: [
            {
              title: "Patches for Released Versions",
              page: 2,
              line: 5,
              children: [{ title: "Backports", page: 2, line: 8 }],
            },
          ],
        },
        { title: "Debugging", page: 2, line: 11 },
      ],
    });
    const nodes = await load(bytes);
    expect(nodes.map((n) => [n.title, n.level])).toEqual([
      ["Foreword", 1],
      ["Contributions", 1],
      ["Patches for Released Versions", 1],
      ["Backports", 2],
      ["Debugging", 1],
    ]);
    for (const n of nodes) expect(n.text.split("\n")[0]).toContain(n.title);
    expect(squash(nodes.map((n) => n.text).join(""))).toBe(printedText(pages));
  });

  it("keeps a bookmark of the same title whose own heading is the next line", async () => {
    const chapter: PageSpec[] = [
      FOREWORD,
      {
        lines: [
          headingLine("Introduction", 20, { bold: true }),
          headingLine("1.1 Introduction", 14, { bold: true, gap: 16 }),
          ...body(3, 5),
          headingLine("1.2 Scope", 14, { bold: true, gap: 12 }),
          ...body(2, 6),
        ],
        footer: "1",
      },
    ];
    const bytes = await buildPdf({
      pages: chapter,
      outline: [
        foreword,
        {
          title: "Introduction",
          page: 2,
          line: 0,
          children: [
            { title: "Introduction", page: 2, line: 1 },
            { title: "Scope", page: 2, line: 5 },
          ],
        },
      ],
    });
    const nodes = await load(bytes);
    expect(nodes.map((n) => [n.title, n.text.split("\n")[0]])).toEqual([
      ["Foreword", "Foreword"],
      ["Introduction", "Introduction"],
      ["Introduction", "1.1 Introduction"],
      ["Scope", "1.2 Scope"],
    ]);
    expect(squash(nodes.map((n) => n.text).join(""))).toBe(printedText(chapter));
  });

  it("never takes two functions of one name for one heading (Erlang's monitor_scope/0 and /1)", () => {
    const page = parsedPage([
      pdfLine("are not joined.", 700),
      pdfLine("monitor_scope() -> {reference(), Groups}", 672),
      pdfLine("monitor_scope(Scope :: atom()) ->", 658),
      pdfLine("{reference(), Groups}", 646),
      pdfLine("Subscribes the caller to updates from the specified scope.", 630),
    ]);
    // monitor_scope/0 placed on the second call line, /1's destination just under it.
    const placed = { title: "monitor_scope/0", line: 2 };
    expect(repeatsHeading(page, placed, "monitor_scope/1", 655, undefined)).toBe(false);
    // The same title there is a repeat.
    expect(
      repeatsHeading(page, { title: "monitor_scope/1", line: 2 }, "monitor_scope/1", 655, undefined),
    ).toBe(true);
  });
});
