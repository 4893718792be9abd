/**
 * Does each section's text start at its own heading (issue 18)? Runs the loader on outline PDFs
 * whose sections start mid-page, reference manuals with a running head on every page (Debian
 * documentation packages, fetched like scripts/eval-pdf-devset.ts does and cached in
 * `~/.cache/pageindex-devset`; never committed), through three paths:
 * - `outline`: the loader as users run it (the outline's destinations give page and y);
 * - `llm`: the same bookmarks with only title and page, as the LLM pipeline gives them, so the
 *   heading must be found by its text (the path a model's sections take);
 * - `layout`: the outline hidden, structure from the page layout (on a few documents).
 *
 * Per document and path:
 * - starts: % of sections whose text begins with their own heading, among the sections whose
 *   title is printed on their start page (a bookmark titled unlike any line cannot be checked;
 *   how many those are is shown);
 * - next: sections whose text holds the heading of the section after them (a line that starts
 *   with that title, past the first line), counted only when the next title is printed on its
 *   own start page; when the next section's text starts with its own heading, the line is only a
 *   mention of it (texts never overlap) and is counted apart;
 * - coverage: every node's own text in reading order against the document's body text (all page
 *   lines minus running heads, footers and page numbers as the loader detects them), compared as
 *   multisets of lines: characters lost and characters duplicated, and whether the whitespace-free
 *   concatenations are equal.
 *
 * Run: pnpm build && npx tsx scripts/eval-section-starts.ts [--only NAME] [--show NAME] [--paths outline,llm,layout]
 */
import { homedir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { createTree, type TreeNode } from "pageindex-core";
import { pdfToTree } from "pageindex-loader";
import {
  cleanTitle,
  compactTitle,
  layoutContext,
  outlineStructure,
  type ParsedPage,
  readPdf,
  type SectionEntry,
  stripNumbering,
  titleSimilarity,
} from "../packages/pageindex-loader/src/pdf/index.js";
import { callArity } from "../packages/pageindex-loader/src/pdf/structure/heading-position.js";
// The steps every path ends in, fed the bookmarks' titles and pages as a model's sections would be.
import {
  bodyFurniture,
  entriesToDrafts,
  locateEntries,
  orderPositions,
  TextSlicer,
} from "../packages/pageindex-loader/src/pdf/structure/sections.js";
import { joinPageLines } from "../packages/pageindex-loader/src/pdf/text/dehyphenate.js";
import {
  type Furniture,
  textFurniture,
  withEdgeBands,
} from "../packages/pageindex-loader/src/pdf/text/running-heads.js";
import { debianPdfs } from "./debian-docs.js";

interface EvalDoc {
  pkg: string;
  path: string;
  /** Also run the layout path (outline hidden). */
  layout?: boolean;
}

const ERL = "usr/share/doc/erlang-doc/lib";
/** Reference manuals with running heads; sections (functions, options, topics) start mid-page. */
const DOCS: readonly EvalDoc[] = [
  { pkg: "erlang-doc", path: `${ERL}/crypto-5.1.2/doc/pdf/crypto-5.1.2.pdf`, layout: true },
  { pkg: "erlang-doc", path: `${ERL}/sasl-4.2/doc/pdf/sasl-4.2.pdf`, layout: true },
  { pkg: "erlang-doc", path: `${ERL}/tools-3.5.3/doc/pdf/tools-3.5.3.pdf` },
  { pkg: "erlang-doc", path: `${ERL}/kernel-8.5.3/doc/pdf/kernel-8.5.3.pdf` },
  { pkg: "erlang-doc", path: `${ERL}/stdlib-4.2/doc/pdf/stdlib-4.2.pdf` },
  { pkg: "octave-doc", path: "usr/share/doc/octave/liboctave.pdf", layout: true },
  { pkg: "pari-doc", path: "usr/share/pari/doc/users.pdf" },
  { pkg: "pari-doc", path: "usr/share/pari/doc/develop.pdf", layout: true },
  { pkg: "gap-doc", path: "usr/share/gap/doc/tut/manual.pdf", layout: true },
  { pkg: "gap-doc", path: "usr/share/gap/doc/hpc/manual.pdf" },
  { pkg: "maxima-doc", path: "usr/share/doc/maxima-doc/maximabook-19-Sept-2004.pdf.gz" },
];

const { values } = parseArgs({
  options: {
    cache: { type: "string", default: join(homedir(), ".cache", "pageindex-devset") },
    only: { type: "string" },
    show: { type: "string" },
    paths: { type: "string", default: "outline,llm,layout" },
  },
});
const cache = values.cache as string;
const paths = new Set((values.paths as string).split(","));

/** A section as the checks see it. */
interface Section {
  title: string;
  text: string;
  startPage: number;
}

const keysOf = (title: string): string[] =>
  [...new Set([compactTitle(title), compactTitle(stripNumbering(title))])].filter((k) => k.length >= 2);

/** A function's bookmark ("list/1") is printed as its call ("list(Type)"). */
const ARITY = /^([\w.:$-]+)\/(\d+)$/;
/** A list item is not a heading. */
const BULLET = /^\s*[•◦▪‣∙·*–-]\s/;

/** The line (or it and the next, for a wrapped title) reads as the title. */
function isHeading(title: string, line: string, next: string | undefined): boolean {
  if (BULLET.test(line)) return false;
  const call = ARITY.exec(title);
  // "cookie() = atom()" defines a type of that name; the function's heading is its call.
  // Functions that differ only in arity ("sort/1", "sort/2") are told apart by the call's arguments.
  if (call) {
    if (!line.replace(/\s+/g, "").startsWith(`${call[1]}(`) || /\)\s*=/.test(line)) return false;
    const arity = callArity(line, call[1] as string);
    return arity === undefined || arity === Number(call[2]);
  }
  if (
    titleSimilarity(title, line) >= 0.8 ||
    titleSimilarity(stripNumbering(title), stripNumbering(line)) >= 0.8
  )
    return true;
  // A title wrapped onto the next line: this line is its first part.
  const here = compactTitle(line);
  const joined = compactTitle(`${line} ${next ?? ""}`);
  return keysOf(title).some(
    (k) => here.length >= k.length * 0.4 && k.startsWith(here) && joined.startsWith(k),
  );
}

const bodyLines = (text: string): string[] => text.split("\n").filter((l) => l.trim().length > 0);

/** The title is printed on the page as a heading (outside running heads). */
function printedOn(
  page: ParsedPage | undefined,
  skip: ReadonlySet<number> | undefined,
  title: string,
): boolean {
  if (!page) return false;
  return page.lines.some((l, i) => !skip?.has(i) && isHeading(title, l.text, page.lines[i + 1]?.text));
}

interface Scores {
  sections: number;
  checkable: number;
  starting: number;
  /** Texts holding the next section's heading, which is then missing from the next one's start. */
  containsNext: number;
  /** Texts with a line reading like the next heading while the next text starts with its own. */
  mentionsNext: number;
  lost: number;
  duplicated: number;
  equal: boolean;
  bad: string[];
}

function score(
  sections: readonly Section[],
  pages: readonly ParsedPage[],
  furniture: ReadonlyMap<number, ReadonlySet<number>>,
): Scores {
  const s: Scores = {
    sections: 0,
    checkable: 0,
    starting: 0,
    containsNext: 0,
    mentionsNext: 0,
    lost: 0,
    duplicated: 0,
    equal: false,
    bad: [],
  };
  const printed = sections.map((x) => printedOn(pages[x.startPage - 1], furniture.get(x.startPage), x.title));
  const startsAtHeading = sections.map((x) => {
    const lines = bodyLines(x.text);
    return lines[0] !== undefined && isHeading(x.title, lines[0], lines[1]);
  });
  sections.forEach((x, i) => {
    s.sections++;
    const lines = bodyLines(x.text);
    if (printed[i]) {
      s.checkable++;
      if (startsAtHeading[i]) s.starting++;
      else s.bad.push(`starts wrong: "${x.title}" p${x.startPage} begins "${(lines[0] ?? "").slice(0, 60)}"`);
    }
    const next = sections[i + 1];
    if (next && printed[i + 1]) {
      // A table-of-contents line (dot leaders, a page number) names a section without being its heading.
      const at = lines.findIndex(
        (l, j) =>
          j > 0 && cleanTitle(l) === l.replace(/\s+/g, " ").trim() && isHeading(next.title, l, lines[j + 1]),
      );
      // When the next section's text starts at its own heading, the line here is a mention of
      // it (a cross-reference, a chapter list, an example call): texts never overlap (coverage).
      if (at > 0 && startsAtHeading[i + 1]) {
        s.mentionsNext++;
        s.bad.push(`mentions next: "${x.title}" p${x.startPage} names "${next.title}" at its line ${at}`);
      } else if (at > 0) {
        s.containsNext++;
        s.bad.push(`holds next: "${x.title}" p${x.startPage} holds "${next.title}" at its line ${at}`);
      }
    }
  });
  // Coverage: the body's lines against the nodes' lines, as multisets.
  // Each page's body lines joined as the loader joins a section's lines (words split at line ends
  // mended, footnotes set apart), so the comparison is line for line.
  const body: string[] = [];
  for (const page of pages) {
    const skip = furniture.get(page.pageNumber);
    const lines = page.lines.filter((l, i) => !skip?.has(i) && l.text.trim()).map((l) => l.text);
    if (lines.length > 0) body.push(...bodyLines(joinPageLines(lines, pages)));
  }
  const counts = new Map<string, number>();
  for (const l of body) counts.set(l, (counts.get(l) ?? 0) + 1);
  const nodeLines = sections.flatMap((x) => bodyLines(x.text));
  for (const l of nodeLines) counts.set(l, (counts.get(l) ?? 0) - 1);
  for (const [l, n] of counts) {
    const chars = l.replace(/\s+/g, "").length;
    if (n > 0) s.lost += n * chars;
    if (n < 0) s.duplicated += -n * chars;
  }
  const squash = (ls: string[]) => ls.join("").replace(/\s+/g, "");
  s.equal = squash(body) === squash(nodeLines);
  return s;
}

const nodeSections = (nodes: readonly TreeNode[]): Section[] =>
  nodes.map((n) => ({ title: n.title, text: n.text, startPage: n.startPage ?? 1 }));

/**
 * The bookmarks as the LLM pipeline gives sections: a page and the title as printed there (the
 * line the destination points at, which a model reading the page would quote), no position.
 */
function asModelSections(entries: readonly SectionEntry[], pages: readonly ParsedPage[]): SectionEntry[] {
  return entries.map((e) => {
    const printed = e.line === undefined ? undefined : pages[e.page - 1]?.lines[e.line]?.text.trim();
    return { title: printed || e.title, page: e.page, children: asModelSections(e.children, pages) };
  });
}

/** Furniture without the lines where sections start (as the loader cuts text). */
function withoutHeadings(furniture: Furniture, nodes: readonly TreeNode[]): Furniture {
  const out = new Map(furniture);
  for (const n of nodes) {
    const pos = n.position;
    const lines = pos && out.get(pos.page);
    if (!pos || !lines?.has(pos.line - 1)) continue;
    const kept = new Set(lines);
    kept.delete(pos.line - 1);
    out.set(pos.page, kept);
  }
  return out;
}

const pct = (a: number, b: number): string => (b === 0 ? "-" : ((100 * a) / b).toFixed(1));

console.log(
  "doc | path | pages | sections | title printed | start at heading % | hold next heading | mention next heading | chars lost | chars duplicated | text equal",
);
console.log("--- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---");
const totals = new Map<
  string,
  { checkable: number; starting: number; containsNext: number; mentionsNext: number }
>();
for (const { doc, name, label, bytes } of debianPdfs(DOCS, cache, values.only)) {
  const pdf = await readPdf(bytes, { source: label });
  // As the loader does: headings are located past the layout's furniture and edge bands; text
  // leaves out the running heads the text cleaning finds (textFurniture), never a heading line.
  const located = withEdgeBands(pdf.pages, layoutContext(pdf.pages).furniture);
  const furniture = textFurniture(pdf.pages, located);
  const runs: Array<[string, () => Promise<TreeNode[]>]> = [];
  const load = (structure: "outline" | "layout") => async () => {
    const tree = await pdfToTree(bytes, { structure, summaries: "none", split: false, docName: name });
    return tree.nodes;
  };
  if (paths.has("outline")) runs.push(["outline", load("outline")]);
  if (paths.has("llm")) {
    runs.push([
      "llm",
      async () => {
        const bookmarks = outlineStructure(pdf.outline).entries;
        locateEntries(bookmarks, pdf.pages, located);
        const entries = asModelSections(bookmarks, pdf.pages);
        locateEntries(entries, pdf.pages, located);
        orderPositions(entries);
        const drafts = entriesToDrafts(entries, new TextSlicer(pdf.pages, bodyFurniture(furniture, entries)));
        const tree = createTree(
          { docId: "eval", docName: name, kind: "pdf", build: { loader: "pdf", structure: "llm" } },
          drafts,
        );
        return tree.nodes;
      },
    ]);
  }
  if (paths.has("layout") && doc.layout) runs.push(["layout", load("layout")]);
  for (const [path, run] of runs) {
    let nodes: TreeNode[];
    try {
      nodes = await run();
    } catch (error) {
      console.log(`${name} | ${path} | failed: ${(error as Error).message}`);
      continue;
    }
    const s = score(nodeSections(nodes), pdf.pages, withoutHeadings(furniture, nodes));
    const t = totals.get(path) ?? { checkable: 0, starting: 0, containsNext: 0, mentionsNext: 0 };
    t.checkable += s.checkable;
    t.starting += s.starting;
    t.containsNext += s.containsNext;
    t.mentionsNext += s.mentionsNext;
    totals.set(path, t);
    console.log(
      `${name} | ${path} | ${pdf.pageCount} | ${s.sections} | ${s.checkable} | ${pct(s.starting, s.checkable)} | ${s.containsNext} | ${s.mentionsNext} | ${s.lost} | ${s.duplicated} | ${s.equal ? "yes" : "no"}`,
    );
    if (values.show && label.includes(values.show)) for (const b of s.bad.slice(0, 40)) console.log(`  ${b}`);
  }
}
for (const [path, t] of totals) {
  console.log(
    `\n${path}: ${pct(t.starting, t.checkable)} % of ${t.checkable} sections start at their heading; ${t.containsNext} hold the next one's heading, ${t.mentionsNext} more only mention it`,
  );
}
