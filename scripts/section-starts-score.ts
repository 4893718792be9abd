/**
 * How the section-start evaluations score a tree's sections against the pages (issues 18, 26):
 * whether each section's text opens with its own heading, whether it holds the next one's, and
 * the characters lost or duplicated against the document's body text. Shared by
 * scripts/eval-section-starts.ts and scripts/eval-devset-starts.ts.
 */
import type { TreeNode } from "pageindex-core";
import {
  cleanTitle,
  compactTitle,
  type ParsedPage,
  type SectionEntry,
  stripNumbering,
  titleSimilarity,
} from "../packages/pageindex-loader/src/pdf/index.js";
import { callArity } from "../packages/pageindex-loader/src/pdf/structure/heading-position.js";
import { joinPageLines } from "../packages/pageindex-loader/src/pdf/text/dehyphenate.js";
import type { Furniture } from "../packages/pageindex-loader/src/pdf/text/running-heads.js";

/** A section as the checks see it. */
export interface Section {
  title: string;
  text: string;
  startPage: number;
}

const keysOf = (title: string): string[] =>
  [...new Set([compactTitle(title), compactTitle(stripNumbering(title))])].filter((k) => k.length >= 2);

/** A function's bookmark ("list/1") is printed as its call ("list(Type)"). */
const ARITY = /^([\w.:$-]+)\/(\d+)$/;
/** A C function's bookmark ("ei_encode_atom()"), printed as its declaration. */
const C_FUNCTION = /^([A-Za-z_]\w*)\(\)$/;
/** A list item is not a heading. */
const BULLET = /^\s*[•◦▪‣∙·*–-]\s/;

/**
 * A line that calls the title (`as.function(x, ...)` for the topic "as.function"): a usage
 * line, not the heading, unless the title is itself a call or a `name/arity` reference.
 */
function callsTitle(title: string, line: string): boolean {
  if (/[()]/.test(title) || ARITY.test(title)) return false;
  const t = title.replace(/\s+/g, "");
  return t.length > 0 && line.replace(/\s+/g, "").startsWith(`${t}(`);
}

/**
 * A C declaration of the function `name` (`int ei_encode_atom(char *buf, …)`, `char
 * **ei_global_names(ec,fd,count)`): a return type of a few words and stars, then the name and its
 * argument list. Erlang's C references (erl_interface) print each function so, the bookmark
 * "ei_encode_atom()" pointing at it; read as a title, the long line scores below 0.8.
 */
function declares(name: string, line: string): boolean {
  return new RegExp(`^(?:[A-Za-z_]\\w*[\\s*]+){0,4}\\**${name}\\s*\\(`).test(line.trim());
}

/**
 * The line (or it and the next, for a wrapped title) reads as the title. A heading set with
 * something at its right (a reference manual's "name<tab>Description of it") reads as its
 * first run.
 */
export function isHeading(title: string, line: string, next: string | undefined): boolean {
  if (BULLET.test(line) || callsTitle(title, line)) return false;
  const call = ARITY.exec(title);
  // "cookie() = atom()" defines a type of that name; the function's heading is its call.
  // Functions that differ only in arity ("sort/1", "sort/2") are told apart by the call's arguments.
  if (call) {
    // "7.1.2 dynamic/1": a numbered heading printing the reference itself.
    if (titleSimilarity(title, stripNumbering(line)) >= 0.95) return true;
    if (!line.replace(/\s+/g, "").startsWith(`${call[1]}(`) || /\)\s*=/.test(line)) return false;
    const arity = callArity(line, call[1] as string);
    return arity === undefined || arity === Number(call[2]);
  }
  const fn = C_FUNCTION.exec(title.trim());
  if (fn && declares(fn[1] as string, line)) return true;
  const runs = line.split("\t").length > 1 ? [line, line.split("\t")[0] as string] : [line];
  for (const text of runs) {
    if (
      titleSimilarity(title, text) >= 0.8 ||
      titleSimilarity(stripNumbering(title), stripNumbering(text)) >= 0.8
    )
      return true;
  }
  // A title wrapped onto the next line: this line is its first part.
  const here = compactTitle(line);
  const joined = compactTitle(`${line} ${next ?? ""}`);
  return keysOf(title).some(
    (k) => here.length >= k.length * 0.4 && k.startsWith(here) && joined.startsWith(k),
  );
}

const bodyLines = (text: string): string[] => text.split("\n").filter((l) => l.trim().length > 0);

/** The title is printed on the page as a heading (outside running heads). */
export function printedOn(
  page: ParsedPage | undefined,
  skip: ReadonlySet<number> | undefined,
  title: string,
): boolean {
  if (!page) return false;
  return page.lines.some((l, i) => !skip?.has(i) && isHeading(title, l.text, page.lines[i + 1]?.text));
}

export interface Scores {
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

export function score(
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
    if (n !== 0) s.bad.push(`${n > 0 ? "lost" : "duplicated"} ×${Math.abs(n)}: "${l.slice(0, 80)}"`);
  }
  const squash = (ls: string[]) => ls.join("").replace(/\s+/g, "");
  s.equal = squash(body) === squash(nodeLines);
  return s;
}

export const nodeSections = (nodes: readonly TreeNode[]): Section[] =>
  nodes.map((n) => ({ title: n.title, text: n.text, startPage: n.startPage ?? 1 }));

/**
 * The bookmarks as the LLM pipeline gives sections: a page and the title as printed there (the
 * line the destination points at, which a model reading the page would quote), no position.
 */
export function asModelSections(
  entries: readonly SectionEntry[],
  pages: readonly ParsedPage[],
): SectionEntry[] {
  return entries.map((e) => {
    const printed = e.line === undefined ? undefined : pages[e.page - 1]?.lines[e.line]?.text.trim();
    return { title: printed || e.title, page: e.page, children: asModelSections(e.children, pages) };
  });
}

/**
 * Furniture without the lines where sections start (as the loader cuts text). A line is freed
 * only when the node's text opens with it: a node placed at a page's top without a heading (the
 * "Preface" before the first bookmark) starts at a running head the loader rightly drops, and
 * freeing that head counted it lost (issue 26, LibreOffice guides: 90 characters).
 */
export function withoutHeadings(
  furniture: Furniture,
  nodes: readonly TreeNode[],
  pages: readonly ParsedPage[],
): Furniture {
  const squash = (t: string) => t.replace(/\s+/g, "");
  const out = new Map(furniture);
  for (const n of nodes) {
    const pos = n.position;
    const lines = pos && out.get(pos.page);
    if (!pos || !lines?.has(pos.line - 1)) continue;
    const heading = squash(pages[pos.page - 1]?.lines[pos.line - 1]?.text ?? "");
    if (!heading || !squash(n.text).startsWith(heading)) continue;
    const kept = new Set(lines);
    kept.delete(pos.line - 1);
    out.set(pos.page, kept);
  }
  return out;
}
