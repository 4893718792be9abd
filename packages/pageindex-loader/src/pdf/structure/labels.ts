import type { Furniture } from "../text/running-heads.js";
import type { ParsedPage, PdfLine } from "../types.js";
import type { Heading } from "./candidates.js";
import { labelledTitles } from "./document-shape.js";
import { compareStyle } from "./style.js";

/** What {@link dropLabels} needs to know about the document. */
export interface LabelContext {
  pages: readonly ParsedPage[];
  body: { size: number };
  furniture?: Furniture;
}

/** What a heading candidate is followed by, up to the next candidate. */
interface Following {
  /** Content lines (running heads and page numbers left out). */
  lines: number;
  /** Of those, lines that read like body text: body size (or larger), mostly letters (counted up to the first). */
  bodyLines: number;
}

/** Most lines a label's caption may have (a name's job title, a chart value). */
const LABEL_LINES = 3;
/** Most lines (none of them body text) after each member of a run of same-looking labels (a list of names, a legend). */
const RUN_LINES = 2;
/** Shortest run of same-looking, nearly empty candidates that is a list rather than headings. */
const RUN_LENGTH = 3;
/** Same-looking candidates on one page from which on they are a directory or a legend, not sections. */
const PAGE_CROWD = 6;

function bodyLike(line: PdfLine, bodySize: number): boolean {
  if (line.size < bodySize - 0.5) return false;
  const visible = line.text.replace(/\s/g, "");
  const letters = visible.replace(/[^\p{L}]/gu, "").length;
  return letters >= 3 && letters >= visible.length * 0.5;
}

/** Counts the lines between each heading's last line and the next heading (headings in document order). */
function following(headings: readonly Heading[], ctx: LabelContext): Following[] {
  return headings.map((h, k) => {
    const next = headings[k + 1];
    let lines = 0;
    let bodyLines = 0;
    const lastPage = next ? next.page : Math.min(ctx.pages.length, h.page + 1);
    // Every rule asks for no body text: the first body line settles it, so counting stops there.
    for (let p = h.page; p <= lastPage && bodyLines === 0; p++) {
      const page = ctx.pages[p - 1];
      if (!page) continue;
      const skip = ctx.furniture?.get(p);
      const from = p === h.page ? (h.endLine ?? h.line) + 1 : 0;
      const to = next && p === next.page ? next.line : page.lines.length;
      for (let i = from; i < to && bodyLines === 0; i++) {
        if (skip?.has(i)) continue;
        lines++;
        if (bodyLike(page.lines[i] as PdfLine, ctx.body.size)) bodyLines++;
      }
    }
    return { lines, bodyLines };
  });
}

/** Headings a rule must not drop: placed by the printed TOC, or numbered (short numbered sections are real). */
const protectedHeading = (h: Heading): boolean => h.tocLevel !== undefined || h.numbering !== undefined;

/**
 * Drops candidates that label a few words rather than head a section: a line followed by at
 * most three lines and none of them body text (a name over a job title, a chart label over its
 * value, a caption), and runs of three or more same-looking candidates each followed by at
 * most two lines and no body text (lists of names, legend entries, chart labels), and
 * candidates of one look crowding a page (six or more: a directory, a diagram). Headings placed by the
 * printed TOC and numbered headings are kept. Linear in the lines between headings.
 */
export function dropLabels(headings: readonly Heading[], ctx: LabelContext): Heading[] {
  const after = following(headings, ctx);
  // A title under its "Chapter 1" or "Part I" label (alone on a part's page) is no caption.
  const titled = labelledTitles(headings);
  const kept = (k: number): boolean => protectedHeading(headings[k] as Heading) || titled[k] === true;
  const drop = new Set<number>();
  headings.forEach((_, k) => {
    const f = after[k] as Following;
    if (!kept(k) && f.lines >= 1 && f.lines <= LABEL_LINES && f.bodyLines === 0) drop.add(k);
  });
  let start = 0;
  const sameLook = (a: Heading, b: Heading) => compareStyle(a.style, b.style) === 0;
  for (let k = 1; k <= headings.length; k++) {
    const prev = headings[k - 1] as Heading;
    const cur = headings[k];
    const f = after[k - 1] as Following;
    const short = f.lines <= RUN_LINES && f.bodyLines === 0;
    const continues = cur !== undefined && short && sameLook(prev, cur);
    if (continues) continue;
    // headings[start..k-1] share a look and each (but possibly the last) is nearly empty.
    if (k - start >= RUN_LENGTH) {
      for (let m = start; m < k; m++) if (!kept(m)) drop.add(m);
    }
    start = k;
  }
  // A page crowded with candidates of one look (a directory of names, a diagram's boxes).
  const crowd = new Map<string, number[]>();
  headings.forEach((h, k) => {
    if (kept(k)) return;
    const key = `${h.page}|${h.style.size}|${h.style.bold}|${h.style.italic}|${h.style.caps}`;
    const list = crowd.get(key) ?? [];
    list.push(k);
    crowd.set(key, list);
  });
  for (const list of crowd.values()) if (list.length >= PAGE_CROWD) for (const k of list) drop.add(k);
  return headings.filter((_, k) => !drop.has(k));
}

/** DocBook, Sphinx and Texinfo admonitions: boxed remarks, never sections. */
const ADMONITION = /^(note|tip|hint|caution|warning|important|attention|danger)s?\s*:?$/i;

/** Drops admonition titles ("Note", "Tip", "Caution:") that are neither numbered nor in the printed TOC. */
export function dropAdmonitions(headings: readonly Heading[]): Heading[] {
  return headings.filter((h) => protectedHeading(h) || !ADMONITION.test(h.title.trim()));
}
