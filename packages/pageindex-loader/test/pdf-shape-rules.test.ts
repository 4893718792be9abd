// The layout path's shape rules (issue 26): each can be switched off for its measurement under
// producer-grouped CV (scripts/ablate-shape-rules.ts); the loader runs every rule kept.
import { describe, expect, it } from "vitest";
import { SHAPE_RULES } from "../src/pdf/structure/shape-rules.js";
import { undoWrappers } from "../src/pdf/structure/tree-shape.js";
import type { SectionEntry } from "../src/pdf/types.js";

const node = (title: string, page: number, children: SectionEntry[] = []): SectionEntry => ({
  title,
  page,
  children,
});

describe("shape rules", () => {
  const chapters = [node("Introduction", 2, [node("Scope", 2)]), node("Usage", 5), node("Reference", 9)];
  const wrapped = [node("The Widget Manual", 1, chapters)];

  it("a lone unnumbered top heading of a long document is its title; switched off, it stays the root", () => {
    const on = undoWrappers(wrapped, 12);
    expect(on.title).toBe("The Widget Manual");
    expect(on.entries.map((e) => e.title)).toEqual(["Introduction", "Usage", "Reference"]);
    const off = undoWrappers(wrapped, 12, new Set(["loneTitle"]));
    expect(off.title).toBeUndefined();
    expect(off.entries.map((e) => e.title)).toEqual(["The Widget Manual"]);
  });

  it("a numbered lone top node is a chapter, and a short document keeps its first heading on top", () => {
    expect(undoWrappers([node("1 Arrays", 1, chapters)], 12).entries.map((e) => e.title)).toEqual([
      "1 Arrays",
    ]);
    expect(undoWrappers(wrapped, 9).entries.map((e) => e.title)).toEqual(["The Widget Manual"]);
  });

  it("lists the rules that harm no other producer under producer-grouped CV", () => {
    // Cut in the eighth session: it hurt another producer's tree (held-out gain below 0).
    expect(SHAPE_RULES).not.toContain("frontLists");
    for (const kept of ["loneTitle", "promptLines", "contentsEntry", "pagedRunningHeads", "indexGroups"]) {
      expect(SHAPE_RULES).toContain(kept);
    }
  });
});
