// An index's first group head ("Symbols" over the letters "A", "B", "C") is no section (issue 26,
// shape rule "indexGroups"); the index's own title, set as its letters are but apart, stays.
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { layoutTree as layout } from "./fixtures/layout-tree.js";
import { body, headingLine, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const titles = (tree: TreeDocument): string[] => tree.nodes.map((n) => n.title);
const entries = (words: string[]): LineSpec[] => words.map((w, i) => ({ text: `${w}, ${i + 2}` }));
const CHAPTERS = ["Getting Started", "Configuration", "Troubleshooting"];
/** 21 pages of chapters: an index's "name, page" lines past them are not read as a printed contents. */
const chapters: PageSpec[] = Array.from({ length: 21 }, (_, p) => ({
  lines: [...(p % 7 === 0 ? [headingLine(CHAPTERS[p / 7] as string, 16)] : []), ...body(24, p + 1)],
}));
/** An index's groups, each head set in `look` at the left margin, over its entries. */
const groups = (look: Partial<LineSpec>, first: string): LineSpec[] => [
  { text: first, size: 13, gap: 14, ...look },
  ...entries(["$HOME", "@count", "--verbose", "%load", "&optional", "#include"]),
  { text: "A", size: 13, gap: 14, ...look },
  ...entries(["arrays", "aggregates", "alignment", "arguments", "attributes", "authentication"]),
  { text: "B", size: 13, gap: 14, ...look },
  ...entries(["buffers", "builds", "bindings", "backups", "batches", "branches"]),
  { text: "C", size: 13, gap: 14, ...look },
  ...entries(["caches", "clients", "commands", "compilers", "cursors", "columns"]),
];

describe("index group heads", () => {
  it("drops the group head before the letters, keeps the index's title", async () => {
    const tree = await layout([
      ...chapters,
      { lines: [headingLine("Index", 16), ...groups({ bold: true }, "Symbols")] },
    ]);
    expect(titles(tree)).toEqual([...CHAPTERS, "Index"]);
  });

  it("keeps an index title set as the letters are but apart from their column", async () => {
    const tree = await layout([
      ...chapters,
      {
        lines: [
          { ...headingLine("Index", 13), indent: 200 },
          ...entries(["notes", "terms"]),
          ...groups({ bold: true }, "Symbols").slice(4),
        ],
      },
    ]);
    expect(titles(tree)).toContain("Index");
  });

  it("keeps a heading whose next lines in its look are not letters in order", async () => {
    const tree = await layout([
      ...chapters,
      {
        lines: [
          headingLine("Glossary", 13),
          ...entries(["alpha", "beta"]),
          headingLine("C", 13),
          ...body(3, 4),
          headingLine("A", 13),
          ...body(3, 5),
          headingLine("B", 13),
        ],
      },
    ]);
    expect(titles(tree)).toContain("Glossary");
  });
});
