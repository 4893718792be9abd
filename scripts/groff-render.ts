/**
 * groff-made PDFs for the dev set's train side (issue 26), rendered here from real roff sources
 * that Debian ships, because no Debian package ships a groff PDF with an outline (the eleventh
 * and twelfth sessions' searches). Two kinds of source:
 *
 * - a binary package's English man pages gathered into one reference manual
 *   (`groff -Tpdf -man -t`), each page a level-1 bookmark "topic(section)", its `.SH` heads
 *   level 2 and `.SS` heads level 3 — the outline groff 1.23's `an.tmac` writes by itself; the
 *   machine's groff (1.22.4) does not, so a `.pdfbookmark` line is written beside each head;
 * - an ms or me document from a source package (`apt-get source --download-only`, which needs
 *   a `deb-src` line in apt's sources), its numbered and unnumbered heads bookmarked at their
 *   level the same way; or (`outline: "spdf"`) by groff's own convention for ms, what
 *   `spdf.tmac`'s `.XN` writes: numbered heads only, titled with their numbers, `.SH` heads left
 *   out, made by gropdf or by `pdfroff` (grops and Ghostscript).
 *
 * Needs groff's PDF driver (`apt-get install groff`: gropdf and pdfroff; groff-base alone has
 * none; pdfroff also needs Ghostscript) and, for the source documents, a `deb-src` line. Only
 * bookmarks are added (and, with `contents: "tc"`, spdf's `.TC` contents): the text, macros
 * and fonts are the document's, and groff lays it out. Rendered once into `CACHE/rendered/PKG/NAME.pdf` (outside the repository, never
 * committed); the dev set's rows name them with a path under `rendered/`.
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { gunzipSync } from "node:zlib";
import { type DebianPdf, excludedPackage, unpackedPackage } from "./debian-docs.js";
import { type RdManual, rdManualPdf } from "./rd-render.js";

/** A heading macro of a source document and how its title and level are read. */
export interface HeadMacro {
  /** The request's name without the dot: "NH", "SH", "sh", "uh", "Sh". */
  name: string;
  /** The bookmark level, or "arg" for the first argument's number (`.NH 2`, `.sh 2 "…"`). */
  level: number | "arg";
  /** Where the title is: the arguments (after the level, when it is one), or the next text lines. */
  title: "args" | "next";
}

/** How a rendered dev-set PDF is made. */
export type GroffRecipe = ManBook | SourceDocument;

/** A binary package's English man pages as one reference manual. */
export interface ManBook {
  kind: "man";
  /** Man page file names (without `.gz`) to leave out. */
  skip?: readonly string[];
}

/** An ms or me document in a source package's upstream tarball. */
export interface SourceDocument {
  kind: "doc";
  /** Path of the document inside the tarball, or its parts in the order its Makefile joins them. */
  file: string | readonly string[];
  /**
   * The macro package: groff's ms or me, or (with `macroFile`) one the document ships, as `-m`
   * finds it.
   */
  macros: "ms" | "me" | "mn";
  /**
   * A macro file shipped beside the document (NetHack's `tmac.n`): the document's folder is
   * unpacked and groff runs there, so `-mNAME` and the document's `.so` lines find their files.
   */
  macroFile?: string;
  heads: readonly HeadMacro[];
  /**
   * Whose outline: "heads" (the default) bookmarks every head at its level, as written beside
   * it; "spdf" is groff's own convention for ms (`spdf.tmac`, as `pdfroff -mspdf` and
   * `groff -Tpdf -mspdf` use it): only numbered heads (`level: "arg"`) become bookmarks, at their
   * level and titled with their number (`.XN`: "1.2. Title"); unnumbered ones (`.SH`) are left out.
   */
  outline?: "heads" | "spdf";
  /**
   * Who makes the PDF: gropdf (`groff -Tpdf`, the default) or `pdfroff` (grops then Ghostscript,
   * in as many passes as its outline and contents need: the tool spdf.tmac was written for).
   */
  driver?: "gropdf" | "pdfroff";
  /**
   * With spdf: a contents printed by spdf's `.TC`, as a document written for spdf has — titled,
   * bookmarked, moved to the front by pdfroff: the document's own (ms's `.PX`), else one made of
   * the entries `.XN` writes.
   */
  contents?: "tc";
}

/** A dev-set PDF made here (by groff, or by R's Rd2pdf: rd-render.ts); `path` is `rendered/NAME.pdf`. */
export interface RenderedPdf extends DebianPdf {
  render: GroffRecipe | RdManual;
}

/** The ms package's heads: `.NH n` (numbered) and `.SH` (unnumbered), titles on the next lines. */
export const MS_HEADS: readonly HeadMacro[] = [
  { name: "NH", level: "arg", title: "next" },
  { name: "SH", level: 1, title: "next" },
];
/** The me package's heads: `.sh n "title"` and `.uh "title"`. */
export const ME_HEADS: readonly HeadMacro[] = [
  { name: "sh", level: "arg", title: "args" },
  { name: "uh", level: 1, title: "args" },
];

/** Whether a dev-set row is rendered here rather than shipped as a PDF. */
export const isRendered = (doc: DebianPdf): doc is RenderedPdf => "render" in doc;

/** The rendered PDF's bytes (rendering it once), or undefined (with a message) when its source cannot be fetched. */
export function renderedPdfBytes(doc: RenderedPdf, cache: string): Uint8Array | undefined {
  if (excludedPackage(doc.pkg)) throw new Error(`${doc.pkg} is held out of the evaluations`);
  const out = join(cache, "rendered", doc.pkg, basename(doc.path));
  if (!existsSync(out)) {
    const recipe = doc.render;
    const pdf =
      recipe.kind === "rd" ? rdManualPdf(doc.pkg, recipe, cache) : groffPdf(doc.pkg, recipe, cache, out);
    if (pdf === undefined) return undefined;
    mkdirSync(dirname(out), { recursive: true });
    writeFileSync(out, pdf);
  }
  return new Uint8Array(readFileSync(out));
}

/** The PDF groff makes of a man-page book or a source document, or undefined when its source cannot be fetched. */
function groffPdf(pkg: string, recipe: GroffRecipe, cache: string, out: string): Buffer | undefined {
  const roff = recipe.kind === "man" ? manBook(pkg, recipe, cache) : sourceDocument(pkg, recipe, cache);
  if (roff === undefined) return undefined;
  mkdirSync(dirname(out), { recursive: true });
  return runGroff(roff, recipe, groffFolder(pkg, recipe, cache), out);
}

/** The PDF groff makes of `roff`; pdfroff reads it from a file beside `out` (its passes reread it). */
function runGroff(roff: string, recipe: GroffRecipe, cwd: string | undefined, out: string): Buffer {
  const options = {
    cwd,
    maxBuffer: 1 << 30,
    stdio: ["pipe", "pipe", "ignore"] as ["pipe", "pipe", "ignore"],
  };
  if (recipe.kind !== "doc" || recipe.driver !== "pdfroff")
    return execFileSync("groff", groffArgs(recipe), { ...options, input: roff });
  const input = `${out}.roff`;
  writeFileSync(input, roff);
  try {
    return execFileSync("pdfroff", [...groffArgs(recipe).slice(1), input], options);
  } finally {
    rmSync(input);
  }
}

function groffArgs(recipe: GroffRecipe): string[] {
  // -k: preconv for UTF-8 sources; -t: tbl; -rC1: one page count across a book's man pages.
  if (recipe.kind === "man") return ["-Tpdf", "-k", "-t", "-man", "-rC1"];
  // -M.: the document's own macro file, in the folder groff runs in; spdf.tmac loads ms itself.
  const macros = recipe.outline === "spdf" ? "-mspdf" : `-${recipe.macros}`;
  return ["-Tpdf", "-k", "-t", ...(recipe.macroFile ? ["-M."] : []), macros];
}

/**
 * Where groff runs: the document's folder unpacked from its tarball when it ships its own macros
 * (called after `sourceDocument` fetched the tarball), else the caller's folder.
 */
function groffFolder(pkg: string, recipe: GroffRecipe, cache: string): string | undefined {
  if (recipe.kind !== "doc" || !recipe.macroFile) return undefined;
  const dir = join(cache, "src", pkg);
  const tar = upstreamTarball(dir);
  if (!tar) return undefined;
  const folder = dirname(documentParts(recipe)[0] as string);
  const root = join(dir, "unpacked");
  mkdirSync(root, { recursive: true });
  execFileSync("tar", ["-xf", join(dir, tar), "-C", root, folder]);
  return join(root, folder);
}

const documentParts = (recipe: SourceDocument): readonly string[] =>
  typeof recipe.file === "string" ? [recipe.file] : recipe.file;

/** A binary package's English man pages (`.TH` pages, sorted by section then name), bookmarked, as one input. */
function manBook(pkg: string, recipe: ManBook, cache: string): string | undefined {
  const root = unpackedPackage(pkg, cache);
  if (!root) return undefined;
  const man = join(root, "usr/share/man");
  const skip = new Set(recipe.skip ?? []);
  const pages: { section: string; name: string; text: string }[] = [];
  for (const dir of existsSync(man) ? readdirSync(man) : []) {
    const section = /^man(\d)$/.exec(dir)?.[1];
    if (!section) continue;
    for (const file of readdirSync(join(man, dir))) {
      const name = file.replace(/\.gz$/, "");
      if (skip.has(name)) continue;
      const raw = readFileSync(join(man, dir, file));
      const text = (file.endsWith(".gz") ? gunzipSync(raw) : raw).toString("utf8");
      if (/^\.TH\s/m.test(text)) pages.push({ section, name, text });
    }
  }
  if (pages.length === 0) {
    console.log(`skipped ${pkg}: no man pages to render`);
    return undefined;
  }
  pages.sort((a, b) => a.section.localeCompare(b.section) || a.name.localeCompare(b.name));
  return pages.map((p) => withBookmarks(p.text, MAN_HEADS)).join("\n");
}

const MAN_HEADS: readonly HeadMacro[] = [
  { name: "SH", level: 2, title: "args" },
  { name: "SS", level: 3, title: "args" },
];

/** A document from a source package's upstream tarball (its parts joined in order), bookmarked. */
export function sourceDocument(pkg: string, recipe: SourceDocument, cache: string): string | undefined {
  const dir = join(cache, "src", pkg);
  mkdirSync(dir, { recursive: true });
  const tarball = () => upstreamTarball(dir);
  if (!tarball()) {
    try {
      execFileSync("apt-get", ["source", "--download-only", pkg], { cwd: dir, stdio: "pipe" });
    } catch (error) {
      // apt-get may fail on the Debian part after the upstream tarball came; only a missing tarball is fatal.
      if (!tarball()) {
        console.log(
          `skipped ${pkg}: apt-get source failed (a deb-src line is needed): ${(error as Error).message.split("\n")[0]}`,
        );
        return undefined;
      }
    }
  }
  const tar = tarball();
  if (!tar) return undefined;
  // One part at a time, so that the parts keep their Makefile's order (tar -O keeps the archive's).
  const text = documentParts(recipe)
    .map((file) =>
      execFileSync("tar", ["-xOf", join(dir, tar), file], { maxBuffer: 1 << 28 }).toString("utf8"),
    )
    .join("\n");
  if (recipe.outline !== "spdf") return withBookmarks(text, recipe.heads);
  return withSpdfOutline(text, recipe.heads, recipe.contents);
}

/**
 * The source package's upstream tarball in its download folder: the `.orig` one, or the only
 * tarball of a native package (lpr's).
 */
export function upstreamTarball(dir: string): string | undefined {
  const tarballs = readdirSync(dir).filter((f) => /\.tar\.(gz|xz|bz2)$/.test(f));
  return tarballs.find((f) => f.includes(".orig.")) ?? tarballs.find((f) => !f.includes(".debian."));
}

/**
 * The roff source with a `.pdfbookmark LEVEL "title"` line before each head the macros name (for
 * man pages also after each `.TH`, titled "topic(section)"). A head whose title is on the next
 * lines takes them up to the next request.
 */
export function withBookmarks(source: string, heads: readonly HeadMacro[]): string {
  const lines = source.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    const request = /^[.']\s*(\S+)\s*(.*)$/.exec(line);
    const macro = request && heads.find((h) => h.name === request[1]);
    if (request?.[1] === "TH") {
      const [topic, section] = roffArgs(request[2] ?? "");
      out.push(line);
      if (topic) out.push(bookmark(1, `${plain(topic)}(${plain(section ?? "")})`));
      continue;
    }
    if (request && macro) {
      let args = roffArgs(request[2] ?? "");
      let level = 1;
      if (macro.level === "arg") {
        level = Math.max(1, Number.parseInt(args[0] ?? "1", 10) || 1);
        args = args.slice(1);
      } else level = macro.level;
      let title = macro.title === "args" ? args.join(" ") : "";
      if (!title) title = nextLinesTitle(lines, i + 1);
      const text = plain(title);
      if (text) out.push(bookmark(level, text));
    }
    out.push(line);
  }
  return out.join("\n");
}

/**
 * The ms source with spdf's outline entry after each numbered head (`level: "arg"`), as `.XN`
 * writes it: `.pdfhref O` at the head's level (`nh*hl`) titled with ms's section number (`SN`)
 * and the title, read after the head has set them. Unnumbered heads get none. With `contents`,
 * the contents is printed by spdf's `.TC` (titled, bookmarked, moved to the front by pdfroff): in
 * place of ms's `.PX` when the document prints its own, else at its end, from the entry `.XN`
 * makes for each outlined head (indented by its level, its number, its title).
 */
export function withSpdfOutline(source: string, heads: readonly HeadMacro[], contents?: "tc"): string {
  const ownContents = /^\.PX\b/m.test(source);
  const entries = contents === "tc" && !ownContents;
  const lines = source.split("\n");
  const out: string[] = [];
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i] as string;
    out.push(contents === "tc" && /^\.PX\b/.test(line) ? line.replace(/^\.PX/, ".TC") : line);
    const request = /^[.']\s*(\S+)\s*(.*)$/.exec(line);
    const macro = request && heads.find((h) => h.name === request[1] && h.level === "arg");
    if (!request || !macro) continue;
    const args = roffArgs(request[2] ?? "").slice(1);
    const title = plain(macro.title === "args" ? args.join(" ") : nextLinesTitle(lines, i + 1));
    if (!title) continue;
    out.push(`.pdfhref O \\n[nh*hl] "\\*[SN] ${title.replace(/"/g, "''")}"`);
    if (entries) out.push(".XS", `\\h'\\n[nh*hl]-1m'\\*[SN]\\h'1n'${title}`, ".XE");
  }
  if (entries) out.push(".TC");
  return out.join("\n");
}

/** Requests that set a head's look and leave its text going on: `.ce`, `.ft`, `.ps` … */
const LOOK_REQUESTS = new Set(["ce", "ft", "ps", "ul", "cu", "bd", "ss"]);
/** Font macros whose first argument is text of the head (`.I ex`); the second is trailing punctuation. */
const FONT_MACROS = new Set(["B", "I", "R", "BI", "CW", "UL", "BX"]);

/** A head's title from the lines after it, up to the first request that is not a look or font one. */
function nextLinesTitle(lines: readonly string[], from: number): string {
  const words: string[] = [];
  for (let j = from; j < lines.length; j++) {
    const line = lines[j] as string;
    const request = /^[.']\s*(\S+)\s*(.*)$/.exec(line);
    if (!request) words.push(line);
    else if (FONT_MACROS.has(request[1] as string)) words.push(...roffArgs(request[2] ?? "").slice(0, 2));
    else if (!LOOK_REQUESTS.has(request[1] as string)) break;
  }
  return words.join(" ");
}

const bookmark = (level: number, title: string) => `.pdfbookmark ${level} "${title.replace(/"/g, "''")}"`;

/** A request's arguments: blank-separated, double quotes group ("" inside is a quote). */
function roffArgs(rest: string): string[] {
  const args: string[] = [];
  const re = /"((?:[^"]|"")*)"?|(\S+)/g;
  for (let m = re.exec(rest); m; m = re.exec(rest))
    args.push(m[1] !== undefined ? m[1].replace(/""/g, '"') : (m[2] as string));
  return args;
}

/** A title without roff escapes (fonts, sizes, special characters, strings), as a reader sees it. */
export function plain(text: string): string {
  return text
    .replace(/\\".*$/, "")
    .replace(/\\f(\[[^\]]*\]|\(..|.)/g, "")
    .replace(/\\s[+-]?(\[[^\]]*\]|\(..|\d+)/g, "")
    .replace(/\\\*(\[[^\]]*\]|\(..|.)/g, "")
    .replace(/\\\((lq|rq|oq|cq|dq)/g, '"')
    .replace(/\\\((em|en|hy)/g, "-")
    .replace(/\\\(..|\\\[[^\]]*\]/g, "")
    .replace(/\\-/g, "-")
    .replace(/\\[&|^%c]/g, "")
    .replace(/\\[ ~0]/g, " ")
    .replace(/\\e/g, "\\")
    .replace(/\\(.)/g, "$1")
    .replace(/\s+/g, " ")
    .trim();
}
