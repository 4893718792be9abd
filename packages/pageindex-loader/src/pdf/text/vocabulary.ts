import type { PdfPage } from "../types.js";

const LETTER = /\p{L}/u;
const SPACE = /\s/u;
const HYPHEN = 45;

/** Length of the letter (a whole code point) starting at `i`, 0 when none does. */
function letterAt(text: string, i: number): number {
  const c = text.charCodeAt(i);
  if (c < 128) return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) ? 1 : 0;
  if (Number.isNaN(c)) return 0;
  const cp = text.codePointAt(i) as number;
  return LETTER.test(String.fromCodePoint(cp)) ? (cp > 0xffff ? 2 : 1) : 0;
}

/** Whether the code point ending just before `i` is a letter. */
function letterBefore(text: string, i: number): boolean {
  if (i <= 0) return false;
  const low = text.charCodeAt(i - 1);
  const astral = low >= 0xdc00 && low <= 0xdfff && i >= 2 && (text.charCodeAt(i - 2) & 0xfc00) === 0xd800;
  return letterAt(text, astral ? i - 2 : i - 1) > 0;
}

const spaceAt = (text: string, i: number): boolean =>
  i >= 0 && i < text.length && SPACE.test(text[i] as string);

/** End of the run of letters from `i`. */
function lettersEnd(text: string, i: number): number {
  let j = i;
  for (let n = letterAt(text, j); n > 0; n = letterAt(text, j)) j += n;
  return j;
}

/**
 * The next word from `from` as [start, end] ([-1, -1] when none): letters joined by single
 * hyphens ("well-known"), not glued to a letter or hyphen before it, and not broken at a line
 * end: a word whose last part is followed by "-" and a space ("sys-\ntems", "manip- ulated")
 * loses that part, and a lone such part is no word (nor is what follows it). One scan of the
 * text; it finds what `/(?<![\p{L}-]|-\s)\p{L}+(?:-\p{L}+)*(?!\p{L}|-\s)/gu` finds, several
 * times faster (the expression cost the layout path about 5 % of raw text extraction).
 */
export function nextWord(text: string, from: number): [number, number] {
  let i = from;
  while (i < text.length) {
    const n = letterAt(text, i);
    if (n === 0) {
      i++;
      continue;
    }
    const glued =
      letterBefore(text, i) ||
      text.charCodeAt(i - 1) === HYPHEN ||
      (spaceAt(text, i - 1) && text.charCodeAt(i - 2) === HYPHEN);
    const first = lettersEnd(text, i);
    if (glued) {
      i = first;
      continue;
    }
    // Ends of the hyphen-joined parts: the whole chain, else the chain without its last part.
    let end = first;
    let previous = -1;
    while (text.charCodeAt(end) === HYPHEN && letterAt(text, end + 1) > 0) {
      previous = end;
      end = lettersEnd(text, end + 1);
    }
    const broken = text.charCodeAt(end) === HYPHEN && spaceAt(text, end + 1);
    if (!broken) return [i, end];
    if (previous >= 0) return [i, previous];
    i = first;
  }
  return [-1, -1];
}

/**
 * The words a document uses, counted from its page text: the evidence de-hyphenation weighs
 * ("sys-\ntems" is joined because "systems" occurs elsewhere; "well-\nknown" keeps its hyphen
 * because "well-known" does).
 *
 * @example
 * const vocab = Vocabulary.of(pages);
 * vocab.count("systems"); // how often "systems" stands in the document
 * vocab.compoundCount("well", "known"); // how often "well-known" does
 */
export class Vocabulary {
  private readonly words = new Map<string, number>();
  private readonly compounds = new Map<string, number>();

  /** Counts the words of some texts (lower-cased). */
  static fromTexts(texts: Iterable<string>): Vocabulary {
    const vocab = new Vocabulary();
    for (const text of texts) vocab.add(text);
    return vocab;
  }

  private static readonly cache = new WeakMap<readonly PdfPage[], Vocabulary>();

  /** The vocabulary of a document's pages, counted once per pages array. */
  static of(pages: readonly PdfPage[]): Vocabulary {
    let vocab = Vocabulary.cache.get(pages);
    if (!vocab) {
      vocab = Vocabulary.fromTexts(pages.map((p) => p.text));
      Vocabulary.cache.set(pages, vocab);
    }
    return vocab;
  }

  private add(text: string): void {
    for (let [start, end] = nextWord(text, 0); start >= 0; [start, end] = nextWord(text, end)) {
      const parts = text.slice(start, end).toLowerCase().split("-");
      for (const part of parts) this.words.set(part, (this.words.get(part) ?? 0) + 1);
      for (let i = 0; i + 1 < parts.length; i++) {
        const key = `${parts[i]}-${parts[i + 1]}`;
        this.compounds.set(key, (this.compounds.get(key) ?? 0) + 1);
      }
    }
  }

  /** Occurrences of a word (case-insensitive). */
  count(word: string): number {
    return this.words.get(word.toLowerCase()) ?? 0;
  }

  /** Occurrences of the hyphenated compound "left-right" (case-insensitive). */
  compoundCount(left: string, right: string): number {
    return this.compounds.get(`${left}-${right}`.toLowerCase()) ?? 0;
  }
}
