/**
 * Numbered list items and a listing's numbered lines taken for headings (issue 26: yosys's
 * manual read without its printed contents). Its command reference, set in a smaller code font,
 * is most of its lines, so the smaller size reads as the body and the prose above it as larger:
 * an enumeration in the prose ("1. Create a ConstEval object …") and a listing line at the
 * prose's size ("12 cd ..") became sections that held every later one. A numbered line whose
 * series goes on line by line, through lines set like it, is an item, not a heading.
 */
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";
import { childTitles, topTitles } from "./fixtures/tree-titles.js";

const prose = (topic: string, n: number): LineSpec[] =>
  Array.from({ length: n }, (_, i) => ({
    text: `Sentence ${i + 1} about ${topic} explains what the tool does with the design at this step.`,
  }));

/** A listing line in the small code font. */
const code = (text: string): LineSpec => ({ text, size: 8 });

const STEPS = [
  "Create a checker object for the module",
  "Add all control inputs to the list of stop signals",
  "Set the state signal to the current state",
  "Try to evaluate the next state and control output",
];

const CHAPTERS = ["Introduction", "Optimizations", "Technology Mapping"];
const COMMANDS = [
  ...["abc", "add", "attrmap", "blackbox", "cd", "check", "clean", "connect", "copy", "cover"],
  ...["debug", "delete", "design", "dump", "echo", "eval", "exec", "expose"],
];

/** The manual; its numbered section heads set bold, or only larger (`bold` false). */
function manual(bold = true): PageSpec[] {
  const pages: PageSpec[] = CHAPTERS.map((chapter, c) => {
    const n = c + 1;
    const lines: LineSpec[] = [
      { text: `${n} ${chapter}`, size: 16, bold: true, gap: 40 },
      ...prose(chapter.toLowerCase(), 5),
      { text: `${n}.1 First Part of ${chapter}`, size: 12, bold, gap: 16 },
      ...prose(`the first part of ${chapter.toLowerCase()}`, 4),
    ];
    // The enumeration: set like the prose, each item a line, after a short gap.
    if (n === 2)
      lines.push(...STEPS.map((s, i): LineSpec => ({ text: `${i + 1}. ${s}`, indent: 12, gap: 6 })));
    lines.push(
      ...prose(`what follows in ${chapter.toLowerCase()}`, 3),
      { text: `${n}.2 Second Part of ${chapter}`, size: 12, bold, gap: 16 },
      ...prose(`the second part of ${chapter.toLowerCase()}`, 6),
    );
    return { lines, footer: String(n) };
  });
  // The command reference: numbered listings in the small font (enough of them to be the body),
  // their empty lines and a short command line at the prose's size; every third entry is two
  // lines long, so headings of one series stand a few lines apart on a page.
  const reference: LineSpec[][] = [[{ text: "4 Command Reference", size: 16, bold: true, gap: 40 }]];
  COMMANDS.forEach((name, k) => {
    const entry: LineSpec[] = [
      { text: `4.${k + 1} ${name} – run the ${name} pass`, size: 12, bold, gap: 16 },
    ];
    const length = k % 3 === 1 ? 2 : 12;
    for (let l = 1; l <= length; l++) {
      const at = l % 6;
      if (length > 2 && at === 4) entry.push({ text: `${l} ${name} ..` });
      else if (length > 2 && (at === 3 || at === 5)) entry.push({ text: String(l) });
      else
        entry.push(
          code(`${l} ${name} option ${l} selects how the pass treats each of the cells it is given here`),
        );
    }
    const page = reference[reference.length - 1] as LineSpec[];
    if (page.length + entry.length > 40) reference.push(entry);
    else page.push(...entry);
  });
  for (const lines of reference) pages.push({ lines, footer: String(pages.length + 1) });
  return pages;
}

const load = async (pages: PageSpec[]) =>
  pdfToTree(await buildPdf({ pages }), { structure: "layout", summaries: "none", split: false });

describe("numbered list items and listing lines", () => {
  it.each([
    ["bold", true],
    ["only larger", false],
  ])("keeps an enumeration and a listing's numbered lines out of the tree (heads %s)", async (_, bold) => {
    const tree = await load(manual(bold));
    expect(topTitles(tree.nodes)).toEqual([
      ...CHAPTERS.map((c, i) => `${i + 1} ${c}`),
      "4 Command Reference",
    ]);
    CHAPTERS.forEach((c, i) => {
      expect(childTitles(tree.nodes, `${i + 1} ${c}`)).toEqual([
        `${i + 1}.1 First Part of ${c}`,
        `${i + 1}.2 Second Part of ${c}`,
      ]);
    });
    // Headings of one series a few lines apart stay: their sections' text, set apart, lies between.
    expect(childTitles(tree.nodes, "4 Command Reference")).toEqual(
      COMMANDS.map((name, k) => `4.${k + 1} ${name} – run the ${name} pass`),
    );
    expect(tree.nodes.some((n) => /^\d+\.? /.test(n.title) && /(Create|cd \.\.)/.test(n.title))).toBe(false);
  });
});
