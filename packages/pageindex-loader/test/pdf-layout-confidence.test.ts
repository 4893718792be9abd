import { FakeListChatModel } from "@langchain/core/utils/testing";
import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import type { Heading } from "../src/pdf/structure/candidates.js";
import { LOW_CONFIDENCE, layoutConfidence } from "../src/pdf/structure/confidence.js";
import { heading } from "./fixtures/layout-tree.js";
import { body, buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

/** A reference card: a few headings over lines that merge three columns of commands. */
function referenceCard(titles = ["Getting Started", "Editing Files", "Plotting Data"]): PageSpec[] {
  const words = ["plot", "edit", "save", "load", "find", "sort", "help", "quit", "zoom", "grid"];
  const row = (p: number, i: number): LineSpec => ({
    text: "",
    cells: [0, 1, 2].map(
      (c) => `${words[(i + c + p) % 10]} ${words[(i * 3 + c * 7 + p) % 10]} ${words[(i * 7 + c) % 10]}`,
    ),
  });
  return titles.map((title, p) => ({
    lines: [heading(title, 14), ...Array.from({ length: 30 }, (_, i) => row(p, i + p * 30))],
  }));
}

const pdfMeta = (tree: TreeDocument) =>
  tree.metadata?.pdf as { attempts: Array<{ path: string; used: boolean; detail: string }> } & Record<
    string,
    unknown
  >;

describe("layout confidence", () => {
  it("warns about a reference card's tree: its lines merge columns", async () => {
    const tree = await pdfToTree(await buildPdf({ pages: referenceCard() }), {
      structure: "layout",
      summaries: "none",
    });
    expect(
      tree.build.warnings?.some((w) => /low confidence 0\.\d\d \(lines merge several columns/.test(w)),
    ).toBe(true);
    expect(pdfMeta(tree).layoutConfidence).toMatchObject({ readable: expect.any(Number) });
  });

  it("a tree below the line for merged lines and for its evidence says both, in the warning and the result", async () => {
    const tree = await pdfToTree(await buildPdf({ pages: referenceCard(["ONE", "TWO", "THREE"]) }), {
      structure: "layout",
      summaries: "none",
    });
    const confidence = pdfMeta(tree).layoutConfidence as {
      readable: number;
      evidence: number;
      warning: string;
    };
    // Either part alone is below the line; the weakest one is not the only reason given.
    expect(confidence.readable).toBeLessThan(confidence.evidence);
    expect(confidence.evidence).toBeLessThan(LOW_CONFIDENCE);
    expect(confidence.warning).toMatch(/lines merge several columns.*evidence disagrees.*bare words/);
    const warning = tree.build.warnings?.find((w) => /low confidence/.test(w));
    expect(warning).toMatch(/lines merge several columns.*evidence disagrees.*bare words/);
  });

  it("auto with a model hands a low-confidence layout tree to the LLM path", async () => {
    const model = new FakeListChatModel({ responses: ['{"toc_detected": "no"}'] });
    const tree = await pdfToTree(await buildPdf({ pages: referenceCard() }), { model, summaries: "none" });
    const layout = pdfMeta(tree).attempts.find((a) => a.path === "layout");
    expect(layout).toMatchObject({ used: false });
    expect(layout?.detail).toMatch(/low confidence/);
  });

  it("a plain manual is trusted: no warning", async () => {
    const pages: PageSpec[] = [1, 2, 3].map((p) => ({
      lines: [
        heading(`${p} Chapter ${p}`, 16),
        ...body(10, p),
        heading(`${p}.1 Details`, 12),
        ...body(10, p + 9),
      ],
    }));
    const tree = await pdfToTree(await buildPdf({ pages }), { structure: "layout", summaries: "none" });
    expect(tree.build.warnings ?? []).not.toContainEqual(expect.stringMatching(/low confidence/));
  });

  it("numbering agreement: '2.1' under '1' disagrees, under 'Article II' (with a heading between) agrees", () => {
    const h = (title: string, page: number, value?: string, depth?: number): Heading => ({
      title,
      page,
      line: 0,
      style: { size: 12, bold: true, italic: false, caps: false },
      strength: "strong",
      ...(value ? { numbering: { kind: "dotted" as const, value, depth: depth ?? 1 } } : {}),
    });
    const one = h("1 Scope", 1, "1");
    const two = h("2 Terms", 2, "2");
    const misplaced = h("2.1 Words", 3, "2.1", 2);
    const leaf = (x: Heading) => ({ title: x.title, page: x.page, line: 0, children: [] });
    // "2.1" left at the top after "2 Terms": its number says it belongs inside.
    const bad = layoutConfidence([leaf(one), leaf(two), leaf(misplaced)], [one, two, misplaced], [], 10);
    expect(bad.numbering).toBe(0);
    const good = layoutConfidence(
      [
        {
          title: "ARTICLE II",
          page: 2,
          line: 0,
          children: [
            {
              title: "Definitions",
              page: 2,
              line: 1,
              children: [{ title: misplaced.title, page: 3, line: 0, children: [] }],
            },
          ],
        },
      ],
      [two, misplaced],
      [],
      10,
    );
    expect(good.numbering).toBe(1);
  });

  it("titles: a changelog's version and date read as a title, a row of numbers or a formula does not", () => {
    const h = (title: string, page: number): Heading => ({
      title,
      page,
      line: 0,
      style: { size: 12, bold: true, italic: false, caps: false },
      strength: "strong",
    });
    const titles = (list: string[]) => {
      const heads = list.map((t, i) => h(t, i + 1));
      const entries = heads.map((x) => ({ title: x.title, page: x.page, line: 0, children: [] }));
      return layoutConfidence(entries, heads, [], 10).titles;
    };
    expect(titles(["18.1.100 Verilator 3.805 2010-11-02", "18.1.101 Verilator 3.804 2010-09-20"])).toBe(1);
    expect(titles(["0.707 0.707 0", "x = y * 2;"])).toBe(0);
  });
});
