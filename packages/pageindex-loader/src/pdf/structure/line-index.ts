import type { Furniture } from "../text/running-heads.js";
import type { ParsedPage, PdfLine } from "../types.js";
import { compactTitle, normalizedSimilarity, normalizeTitle, stripNumbering } from "./titles.js";

/** A line's place. */
interface Pos {
  page: number;
  line: number;
}

/** A line's letters-only text (with or without its numbering) and where it is. */
interface Keyed {
  key: string;
  pos: Pos;
}

/** A body line's forms that {@link LineIndex.find} compares titles with, worked out once per line. */
interface LineForms {
  /** The text and the text without its numbering, normalised ({@link normalizeTitle}). */
  normal: string;
  normalStripped: string;
  /** Compact text of the line, and of the line joined with the next (a wrapped title); on first use. */
  compact?: string;
  joined?: string;
}

/** Share of a title a line must start with to be a candidate (the similarity bar is 0.8). */
const PREFIX_SHARE = 0.8;
/** Shortest first part of a title a wrapped line may hold (its rest on the next line). */
const WRAP_SHARE = 0.4;
/** Buckets of lines sharing only their first letters are searched up to this size (reworded titles). */
const BUCKET_CAP = 64;
const BUCKET_CHARS = 6;

function push<K>(map: Map<K, Pos[]>, key: K, pos: Pos): void {
  const list = map.get(key);
  if (list) list.push(pos);
  else map.set(key, [pos]);
}

/**
 * The body's lines indexed for finding where printed-TOC titles start. A title's candidates are
 * the lines that start with most of it (a range of a sorted array), the lines holding its first
 * part when it wraps (exact look-ups), and, when few, the lines sharing its first letters, so
 * one look-up costs a binary search plus its real candidates: a reference manual whose 3,000
 * entries all start with "igraph_" no longer compares every entry with every such line.
 */
export class LineIndex {
  private readonly sorted: Keyed[] = [];
  private readonly exact = new Map<string, Pos[]>();
  private readonly buckets = new Map<string, Pos[]>();
  /** {@link LineForms} by page index and line: a line is a candidate for many titles. */
  private readonly forms: Array<Array<LineForms | undefined> | undefined> = [];

  constructor(
    private readonly pages: readonly ParsedPage[],
    from: Pos,
    furniture?: Furniture,
  ) {
    for (const page of pages) {
      if (page.pageNumber < from.page) continue;
      const skip = furniture?.get(page.pageNumber);
      const first = page.pageNumber === from.page ? Math.max(0, from.line) : 0;
      for (let i = first; i < page.lines.length; i++) {
        // A running head repeats a title on every page: it is never where a section starts.
        if (skip?.has(i)) continue;
        // One place per line, shared by its keys: `find` tells lines apart by identity.
        const pos = { page: page.pageNumber, line: i };
        for (const key of LineIndex.keys((page.lines[i] as PdfLine).text)) {
          this.sorted.push({ key, pos });
          push(this.exact, key, pos);
          if (key.length >= 4) push(this.buckets, key.slice(0, BUCKET_CHARS), pos);
        }
      }
    }
    this.sorted.sort((a, b) =>
      a.key < b.key ? -1 : a.key > b.key ? 1 : a.pos.page - b.pos.page || a.pos.line - b.pos.line,
    );
  }

  /** The compact text with and without its numbering (one form when they are equal). */
  private static keys(text: string): string[] {
    const a = compactTitle(text);
    const stripped = stripNumbering(text);
    // Most lines carry no numbering: stripped, they are themselves, and compact the same.
    const b = stripped === text.trim() ? a : compactTitle(stripped);
    if (a === b) return a.length > 0 ? [a] : [];
    return [a, b].filter((k) => k.length > 0);
  }

  /** Lines whose key starts with `prefix`. */
  private startingWith(prefix: string, out: Pos[]): void {
    let lo = 0;
    let hi = this.sorted.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if ((this.sorted[mid] as Keyed).key < prefix) lo = mid + 1;
      else hi = mid;
    }
    for (let i = lo; i < this.sorted.length; i++) {
      const k = this.sorted[i] as Keyed;
      if (!k.key.startsWith(prefix)) break;
      out.push(k.pos);
    }
  }

  private candidates(title: string): Pos[] {
    const out: Pos[] = [];
    for (const target of LineIndex.keys(title)) {
      if (target.length < 4) continue;
      this.startingWith(target.slice(0, Math.max(4, Math.ceil(target.length * PREFIX_SHARE))), out);
      for (let k = Math.ceil(target.length * WRAP_SHARE); k < target.length; k++) {
        for (const pos of this.exact.get(target.slice(0, k)) ?? []) out.push(pos);
      }
      const bucket = this.buckets.get(target.slice(0, BUCKET_CHARS));
      if (bucket && bucket.length <= BUCKET_CAP) out.push(...bucket);
    }
    return out;
  }

  /** The line's normalised forms, worked out on its first comparison. */
  private formsOf(pos: Pos, text: string): LineForms {
    let page = this.forms[pos.page - 1];
    if (!page) {
      page = [];
      this.forms[pos.page - 1] = page;
    }
    let forms = page[pos.line];
    if (!forms) {
      forms = { normal: normalizeTitle(text), normalStripped: normalizeTitle(stripNumbering(text)) };
      page[pos.line] = forms;
    }
    return forms;
  }

  /** Places where a title starts a line (also across a wrap onto the next line), scored 0..1. */
  find(title: string): Array<{ page: number; line: number; score: number }> {
    const seen = new Set<Pos>();
    const out: Array<{ page: number; line: number; score: number }> = [];
    const strippedTitle = stripNumbering(title);
    const target = compactTitle(title);
    const bare = compactTitle(strippedTitle);
    const normal = normalizeTitle(title);
    const normalStripped = normalizeTitle(strippedTitle);
    for (const pos of this.candidates(title)) {
      if (seen.has(pos)) continue;
      seen.add(pos);
      const lines = (this.pages[pos.page - 1] as ParsedPage).lines;
      const text = (lines[pos.line] as PdfLine).text;
      const forms = this.formsOf(pos, text);
      let score = Math.max(
        normalizedSimilarity(normal, forms.normal),
        normalizedSimilarity(normalStripped, forms.normalStripped),
      );
      const next = lines[pos.line + 1];
      if (score < 0.8 && next) {
        forms.compact ??= compactTitle(text);
        forms.joined ??= compactTitle(`${text} ${next.text}`);
        const here = forms.compact;
        const joined = forms.joined;
        for (const t of [target, bare]) {
          if (
            t.length > 0 &&
            t.startsWith(here) &&
            here.length >= t.length * WRAP_SHARE &&
            joined.startsWith(t)
          )
            score = 0.9;
        }
      }
      if (score >= 0.8) out.push({ page: pos.page, line: pos.line, score });
    }
    return out;
  }
}
