// The groff dev-set renderer (scripts/groff-render.ts, issue 26) bookmarks a roff source's own
// heads: each man page after its .TH as "topic(section)", .SH / .SS at levels 2 / 3, an ms
// document's .NH at its number's level with the title from the next text lines, an me
// document's .sh from its arguments; titles lose roff's escapes; a document in parts is joined
// in the order its recipe lists them, from a native package's own tarball too. With groff's own
// outline convention (spdf.tmac's `.XN`), only numbered heads get an entry, titled with ms's
// section number, and a contents may be printed by spdf's `.TC` (the document's own `.PX` one, or
// one made of `.XN`'s entries).
import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  ME_HEADS,
  MS_HEADS,
  plain,
  sourceDocument,
  upstreamTarball,
  withBookmarks,
  withSpdfOutline,
} from "../../scripts/groff-render.js";

const bookmarks = (roff: string) => roff.split("\n").filter((l) => l.startsWith(".pdfbookmark"));

describe("withBookmarks", () => {
  it("bookmarks a man page's title, sections and subsections", () => {
    const page = [
      '.TH LS 1 "2024" "coreutils"',
      ".SH NAME",
      "ls \\- list",
      ".SH",
      "SEE ALSO",
      '.SS "Exit status"',
    ];
    const roff = withBookmarks(page.join("\n"), [
      { name: "SH", level: 2, title: "args" },
      { name: "SS", level: 3, title: "args" },
    ]);
    expect(bookmarks(roff)).toEqual([
      '.pdfbookmark 1 "LS(1)"',
      '.pdfbookmark 2 "NAME"',
      '.pdfbookmark 2 "SEE ALSO"',
      '.pdfbookmark 3 "Exit status"',
    ]);
    // The page's own lines stay, in order, each bookmark before its head (the title's after .TH).
    expect(roff.split("\n").filter((l) => !l.startsWith(".pdfbookmark"))).toEqual(page);
    expect(roff.split("\n")[1]).toBe('.pdfbookmark 1 "LS(1)"');
  });

  it("reads an ms head's level from .NH and its title from the lines up to the next request", () => {
    const roff = withBookmarks(
      [".NH 2", "Current", "\\fIfile\\fP", ".PP", "Text.", ".SH", "Summary", ".LP"].join("\n"),
      MS_HEADS,
    );
    expect(bookmarks(roff)).toEqual(['.pdfbookmark 2 "Current file"', '.pdfbookmark 1 "Summary"']);
  });

  it("reads a title past look requests and takes font macros' text", () => {
    const roff = withBookmarks(
      [".SH", ".ce 1", "\\s+2Session 1\\s0", ".SH", "Using", ".I ex", ".PP"].join("\n"),
      MS_HEADS,
    );
    expect(bookmarks(roff)).toEqual(['.pdfbookmark 1 "Session 1"', '.pdfbookmark 1 "Using ex"']);
  });

  it("reads an me head's level and title from its arguments", () => {
    const roff = withBookmarks(
      ['.sh 3 "Tweaking the \\*(SD Makefile"', ".pp", '.uh "Index"'].join("\n"),
      ME_HEADS,
    );
    expect(bookmarks(roff)).toEqual(['.pdfbookmark 3 "Tweaking the Makefile"', '.pdfbookmark 1 "Index"']);
  });
});

describe("withSpdfOutline", () => {
  const entries = (roff: string) => roff.split("\n").filter((l) => l.startsWith(".pdfhref O"));

  it("outlines numbered heads only, after the head, at its level and with its number", () => {
    const source = [
      ".NH 1",
      "Overview",
      ".PP",
      "Text.",
      ".SH",
      "lpr: unknown printer",
      ".NH 2",
      "\\fBlpd\\fP daemon",
    ];
    const roff = withSpdfOutline(source.join("\n"), MS_HEADS);
    // The level and number are groff's own (nh*hl, SN), read once .NH has set them.
    expect(entries(roff)).toEqual([
      '.pdfhref O \\n[nh*hl] "\\*[SN] Overview"',
      '.pdfhref O \\n[nh*hl] "\\*[SN] lpd daemon"',
    ]);
    expect(roff.split("\n")[1]).toBe(entries(roff)[0]);
    expect(roff.split("\n").filter((l) => !l.startsWith(".pdfhref"))).toEqual(source);
  });

  it("makes a contents of .XN's entries, printed by .TC at the end, for a document without one", () => {
    const roff = withSpdfOutline(
      [".NH 1", "Overview", ".SH", "Notes", ".PP", "Text."].join("\n"),
      MS_HEADS,
      "tc",
    );
    const lines = roff.split("\n");
    expect(lines.slice(1, 5)).toEqual([
      '.pdfhref O \\n[nh*hl] "\\*[SN] Overview"',
      ".XS",
      "\\h'\\n[nh*hl]-1m'\\*[SN]\\h'1n'Overview",
      ".XE",
    ]);
    expect(lines.filter((l) => l === ".XS")).toHaveLength(1);
    expect(lines.at(-1)).toBe(".TC");
  });

  it("takes a numbered head macro's title from its arguments", () => {
    const roff = withSpdfOutline('.xH 2 Shell "Commands"\n.LP', [
      { name: "xH", level: "arg", title: "args" },
    ]);
    expect(entries(roff)).toEqual(['.pdfhref O \\n[nh*hl] "\\*[SN] Shell Commands"']);
  });
});

describe("plain", () => {
  it("drops fonts, sizes and non-printing escapes and keeps hyphens and quotes", () => {
    expect(plain("\\fBgit\\fR\\-\\s-1add\\s0 \\(lqx\\(rq\\&")).toBe('git-add "x"');
  });
});

describe("sourceDocument", () => {
  // A source package's download folder as apt-get leaves it: a native tarball (no .orig) beside
  // the Debian one, the document in parts listed out of the archive's order.
  const cache = mkdtempSync(join(tmpdir(), "groff-render-"));
  const dir = join(cache, "src", "pkg");
  const tree = join(cache, "tree");
  mkdirSync(join(tree, "pkg-1.0", "doc"), { recursive: true });
  writeFileSync(join(tree, "pkg-1.0", "doc", "0.t"), ".TL\nManual\n.NH 1\nIntroduction\n.PP\nText.");
  writeFileSync(join(tree, "pkg-1.0", "doc", "1.t"), ".NH 2\nSetup\n.PP\nMore.\n.PX");
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, "pkg_1.0-1.debian.tar.gz"), "");
  execFileSync("tar", [
    "-czf",
    join(dir, "pkg_1.0.tar.gz"),
    "-C",
    tree,
    "pkg-1.0/doc/1.t",
    "pkg-1.0/doc/0.t",
  ]);
  afterAll(() => rmSync(cache, { recursive: true, force: true }));

  it("takes a native package's own tarball, not the Debian one", () => {
    expect(upstreamTarball(dir)).toBe("pkg_1.0.tar.gz");
  });

  it("joins a document's parts in the order given, each head bookmarked", () => {
    const roff = sourceDocument(
      "pkg",
      { kind: "doc", file: ["pkg-1.0/doc/0.t", "pkg-1.0/doc/1.t"], macros: "ms", heads: MS_HEADS },
      cache,
    );
    expect(bookmarks(roff ?? "")).toEqual(['.pdfbookmark 1 "Introduction"', '.pdfbookmark 2 "Setup"']);
    expect(roff?.indexOf(".TL")).toBeLessThan(roff?.indexOf("Setup") ?? -1);
  });

  it("outlines by spdf's convention and prints a .PX contents with spdf's .TC when asked", () => {
    const recipe = {
      kind: "doc",
      file: ["pkg-1.0/doc/0.t", "pkg-1.0/doc/1.t"],
      macros: "ms",
      heads: MS_HEADS,
    } as const;
    const spdf = sourceDocument("pkg", { ...recipe, outline: "spdf" }, cache) ?? "";
    expect(bookmarks(spdf)).toEqual([]);
    expect(spdf.split("\n").filter((l) => l.startsWith(".pdfhref O"))).toHaveLength(2);
    expect(spdf).toContain(".PX");
    const tc = sourceDocument("pkg", { ...recipe, outline: "spdf", contents: "tc" }, cache) ?? "";
    expect(tc).not.toMatch(/^\.PX/m);
    expect(tc).toMatch(/^\.TC$/m);
    // The document's own contents entries stand: none added.
    expect(tc).not.toMatch(/^\.XS/m);
  });
});
