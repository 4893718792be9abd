import { describe, expect, it } from "vitest";
import { cleanTitle as cleanModelTitle } from "../src/pdf/llm/entries.js";
import { isCaps } from "../src/pdf/structure/style.js";
import { cleanTitle, compactTitle, normalizeTitle, stripLeaders } from "../src/pdf/structure/titles.js";

describe("dot leaders", () => {
  it("drops spaced, mixed and unspaced leaders with the page number after them", () => {
    expect(cleanTitle("1.1 Legalese . . . . . . . . . . . . 5")).toBe("1.1 Legalese");
    expect(cleanTitle("1.1 Legalese . . . . .")).toBe("1.1 Legalese");
    expect(cleanTitle("Scope ·····  iv")).toBe("Scope");
    expect(cleanTitle("Scope · · · · · 12")).toBe("Scope");
    expect(cleanTitle("Index ______ 112")).toBe("Index");
    expect(cleanTitle("Appendix …… A-3")).toBe("Appendix");
    expect(cleanTitle("Installing . .. . … . 17")).toBe("Installing");
    expect(cleanTitle("Errors - - - - - 9")).toBe("Errors");
    expect(cleanTitle("Overview\t23")).toBe("Overview");
    expect(cleanTitle("2.3 Limits.............. 41 . . . .")).toBe("2.3 Limits");
  });

  it("keeps a title's own numbers and punctuation", () => {
    expect(cleanTitle("Note 12")).toBe("Note 12");
    expect(cleanTitle("Item 7. Management")).toBe("Item 7. Management");
    expect(cleanTitle("Version 2.1.3")).toBe("Version 2.1.3");
    expect(cleanTitle("U.S. Operations")).toBe("U.S. Operations");
    expect(cleanTitle("Client-server - design")).toBe("Client-server - design");
  });

  it("leaves a long line of dots that does not end the title alone", () => {
    const long = `Title ${". ".repeat(50_000)}end`;
    expect(stripLeaders(long) === long).toBe(true);
    expect(stripLeaders("Note 12 ")).toBe("Note 12");
    expect(stripLeaders(`Title ${". ".repeat(50_000)}`)).toBe("Title");
  });

  it("cleans a model's titles the same way", () => {
    expect(cleanModelTitle("1.1 Legalese . . . . . 5")).toBe("1.1 Legalese");
  });
});

describe("title normalising", () => {
  // A combining accent sends a title down the general (Unicode) path and normalises away, so
  // each pair checks the one-pass ASCII path against the general one.
  const ascii = [
    "ITEM 7. MANAGEMENT'S Discussion",
    "  Don't & DON`T--3.2 (Ab)c  ",
    "R&D&&Q",
    "&leading and trailing&",
    "tab\tand\nnewline\u0001control",
    "1.2.3",
    "...",
    "",
  ];

  it("reads ASCII titles as the general path does", () => {
    for (const t of ascii) {
      expect(normalizeTitle(t)).toBe(normalizeTitle(`${t}\u0301`));
      expect(compactTitle(t)).toBe(compactTitle(`${t}\u0301`));
    }
    expect(normalizeTitle("  Don't & DON`T--3.2 (Ab)c  ")).toBe("dont and dont 3 2 ab c");
    expect(compactTitle("R&D&&Q")).toBe("randdandandq");
    expect(normalizeTitle("Café ÉTÉ")).toBe("cafe ete");
  });

  it("reads bullets, dashes and curly quotes as word breaks, and other non-ASCII text as the general path does", () => {
    expect(normalizeTitle("• Getting started — “quick” tour\u00a0(2)")).toBe("getting started quick tour 2");
    expect(compactTitle("• Getting started — “quick” tour")).toBe("gettingstartedquicktour");
    // A right single quote is dropped, not a break; a ligature, superscript or fullwidth
    // ampersand decomposes to letters, digits or "and".
    expect(normalizeTitle("Don’t – panic")).toBe("dont panic");
    expect(normalizeTitle("ﬁle • x² ＆ y")).toBe("file x2 and y");
    expect(compactTitle("Σ • ſ")).toBe("σs");
    // Seen once as a break, a character stays one; a letter after it still takes the general path.
    expect(normalizeTitle("a•b")).toBe("a b");
    expect(normalizeTitle("a•é")).toBe("a e");
  });

  it("drops control characters and BOMs from titles", () => {
    expect(cleanTitle("\ufeffIntro\u0007duction\u007f  to\tit")).toBe("Introduction to it");
  });

  it("takes a line for capitals when its three or more letters are all upper case", () => {
    expect(isCaps("INTRODUCTION")).toBe(true);
    expect(isCaps("1.2 API")).toBe(true);
    expect(isCaps("AB 12")).toBe(false);
    expect(isCaps("Introduction")).toBe(false);
    expect(isCaps("ÉTÉ CHAUD")).toBe(true);
    expect(isCaps("ÉTÉ chaud")).toBe(false);
    expect(isCaps("ÉTÉ")).toBe(true);
    expect(isCaps("日本語")).toBe(false);
    // A lone short ASCII word is an acronym, its capitals its spelling.
    expect(isCaps("SSH")).toBe(false);
    expect(isCaps("INDEX")).toBe(true);
    expect(isCaps("SEE ALSO")).toBe(true);
  });
});
