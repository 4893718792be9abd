/**
 * Destinations set above their headings (issue 26, the XEP OpenHPI guide): a section lists its
 * topics as bullet items ("• Setting the User Name and Password"), then each topic's heading
 * follows; the producer's destinations stand above the headings, further the lower the heading is
 * on the page (27 pt at the top, 74 pt two thirds down). A bullet item is never the heading, and a
 * heading below the destination's window, above the next destination, is still found by its title.
 */
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { body, buildPdf, headingLine, type LineSpec, type OutlineSpec } from "./fixtures/pdf-builder.js";

/** A chapter on its own page: its list of topics as bullet items, then each topic under its heading. */
function chapter(k: number): { lines: LineSpec[]; outline: OutlineSpec; topics: string[] } {
  const name = ["Installing the Server Plug-In", "Configuring Remote Access", "Reading Sensor Events"][k - 1];
  const topics = [`Setting the User Name and Password ${k}`, `Modifying the Configuration File ${k}`];
  const lines: LineSpec[] = [
    headingLine(name as string, 16),
    ...body(2, k * 10 + 1),
    { text: "This section contains information on the following topics:" },
    ...topics.map((t) => ({ text: `• ${t}`, gap: 6 })),
    headingLine(topics[0] as string, 14),
    ...body(6, k * 10 + 2),
    headingLine(topics[1] as string, 14),
    ...body(3, k * 10 + 3),
  ];
  const at = (text: string) => lines.findIndex((l) => l.text === text);
  const outline: OutlineSpec = {
    title: name as string,
    page: k,
    line: 0,
    children: [
      // The first topic's destination at the first bullet item, two lines above its heading.
      { title: topics[0] as string, page: k, line: at(`• ${topics[0]}`) },
      // The second's five body lines above its heading, beyond the window below a destination.
      { title: topics[1] as string, page: k, line: at(topics[1] as string) - 5 },
    ],
  };
  return { lines, outline, topics };
}

describe("a destination above its heading, a bullet item naming it between", () => {
  it("starts each section at its own heading, not at the bullet item or the body line at the destination", async () => {
    const chapters = [1, 2, 3].map(chapter);
    const { nodes } = await pdfToTree(
      await buildPdf({
        pages: chapters.map((c, i) => ({ lines: c.lines, footer: String(i + 1) })),
        outline: chapters.map((c) => c.outline),
      }),
      { structure: "outline", summaries: "none", split: false },
      { name: "guide.pdf" },
    );
    for (const t of chapters.flatMap((c) => c.topics))
      expect(nodes.find((n) => n.title === t)?.text.split("\n")[0]).toBe(t);
    const squash = (s: string) => s.replace(/\s+/g, "");
    expect(squash(nodes.map((n) => n.text).join(""))).toBe(
      squash(chapters.flatMap((c) => c.lines.map((l) => l.text)).join("")),
    );
  });
});
