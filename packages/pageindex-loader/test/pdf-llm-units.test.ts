import { describe, expect, it } from "vitest";
import {
  cleanStructure,
  cleanTitle,
  type Entry,
  longestNonDecreasing,
  mostCommon,
  toPageNumber,
} from "../src/pdf/llm/entries.js";
import { nestEntries, rangeDrafts } from "../src/pdf/llm/nest.js";
import { chunkPages, groupPages } from "../src/pdf/llm/pages.js";
import { splitTocText } from "../src/pdf/llm/toc-transform.js";
import type { PdfPage } from "../src/pdf/types.js";

const page = (n: number, tokens: number): PdfPage => ({
  pageNumber: n,
  text: `page ${n}`,
  tokenCount: tokens,
});
const numbers = (groups: PdfPage[][]) => groups.map((g) => g.map((p) => p.pageNumber));

describe("entry helpers", () => {
  it("cleans titles: whitespace, dot leaders and their page number, but not a title's own number", () => {
    expect(cleanTitle("  Risk   factors ........ 12 ")).toBe("Risk factors");
    expect(cleanTitle("Risk factors …… 12")).toBe("Risk factors");
    expect(cleanTitle("Note 12")).toBe("Note 12");
    expect(cleanTitle("   ")).toBe("");
    expect(cleanTitle(42)).toBe("");
    expect(cleanTitle("x".repeat(400))).toHaveLength(300);
  });

  it("accepts dotted structure codes only", () => {
    expect(cleanStructure("1.2.")).toBe("1.2");
    expect(cleanStructure(3)).toBe("3");
    expect(cleanStructure("A.1")).toBe("A.1");
    expect(cleanStructure("1 . 2")).toBeUndefined();
    expect(cleanStructure(null)).toBeUndefined();
  });

  it("reads page numbers from numbers or numeric strings only", () => {
    expect(toPageNumber(12)).toBe(12);
    expect(toPageNumber(" 7 ")).toBe(7);
    expect(toPageNumber("iv")).toBeUndefined();
    expect(toPageNumber(3.5)).toBeUndefined();
    expect(toPageNumber(-1)).toBeUndefined();
  });

  it("finds the fewest out-of-order pages (longest non-decreasing run)", () => {
    expect([...longestNonDecreasing([3, 5, 40, 8, 8, 11, 2, 14])].sort((a, b) => a - b)).toEqual([
      0, 1, 3, 4, 5, 7,
    ]);
    expect(longestNonDecreasing([]).size).toBe(0);
  });

  it("takes the most common offset", () => {
    expect(mostCommon([2, 3, 2, 7, 2, 3])).toBe(2);
    expect(mostCommon([])).toBeUndefined();
  });
});

describe("page groups", () => {
  it("groups pages under a token budget with one page of overlap", () => {
    const pages = [1, 2, 3, 4, 5, 6, 7].map((n) => page(n, 100));
    expect(numbers(groupPages(pages, 300))).toEqual([
      [1, 2, 3],
      [3, 4, 5],
      [5, 6, 7],
    ]);
    expect(numbers(groupPages(pages, 10_000))).toEqual([[1, 2, 3, 4, 5, 6, 7]]);
  });

  it("always moves forward, even past a page larger than the budget", () => {
    const pages = [page(1, 50), page(2, 900), page(3, 50)];
    expect(numbers(groupPages(pages, 100))).toEqual([[1], [2], [3]]);
  });

  it("chunks pages without overlap by pages and tokens", () => {
    const pages = Array.from({ length: 23 }, (_, i) => page(i + 1, 10));
    expect(chunkPages(pages, 1000, 10).map((c) => c.length)).toEqual([10, 10, 3]);
    expect(chunkPages(pages, 25, 10).map((c) => c.length)).toEqual([2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1]);
  });
});

describe("nesting", () => {
  const e = (title: string, page: number, structure?: string): Entry => ({
    id: 0,
    title,
    page,
    appearStart: true,
    ...(structure ? { structure } : {}),
  });

  it("nests by dotted code, attaching a skipped level to the nearest ancestor", () => {
    const drafts = nestEntries([
      e("Intro", 1, "1"),
      e("Scope", 2, "1.1"),
      e("Deep", 3, "1.1.1.1"),
      e("Other", 4, "1.2"),
      e("Orphan", 5, "2.3"),
      e("Loose", 6),
      e("After loose", 7, "3.1"),
    ]);
    const shape = (d: (typeof drafts)[number]): unknown => [d.title, ...(d.children ?? []).map(shape)];
    expect(drafts.map(shape)).toEqual([
      ["Intro", ["Scope", ["Deep"]], ["Other"]],
      ["Orphan"],
      ["Loose"],
      ["After loose"],
    ]);
    expect(drafts[0]!.metadata).toEqual({ appearStart: true });
  });

  it("covers pages with 'Pages a-b' nodes of at most ten pages", () => {
    const pages = Array.from({ length: 12 }, (_, i) => page(i + 5, 10));
    expect(rangeDrafts(pages, 20_000).map((d) => [d.title, d.startPage])).toEqual([
      ["Pages 5–14", 5],
      ["Pages 15–16", 15],
    ]);
    expect(rangeDrafts([page(3, 10)], 20_000)[0]!.title).toBe("Page 3");
  });
});

describe("TOC pieces", () => {
  it("splits TOC text into whole-line pieces under the budget, keeping every line", () => {
    const lines = Array.from(
      { length: 300 },
      (_, i) => `${i + 1} Section number ${i + 1} .......... ${i + 3}`,
    );
    const pieces = splitTocText(lines.join("\n"), 500);
    expect(pieces.length).toBeGreaterThan(5);
    expect(pieces.join("\n").split("\n")).toEqual(lines);
  });
});
