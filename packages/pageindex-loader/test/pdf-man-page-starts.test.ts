/**
 * A manual made of rendered man pages (issue 26: procps, gawk): each page's bookmark ("KILL(1)")
 * points at the top of its first page, whose title only the running head prints
 * ("KILL(1)  User Commands  KILL(1)"), and a line under SEE ALSO reads like it ("kill(2).").
 * The page's bookmark starts at the page's top, so NAME, SYNOPSIS and the others keep their own
 * headings instead of being pushed below that mention.
 */
import type { TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { body, buildPdf, headingLine, type OutlineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "SEE ALSO"];

/** One man page on one page: the running head, then its sections; SEE ALSO names a namesake. */
function manPage(name: string, seed: number): { page: PageSpec; body: string[] } {
  const lines = SECTIONS.flatMap((s, k) => [
    headingLine(s, 11, { gap: 6 }),
    ...(s === "SEE ALSO" ? [{ text: `${name.toLowerCase()}(2).` }] : body(2, seed * 10 + k)),
  ]);
  return {
    page: {
      lines: [{ text: "", cells: [`${name}(1)`, "User Commands", `${name}(1)`] }, ...lines],
      footer: String(seed),
    },
    body: lines.map((l) => l.text),
  };
}

describe("a man page's bookmark at its page's top", () => {
  it("starts at the page's first line, not at a line under SEE ALSO that reads like it", async () => {
    const man = ["KILL", "PGREP", "SKILL", "WATCH"].map((n, i) => ({ name: n, ...manPage(n, i + 1) }));
    const outline: OutlineSpec[] = man.map((m, i) => ({
      title: `${m.name}(1)`,
      page: i + 1,
      // Each section's destination at its heading (line 0 is the running head; a heading and
      // two lines of text per section: lines 1, 4, 7, 10).
      children: SECTIONS.map((s, k) => ({ title: s, page: i + 1, line: 1 + 3 * k })),
    }));
    const nodes: TreeNode[] = (
      await pdfToTree(
        await buildPdf({ pages: man.map((m) => m.page), outline }),
        { structure: "outline", summaries: "none", split: false },
        { name: "manual.pdf" },
      )
    ).nodes;
    for (const n of nodes.filter((x) => SECTIONS.includes(x.title)))
      expect(n.text.split("\n")[0], `${n.title} on page ${n.startPage}`).toBe(n.title);
    const squash = (s: string) => s.replace(/\s+/g, "");
    expect(squash(nodes.map((n) => n.text).join(""))).toBe(squash(man.flatMap((m) => m.body).join("")));
  });
});
