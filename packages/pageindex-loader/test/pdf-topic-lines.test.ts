/**
 * A reference manual of short help pages, several to a sheet (issue 26; R's Rd2pdf manuals): each
 * topic opens mid-page under a line "name ⇥ Title" set at the body's size, every topic repeats
 * Description / Usage / Arguments, and the running heads are dictionary-style — the page's first
 * topic on even pages, its last on odd ones. The layout path read no topic; a line set apart whose
 * first run the heads quote now opens one, and so does every line of that look between them.
 */
import type { TreeNode } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const TOPICS = [
  "alpha.fit",
  "bravo",
  "charlie.plot",
  "delta",
  "echo.summary",
  "foxtrot",
  "golf.test",
  "hotel",
  "india.data",
  "juliet",
  "kilo.range",
  "lima",
  "mike.merge",
  "november",
  "oscar.window",
  "papa",
];

interface Placed {
  spec: LineSpec;
  /** The topic this line belongs to, and whether it opens it. */
  topic: string;
  opens: boolean;
}

/** One help page: its heading line, then the sub-heads every topic repeats, each over indented text. */
function helpPage(name: string): Placed[] {
  const body = (text: string): LineSpec => ({ text, indent: 18 });
  const head = (text: string): LineSpec => ({ text, bold: true, gap: 10 });
  const lines: LineSpec[] = [
    { text: "", cells: [name, `The ${name} function of the package`], gap: 30 },
    head("Description"),
    body(`Computes the ${name} statistic of a fitted model object and returns it.`),
    body("The result keeps the names of the model's coefficients."),
    head("Usage"),
    body(`${name}(x, ...)`),
    head("Arguments"),
    body("x        a fitted model object."),
    body("...      further arguments passed to methods."),
    head("Value"),
    body(`A numeric vector holding the ${name} values, one per coefficient.`),
  ];
  return lines.map((spec, i) => ({ spec, topic: name, opens: i === 0 }));
}

/** Height a line takes on the page (the builder's: its gap, its size and 0.4 of it below). */
const height = (l: LineSpec): number => (l.gap ?? 0) + (l.size ?? 10) * 1.4;
/** Room for body lines under the head on a page. */
const ROOM = 600;

/**
 * The help pages laid out page after page, a topic running on where the page is full, each page
 * under a dictionary-style head: "N ⇥ first topic" on even pages, "last topic ⇥ N" on odd ones.
 * `heads` replaces the head's words (a constant package name: heads that quote no topic).
 */
function manual(
  names: readonly string[],
  extra: Placed[] = [],
  heads?: (page: number) => string,
): PageSpec[] {
  const placed = [...names.flatMap(helpPage), ...extra];
  const pages: Placed[][] = [[]];
  let used = 0;
  for (const p of placed) {
    if (used + height(p.spec) > ROOM) {
      pages.push([]);
      used = 0;
    }
    (pages[pages.length - 1] as Placed[]).push(p);
    used += height(p.spec);
  }
  return pages.map((lines, k) => {
    const n = k + 1;
    const first = lines[0]?.topic ?? "";
    const last = lines[lines.length - 1]?.topic ?? "";
    const words = heads ? heads(n) : n % 2 === 0 ? first : last;
    const head: LineSpec = { text: "", cells: n % 2 === 0 ? [String(n), words] : [words, String(n)] };
    const body = lines.map((l, i) => (i === 0 ? { ...l.spec, gap: Math.max(l.spec.gap ?? 0, 24) } : l.spec));
    return { lines: [head, ...body] };
  });
}

const load = async (pages: PageSpec[]) =>
  pdfToTree(await buildPdf({ pages }), { structure: "layout", summaries: "none", split: false });

const topLevel = (nodes: readonly TreeNode[]) => nodes.filter((n) => !n.parentId).map((n) => n.title);
const childrenOf = (nodes: readonly TreeNode[], title: string) => {
  const parent = nodes.find((n) => n.title === title)?.nodeId;
  return nodes.filter((n) => n.parentId === parent).map((n) => n.title);
};

describe("manuals of topics opening mid-page", () => {
  it("opens a topic at each line the dictionary heads quote, and at the lines of its look between them", async () => {
    const pages = manual(TOPICS);
    // The fixture is the shape in question: several topics to a page, so heads quote only some.
    expect(pages.length).toBeLessThan(TOPICS.length / 2);
    const tree = await load(pages);
    expect(topLevel(tree.nodes)).toEqual(TOPICS);
    // The sub-heads every topic repeats stay in its text, as such manuals' own outlines keep them.
    for (const t of TOPICS) expect(childrenOf(tree.nodes, t)).toEqual([]);
    const delta = tree.nodes.find((n) => n.title === "delta");
    expect(delta?.text).toContain("Description");
    expect(delta?.text).toContain("delta(x, ...)");
    expect(delta?.text).not.toContain("echo.summary");
  });

  it("a heading set larger than the topics' lines holds the topics after it (a package's part)", async () => {
    const part = (title: string, topic: string): Placed => ({
      spec: { text: title, size: 16, bold: true, gap: 30 },
      topic,
      opens: false,
    });
    const [first, second] = [TOPICS.slice(0, 8), TOPICS.slice(8)];
    const placed = [
      part("The first package", first[0] as string),
      ...first.flatMap(helpPage),
      part("The second package", second[0] as string),
      ...second.flatMap(helpPage),
    ];
    const tree = await load(manual([], placed));
    expect(topLevel(tree.nodes)).toEqual(["The first package", "The second package"]);
    expect(childrenOf(tree.nodes, "The first package")).toEqual(first);
    expect(childrenOf(tree.nodes, "The second package")).toEqual(second);
  });

  it("heads that quote no topic (a package name and the page number) open none", async () => {
    // Nothing else reads as a heading there: the layout path finds too little and says so.
    const tree = await load(manual(TOPICS, [], () => "Package widgets")).catch((e: Error) => e);
    const titles = tree instanceof Error ? [] : tree.nodes.map((n) => n.title);
    expect(titles).not.toContain("alpha.fit");
    expect(titles).not.toContain("delta");
  });
});
