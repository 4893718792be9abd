/**
 * Sections and subsections set alike (issue 26: groff ms documents such as xterm's control
 * sequences, bold heads at one size for both). Looks cannot tell the levels; the running head,
 * naming the section open at each page's top, can: a heading between a named section and a later
 * page whose head still names it is inside that section.
 */
import type { TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { PREFACE_TITLE } from "../src/pdf/structure/sections.js";
import { buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const SECTIONS: Record<string, string[]> = {
  "Terminal Modes": ["Cursor Keys", "Keypad Keys", "Function Keys"],
  "Mouse Reporting": ["Button Events", "Wheel Events"],
  "Window Operations": ["Resizing Windows", "Moving Windows", "Window Titles"],
};
const GUIDE = "Control Sequence Guide";

const head = (text: string): LineSpec => ({ text, bold: true, size: 10, gap: 14 });
const body = (topic: string, i: number): LineSpec => ({
  text: `Line ${i + 1} about ${topic.toLowerCase()} explains what the terminal does when it reads it.`,
});

/** The document as lines, then cut into pages of `perPage` lines, each page after the first under a head naming the section open at its top. */
function guide(perPage: number, named: boolean, title = false): PageSpec[] {
  const lines: { spec: LineSpec; section: string }[] = [];
  if (title) lines.push({ spec: { text: GUIDE, size: 16, bold: true }, section: "" });
  for (const [section, subsections] of Object.entries(SECTIONS)) {
    lines.push({ spec: head(section), section });
    for (let i = 0; i < 4; i++) lines.push({ spec: body(section, i), section });
    for (const sub of subsections) {
      lines.push({ spec: head(sub), section });
      for (let i = 0; i < 30; i++) lines.push({ spec: body(sub, i), section });
    }
  }
  const pages: PageSpec[] = [];
  for (let at = 0; at < lines.length; at += perPage) {
    const chunk = lines.slice(at, at + perPage);
    const open = at === 0 ? undefined : (lines[at - 1] as { section: string }).section;
    const runningHead: LineSpec[] =
      open === undefined ? [] : [{ text: "", size: 9, cells: [GUIDE, named ? open : "Revised 2023"] }];
    const content = chunk.map((l) => ({ ...l.spec }));
    if (runningHead.length > 0) (content[0] as LineSpec).gap = 24;
    pages.push({ lines: [...runningHead, ...content], footer: String(pages.length + 1) });
  }
  return pages;
}

const load = async (pages: PageSpec[]) =>
  pdfToTree(await buildPdf({ pages }), { structure: "layout", summaries: "none", split: false });

const childrenOf = (nodes: readonly TreeNode[], title: string) => {
  const id = nodes.find((n) => n.title === title)?.nodeId;
  return nodes.filter((n) => n.parentId === id).map((n) => n.title);
};

describe("sections and subsections set alike", () => {
  it("nests the subsections under the sections the running heads name", async () => {
    const tree = await load(guide(40, true));
    const top = tree.nodes.filter((n) => !n.parentId).map((n) => n.title);
    expect(top).toEqual(Object.keys(SECTIONS));
    for (const [section, subsections] of Object.entries(SECTIONS)) {
      expect(childrenOf(tree.nodes, section)).toEqual(subsections);
    }
  });

  it("takes the title the running heads repeat for the document's, not a section over the rest", async () => {
    const tree = await load(guide(40, true, true));
    const top = tree.nodes.filter((n) => !n.parentId).map((n) => n.title);
    // The title page's lines are the text before the first section.
    expect(top).toEqual([PREFACE_TITLE, ...Object.keys(SECTIONS)]);
    expect(tree.nodes.map((n) => n.title)).not.toContain(GUIDE);
  });

  it("keeps them side by side when the heads name no heading", async () => {
    const tree = await load(guide(40, false));
    const top = tree.nodes.filter((n) => !n.parentId).map((n) => n.title);
    expect(top).toEqual(Object.entries(SECTIONS).flatMap(([s, subs]) => [s, ...subs]));
  });
});
