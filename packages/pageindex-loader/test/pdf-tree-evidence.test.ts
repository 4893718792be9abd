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
  weighEvidence,
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
    expect(weighEvidence(f)).toEqual({ score: 1, doubts: [] });
  });

  it('doubts titles that are bare words ("ONE", "CHAPTER") and a "Version" wrapper, below the warning line', () => {
    const words = [entry("ONE", 3), entry("TWO", 9), entry("CHAPTER", 12), entry("Getting started", 14)];
    const f: TreeFeatures = treeFeatures(words, agreeing, undefined);
    expect(f.wordTitles).toBeCloseTo(0.75);
    expect(evidenceDoubts(f).join("; ")).toMatch(/bare words/);
    expect(weighEvidence(f).score).toBeLessThan(LOW_CONFIDENCE);

    const wrapped = treeFeatures(
      [entry("Version 1.04", 1, [entry("Introduction", 2), entry("Usage", 4)])],
      agreeing,
      undefined,
    );
    expect(wrapped.wrapper).toBe(1);
    expect(evidenceDoubts(wrapped).join("; ")).toMatch(/wrapper/);
    expect(weighEvidence(wrapped).score).toBeLessThan(LOW_CONFIDENCE);
    // A title page's versioned name holding the first sections is a wrapper too (cohomCalg's
    // "Manual v0.32"); a later chapter on a version ("Customizing DocBook V5.0") is not.
    const titled = treeFeatures(
      [
        entry("Manual v0.32", 1, [entry("Introduction", 2), entry("1 Installation", 4)]),
        entry("2 Usage", 6),
        entry("3 Implementation", 13),
      ],
      agreeing,
      undefined,
    );
    expect(titled.wrapper).toBe(1);
    expect(evidenceDoubts(titled).join("; ")).toMatch(/wrapper/);
    const chapter = treeFeatures(
      [
        entry("Introduction", 2, [entry("Schemas", 3)]),
        entry("Customizing DocBook V5.0", 17, [entry("Elements", 19)]),
      ],
      agreeing,
      undefined,
    );
    expect(chapter.wrapper).toBe(0);
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
    expect(weighEvidence(f).score).toBeLessThan(LOW_CONFIDENCE);
  });

  it('"Index", "Preface" and a FAQ\'s questions are titles, not doubts', () => {
    const manual = [entry("Preface", 2), entry("1 Introduction", 3), entry("2 Usage", 5), entry("Index", 9)];
    const f = treeFeatures(manual, agreeing, undefined);
    expect(f.wordTitles).toBe(0);
    expect(evidenceDoubts(f)).toEqual([]);

    const faq = treeFeatures(
      [
        entry("1 General questions", 2, [
          entry("1.1 What is the difference between this program and the other ones around it?", 2),
          entry("1.2 How do I report a bug that I found in the program's output?", 3),
        ]),
        entry("2 Installation", 4, [entry("2.1 Why does the installer stop when the disk is full?", 4)]),
      ],
      agreeing,
      undefined,
    );
    expect(faq.listLike).toBe(0);
    // Prose stays doubted, numbered or not, with or without a dash in it.
    const prose = treeFeatures(
      [
        entry("1 Introduction", 2),
        entry("2. Reading - the data file is then read by the program and its", 4),
      ],
      agreeing,
      undefined,
    );
    expect(prose.listLike).toBe(0.5);
  });

  it("doubts a chapter title read again as its first section, and labels read twice in a row", () => {
    const repeated = treeFeatures(
      [
        entry("1 Developer Notes", 3, [entry("Developer Notes", 3), entry("1.1 The Development Cycle", 4)]),
        entry("2 Storage Design", 9, [entry("2.1 Connections", 9), entry("Connections", 9)]),
      ],
      agreeing,
      undefined,
    );
    expect(repeated.repeatedTitles).toBeCloseTo(2 / 6);
    expect(evidenceDoubts(repeated).join("; ")).toMatch(/repeat the one before/);
    // The same title under two parents, or in another case, is no doubt: a guide's "Observer"
    // chapter and the reference's "observer" module.
    const guide = treeFeatures(
      [
        entry("1 User's Guide", 3, [entry("1.1 Introduction", 3), entry("1.2 Observer", 4)]),
        entry("2 Reference Manual", 9, [entry("Observer", 10), entry("observer", 11), entry("ttb", 12)]),
      ],
      agreeing,
      undefined,
    );
    expect(guide.repeatedTitles).toBe(0);
    expect(evidenceDoubts(guide)).toEqual([]);
  });

  it("doubts a top level whose numbers count again: each chapter's sections read as chapters", () => {
    // XMLStarlet's DocBook guide numbers sections "1.", "2." afresh in each chapter; read flat, the
    // top level counts 1–3, 1–2, 1–3 again.
    const flat = treeFeatures(
      [
        "1. About",
        "2. Features",
        "3. Platforms",
        "1. On Linux",
        "2. On Windows",
        "1. Options",
        "2. Querying",
        "3. Editing",
      ].map((t, i) => entry(t, i + 3)),
      agreeing,
      undefined,
    );
    expect(flat.repeatedNumbers).toBeCloseTo(5 / 8);
    expect(evidenceDoubts(flat).join("; ")).toMatch(/count again/);
    expect(weighEvidence(flat).score).toBeLessThan(LOW_CONFIDENCE);
    // Chapters that count on, appendices lettered after them, and sections numbered under their
    // chapters are no doubt.
    const manual = treeFeatures(
      [
        entry("1 Introduction", 3, [entry("1. Scope", 3), entry("2. Terms", 4)]),
        entry("2 Usage", 5, [entry("1. Install", 5), entry("2. Run", 6)]),
        entry("A Grammar", 9),
        entry("B Licence", 10),
      ],
      agreeing,
      undefined,
    );
    expect(manual.repeatedNumbers).toBe(0);
    expect(evidenceDoubts(manual)).toEqual([]);
  });

  it("doubts a top level of sections without their chapters (a flat tree where the numbering nests)", () => {
    // xfpt's and TeXworks' manuals with no contents read: each chapter's heading missed, "1.1",
    // "1.2", "2.1" at the top level.
    const flat = treeFeatures(
      ["1.1 The command line", "1.2 A short example", "2.1 Flag sequences", "2.2 Macros", "3 Directives"].map(
        (t, i) => entry(t, i + 3),
      ),
      agreeing,
      undefined,
    );
    expect(flat.orphanSections).toBeCloseTo(4 / 5);
    expect(evidenceDoubts(flat).join("; ")).toMatch(/numbered as sections .* no chapter above them/);
    expect(weighEvidence(flat).score).toBeLessThan(LOW_CONFIDENCE);
    // Sections after their chapter, under it or beside it, a few stray ones, and sections numbered
    // before the first chapter ("0.0.1 Preface") are no doubt.
    const chapters = treeFeatures(
      [
        entry("0.0.1 Preface to the First Edition", 1),
        entry("0.0.2 Preface to the Second Edition", 2),
        entry("1 Introduction", 3, [entry("1.1 Scope", 3)]),
        entry("1.2 Terms", 4),
        entry("2 Usage", 5),
        entry("2.4 Options", 6),
        entry("A Grammar", 9),
        entry("A.1 Tokens", 9),
      ],
      agreeing,
      undefined,
    );
    expect(chapters.orphanSections).toBe(0);
    expect(evidenceDoubts(chapters)).toEqual([]);
  });

  it("the loader's result and its warning say so for a layout tree of sections whose chapters it missed", async () => {
    const titles = ["1.1 Installing", "1.2 Running", "2.1 Options", "2.2 Files", "3.1 Examples"];
    const pages: PageSpec[] = titles.map((title, i) => ({ lines: [heading(title, 16), ...body(14, i)] }));
    const tree = await pdfToTree(await buildPdf({ pages }), { structure: "layout", summaries: "none" });
    expect(tree.nodes.filter((n) => n.level === 1).map((n) => n.title)).toEqual(titles);
    const confidence = (tree.metadata?.pdf as { layoutConfidence?: { score?: number; warning?: string } })
      ?.layoutConfidence;
    expect(confidence?.score).toBeLessThan(LOW_CONFIDENCE);
    expect(confidence?.warning).toMatch(/no chapter above them/);
    expect((tree.build.warnings ?? []).find((w) => /low confidence/.test(w))).toMatch(
      /no chapter above them/,
    );
  });

  it("doubts titles that open with a symbol: a function's parameters read as sections", () => {
    const f = treeFeatures(
      [
        entry("1 Introduction", 3),
        entry("2 UIOP/UTILITY", 5, [entry("&optional error", 6), entry("&rest format-arguments", 7)]),
        entry("3 UIOP/OS", 9, [entry("&allow-other-keys", 10)]),
      ],
      agreeing,
      undefined,
    );
    expect(f.symbolTitles).toBeCloseTo(3 / 6);
    // A named doubt puts the tree below the warning line whatever the model's score (layout.ts).
    expect(evidenceDoubts(f).join("; ")).toMatch(/open with a symbol/);
    // Quoted and bracketed titles are titles.
    const quoted = treeFeatures(
      [entry('"Hello" in C', 2), entry("(Optional) Tuning", 4)],
      agreeing,
      undefined,
    );
    expect(quoted.symbolTitles).toBe(0);
  });

  it("a tree the evidence doubts is below the warning line even where the model would pass it", async () => {
    const titles = [
      "1 Introduction",
      "2 Installation",
      "3 Reading the data is done by e.g.",
      "4 Options",
      "5 Examples",
    ];
    const pages: PageSpec[] = titles.map((title, i) => ({
      lines: [heading(title, 20), ...body(14, i)],
    }));
    const tree = await pdfToTree(await buildPdf({ pages }), { structure: "layout", summaries: "none" });
    expect(tree.nodes.filter((n) => n.level === 1).map((n) => n.title)).toEqual(titles);
    // One title in five reads like a list item: the fitted model alone would not warn.
    const f = treeFeatures(
      titles.map((t, i) => entry(t, i + 1)),
      agreeing,
      undefined,
    );
    expect(evidenceScore(f)).toBeGreaterThanOrEqual(EVIDENCE_MODEL.cut);
    const confidence = (tree.metadata?.pdf as { layoutConfidence?: { score?: number; doubts?: string[] } })
      ?.layoutConfidence;
    expect(confidence?.doubts?.join("; ")).toMatch(/list items/);
    expect(confidence?.score).toBeLessThan(LOW_CONFIDENCE);
    expect((tree.build.warnings ?? []).find((w) => /low confidence/.test(w))).toMatch(/list items/);
  });

  it("a title the printed contents lists is a title, however many lower-case words it has", () => {
    const tree = [
      entry("1 Joining the team as a packager", 3, [
        entry("1.1 Creating a new git repository for a package", 3),
      ]),
      entry("2 Reserved words corresponding to the main window", 5),
      entry("3 Options", 8),
    ];
    const unlisted = treeFeatures(tree, agreeing, { entries: 4, located: 4 });
    expect(unlisted.listLike).toBeCloseTo(3 / 4);
    expect(evidenceDoubts(unlisted).join("; ")).toMatch(/list items/);
    // The same titles printed in the contents (spacing and case aside) are the author's.
    const titles = [
      "1 Joining the team as a packager",
      "1.1  Creating a new git repository for a package",
      "2 RESERVED words corresponding to the main window",
      "3 Options",
    ];
    const listed = treeFeatures(tree, agreeing, { entries: 4, located: 4, titles });
    expect(listed.listLike).toBe(0);
    expect(weighEvidence(listed)).toEqual({ score: 1, doubts: [] });
    // A list item the contents does not print stays a doubt beside listed titles.
    const item = treeFeatures([...tree, entry("4. Manipulating column data is done by e.g.", 9)], agreeing, {
      entries: 4,
      located: 4,
      titles,
    });
    expect(item.listLike).toBeCloseTo(1 / 5);
    expect(evidenceDoubts(item).join("; ")).toMatch(/list items/);
  });

  it("a layout tree whose sentence-case titles its printed contents lists carries no list-like doubt", async () => {
    const titles = [
      "1 Joining the team as a new packager",
      "2 Creating a new git repository for a package",
      "3 Updating a package already in the team git",
      "4 Backports and updates to the stable distributions",
    ];
    const leader = (t: string, n: number): string => `${t} ${". ".repeat(12)}${n}`;
    const chapters: PageSpec[] = titles.map((title, i) => ({ lines: [heading(title, 20), ...body(16, i)] }));
    const contents: PageSpec = {
      lines: [
        { text: "Contents", size: 20, bold: true, gap: 6 },
        ...titles.map((t, i) => ({ text: leader(t, i + 3), size: 11, gap: 4 })),
      ],
    };
    const doubtsOf = async (pages: PageSpec[]) => {
      const tree = await pdfToTree(await buildPdf({ pages }), {
        structure: "layout",
        summaries: "none",
        preface: false,
      });
      expect(tree.nodes.filter((n) => n.level === 1).map((n) => n.title)).toEqual(titles);
      return (
        (tree.metadata?.pdf as { layoutConfidence?: { doubts?: string[] } })?.layoutConfidence?.doubts ?? []
      );
    };
    // Without the contents page every title reads like a sentence; with it, none is doubted.
    expect(
      (await doubtsOf([{ lines: body(10, 1) }, { lines: body(10, 2) }, ...chapters])).join("; "),
    ).toMatch(/list items/);
    expect((await doubtsOf([{ lines: body(10, 1) }, contents, ...chapters])).join("; ")).not.toMatch(
      /list items/,
    );
  });

  it("doubts a footer read as a section under each chapter, not an author's label under each", () => {
    const footer = treeFeatures(
      [
        entry("1 Overview", 3, [entry("1.1 New Features", 3), entry("Mellanox Technologies", 4)]),
        entry("2 Known Issues", 5, [entry("Mellanox Technologies", 6)]),
        entry("3 Compliance", 6, [entry("Mellanox Technologies", 7), entry("Mellanox Technologies", 8)]),
        entry("4 Bug Fixes", 8, [entry("3.1 Fixed", 8)]),
      ],
      agreeing,
      undefined,
    );
    expect(footer.pageLabels).toBeCloseTo(4 / 10);
    expect(evidenceDoubts(footer).join("; ")).toMatch(/running head or footer/);
    expect(weighEvidence(footer).score).toBeLessThan(LOW_CONFIDENCE);
    // "Exercises" once under each chapter, or a label twice under only two, is the author's.
    const exercises = treeFeatures(
      [
        entry("1 Numbers", 3, [entry("Exercises", 4), entry("Notes", 4)]),
        entry("2 Sets", 5, [entry("Exercises", 6), entry("Notes", 6), entry("Notes", 7)]),
        entry("3 Maps", 8, [entry("Exercises", 9)]),
        entry("4 Lists", 10, [entry("Exercises", 11)]),
      ],
      agreeing,
      undefined,
    );
    expect(exercises.pageLabels).toBe(0);
    expect(evidenceDoubts(exercises)).toEqual([]);
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

  it("measures pages per section, candidates set aside and titles recurring anywhere in the tree", () => {
    const tree = [
      entry("Introduction", 1, [entry("Mellanox Technologies", 2)]),
      entry("Installation", 9, [entry("Mellanox Technologies", 10), entry("Build", 11)]),
    ];
    const f = treeFeatures(tree, agreeing, undefined, { pages: 100, candidates: 40, kept: 10 });
    expect(f.sparse).toBe(1); // 100 pages for 5 nodes: one every 20
    expect(f.dropped).toBeCloseTo(0.75);
    expect(f.recurring).toBeCloseTo(2 / 5);
    // A numbered section title under each chapter ("1.1 Details", "2.1 Details") is no recurrence.
    const sections = treeFeatures(
      [entry("1 Arrays", 1, [entry("1.1 Details", 2)]), entry("2 Ranges", 3, [entry("2.1 Details", 4)])],
      agreeing,
      undefined,
    );
    expect(sections.recurring).toBe(0);
    // Without the source's size the two size features say nothing.
    const bare = treeFeatures(tree, agreeing, undefined);
    expect([bare.sparse, bare.dropped]).toEqual([0, 0]);
  });

  // One look at two depths, numbers carrying the levels: what a printed contents would confirm.
  const mixedDepths = [
    entry("1 Overview", 1),
    entry("2 Release Notes", 2, [entry("2.1 Known Issues", 3)]),
    entry("3 Fixed Bugs", 4),
  ];
  const MIXED_SOURCE = { pages: 10, candidates: 12, kept: 7 };
  const MIXED = { depth: 0.9, numbering: 1 };

  it("the contents feature is the share of a printed contents of five entries or more found as headings", () => {
    // Measured beside the model, not weighed by it: warn19's refit that weighed it warned fewer bad
    // trees on PDFs it was not fitted on (fifteenth session, docs/history).
    expect(treeFeatures(mixedDepths, MIXED, undefined, MIXED_SOURCE).contents).toBe(0);
    expect(treeFeatures(mixedDepths, MIXED, { entries: 8, located: 8 }, MIXED_SOURCE).contents).toBe(1);
    expect(treeFeatures(mixedDepths, MIXED, { entries: 8, located: 4 }, MIXED_SOURCE).contents).toBe(0.5);
    // A contents of a few lines settles nothing.
    expect(treeFeatures(mixedDepths, MIXED, { entries: 4, located: 4 }, MIXED_SOURCE).contents).toBe(0);
  });

  it("a model that weighs the contents names its absence after what disagrees", () => {
    // warn19's refit (not shipped): a fit may weigh `contents` again, and its reason must then
    // follow the disagreement it would have confirmed or not.
    const pulls: Partial<Record<(typeof FEATURE_NAMES)[number], number>> = { depth: 6.9369, contents: 0.854 };
    const model = { bias: -6.8534, weights: FEATURE_NAMES.map((name) => pulls[name] ?? 0), cut: 0.4 };
    const unread = weighEvidence(treeFeatures(mixedDepths, MIXED, undefined, MIXED_SOURCE), model);
    expect(unread.score).toBeLessThan(LOW_CONFIDENCE);
    expect(unread.doubts).toEqual([
      "headings of one look sit at different depths",
      "no printed table of contents was read to confirm the levels",
    ]);
    const read = treeFeatures(mixedDepths, MIXED, { entries: 8, located: 8 }, MIXED_SOURCE);
    expect(weighEvidence(read, model)).toEqual({ score: 1, doubts: [] });
  });

  it("the fitted model warns a tree whose headings of one look sit at different depths, and names why", () => {
    // Fitted by producer-grouped CV on train: a look at two depths is where wrong depths hide.
    const tree = [
      entry("1 Overview", 1),
      entry("2 Release Notes", 2, [entry("2.1 Known Issues", 3)]),
      entry("3 Fixed Bugs", 4),
    ];
    const mixed = treeFeatures(tree, { depth: 0.5, numbering: 1 }, undefined, {
      pages: 10,
      candidates: 12,
      kept: 7,
    });
    expect(evidenceDoubts(mixed)).toEqual([]);
    const verdict = weighEvidence(mixed);
    expect(verdict.score).toBeLessThan(LOW_CONFIDENCE);
    expect(verdict.doubts[0]).toMatch(/headings of one look sit at different depths/);
    // The same tree with every look at one depth is not warned.
    expect(
      weighEvidence(treeFeatures(tree, agreeing, undefined, { pages: 10, candidates: 12, kept: 7 })),
    ).toEqual({
      score: 1,
      doubts: [],
    });
  });

  it("warns by the model's cut: below it the tree is under the line, at or above it the evidence is silent", () => {
    const f = treeFeatures([entry("Introduction", 1), entry("Usage", 3)], agreeing, undefined);
    const even = { bias: 0, weights: FEATURE_NAMES.map(() => 0) }; // probability 0.5 for every tree
    expect(weighEvidence(f, { ...even, cut: 0.6 })).toEqual({
      score: 0.49,
      doubts: ["its evidence resembles that of wrong trees"],
    });
    expect(weighEvidence(f, { ...even, cut: 0.5 })).toEqual({ score: 1, doubts: [] });
  });
});
