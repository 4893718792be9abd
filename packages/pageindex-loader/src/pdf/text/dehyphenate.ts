import type { ParsedPage } from "../types.js";
import { footnotesOf } from "./footnotes.js";
import { Vocabulary } from "./vocabulary.js";

/** A word broken by a hyphen (or a soft hyphen) at the end of a line. */
const LINE_END_BREAK = /(\p{L}+)([-\u00ad])$/u;
/** {@link LINE_END_BREAK}'s match, tried only on a line that ends in a hyphen (the regex scans the whole line). */
function lineEndBreak(line: string): RegExpExecArray | null {
  const last = line.charCodeAt(line.length - 1);
  return last === 0x2d || last === 0xad ? LINE_END_BREAK.exec(line) : null;
}
/** The first word of a line, the punctuation stuck to it, and the rest of the line. */
const LINE_START_WORD = /^(\p{L}+)(\S*)\s*(.*)$/su;
/** A hyphen and a space inside a line, where pdf.js joined a line-end break with the next run. */
const INLINE_BREAK = /(?<!\p{L}-?)(\p{L}+)- (\p{L}+)(?!\p{L})/gu;

/**
 * Whether a word split as `left` + hyphen + `right` was one word hyphenated at a line end
 * (join without the hyphen) rather than a compound (keep it). The document is the evidence:
 * the form it uses elsewhere wins; with none, a lower-case continuation that is not itself a
 * word on both sides ("sys" + "tems") is a hyphenated word, two words ("cost" + "effective")
 * a compound. `strict` (a break inside one line, which may be "pre- and post-") joins only on
 * evidence or when neither half is a word.
 */
export function isHyphenatedWord(left: string, right: string, vocab: Vocabulary, strict = false): boolean {
  const joined = vocab.count(left + right);
  const compound = vocab.compoundCount(left, right);
  if (joined > 0 || compound > 0) return joined >= compound;
  if (!/^\p{Ll}/u.test(right)) return false;
  const leftWord = vocab.count(left) > 0;
  const rightWord = vocab.count(right) > 0;
  return strict ? !leftWord && !rightWord : !(leftWord && rightWord);
}

/**
 * Whether {@link joinLines} carries the first word of `line` up to `previous` (the previous line
 * ends in a word broken by a hyphen): `line` then starts mid-word, and a section cut there would
 * split that word between two texts.
 */
export function continuesBrokenWord(previous: string, line: string): boolean {
  return lineEndBreak(previous) !== null && LINE_START_WORD.test(line);
}

/** Joins "manip- ulated" inside one line when the document says it is one word. */
export function joinInlineBreaks(line: string, vocab: Vocabulary): string {
  if (!line.includes("- ")) return line;
  return line.replace(INLINE_BREAK, (whole, left: string, right: string) =>
    isHyphenatedWord(left, right, vocab, true) ? left + right : whole,
  );
}

/**
 * Joins a page's lines into text, mending words broken at line ends: "sys-" + "tems are" becomes
 * "systems" + "are" (the continuation moves up to its first half, so a line never starts
 * mid-word), a compound "well-" + "known" becomes "well-known", and "manip- ulated" inside a
 * line is joined too. A soft hyphen (U+00AD) always marks a hyphenated word. Lines listed in
 * `footnotes` (a footnote's first line) start a paragraph of their own, and no word is joined
 * into them.
 *
 * @example
 * joinLines(["the sys-", "tems are"], Vocabulary.fromTexts(["systems"])); // "the systems\nare"
 */
export function joinLines(
  lines: readonly string[],
  vocab: Vocabulary,
  footnotes: ReadonlySet<string> = new Set(),
): string {
  const out: string[] = [];
  let carry: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    if (carry === undefined && out.length > 0 && footnotes.has(lines[i] as string)) out.push("");
    let line = joinInlineBreaks(carry ?? (lines[i] as string), vocab);
    carry = undefined;
    const next = lines[i + 1];
    const end = lineEndBreak(line);
    const start = !end || next === undefined || footnotes.has(next) ? null : LINE_START_WORD.exec(next);
    if (end && start) {
      const left = end[1] as string;
      const right = start[1] as string;
      const soft = end[2] === "\u00ad";
      const keep = !soft && !isHyphenatedWord(left, right, vocab);
      line = `${line.slice(0, end.index)}${left}${keep ? "-" : ""}${right}${start[2]}`;
      const rest = start[3] as string;
      if (rest.length > 0) carry = rest;
      else i++;
    }
    out.push(line);
  }
  return out.join("\n");
}

/** {@link joinLines} with the vocabulary and footnotes of the document the lines come from. */
export function joinPageLines(lines: readonly string[], pages: readonly ParsedPage[]): string {
  return joinLines(lines, Vocabulary.of(pages), footnotesOf(pages));
}
