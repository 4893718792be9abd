/**
 * Chapter openings set as Sphinx's LaTeX sets them (issue 26: the Sphinx-through-LaTeX manuals of
 * hamradio, Ubuntu, XML/Ada, templates_parser read without their printed contents; why3's "ONE",
 * "TWO" as sections): "CHAPTER" over the number spelt out over the title in capitals, all ranged
 * right. The number word is the chapter's label, not a section; the title's left edge, set by its
 * length, is no indentation to the heading model. Long capital titles (AdaCore's GNATColl and
 * GtkAda, why3) end up to 8 % of their width away from where the estimated width puts them, and
 * their manuals run past chapter "TWENTY" ("TWENTYONE", as LaTeX's fmtcount spells it).
 */
import { PDFDocument, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { PREFACE_TITLE } from "../src/pdf/structure/sections.js";
import { buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";
import { childTitles, topTitles } from "./fixtures/tree-titles.js";

const CHAPTERS: [title: string, sections: string[]][] = [
  ["INTRODUCTION", ["Joining the Team", "Translations", "Mailing Lists", "Meetings", "Sponsors"]],
  ["PACKAGING", ["Newcomer Guidelines", "Team Policy", "Control Files", "Copyright Files", "Uploads"]],
  ["VERSION CONTROL", ["Anonymous Access", "Repository Layout", "Importing Sources", "Branches", "Tags"]],
  ["TESTING", ["Unit Tests", "Autopkgtest", "Piuparts", "Lintian Checks", "Reproducibility"]],
  ["RELEASES", ["Freezes", "Transitions", "Backports", "Security Updates", "Point Releases"]],
  ["SUPPORT", ["Bug Reports", "Triage", "Forwarding Bugs", "Closing Bugs", "Documentation"]],
];
/** Chapter numbers as Sphinx's LaTeX spells them, run together past twenty (fmtcount's "TWENTYONE"). */
const WORDS = [
  "ONE",
  "TWO",
  "THREE",
  "FOUR",
  "FIVE",
  "SIX",
  "SEVEN",
  "EIGHT",
  "NINE",
  "TEN",
  "ELEVEN",
  "TWELVE",
  "THIRTEEN",
  "FOURTEEN",
  "FIFTEEN",
  "SIXTEEN",
  "SEVENTEEN",
  "EIGHTEEN",
  "NINETEEN",
  "TWENTY",
  "TWENTYONE",
  "TWENTYTWO",
];
/** A component collection's chapters, long capital titles among them, 22 of them. */
const COMPONENTS = [
  "INTRODUCTION",
  "BUILDING THE COLLECTION",
  "SCRIPTS: EMBEDDING SCRIPT LANGUAGES",
  "TRACES: LOGGING INFORMATION",
  "STRINGS: HIGH-PERFORMANCE STRINGS",
  "MEMORY: MONITORING MEMORY USAGE",
  "MMAP: READING AND WRITING FILES",
  "BOYER-MOORE: SEARCHING STRINGS",
  "PARAGRAPH FILLING: FORMATTING TEXT",
  "TEMPLATES: GENERATING TEXT",
  "EMAIL: PROCESSING EMAIL MESSAGES",
  "RAVENSCAR: PATTERNS FOR MULTITASKING",
  "STORAGE POOLS: CONTROLLING MEMORY MANAGEMENT",
  "VFS: MANIPULATING FILES",
  "TRIBOOLEANS: THREE STATE LOGIC",
  "GEOMETRY: PRIMITIVE GEOMETRIC OPERATIONS",
  "PROJECTS: MANIPULATING PROJECT FILES",
  "REFCOUNT: REFERENCE COUNTING",
  "CONFIG: PARSING CONFIGURATION FILES",
  "POOLS: CONTROLLING ACCESS TO RESOURCES",
  "JSON: HANDLING JSON DATA",
  "TERMINAL: CONTROLLING THE CONSOLE",
];

/** The right edge of the fixture's text block (a 612 pt page with 72 pt margins). */
const RIGHT = 612 - 72;

const body = (topic: string, n: number): LineSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    text: `Line ${i + 1} on ${topic.toLowerCase()} says what a maintainer of the team does about it.`,
  }));

/** A line set in bold ranged right to the text block's edge, measured in the font it is drawn in. */
async function rangedRight(): Promise<(text: string, size: number, gap: number) => LineSpec> {
  const measure = await (await PDFDocument.create()).embedFont(StandardFonts.HelveticaBold);
  return (text, size, gap) => ({
    text,
    size,
    bold: true,
    gap,
    indent: RIGHT - 72 - measure.widthOfTextAtSize(text, size),
  });
}

/** The manual's pages: each chapter's opening ranged right, then its sections a page each. */
async function manual(chapters = CHAPTERS): Promise<PageSpec[]> {
  const right = await rangedRight();
  const pages: PageSpec[] = [];
  chapters.forEach(([title, sections], c) => {
    sections.forEach((section, s) => {
      const opening =
        s === 0
          ? [right("CHAPTER", 10, 60), right(WORDS[c] as string, 14.5, 14), right(title, 14.5, 40)]
          : [];
      const head: LineSpec = { text: `${c + 1}.${s + 1} ${section}`, size: 14.5, bold: true, gap: 24 };
      pages.push({
        lines: [...opening, head, ...body(section, s === 0 ? 26 : 32)],
        footer: String(pages.length + 1),
      });
    });
  });
  return pages;
}

describe("chapter openings ranged right under a spelt-out number", () => {
  it("keeps each chapter's title at the top and its sections under it, no number word a node", async () => {
    const tree = await pdfToTree(await buildPdf({ pages: await manual() }), {
      structure: "layout",
      summaries: "none",
      split: false,
    });
    // The first opening's "CHAPTER" and "ONE" are the text before the first section.
    expect(topTitles(tree.nodes)).toEqual([PREFACE_TITLE, ...CHAPTERS.map(([title]) => title)]);
    CHAPTERS.forEach(([title, sections], c) => {
      expect(childTitles(tree.nodes, title)).toEqual(sections.map((s, i) => `${c + 1}.${i + 1} ${s}`));
    });
    expect(tree.nodes.map((n) => n.title)).not.toContain("ONE");
  });
});

describe("long capital titles ranged right, past chapter twenty", () => {
  /** Two sections a chapter; the fifth chapter's second one in capitals like the titles ("5.2 API"). */
  const components: [string, string[]][] = COMPONENTS.map((title, c) => [
    title,
    [`Setting Up Part ${c + 1}`, c === 4 ? "API" : `Examples for Part ${c + 1}`],
  ]);

  it("keeps every title, however far its estimated width misses, with its sections under it", async () => {
    const tree = await pdfToTree(await buildPdf({ pages: await manual(components) }), {
      structure: "layout",
      summaries: "none",
      split: false,
    });
    expect(topTitles(tree.nodes)).toEqual([PREFACE_TITLE, ...COMPONENTS]);
    components.forEach(([title, sections], c) => {
      expect(childTitles(tree.nodes, title)).toEqual(sections.map((s, i) => `${c + 1}.${i + 1} ${s}`));
    });
    const titles = tree.nodes.map((n) => n.title);
    for (const word of WORDS) expect(titles).not.toContain(word);
  });
});
