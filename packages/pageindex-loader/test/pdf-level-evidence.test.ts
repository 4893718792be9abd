/**
 * The layout path's level model (issue 26): the pair features it reads from a generated PDF
 * (size steps, dotted depth, numbering continuity, indentation), what the fitted weights
 * (level-evidence-weights.ts) answer for an open heading and the next one, and the stack of
 * nestHeadings decoding a tree from those answers.
 */
import { describe, expect, it } from "vitest";
import { readPdf } from "../src/pdf/read/read-pdf.js";
import type { Heading } from "../src/pdf/structure/candidates.js";
import type { HeadingContext } from "../src/pdf/structure/heading-evidence.js";
import { nestHeadings, type RelationState, ruleRelation } from "../src/pdf/structure/hierarchy.js";
import { headingContext, layoutCandidates, layoutContext } from "../src/pdf/structure/layout.js";
import {
  headingIndents,
  LEVEL_FEATURE_NAMES,
  type LevelFeatures,
  levelFeatures,
  levelRelation,
  RELATIONS,
  relationScores,
} from "../src/pdf/structure/level-evidence.js";
import { LEVEL_MODEL } from "../src/pdf/structure/level-evidence-weights.js";
import type { SectionEntry } from "../src/pdf/types.js";
import { body, buildPdf, headingLine } from "./fixtures/pdf-builder.js";

const h = headingLine;

/** A manual of two chapters, the first with two indented, smaller, numbered sections. */
async function manual(): Promise<{ headings: Heading[]; ctx: HeadingContext }> {
  const pdf = await readPdf(
    await buildPdf({
      pages: [
        {
          lines: [
            h("1 Introduction", 16),
            ...body(8, 1),
            h("1.1 Scope of the work", 12, { indent: 24 }),
            ...body(8, 2),
            h("1.2 Terms used here", 12, { indent: 24 }),
            ...body(8, 3),
          ],
        },
        { lines: [h("2 Installation", 16), ...body(12, 4)] },
      ],
    }),
    { source: "manual.pdf" },
  );
  const layout = layoutContext(pdf.pages, { pageLabels: pdf.pageLabels });
  return { headings: layoutCandidates(layout).headings, ctx: headingContext(layout) };
}

const state = (set: Partial<RelationState> = {}): RelationState => ({
  openClasses: new Set(),
  series: () => false,
  nextTocLevel: undefined,
  previous: true,
  ...set,
});

const likeliest = (f: LevelFeatures): string => {
  const scores = relationScores(f);
  return RELATIONS[scores.indexOf(Math.max(...scores))] as string;
};

const shape = (list: readonly SectionEntry[]): string[] =>
  list.flatMap((e) => [e.title, ...shape(e.children).map((t) => `  ${t}`)]);

describe("level evidence", () => {
  it("has one fitted weight per feature for each relation, and an overrule cut in 0..1", () => {
    expect(LEVEL_MODEL.bias).toHaveLength(RELATIONS.length);
    for (const w of LEVEL_MODEL.weights) expect(w).toHaveLength(LEVEL_FEATURE_NAMES.length);
    expect(LEVEL_MODEL.overrule).toBeGreaterThanOrEqual(0);
    expect(LEVEL_MODEL.overrule).toBeLessThanOrEqual(1);
  });

  it("reads size steps, dotted depth, continuity and indentation between two headings", async () => {
    const { headings, ctx } = await manual();
    const [chapter, scope, terms, install] = [
      "1 Introduction",
      "1.1 Scope",
      "1.2 Terms",
      "2 Installation",
    ].map((t) => headings.find((x) => x.title.startsWith(t)) as Heading);
    expect([chapter, scope, terms, install].every(Boolean)).toBe(true);
    const indents = headingIndents(headings, ctx);
    const down = levelFeatures(chapter as Heading, scope as Heading, state(), ctx.body.size, indents);
    expect(down.smaller).toBe(1);
    expect(down.dottedDeeper).toBe(1);
    expect(down.opensList).toBe(1);
    expect(down.indentDiff).toBeGreaterThan(1);
    const beside = levelFeatures(scope as Heading, terms as Heading, state(), ctx.body.size, indents);
    expect(beside.dottedSame).toBe(1);
    expect(beside.successor).toBe(1);
    expect(beside.sameLook).toBe(1);
    expect(beside.indentDiff).toBe(0);
    const up = levelFeatures(terms as Heading, install as Heading, state(), ctx.body.size, indents);
    expect(up.larger).toBe(1);
    expect(up.dottedShallower).toBe(1);
    expect(up.successor).toBe(0);
  });

  it("the fitted weights answer inside, beside and closes for those pairs", async () => {
    const { headings, ctx } = await manual();
    const indents = headingIndents(headings, ctx);
    const [chapter, scope, terms, install] = headings;
    const f = (a: Heading | undefined, b: Heading | undefined) =>
      levelFeatures(a as Heading, b as Heading, state(), ctx.body.size, indents);
    expect(likeliest(f(chapter, scope))).toBe("higher");
    expect(likeliest(f(scope, terms))).toBe("same");
    expect(likeliest(f(terms, install))).toBe("lower");
  });

  it("nests the manual by the model alone as by the rules", async () => {
    const { headings, ctx } = await manual();
    const byModel = nestHeadings(headings, {
      relation: levelRelation(headings, ctx, { ...LEVEL_MODEL, overrule: 0 }),
    });
    expect(shape(byModel)).toEqual([
      "1 Introduction",
      "  1.1 Scope of the work",
      "  1.2 Terms used here",
      "2 Installation",
    ]);
    expect(shape(byModel)).toEqual(shape(nestHeadings(headings)));
  });

  it("decodes whatever relation it is given, and the rules by default", async () => {
    const { headings } = await manual();
    const flat = nestHeadings(headings, { relation: () => "same" });
    expect(flat.map((e) => e.title)).toHaveLength(4);
    expect(flat.every((e) => e.children.length === 0)).toBe(true);
    const chain = nestHeadings(headings, { relation: () => "higher" });
    expect(shape(chain).at(-1)).toBe("      2 Installation");
    expect(shape(nestHeadings(headings, { relation: ruleRelation }))).toEqual(shape(nestHeadings(headings)));
  });

  it("keeps a repeated label under its entry whatever the model says", async () => {
    const { headings, ctx } = await manual();
    const [chapter, scope] = headings as [Heading, Heading];
    const label: Heading = { ...scope, title: "Arguments", label: true, style: { ...chapter.style } };
    const alwaysSame = { bias: [-9, 9, -9], weights: [[], [], []], overrule: 0 };
    const relation = levelRelation([chapter, label], ctx, alwaysSame);
    expect(relation(chapter, label, state())).toBe("higher");
    expect(relation(label, scope, state())).toBe("lower");
    expect(relation(chapter, scope, state())).toBe("same");
  });
});
