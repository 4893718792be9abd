/**
 * The layout path's per-heading model (issue 26): the features it reads from a generated PDF
 * (size and weight over the body, numbering depth, indentation, printed-contents match, repeats)
 * and what the fitted weights (heading-evidence-weights.ts) keep and drop.
 */
import { describe, expect, it } from "vitest";
import { readPdf } from "../src/pdf/read/read-pdf.js";
import type { Heading } from "../src/pdf/structure/candidates.js";
import {
  HEADING_FEATURE_NAMES,
  type HeadingFeatures,
  type HeadingModel,
  headingFeatures,
  headingScore,
  keepByScores,
  keepLikelyHeadings,
  MIN_CANDIDATES,
} from "../src/pdf/structure/heading-evidence.js";
import { HEADING_MODEL } from "../src/pdf/structure/heading-evidence-weights.js";
import {
  headingContext,
  layoutCandidates,
  layoutContext,
  layoutStructure,
} from "../src/pdf/structure/layout.js";
import { body, buildPdf, headingLine, type PageSpec, tocPage } from "./fixtures/pdf-builder.js";

const h = headingLine;

/** Each candidate's title with its features, from generated pages. */
async function featuresOf(pages: PageSpec[]): Promise<Map<string, HeadingFeatures>> {
  const pdf = await readPdf(await buildPdf({ pages }), { source: "fixture.pdf" });
  const ctx = layoutContext(pdf.pages, { pageLabels: pdf.pageLabels });
  const { headings } = layoutCandidates(ctx);
  const features = headingFeatures(headings, headingContext(ctx));
  return new Map(headings.map((c, i) => [`${c.title}@${c.page}`, features[i] as HeadingFeatures]));
}

/** A feature row with every feature 0 but those given. */
const row = (set: Partial<HeadingFeatures>): HeadingFeatures => ({
  ...(Object.fromEntries(HEADING_FEATURE_NAMES.map((n) => [n, 0])) as unknown as HeadingFeatures),
  ...set,
});

describe("heading evidence", () => {
  it("has one fitted weight per feature and a cut between 0 and 1", () => {
    expect(HEADING_MODEL.weights).toHaveLength(HEADING_FEATURE_NAMES.length);
    expect(HEADING_MODEL.threshold).toBeGreaterThan(0);
    expect(HEADING_MODEL.threshold).toBeLessThan(1);
  });

  it("reads size and weight over the body, numbering depth and indentation from the page", async () => {
    const f = await featuresOf([
      {
        lines: [
          h("1 Introduction", 16),
          ...body(10, 1),
          h("1.1 Scope of the work", 12, { indent: 36 }),
          ...body(10, 2),
        ],
      },
      { lines: [h("2 Installation", 16), ...body(12, 3)] },
    ]);
    const chapter = f.get("1 Introduction@1");
    const section = f.get("1.1 Scope of the work@1");
    expect(chapter).toBeDefined();
    expect(section).toBeDefined();
    expect(chapter?.sizeRatio).toBeCloseTo(0.6, 1);
    expect(chapter?.bold).toBe(1);
    expect(chapter?.numbered).toBe(1);
    expect(chapter?.numberDepth).toBeCloseTo(1 / 3);
    expect(section?.numberDepth).toBeCloseTo(2 / 3);
    expect(section?.sizeRatio).toBeCloseTo(0.2, 1);
    // 36 pt past the margin at a 10 pt body: 3.6 body sizes.
    expect(section?.indent).toBeCloseTo(3.6, 0);
    expect(section?.spaceAbove).toBeGreaterThan(0);
    expect(chapter?.inToc).toBe(0);
    expect(chapter?.missingFromToc).toBe(0);
  });

  it("marks headings the printed contents lists, and a same-look heading it leaves out", async () => {
    const chapters = ["Getting Started", "Configuration", "Troubleshooting"];
    const f = await featuresOf([
      tocPage(chapters.map((title, i) => ({ title, page: i + 2 }))),
      ...chapters.map((title, i) => ({ lines: [h(title, 16), ...body(14, i + 5)] })),
      { lines: [h("Colophon", 16), ...body(14, 9)] },
    ]);
    expect(f.get("Getting Started@2")?.inToc).toBe(1);
    expect(f.get("Troubleshooting@4")?.inToc).toBe(1);
    const left = f.get("Colophon@5");
    expect(left?.inToc).toBe(0);
    // Every other candidate of its look is listed: its absence is a doubt.
    expect(left?.missingFromToc).toBeCloseTo(3 / 4);
  });

  it("reads a contents entry its page prints differently from that page's largest line, not its page number", async () => {
    const f = await featuresOf([
      tocPage([
        { title: "I Basics", page: 2 },
        { title: "1 Setup", page: 2, level: 2 },
        { title: "2 Usage", page: 3, level: 2 },
      ]),
      // "I Basics" is printed as "Part I" over "Basics", under the page's number.
      {
        lines: [
          { text: "2", indent: 420 },
          h("Part I", 14),
          h("Basics", 20),
          h("1 Setup", 14),
          ...body(14, 3),
        ],
      },
      { lines: [h("2 Usage", 14), ...body(14, 4)] },
    ]);
    const part = f.get("I Basics@2");
    expect(part?.inToc).toBe(1);
    expect(part?.sizeRatio).toBeCloseTo(1);
    expect(part?.bold).toBe(1);
  });

  it("marks a title repeated over pages and a bare word", async () => {
    // ("ONE" over a title is its chapter's label now, folded away before the model: foldChapterLabels.)
    const f = await featuresOf([
      { lines: [h("CHAPTER", 16), h("Overview of the System", 16), ...body(12, 1)] },
      { lines: [h("Examples", 13), ...body(12, 2)] },
      { lines: [h("Examples", 13), ...body(12, 3)] },
    ]);
    expect(f.get("CHAPTER@1")?.bareWord).toBe(1);
    expect(f.get("Overview of the System@1")?.bareWord).toBe(0);
    expect(f.get("Examples@2")?.repeated).toBe(1);
    expect(f.get("Examples@3")?.repeated).toBe(1);
  });

  it("the fitted model keeps a listed chapter heading and drops what only looks like one", () => {
    const listed = row({ sizeRatio: 0.6, bold: 1, numbered: 1, numberDepth: 1 / 3, inToc: 1, words: 0.3 });
    expect(headingScore(listed)).toBeGreaterThan(HEADING_MODEL.threshold);
    // Body size, of a look the contents lists, not listed itself, repeated.
    const stray = row({
      bold: 1,
      missingFromToc: 1,
      repeated: 1,
      stylePages: 0.9,
      words: 0.1,
    });
    expect(headingScore(stray)).toBeLessThan(HEADING_MODEL.threshold);
  });

  it("keeps by precomputed scores as it keeps by the model, a look's mean weighing in", () => {
    const look = (size: number) => ({ size, bold: true, italic: false, caps: false });
    // 20 chapter-look headings and 20 of a minor look; one chapter scores low on its own.
    const headings: Heading[] = Array.from({ length: 40 }, (_, i) => ({
      title: `Heading ${i}`,
      page: i + 1,
      line: 0,
      style: look(i < 20 ? 16 : 11),
      strength: "strong",
    }));
    const scores = headings.map((_, i) => (i === 3 ? 0.2 : i < 20 ? 0.9 : 0.1));
    const alone = keepByScores(headings, scores, { threshold: 0.5, lookWeight: 0 });
    expect(alone).toHaveLength(19);
    // With its look's mean (0.865) weighing three quarters, the odd chapter stays.
    const byLook = keepByScores(headings, scores, { threshold: 0.5, lookWeight: 0.75 });
    expect(byLook).toHaveLength(20);
    expect(byLook.map((h) => h.title)).toContain("Heading 3");
    // A short list, or one the cut would nearly empty, keeps everything.
    expect(
      keepByScores(headings.slice(0, MIN_CANDIDATES - 1), scores, { threshold: 0.5, lookWeight: 0 }),
    ).toHaveLength(MIN_CANDIDATES - 1);
    expect(keepByScores(headings, scores, { threshold: 0.99, lookWeight: 0 })).toHaveLength(40);
  });

  it("builds the layout tree with the heading model it is given", async () => {
    // 16 chapters at 16 pt below some running text, each with a bold 11 pt sub-heading: 32 candidates.
    const topics =
      "Install Configure Network Storage Backup Restore Monitor Tune Secure Audit Upgrade Migrate Script Debug Report Retire";
    const pdf = await readPdf(
      await buildPdf({
        pages: topics.split(" ").map((topic, i) => ({
          lines: [
            ...body(2, i + 100),
            h(`${topic} the system`, 16),
            ...body(4, i),
            h(`Checking what ${topic.toLowerCase()} did`, 11),
            ...body(4, i + 50),
          ],
        })),
      }),
      { source: "fixture.pdf" },
    );
    const ctx = layoutContext(pdf.pages, { pageLabels: pdf.pageLabels });
    const count = (entries: { children: unknown[] }[]): number =>
      entries.reduce((n, e) => n + 1 + count(e.children as { children: unknown[] }[]), 0);
    // Size over the body is all this model weighs: at a high cut only the chapters stay.
    const bySize: HeadingModel = {
      bias: -3,
      weights: HEADING_FEATURE_NAMES.map((n) => (n === "sizeRatio" ? 6 : 0)),
      threshold: 0.5,
      lookWeight: 0,
    };
    const kept = keepLikelyHeadings(layoutCandidates(ctx).headings, headingContext(ctx), bySize);
    expect(kept.map((k) => k.title)).toEqual(topics.split(" ").map((t) => `${t} the system`));
    const chapters = layoutStructure(ctx, { headingModel: bySize });
    expect(chapters.headingCount).toBe(16);
    expect(count(chapters.entries)).toBe(16);
    // A cut nothing passes keeps every candidate: the chapters and their minor points.
    const all = layoutStructure(ctx, { headingModel: { ...bySize, threshold: 1 } });
    expect(all.headingCount).toBe(32);
  });
});
