import type { PdfPage } from "../types.js";

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
    // A word broken at a line end ("sys-\ntems", "manip- ulated") is no evidence for its halves.
    for (const m of text.matchAll(/(?<![\p{L}-]|-\s)\p{L}+(?:-\p{L}+)*(?!\p{L}|-\s)/gu)) {
      const token = m[0].toLowerCase();
      // Most words carry no hyphen: counted as they are, with no parts array.
      if (!token.includes("-")) {
        this.words.set(token, (this.words.get(token) ?? 0) + 1);
        continue;
      }
      const parts = token.split("-");
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
