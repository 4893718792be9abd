/**
 * A layout tree whose evidence disagrees gets a confidence below the warning line and says why
 * (issue 26): titles that are bare words ("ONE", "CHAPTER"), list items taken for chapters, a
 * "Version 1.04" wrapper. The weights are the fitted ones (tree-evidence-weights.ts).
 */
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { LOW_CONFIDENCE } from "../src/pdf/structure/confidence.js";
import {
  evidenceDoubts,
  evidenceScore,
  FEATURE_NAMES,
  type TreeFeatures,
  treeFeatures,
} from "../src/pdf/structure/tree-evidence.js";
import { EVIDENCE_MODEL } from "../src/pdf/structure/tree-evidence-weights.js";
import type { SectionEntry } from "../src/pdf/types.js";
import { heading } from "./fixtures/layout-tree.js";
import { body, buildPdf, type PageSpec } from "./fixtures/pdf-builder.js";

const entry = (title: string, page: number, children: SectionEntry[] = []): SectionEntry => ({
  title,
  page,
  children,
});
const agreeing = { depth: 1, numbering: 1 };

describe("tree evidence", () => {
  it("has one fitted weight per feature", () => {
    expect(EVIDENCE_MODEL.weights).toHaveLength(FEATURE_NAMES.length);
  });

  it("a numbered manual whose printed contents match carries no doubt", () => {
    const tree = [
      entry("1 Introduction", 3, [entry("1.1 Scope", 3)]),
      entry("2 Usage", 5),
      entry("3 Options", 8),
    ];
    const f = treeFeatures(tree, agreeing, { entries: 4, located: 4 });
    expect(evidenceDoubts(f)).toEqual([]);
    expect(evidenceScore(f)).toBeGreaterThan(LOW_CONFIDENCE);
  });

  it('doubts titles that are bare words ("ONE", "CHAPTER") and a "Version" wrapper, below the warning line', () => {
    const words = [entry("ONE", 3), entry("TWO", 9), entry("CHAPTER", 12), entry("Getting started", 14)];
    const f: TreeFeatures = treeFeatures(words, agreeing, undefined);
    expect(f.wordTitles).toBeCloseTo(0.75);
    expect(evidenceDoubts(f).join("; ")).toMatch(/bare words/);
    expect(evidenceScore(f)).toBeLessThan(LOW_CONFIDENCE);

    const wrapped = treeFeatures(
      [entry("Version 1.04", 1, [entry("Introduction", 2), entry("Usage", 4)])],
      agreeing,
      undefined,
    );
    expect(wrapped.wrapper).toBe(1);
    expect(evidenceDoubts(wrapped).join("; ")).toMatch(/wrapper/);
    expect(evidenceScore(wrapped)).toBeLessThan(LOW_CONFIDENCE);
  });

  it("doubts numbered list items taken for chapters", () => {
    const items = [
      entry("1. Reading a data file is done with the read command, e.g.", 3),
      entry("2. Manipulating column data is done by e.g.", 5),
      entry("3. Drawing the curve is then a matter of one command,", 7),
    ];
    const f = treeFeatures(items, agreeing, undefined);
    expect(f.listLike).toBe(1);
    expect(evidenceDoubts(f).join("; ")).toMatch(/list items/);
    expect(evidenceScore(f)).toBeLessThan(LOW_CONFIDENCE);
  });

  it("the loader's result and its warning say so for a layout tree of bare-word chapters", async () => {
    const names = ["ONE", "TWO", "THREE", "FOUR"];
    const pages: PageSpec[] = names.map((name, i) => ({
      lines: [
        heading(name, 20),
        ...body(12, i),
        heading(`Details of part ${i + 1}`, 13),
        ...body(10, i + 20),
      ],
    }));
    const tree = await pdfToTree(await buildPdf({ pages }), { structure: "layout", summaries: "none" });
    expect(tree.build.structure).toBe("layout");
    const warning = (tree.build.warnings ?? []).find((w) => /low confidence/.test(w));
    expect(warning).toMatch(/bare words/);
    const confidence = (tree.metadata?.pdf as { layoutConfidence?: { evidence?: number; warning?: string } })
      ?.layoutConfidence;
    expect(confidence?.evidence).toBeLessThan(LOW_CONFIDENCE);
    expect(confidence?.warning).toMatch(/evidence disagrees/);
  });
});
