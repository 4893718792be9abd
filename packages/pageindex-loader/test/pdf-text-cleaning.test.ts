import type { TreeDocument } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { extractiveSummary } from "../src/common/extractive.js";
import { pdfToTree } from "../src/index.js";
import { joinLines } from "../src/pdf/text/dehyphenate.js";
import { glyphNames } from "../src/pdf/text/glyph-names.js";
import { fontRepairs, glyphTokens, repairStrings } from "../src/pdf/text/ligatures.js";
import { Vocabulary } from "../src/pdf/text/vocabulary.js";
import { body, buildPdf, type LineSpec, type PageSpec } from "./fixtures/pdf-builder.js";

const load = (bytes: Uint8Array) => pdfToTree(bytes, { summaries: "none" }, { name: "fixture.pdf" });
const textOf = (tree: TreeDocument, title: string): string =>
  tree.nodes.find((n) => n.title === title)?.text ?? `(no node "${title}")`;

describe("de-hyphenation", () => {
  const vocab = Vocabulary.fromTexts([
    "All systems use well-known and manipulated values; the cost effective route.",
  ]);

  it("joins a word broken at a line end and moves its rest up", () => {
    expect(joinLines(["The operating sys-", "tems, as shown"], vocab)).toBe(
      "The operating systems,\nas shown",
    );
  });

  it("keeps the hyphen of a compound the document writes with one", () => {
    expect(joinLines(["a well-", "known route"], vocab)).toBe("a well-known\nroute");
  });

  it("joins 'manip- ulated' inside a line, but not 'pre- and post-'", () => {
    expect(joinLines(["the manip- ulated data"], vocab)).toBe("the manipulated data");
    expect(joinLines(["pre- and post-processing"], vocab)).toBe("pre- and post-processing");
  });

  it("without evidence, joins word fragments but keeps two words apart", () => {
    expect(joinLines(["the frobni-", "cation step"], vocab)).toBe("the frobnication\nstep");
    expect(joinLines(["the cost-", "effective route"], vocab)).toBe("the cost-effective\nroute");
    expect(joinLines(["see Section-", "Two"], vocab)).toBe("see Section-Two");
  });

  it("mends node text in a real PDF", async () => {
    const pages: PageSpec[] = [
      {
        lines: [
          { text: "Introduction", size: 16, bold: true },
          { text: "The operating sys-" },
          { text: "tems are described here, with the well-" },
          { text: "known parts of manip- ulated data." },
          { text: "All systems use well-known and manipulated values." },
          ...body(4, 1),
        ],
      },
    ];
    const tree = await load(await buildPdf({ pages, outline: [{ title: "Introduction", page: 1 }] }));
    const text = tree.nodes.map((n) => n.text).join("\n");
    expect(text).toContain(
      "The operating systems\nare described here, with the well-known\nparts of manipulated data.",
    );
  });
});

describe("running heads", () => {
  // Printed page numbers run ten ahead of the physical pages. Left pages carry the chapter,
  // right pages the current section: the text of the head changes from one right page to the next.
  const head = (page: number, section: string): LineSpec => ({
    text: "",
    size: 9,
    cells: page % 2 === 0 ? [String(page + 10), "Chapter 1: Introduction"] : [section, String(page + 10)],
  });
  const pages: PageSpec[] = [
    { lines: [{ text: "1 Introduction", size: 16, bold: true }, ...body(8, 1)] },
    { lines: [head(2, ""), { text: "Portability", gap: 30 }, ...body(8, 2)] },
    { lines: [head(3, "1.1 Scope"), { text: "Portability", gap: 30 }, ...body(8, 3)] },
    { lines: [head(4, ""), { text: "Portability", gap: 30 }, ...body(8, 4)] },
    { lines: [head(5, "1.2 Method"), { text: "Method details", gap: 30 }, ...body(8, 5)] },
    { lines: [head(6, ""), { text: "More details", gap: 30 }, ...body(8, 6)] },
    { lines: [head(7, "1.3 Scale"), { text: "Scale details", gap: 30 }, ...body(8, 7)] },
    { lines: [{ text: "2 Results", size: 16, bold: true }, ...body(8, 8)] },
  ];
  const outline = [
    { title: "1 Introduction", page: 1 },
    { title: "2 Results", page: 8 },
  ];

  it("leaves heads that carry the page number or the section title out of node text", async () => {
    const tree = await load(await buildPdf({ pages, outline }));
    const intro = textOf(tree, "1 Introduction");
    expect(intro).not.toMatch(/Chapter 1: Introduction/);
    expect(intro).not.toMatch(/^1\.[123] \w+\t\d+$/m);
    expect(intro).not.toMatch(/^1[2-7]$/m);
    // A body line that opens three pages is content, not a head.
    expect(intro.match(/^Portability$/gm)).toHaveLength(3);
    expect(textOf(tree, "2 Results").startsWith("2 Results\n")).toBe(true);
  });
});

/** An OpenType file holding a CFF font whose glyphs carry `names`, and a cmap sending char 0xE000 + i to glyph i + 1. */
function cffFont(names: string[], pdfjsCharset: boolean): Uint8Array {
  const bytes: number[] = [];
  const u16 = (n: number) => [(n >> 8) & 0xff, n & 0xff];
  const u32 = (n: number) => [(n >>> 24) & 0xff, (n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
  const index = (items: number[][]) => {
    if (items.length === 0) return u16(0);
    const offsets = [1];
    for (const item of items) offsets.push((offsets[offsets.length - 1] as number) + item.length);
    return [...u16(items.length), 4, ...offsets.flatMap(u32), ...items.flat()];
  };
  const STANDARD: Record<string, number> = { fi: 109, fl: 110, emdash: 137, a: 66 };
  const custom = names.filter((n) => STANDARD[n] === undefined);
  const sid = (n: string) => STANDARD[n] ?? 391 + custom.indexOf(n);
  const head = [1, 0, 4, 1];
  const nameIndex = index([[84]]);
  const topSize = index([new Array(12).fill(0)]).length;
  const stringIndex = index(custom.map((n) => [...n].map((c) => c.charCodeAt(0))));
  const charsetAt = head.length + nameIndex.length + topSize + stringIndex.length + 2;
  const sids = pdfjsCharset ? [0, ...names.map(sid)] : names.map(sid);
  const charset = [0, ...sids.flatMap(u16)];
  const charStringsAt = charsetAt + charset.length;
  const top = index([[29, ...u32(charsetAt), 15, 29, ...u32(charStringsAt), 17]]);
  const charStrings = index(Array.from({ length: sids.length + 1 }, () => [14]));
  const cff = [...head, ...nameIndex, ...top, ...stringIndex, ...u16(0), ...charset, ...charStrings];
  // cmap format 4: one segment per glyph, then the closing 0xFFFF segment.
  const segs = [
    ...names.map((_, i) => ({ c: 0xe000 + i, delta: (i + 1 - (0xe000 + i)) & 0xffff })),
    { c: 0xffff, delta: 1 },
  ];
  const sub = [
    ...u16(4),
    ...u16(16 + segs.length * 8),
    ...u16(0),
    ...u16(segs.length * 2),
    ...u16(0),
    ...u16(0),
    ...u16(0),
    ...segs.flatMap((s) => u16(s.c)),
    ...u16(0),
    ...segs.flatMap((s) => u16(s.c)),
    ...segs.flatMap((s) => u16(s.delta)),
    ...segs.flatMap(() => u16(0)),
  ];
  const cmap = [...u16(0), ...u16(1), ...u16(3), ...u16(1), ...u32(12), ...sub];
  const tablesAt = 12 + 2 * 16;
  bytes.push(...u32(0x4f54544f), ...u16(2), ...u16(0), ...u16(0), ...u16(0));
  bytes.push(...[..."CFF "].map((c) => c.charCodeAt(0)), ...u32(0), ...u32(tablesAt), ...u32(cff.length));
  bytes.push(
    ...[..."cmap"].map((c) => c.charCodeAt(0)),
    ...u32(0),
    ...u32(tablesAt + cff.length),
    ...u32(cmap.length),
  );
  bytes.push(...cff, ...cmap);
  return new Uint8Array(bytes);
}

describe("glyphs a partial ToUnicode map loses", () => {
  const names = ["a", "fi", "fl", "ffi", "emdash"];
  const chars = new Map(names.map((_, i) => [10 + i, 0xe000 + i]));

  it("names glyphs from the embedded font, standard and custom strings, with pdf.js's charset shift", () => {
    for (const shifted of [false, true]) {
      const got = glyphNames(cffFont(names, shifted), chars);
      // "a" is a standard name the repair never needs: not reported.
      expect(Object.fromEntries(got)).toEqual({ 11: "fi", 12: "fl", 13: "ffi", 14: "emdash" });
    }
    expect(glyphNames(new Uint8Array([0, 1, 0, 0]), chars).size).toBe(0);
  });

  it("repairs only the codes the PDF's map leaves out", () => {
    const font = {
      data: cffFont(names, true),
      toUnicode: { _map: [...new Array(10).fill(null), "a", null, "fl", null, null] },
      toFontChar: [...new Array(10).fill(null), 0xe000, 0xe001, 0xe002, 0xe003, 0xe004],
    };
    expect(Object.fromEntries(fontRepairs(font) ?? [])).toEqual({ 11: "fi", 13: "ffi", 14: "\u2014" });
    expect(fontRepairs({ ...font, toUnicode: null })).toBeUndefined();
    // Code 39 drawing a right quote reads "'": a fair stand-in, not worth a repair.
    const quote = {
      data: cffFont(["quoteright"], false),
      toUnicode: { _map: [] },
      toFontChar: [] as number[],
    };
    quote.toFontChar[39] = 0xe000;
    expect(fontRepairs(quote)).toBeUndefined();
  });

  it("puts the repaired glyphs back into the text pdf.js extracted", () => {
    const g = (originalCharCode: number, unicode: string) => ({ originalCharCode, unicode });
    const word = (text: string) => [...text].map((c) => g(c.charCodeAt(0), c));
    const ops = {
      fnArray: [1, 2, 1, 2],
      argsArray: [
        ["F1", 10],
        [
          [
            ...word("de"),
            g(12, "\f"),
            ...word("nition"),
            -333,
            g(12, "\f"),
            ...word("nd"),
            g(124, "|"),
            ...word("x"),
          ],
        ],
        ["F2", 10],
        [word("other")],
      ],
    };
    const repairs = new Map([
      [
        "F1",
        new Map([
          [12, "fi"],
          [124, "\u2014"],
        ]),
      ],
    ]);
    const tokens = glyphTokens(ops, { setFont: 1, showText: 2 }, repairs);
    expect(repairStrings(["de nition nd|x"], tokens.get("F1") ?? [])).toEqual(["definition find\u2014x"]);
    // Text that does not line up with the glyphs is left alone.
    expect(repairStrings(["something else"], tokens.get("F1") ?? [])).toBeUndefined();
    expect(tokens.has("F2")).toBe(false);
  });
});

describe("footnotes", () => {
  it("sets a footnote at the page's foot apart from the sentence that runs on to the next page", async () => {
    const pages: PageSpec[] = [
      {
        lines: [
          { text: "Introduction", size: 16, bold: true },
          ...body(6, 1),
          { text: "The matrix is called the basis matrix or" },
          { text: "9 How to prepare such a directory is described in the notes.", size: 8, gap: 300 },
        ],
      },
      { lines: [{ text: "basis of the problem, as shown below." }, ...body(6, 2)] },
    ];
    const tree = await load(await buildPdf({ pages }));
    const text = tree.nodes.map((n) => n.text).join("\n");
    expect(text).toContain("basis matrix or\n\n9 How to prepare such a directory is described in the notes.");
  });
});

describe("extractive summaries of PDF text", () => {
  const plain = (text: string, maxChars = 120) => extractiveSummary(text, { markup: "plain", maxChars });
  const long =
    "The default packages are loaded at start-up, in the order given, before any profile file is read and before the workspace is restored from disk.";

  it("goes past a lead that is only a name", () => {
    const summary = plain(`R_DEFAULT_PACKAGES. ${long}`);
    expect(summary.startsWith("R_DEFAULT_PACKAGES. The default packages are loaded")).toBe(true);
    expect(summary.endsWith("…")).toBe(true);
  });

  it("drops the heading line with its section number", () => {
    expect(
      extractiveSummary("4.1 Background\nThe LP problem can be stated as follows.", {
        markup: "plain",
        title: "Background",
      }),
    ).toBe("The LP problem can be stated as follows.");
  });

  it("starts at a real sentence when the text opens mid-sentence", () => {
    expect(
      plain("and the rest of the earlier sentence ends here. The loader reads PDF files page by page."),
    ).toBe("The loader reads PDF files page by page.");
    expect(plain("ls lists the files of a directory. It takes options.")).toBe(
      "ls lists the files of a directory. It takes options.",
    );
  });
});
