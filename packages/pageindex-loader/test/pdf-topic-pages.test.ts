/**
 * A reference manual made of man pages (issue 26): each page's title is printed only in its
 * running head ("ALPHA(1)  User Commands  ALPHA(1)"), and every page repeats NAME, SYNOPSIS,
 * DESCRIPTION… in bold capitals at the left margin, crowded on short pages. The layout path read
 * no topic at all; a page whose changed head names its body's first word now opens one, and the
 * repeated heads nest under it.
 */
import type { TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { LOW_CONFIDENCE } from "../src/pdf/structure/confidence.js";
import { treeFeatures } from "../src/pdf/structure/tree-evidence.js";
import type { SectionEntry } from "../src/pdf/types.js";
import { buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS", "SEE ALSO", "AUTHOR"];

/** The head every page of a topic carries: its name at both ends, the manual's section between. */
const runningHead = (title: string): LineSpec => ({ text: "", cells: [title, "User Commands", title] });
const sectionHead = (text: string): LineSpec => ({ text, size: 11, bold: true, gap: 6 });
const indented = (text: string): LineSpec => ({ text, indent: 36 });

/**
 * One man page: NAME's line opens with `name` (the command), then every section head over two
 * indented lines; the page's head reads `head`. `pages` of them when the page runs long.
 */
function manPage(head: string, name: string, pages = 1): PageSpec[] {
  const lines: LineSpec[] = [];
  for (const s of SECTIONS) {
    lines.push(sectionHead(s));
    if (s === "NAME") lines.push(indented(`${name} - do the ${name} thing to every file named`));
    else
      lines.push(
        indented(`The ${name} command reads each file and writes what it found to the standard output.`),
        indented(`With no file, ${name} reads the standard input; the options below change how.`),
      );
  }
  // The first line under the head sits well below it, as a head is set apart from the body.
  (lines[0] as LineSpec).gap = 30;
  const out: PageSpec[] = [{ lines: [runningHead(head), ...lines] }];
  for (let p = 1; p < pages; p++) {
    const more: LineSpec[] = Array.from({ length: 20 }, (_, i) =>
      indented(`Line ${i + 1} of the ${name} page goes on describing its options and their effects.`),
    );
    (more[0] as LineSpec).gap = 30;
    out.push({ lines: [runningHead(head), ...more] });
  }
  return out;
}

const COMMANDS = ["alpha", "bravo", "charlie", "delta", "echo"];

const load = async (pages: PageSpec[]) =>
  pdfToTree(await buildPdf({ pages: pages.map((p, i) => ({ ...p, footer: String(i + 1) })) }), {
    structure: "layout",
    summaries: "none",
    split: false,
  });

/** The layout tree's confidence (0..1; below LOW_CONFIDENCE the loader warns). */
const layoutScore = (tree: { metadata?: Record<string, unknown> }): number | undefined =>
  (tree.metadata?.pdf as { layoutConfidence?: { score?: number } } | undefined)?.layoutConfidence?.score;
const titleOf = (nodes: readonly TreeNode[], id: string | null | undefined) =>
  nodes.find((n) => n.nodeId === id)?.title;
const topLevel = (nodes: readonly TreeNode[]) => nodes.filter((n) => !n.parentId).map((n) => n.title);
const childrenOf = (nodes: readonly TreeNode[], title: string) => {
  const parents = nodes.filter((n) => n.title === title).map((n) => n.nodeId);
  return nodes.filter((n) => parents.includes(n.parentId ?? "")).map((n) => n.title);
};

describe("manuals made of topic pages", () => {
  it("opens a topic where the running head changes and names the body's first word, its sections under it", async () => {
    const pages = COMMANDS.flatMap((c, k) => manPage(`${c.toUpperCase()}(1)`, c, k % 2 === 0 ? 2 : 1));
    const tree = await load(pages);
    expect(topLevel(tree.nodes)).toEqual(COMMANDS.map((c) => `${c.toUpperCase()}(1)`));
    for (const c of COMMANDS) expect(childrenOf(tree.nodes, `${c.toUpperCase()}(1)`)).toEqual(SECTIONS);
    expect(layoutScore(tree)).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });

  it("opens a topic under an unchanged head, or a head whose name the body does not begin with, where NAME opens the page", async () => {
    const pages = [
      ...manPage("ALPHA(1)", "alpha"),
      ...manPage("BRAVO(1)", "bravo", 2),
      // bravo's page rendered again under its other name: the head stays.
      ...manPage("BRAVO(1)", "bravo"),
      ...manPage("CHARLIE(1)", "charlie"),
      // A name that is no word of the body's first line.
      ...manPage("DELTA-X(1)", "persistent"),
      ...manPage("ECHO(1)", "echo"),
    ];
    const tree = await load(pages);
    expect(topLevel(tree.nodes)).toEqual([
      "ALPHA(1)",
      "BRAVO(1)",
      "BRAVO(1)",
      "CHARLIE(1)",
      "DELTA-X(1)",
      "ECHO(1)",
    ]);
    const nameParents = tree.nodes
      .filter((n) => n.title === "NAME")
      .map((n) => titleOf(tree.nodes, n.parentId));
    expect(nameParents).toEqual(["ALPHA(1)", "BRAVO(1)", "BRAVO(1)", "CHARLIE(1)", "DELTA-X(1)", "ECHO(1)"]);
    // The page rendered twice repeats its whole subtree: a copy, not a label read as a section.
    expect(layoutScore(tree)).toBeGreaterThanOrEqual(LOW_CONFIDENCE);
  });

  it("leaves pages that print their topic's name as a heading to the layout rules", async () => {
    // A module reference: the head names the module, and so does a large heading on its first page.
    const pages: PageSpec[] = COMMANDS.map((c) => ({
      lines: [
        { text: c, size: 9 },
        { text: c, size: 16, bold: true, gap: 30 },
        ...Array.from({ length: 6 }, (_, i) =>
          indented(`The ${c} module's function ${i + 1} takes a list and returns its sorted copy.`),
        ),
      ],
    }));
    const tree = await load(pages);
    expect(topLevel(tree.nodes)).toEqual(COMMANDS);
    // Each module once: no topic node from its head over the heading that names it again.
    expect(tree.nodes.map((n) => n.title)).toEqual(COMMANDS);
  });

  it("counts the sections every topic repeats as no recurring label, unlike NAME read at the top level", () => {
    const topics: SectionEntry[] = COMMANDS.map((c, k) => ({
      title: `${c.toUpperCase()}(1)`,
      page: k + 1,
      children: SECTIONS.map((title) => ({ title, page: k + 1, children: [] })),
    }));
    expect(treeFeatures(topics, { depth: 1, numbering: 1 }, undefined).recurring).toBe(0);
    const flat: SectionEntry[] = topics.flatMap((t) => t.children);
    expect(treeFeatures(flat, { depth: 1, numbering: 1 }, undefined).recurring).toBe(1);
    // A label twice under one topic is still one.
    const twice = topics.map((t) => ({
      ...t,
      children: [...t.children, { title: "NAME", page: t.page, children: [] }],
    }));
    expect(treeFeatures(twice, { depth: 1, numbering: 1 }, undefined).recurring).toBeGreaterThan(0);
  });
});
