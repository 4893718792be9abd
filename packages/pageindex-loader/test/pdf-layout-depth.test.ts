import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { pdfToTree } from "../src/index.js";
import { layoutTree } from "./fixtures/layout-tree.js";
import { body, buildPdf, type LineSpec, type PageSpec, tocPage } from "./fixtures/pdf-builder.js";

const layout = layoutTree;
/** As {@link layoutTree}, with the preface node for text before the first section. */
const layoutTreeWithPreface = async (pages: PageSpec[]): Promise<TreeDocument> =>
  pdfToTree(await buildPdf({ pages }), { structure: "layout", summaries: "none", split: false });

/** Indented titles, one per node, in document order. */
const outline = (tree: TreeDocument): string[] =>
  tree.nodes.map((n) => `${"  ".repeat(n.level - 1)}${n.title}`);
const h = (text: string, size = 14, gap = 14): LineSpec => ({ text, size, bold: true, gap });
const chapter = (n: number, title: string, p: number): PageSpec => ({
  lines: [h(`${n} ${title}`, 16), ...body(8, p), h(`${n}.1 Scope`, 12), ...body(8, p + 100)],
});

/** What {@link chapter} should become. */
const chapterOutline = (n: number, title: string): string[] => [`${n} ${title}`, `  ${n}.1 Scope`];

/** A contents line ("Title ....... 12"), bold unless told otherwise. */
const tocLine = (title: string, page: number, look: Partial<LineSpec> = {}): LineSpec => ({
  text: `${title} ${".".repeat(Math.max(3, 60 - title.length))} ${page}`,
  size: 10,
  bold: true,
  gap: 4,
  ...look,
});

/** A title page of these lines before four chapters: it names the document and holds no section. */
async function expectTitlePage(lines: LineSpec[], title: string): Promise<void> {
  const chapters = ["Introduction", "Installation", "Usage", "Reference"];
  const tree = await layout([{ lines }, ...chapters.map((t, i) => chapter(i + 1, t, i + 1))]);
  expect(outline(tree)).toEqual(chapters.flatMap((t, i) => chapterOutline(i + 1, t)));
  expect(tree.metadata?.pdf).toMatchObject({ titlePage: title });
}

/** Parts of one chapter each (part page, then chapter page) nest as part ⊃ chapter ⊃ section. */
async function expectParts(parts: Array<[part: string, chapter: string]>): Promise<void> {
  const tree = await layout(
    parts.flatMap(([part, title], i) => [
      { lines: [h(part, 20), ...body(6, 2 * i + 1)] },
      chapter(i + 1, title, 2 * i + 2),
    ]),
  );
  expect(outline(tree)).toEqual(
    parts.flatMap(([part, title], i) => [part, ...chapterOutline(i + 1, title).map((t) => `  ${t}`)]),
  );
}

describe("layout depth follows the document", () => {
  it("a sparse title page names the document and is not a root over the chapters", async () => {
    await expectTitlePage(
      [h("The Widget Manual", 24), h("Edition 3 for Widget 2.1", 14, 40), h("Widget Project Team", 14, 40)],
      "The Widget Manual",
    );
  });

  it("an all-capitals unnumbered chapter in the chapters' font is their sibling, not their parent", async () => {
    const tree = await layout([
      { lines: [h("GNU GENERAL PUBLIC LICENSE", 16), ...body(10, 1)] },
      chapter(1, "Arrays", 2),
      chapter(2, "Ranges", 3),
    ]);
    expect(outline(tree)).toEqual([
      "GNU GENERAL PUBLIC LICENSE",
      ...chapterOutline(1, "Arrays"),
      ...chapterOutline(2, "Ranges"),
    ]);
  });

  it("an unnumbered 'Index' in the appendices' look after the last one is their sibling", async () => {
    const appendix = (letter: string, title: string, p: number): PageSpec => ({
      lines: [h(`Appendix ${letter} ${title}`, 16), ...body(8, p), h("Details", 12), ...body(8, p + 100)],
    });
    const tree = await layout([
      chapter(1, "Arrays", 1),
      appendix("A", "Suggested Responses", 2),
      appendix("B", "Free Documentation License", 3),
      { lines: [h("Index", 16), ...body(10, 4)] },
    ]);
    expect(outline(tree)).toEqual([
      ...chapterOutline(1, "Arrays"),
      "Appendix A Suggested Responses",
      "  Details",
      "Appendix B Free Documentation License",
      "  Details",
      "Index",
    ]);
  });

  it("a contents entry wrapping onto a line like an earlier entry's wrap is read on, not ended there", async () => {
    const entry = (text: string, indent: number): LineSpec => ({ text, indent, gap: 4 });
    const leader = (title: string, page: number) =>
      `${title} ${".".repeat(Math.max(3, 56 - title.length))} ${page}`;
    const toc: PageSpec = {
      lines: [
        { text: "Contents", size: 16, bold: true, gap: 6 },
        entry(leader("1 Arrays", 2), 0),
        entry("1.1 Partial AC: (#=)/2 - constraint equal, (#\\=)/2 - constraint not equal,", 18),
        entry("(#<)/2 - constraint less than, (#=<)/2 - constraint less than or equal,", 40),
        entry(leader("(#>)/2 - constraint greater than", 2), 40),
        entry("1.2 Full AC: (#=#)/2 - constraint equal, (#\\=#)/2 - constraint not equal,", 18),
        entry("(#<#)/2 - constraint less than, (#=<#)/2 - constraint less than or equal,", 40),
        entry(leader("(#>#)/2 - constraint greater than", 2), 40),
        entry(leader("2 Interfacing Prolog and C", 3), 0),
        entry(leader("2.1 Introduction", 3), 18),
        entry(leader("2.2 Calling C from Prolog", 3), 18),
        entry(leader("3 Options", 4), 0),
      ],
    };
    const section = (title: string, p: number) => [h(title, 12), ...body(6, p)];
    const tree = await layout([
      toc,
      {
        lines: [
          h("1 Arrays", 16),
          ...body(4, 1),
          ...section("1.1 Partial AC", 2),
          ...section("1.2 Full AC", 3),
        ],
      },
      {
        lines: [
          h("2 Interfacing Prolog and C", 16),
          ...body(4, 4),
          ...section("2.1 Introduction", 5),
          ...section("2.2 Calling C from Prolog", 6),
        ],
      },
      { lines: [h("3 Options", 16), ...body(10, 7)] },
    ]);
    expect(tree.nodes.filter((n) => n.level === 1).map((n) => n.title)).toEqual([
      "1 Arrays",
      "2 Interfacing Prolog and C",
      "3 Options",
    ]);
  });

  it("a contents entry numbered again at the margin after indented entries of its depth is outside them", async () => {
    const toc = tocPage([
      { title: "Preface", page: 2 },
      { title: "1. Document Conventions", page: 2, level: 2 },
      { title: "2. We Need Feedback!", page: 2, level: 2 },
      { title: "1. Introduction", page: 3 },
      { title: "1.1. Documentation Goals", page: 3, level: 2 },
      { title: "2. Using the Tool", page: 4 },
      { title: "2.1. Installation", page: 4, level: 2 },
    ]);
    const tree = await layout([
      toc,
      { lines: [h("Preface", 20), ...body(4, 1), h("1. Document Conventions", 14), ...body(4, 2)] },
      { lines: [h("2. We Need Feedback!", 14), ...body(8, 3)] },
      { lines: [h("1. Introduction", 20), ...body(4, 4), h("1.1. Documentation Goals", 14), ...body(6, 5)] },
      { lines: [h("2. Using the Tool", 20), ...body(4, 6), h("2.1. Installation", 14), ...body(6, 7)] },
    ]);
    expect(outline(tree)).toEqual([
      "Preface",
      "  1. Document Conventions",
      "  2. We Need Feedback!",
      "1. Introduction",
      "  1.1. Documentation Goals",
      "2. Using the Tool",
      "  2.1. Installation",
    ]);
  });

  it("a bare 'Chapter 2' label over the chapter's title is folded into it; 'PART I' over 'Item 1.' stays", async () => {
    const tree = await layout([
      { lines: [h("Chapter 1", 18), h("Getting Started", 18, 30), ...body(10, 1)] },
      { lines: [h("Chapter 2", 18), h("Going Further", 18, 30), ...body(10, 2)] },
      { lines: [h("PART I", 18), h("Item 1. Business", 14, 30), ...body(10, 3)] },
    ]);
    const titles = tree.nodes.map((n) => n.title);
    expect(titles).not.toContain("Chapter 1");
    expect(titles).not.toContain("Chapter 2");
    expect(outline(tree)).toContain("Getting Started");
    expect(outline(tree)).toContain("Going Further");
    expect(outline(tree)).toContain("PART I");
    expect(outline(tree)).toContain("  Item 1. Business");
  });

  it("labels repeated under every entry ('Arguments', 'Returns') stay under their entry", async () => {
    const entry = (name: string, p: number): LineSpec[] => [
      h(name, 13),
      ...body(5, p),
      h("Arguments", 13),
      ...body(5, p + 50),
      h("Returns", 13),
      ...body(5, p + 60),
    ];
    // One look for names and labels: only their repetition tells them apart.
    const tree = await layout([
      { lines: entry("vector_init", 1) },
      { lines: entry("vector_copy", 2) },
      { lines: entry("vector_free", 3) },
      { lines: entry("vector_size", 4) },
    ]);
    const roots = tree.nodes.filter((n) => n.level === 1).map((n) => n.title);
    expect(roots).toEqual(["vector_init", "vector_copy", "vector_free", "vector_size"]);
    expect(tree.nodes.filter((n) => n.title === "Arguments").every((n) => n.level === 2)).toBe(true);
  });

  it("a book part ('II Packages', roman with a plain space) contains its chapters", async () => {
    await expectParts([
      ["I The Program", "Introduction"],
      ["II External Packages", "Algebra"],
    ]);
  });

  it("a running head quoting the chapter under the page number ('12 Usage') is not a section", async () => {
    const tree = await layout([
      chapter(1, "Usage", 1),
      { lines: [h("12 Usage", 16), ...body(10, 7), h("1.2 Options", 12), ...body(8, 8)] },
      chapter(2, "Reference", 3),
    ]);
    expect(outline(tree)).toEqual([
      ...chapterOutline(1, "Usage"),
      "  1.2 Options",
      ...chapterOutline(2, "Reference"),
    ]);
  });

  it("a 'List of Tables' after the contents lists captions, not sections", async () => {
    const toc = tocPage([
      { title: "1 Introduction", page: 1 },
      { title: "2 Installation", page: 2 },
      { title: "3 Usage", page: 3 },
    ]);
    const tables = tocPage([
      { title: "1.1 Supported platforms", page: 1 },
      { title: "2.1 Package names", page: 2 },
      { title: "3.1 Command options", page: 3 },
    ]);
    const listPage: PageSpec = {
      lines: [{ text: "List of Tables", size: 16, bold: true, gap: 6 }, ...(tables.lines ?? []).slice(1)],
    };
    const tree = await layout([
      toc,
      listPage,
      chapter(1, "Introduction", 1),
      chapter(2, "Installation", 2),
      chapter(3, "Usage", 3),
    ]);
    const titles = tree.nodes.map((n) => n.title);
    expect(titles).toContain("1 Introduction");
    expect(titles.filter((t) => /platforms|Package names|Command options/.test(t))).toEqual([]);
  });

  it("a large unnumbered heading between a part and its first chapter (a preface) stays inside the part", async () => {
    const toc = tocPage([
      { title: "I User Manual", page: 2 },
      { title: "1 Introduction", page: 4, level: 2 },
      { title: "2 Usage", page: 5, level: 2 },
      { title: "II Reference", page: 6 },
      { title: "3 Commands", page: 7, level: 2 },
    ]);
    const tree = await layout([
      toc,
      { lines: [h("I User Manual", 20), ...body(4, 1)] },
      // Set larger than the part's title and not listed in the contents.
      { lines: [h("Preface", 24), ...body(10, 2)] },
      chapter(1, "Introduction", 3),
      chapter(2, "Usage", 4),
      { lines: [h("II Reference", 20), ...body(4, 5)] },
      chapter(3, "Commands", 6),
    ]);
    const top = tree.nodes.filter((n) => n.level === 1).map((n) => n.title);
    expect(top).toEqual(["I User Manual", "II Reference"]);
    const parentOf = (title: string) =>
      tree.nodes.find((n) => n.nodeId === tree.nodes.find((m) => m.title === title)?.parentId)?.title;
    expect(parentOf("Preface")).toBe("I User Manual");
    expect(parentOf("1 Introduction")).toBe("I User Manual");
    expect(parentOf("2 Usage")).toBe("I User Manual");
    expect(parentOf("3 Commands")).toBe("II Reference");
  });

  it("a printed contents that starts in the first pages and runs past them is read to its end", async () => {
    const chapters = ["Overview", "Setup", "Basics", "Options", "Output", "Errors", "Limits", "Tuning"];
    // Nineteen pages of front matter, then contents on pages 20 to 22: the last entries are past page 20.
    const front: PageSpec[] = Array.from({ length: 19 }, (_, i) => ({ lines: body(30, 40 + i) }));
    const entries = chapters.map((t, i) => ({ title: `Chapter ${t}`, page: 23 + i }));
    const tocPages = [0, 3, 6].map((from) => tocPage(entries.slice(from, from + 3)));
    // The chapters' titles are set like body text: only the contents can place them.
    const pages = chapters.map((t, i) => ({
      lines: [{ text: `Chapter ${t}`, gap: 14 }, ...body(20, 60 + i)],
    }));
    const tree = await layout([...front, ...tocPages, ...pages]);
    expect(tree.nodes.map((n) => `${n.title} [${n.startPage}]`)).toEqual(
      chapters.map((t, i) => `Chapter ${t} [${23 + i}]`),
    );
  });

  it("tables of names and numbers are not a table of contents", async () => {
    const hashes: Array<[string, number]> = [
      ["sha", 20],
      ["sha224", 28],
      ["sha256", 32],
      ["sha384", 48],
      ["sha512", 64],
      ["blake2b", 64],
      ["whirlpool", 64],
    ];
    const modes = ["cbc", "cfb", "ofb", "ctr", "gcm", "ccm"];
    // A page of two tables under its section's heading: were it read as a contents page, the
    // heading on it would be lost with it.
    const tables: PageSpec = {
      lines: [
        h("1.2 Digests", 12),
        ...hashes.map(([name, bytes]) => ({ text: "", cells: [name, String(bytes)], gap: 8 })),
        ...modes.map((m, i) => ({ text: "", cells: [`aes_${m}`, String(16 + 8 * i), "16", "1"], gap: 8 })),
      ],
    };
    const tree = await layout([
      chapter(1, "Introduction", 1),
      tables,
      chapter(2, "Usage", 2),
      chapter(3, "Reference", 4),
    ]);
    expect(outline(tree)).toEqual([
      ...chapterOutline(1, "Introduction"),
      "  1.2 Digests",
      ...chapterOutline(2, "Usage"),
      ...chapterOutline(3, "Reference"),
    ]);
  });

  it("a module's name set large in lower case ('rb', 'systools') heads its page, under a small running head of the same name", async () => {
    // Three pages a module, each under a 9 pt running head naming it: the large title on the
    // first is not that head.
    const head = (name: string): LineSpec => ({ text: name, size: 9 });
    const module = (name: string, p: number): PageSpec[] => [
      {
        lines: [
          head(name),
          { text: name, size: 15, gap: 10 },
          { text: "Erlang module", gap: 6 },
          ...body(6, p),
          { text: "Exports", size: 13.5, gap: 14 },
          ...body(6, p + 30),
        ],
      },
      { lines: [head(name), ...body(30, p + 50)] },
      { lines: [head(name), ...body(30, p + 70)] },
    ];
    const tree = await layout([
      { lines: [h("Reference Manual", 18), ...body(6, 1)] },
      ...module("rb", 2),
      ...module("systools", 3),
      ...module("release_handler", 4),
    ]);
    const titles = tree.nodes.map((n) => n.title);
    expect(titles.filter((t) => /^(rb|systools|release_handler)$/.test(t))).toEqual([
      "rb",
      "systools",
      "release_handler",
    ]);
    // Sentences going on in lower case are still not headings.
    expect(titles.filter((t) => /^[a-z]/.test(t) && !/^(rb|systools|release_handler)$/.test(t))).toEqual([]);
  });

  it("a contents page repeating an entry under every class ('Detailed Description') is read to its end", async () => {
    const toc = tocPage([
      { title: "1 Classes", page: 2 },
      { title: "1.1 Widget Class", page: 2, level: 2 },
      { title: "Detailed Description", page: 2, level: 3 },
      { title: "1.2 Gadget Class", page: 3, level: 2 },
      { title: "Detailed Description", page: 3, level: 3 },
      { title: "2 Files", page: 4 },
      { title: "2.1 widget.h", page: 4, level: 2 },
    ]);
    const plain = (text: string): LineSpec => ({ text, gap: 14 });
    const tree = await layout([
      toc,
      {
        lines: [h("1 Classes", 16), h("1.1 Widget Class", 12), plain("Detailed Description"), ...body(10, 1)],
      },
      { lines: [h("1.2 Gadget Class", 12), plain("Detailed Description"), ...body(10, 2)] },
      // Set like body text: only the contents can place these.
      { lines: [plain("2 Files"), plain("2.1 widget.h"), ...body(10, 3)] },
    ]);
    const top = tree.nodes.filter((n) => n.level === 1).map((n) => `${n.title} [${n.startPage}]`);
    expect(top).toEqual(["1 Classes [2]", "2 Files [4]"]);
    expect(tree.nodes.find((n) => n.title === "2.1 widget.h")?.level).toBe(2);
  });

  it("a contents line set larger than the others, with its page number, holds the entries after it", async () => {
    const toc: PageSpec = {
      lines: [
        { text: "Table of Contents", size: 16, bold: true, gap: 6 },
        tocLine("User Manual", 2, { size: 13 }),
        tocLine("1 Introduction", 3),
        tocLine("2 Usage", 4),
        // A part line set a little off the margin is still a part.
        tocLine("Reference Manual", 5, { size: 13, indent: 11 }),
        tocLine("3 Commands", 6),
      ],
    };
    const tree = await layout([
      toc,
      { lines: [h("User Manual", 20), ...body(4, 1)] },
      chapter(1, "Introduction", 2),
      chapter(2, "Usage", 3),
      { lines: [h("Reference Manual", 20), ...body(4, 4)] },
      chapter(3, "Commands", 5),
    ]);
    expect(tree.nodes.filter((n) => n.level === 1).map((n) => n.title)).toEqual([
      "User Manual",
      "Reference Manual",
    ]);
    expect(tree.nodes.filter((n) => n.level === 2).map((n) => n.title)).toEqual([
      "1 Introduction",
      "2 Usage",
      "3 Commands",
    ]);
  });

  it("parts numbered in one series are siblings whatever their titles' case ('II XSPICE', 'III Miscellaneous')", async () => {
    await expectParts([
      ["I User Manual", "Basics"],
      ["II XSPICE", "Devices"],
      ["III Miscellaneous", "Licenses"],
    ]);
  });

  it("a full table of contents after a short one (Texinfo) is the contents, and neither is sections", async () => {
    const titles = ["Basics", "Arrays", "Ranges", "Strings", "Files", "Errors"];
    // Chapters start on page 4: a short contents, a blank verso, then the full contents.
    const shortContents: PageSpec = {
      lines: [
        { text: "Short Contents", size: 16, bold: true, gap: 6 },
        ...titles.map((t, i) => tocLine(`${i + 1} ${t}`, i + 4)),
      ],
    };
    const full = tocPage(
      titles.flatMap((t, i) => [
        { title: `${i + 1} ${t}`, page: i + 4 },
        { title: `${i + 1}.1 Scope`, page: i + 4, level: 2 },
      ]),
    );
    const plain = (text: string): LineSpec => ({ text, gap: 14 });
    const tree = await layout([
      shortContents,
      { lines: ["ii"] },
      full,
      // The sections are set like body text: only the full contents places them.
      ...titles.map((t, i) => ({
        lines: [h(`${i + 1} ${t}`, 16), ...body(8, i), plain(`${i + 1}.1 Scope`), ...body(8, i + 100)],
      })),
    ]);
    expect(tree.metadata?.pdf).toMatchObject({ printedToc: { pages: [3] } });
    expect(outline(tree)).toEqual(titles.flatMap((t, i) => chapterOutline(i + 1, t)));
  });

  it("a second copy of the contents at the back (Texinfo) is not sections", async () => {
    const entries = [
      { title: "1 Introduction", page: 2 },
      { title: "1.1 Scope", page: 2, level: 2 },
      { title: "2 Usage", page: 3 },
      { title: "2.1 Scope", page: 3, level: 2 },
    ];
    const back = tocPage(entries);
    // The copy sets its chapter lines large and bold, as the chapters themselves.
    const backLines = (back.lines ?? []).map((l, i) =>
      typeof l === "string" || i === 0 || !/^\d+ /.test(l.text) ? l : { ...l, size: 14, bold: true },
    );
    const tree = await layout([
      tocPage(entries),
      chapter(1, "Introduction", 1),
      chapter(2, "Usage", 2),
      { lines: backLines },
    ]);
    expect(outline(tree)).toEqual([...chapterOutline(1, "Introduction"), ...chapterOutline(2, "Usage")]);
  });

  it("a command line or a parameter set in a heading's look ('$ gcc …', '&optional') is not a section", async () => {
    const code = (text: string): LineSpec => ({ text, bold: true, size: 12, gap: 14 });
    const tree = await layout([
      { lines: [h("1 Overview", 16), ...body(4, 1), code("$ gcc -g -o sample sample.c"), ...body(6, 2)] },
      { lines: [h("1.1 Scope", 12), ...body(4, 3), code("&optional error"), ...body(6, 4)] },
      { lines: [h("2 Usage", 16), ...body(4, 5), h("2.1 Scope", 12), ...body(8, 6)] },
    ]);
    expect(outline(tree)).toEqual([...chapterOutline(1, "Overview"), ...chapterOutline(2, "Usage")]);
  });

  it("admonitions ('Note', 'Tip', 'Caution:') are not sections", async () => {
    const boxed = (label: string, p: number): LineSpec[] => [h(label, 12), ...body(2, p)];
    const tree = await layout([
      {
        lines: [
          h("1 Overview", 16),
          ...body(4, 1),
          ...boxed("Caution", 2),
          ...boxed("Tip", 3),
          ...body(4, 4),
        ],
      },
      { lines: [h("1.1 Scope", 12), ...body(4, 5), ...boxed("Note:", 6), ...body(6, 7)] },
      {
        lines: [h("2 Usage", 16), ...body(4, 8), ...boxed("Warning", 9), h("2.1 Scope", 12), ...body(8, 10)],
      },
    ]);
    expect(outline(tree)).toEqual([...chapterOutline(1, "Overview"), ...chapterOutline(2, "Usage")]);
  });

  it("a DocBook running head (chapter label and title, then a section's number and title) is not a section", async () => {
    const tree = await layout([
      chapter(1, "Basics", 1),
      {
        lines: [
          { text: "CHAPTER 1. BASICS 1.2. FUTURE PERSPECTIVE ON PACKAGING", size: 12, bold: true },
          ...body(6, 7),
          h("1.2 Future perspective on packaging", 12),
          ...body(8, 8),
        ],
      },
      chapter(2, "Options", 3),
    ]);
    expect(outline(tree)).toEqual([
      ...chapterOutline(1, "Basics"),
      "  1.2 Future perspective on packaging",
      ...chapterOutline(2, "Options"),
    ]);
  });

  it("a title page with its publisher's address lines is still a title page", async () => {
    await expectTitlePage(
      [
        h("Developer's Guide", 24),
        h("to the Widget Library", 24, 20),
        h("(version 2.1)", 13, 20),
        { text: "The Widget Group", gap: 30 },
        { text: "Institute of Mathematics of Bordeaux, UMR 5251 of the CNRS." },
        { text: "University of Bordeaux, 351 Cours de la Liberation Nord" },
        { text: "F-33405 TALENCE Cedex, FRANCE" },
        h("Home Page:", 13, 30),
        { text: "https://widget.example.org/" },
      ],
      "Developer's Guide to the Widget Library",
    );
  });

  it("an unnumbered contents line at the chapters' margin after a chapter's indented sections is not inside it", async () => {
    const plain = { bold: false };
    const toc: PageSpec = {
      lines: [
        { text: "Table of Contents", size: 16, bold: true, gap: 6 },
        tocLine("Chapter 1: Introduction", 2),
        tocLine("1.1 Scope", 2, { ...plain, indent: 18 }),
        tocLine("Chapter 2: Usage", 3),
        tocLine("2.1 Scope", 3, { ...plain, indent: 18 }),
        // Set like the sections, at the chapters' margin.
        tocLine("Index", 4, plain),
      ],
    };
    const tree = await layout([
      toc,
      { lines: [h("Chapter 1: Introduction", 16), ...body(8, 1), h("1.1 Scope", 12), ...body(8, 2)] },
      { lines: [h("Chapter 2: Usage", 16), ...body(8, 3), h("2.1 Scope", 12), ...body(8, 4)] },
      { lines: [h("Index", 16), { text: "apply . . . . . . 3" }, { text: "scope . . . . . . 2" }] },
    ]);
    expect(tree.nodes.filter((n) => n.level === 1).map((n) => n.title)).toEqual([
      "Chapter 1: Introduction",
      "Chapter 2: Usage",
      "Index",
    ]);
  });

  it("a document title set as a heading over everything (a page with text, no title page) is no root", async () => {
    // The title shares its first page with the introduction's text, so it is no title page.
    const chapters = ["Introduction", "Installation", "Usage", "Options", "Limits", "Reference"];
    const manual: PageSpec[] = [
      { lines: [h("The Widget Manual", 22), ...body(10, 1)] },
      ...chapters.flatMap((t, i) => [
        { lines: [h(t, 16), ...body(8, 2 * i + 2), h("Scope", 12), ...body(8, 2 * i + 102)] },
        { lines: body(20, 2 * i + 3) },
      ]),
    ];
    const tree = await layout(manual);
    expect(outline(tree)).toEqual(chapters.flatMap((t) => [t, "  Scope"]));
    expect(tree.metadata?.pdf).toMatchObject({ titlePage: "The Widget Manual" });
    // Its text is still in the tree (the preface node before the first section).
    const all = await layoutTreeWithPreface(manual);
    expect(all.nodes[0]?.title).toBe("Preface");
    expect(all.nodes[0]?.text).toContain("The Widget Manual");
    // A short document (a paper, a filing's notes) keeps its first heading over the rest.
    const short = await layout(manual.slice(0, 5));
    expect(outline(short)).toEqual([
      "The Widget Manual",
      "  Introduction",
      "    Scope",
      "  Installation",
      "    Scope",
    ]);
  });

  it("a lone numbered chapter keeps its sections under it", async () => {
    const tree = await layout([chapter(1, "Arrays", 1), { lines: [h("1.2 Ranges", 12), ...body(8, 5)] }]);
    expect(outline(tree)).toEqual(["1 Arrays", "  1.1 Scope", "  1.2 Ranges"]);
  });

  it("a keyword chapter listed first on a contents page the reader did not take is found at its larger heading", async () => {
    const titles = ["Chapter 1 Arrays", "Chapter 2 Ranges", "Chapter 3 Lists"];
    const tree = await layout([
      // Entries without page numbers: no printed table of contents is read from this page.
      { lines: [h("Overview of this guide", 16), ...titles.map((t) => h(t, 13, 8)), ...body(4, 1)] },
      ...titles.map((t, i) => ({
        lines: [h(t, 18), ...body(8, i + 2), h(`${i + 1}.1 Scope`, 12), ...body(8, i + 102)],
      })),
    ]);
    const chapters = tree.nodes.filter((n) => titles.includes(n.title));
    expect(chapters.map((n) => n.title)).toEqual(titles);
    // The chapters start at their own pages, not at the contents page's entries.
    expect(chapters.map((n) => n.startPage)).toEqual([2, 3, 4]);
  });
});
