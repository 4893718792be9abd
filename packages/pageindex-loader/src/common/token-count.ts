import o200kBase from "js-tiktoken/ranks/o200k_base";
import { countTokens } from "pageindex-core";

// Token counts of whole documents, fast: the same number as `countTokens` from pageindex-store
// (o200k_base), which spends most of its time in the pre-tokenising regex (Unicode property
// classes, a match object per piece) and in merging the same word again and again. Here ASCII
// text is cut into pieces by a hand-written scanner that decides exactly what the regex
// decides, and each distinct piece is counted once by `countTokens` and remembered. Any piece
// whose decision involves a non-ASCII character is cut by the regex itself, so the pieces, and
// therefore the count, are always the regex's.

// Character classes of o200k's split pattern restricted to ASCII: letters are A-Z (upper) and
// a-z (lower), numbers 0-9, whitespace \t \n \v \f \r and space.
const OTHER = 0;
const UPPER = 1;
const LOWER = 2;
const DIGIT = 3;
const NEWLINE = 4; // \r \n: whitespace, and excluded from the pattern's optional prefix
const BLANK = 5; // \t \v \f space: whitespace, allowed as the prefix

const CLASS = new Uint8Array(128);
for (let c = 0; c < 128; c++) {
  if (c >= 65 && c <= 90) CLASS[c] = UPPER;
  else if (c >= 97 && c <= 122) CLASS[c] = LOWER;
  else if (c >= 48 && c <= 57) CLASS[c] = DIGIT;
  else if (c === 10 || c === 13) CLASS[c] = NEWLINE;
  else if (c === 9 || c === 11 || c === 12 || c === 32) CLASS[c] = BLANK;
  else CLASS[c] = OTHER;
}
/** Class of the character at `i`: -1 for a non-ASCII character, -2 past the end. */
function classAt(text: string, i: number): number {
  if (i >= text.length) return -2;
  const c = text.charCodeAt(i);
  return c < 128 ? (CLASS[c] as number) : -1;
}

const NON_ASCII = -1;
/** What the scanner returns when a decision would read a non-ASCII character. */
const DELEGATE = -1;

/** `'s 't 're 've 'm 'll 'd` in any case after a word (the pattern's contractions): its length, or 0. */
function contraction(text: string, i: number): number {
  if (text.charCodeAt(i) !== 39) return 0;
  // `| 32` lower-cases a letter and maps no other character onto one (NaN past the end: 32).
  const a = text.charCodeAt(i + 1) | 32;
  if (a === 115 || a === 116 || a === 109 || a === 100) return 2; // s t m d
  if (a === 114 || a === 118 || a === 108) {
    const b = text.charCodeAt(i + 2) | 32;
    if ((a === 114 || a === 118) && b === 101) return 3; // re ve
    if (a === 108 && b === 108) return 3; // ll
  }
  return 0;
}

/** End of a run of `cls` characters from `i`, or DELEGATE when the run stops at a non-ASCII one. */
function runEnd(text: string, i: number, cls: number): number {
  let j = i;
  for (;;) {
    const k = classAt(text, j);
    if (k === cls) j++;
    else return k === NON_ASCII ? DELEGATE : j;
  }
}

/** A word: optional prefix char already skipped to `at`; upper* lower+ or upper+ lower*, then a contraction. */
function wordEnd(text: string, at: number): number {
  const upper = runEnd(text, at, UPPER);
  if (upper === DELEGATE) return DELEGATE;
  const lower = runEnd(text, upper, LOWER);
  if (lower === DELEGATE) return DELEGATE;
  if (lower === upper && upper === at) return 0; // no letter at all
  const tail = contraction(text, lower);
  return tail === DELEGATE ? DELEGATE : lower + tail;
}

/**
 * End of the piece the o200k pattern matches at `p`, for ASCII text: the alternatives in the
 * pattern's order — a word with an optional non-letter, non-digit prefix; 1-3 digits; an optional
 * space and a run of punctuation with trailing newlines or slashes; whitespace up to its last
 * newline; whitespace not followed by a non-space; any whitespace. DELEGATE when the decision
 * reads a non-ASCII character (the regex decides those).
 */
export function asciiPieceEnd(text: string, p: number): number {
  const first = classAt(text, p);
  if (first === NON_ASCII) return DELEGATE;
  if (first === UPPER || first === LOWER) return wordEnd(text, p);
  if (first === DIGIT) {
    let j = p + 1;
    for (; j < p + 3; j++) {
      const k = classAt(text, j);
      if (k === NON_ASCII) return DELEGATE; // a non-ASCII digit would continue the run
      if (k !== DIGIT) break;
    }
    return j;
  }
  if (first === OTHER || first === BLANK) {
    // The prefix: one character that is not a letter, a digit or a newline.
    const next = classAt(text, p + 1);
    if (next === NON_ASCII) return DELEGATE;
    if (next === UPPER || next === LOWER) return wordEnd(text, p + 1);
  }
  if (first === OTHER || (first === BLANK && text.charCodeAt(p) === 32)) {
    // ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
    const start = first === OTHER ? p : p + 1;
    const punct = runEnd(text, start, OTHER);
    if (punct === DELEGATE) return DELEGATE;
    if (punct > start) {
      let j = punct;
      for (let c = text.charCodeAt(j); c === 10 || c === 13 || c === 47; c = text.charCodeAt(j)) j++;
      return j;
    }
  }
  // Whitespace (`first` is BLANK or NEWLINE here, OTHER never reaches: it matched above).
  let end = p;
  let lastNewline = -1;
  for (;;) {
    const k = classAt(text, end);
    if (k === NON_ASCII) return DELEGATE;
    if (k !== BLANK && k !== NEWLINE) break;
    if (k === NEWLINE) lastNewline = end;
    end++;
  }
  if (lastNewline >= 0) return lastNewline + 1; // `\s*[\r\n]+`
  if (end === text.length || end - p === 1) return end; // `\s+(?!\S)` at the end, or `\s+`
  return end - 1; // `\s+(?!\S)`: the last blank goes with the next word
}

const isLower = (c: number): boolean => c >= 97 && c <= 122;

/**
 * The commonest piece, fast: a lower-case word, alone or after one space (" the"), ended by an
 * ASCII character other than a letter or an apostrophe (which could start a contraction).
 * 0 when the piece is anything else; {@link asciiPieceEnd} decides those.
 */
function lowerWordEnd(text: string, p: number): number {
  let j = text.charCodeAt(p) === 32 ? p + 1 : p;
  if (!isLower(text.charCodeAt(j))) return 0;
  while (isLower(text.charCodeAt(++j)));
  if (j === text.length) return j;
  const c = text.charCodeAt(j);
  return c < 128 && c !== 39 && !(c >= 65 && c <= 90) ? j : 0;
}

let sticky: RegExp | undefined;
/** The regex's piece at `p` (for the rare non-ASCII decisions). */
function regexPieceEnd(text: string, p: number): number {
  sticky ??= new RegExp(o200kBase.pat_str.replaceAll("('s|", "(?:'s|"), "uy");
  sticky.lastIndex = p;
  const match = sticky.exec(text);
  // Every character starts some alternative, so the pattern always matches; guard regardless.
  return match && match[0].length > 0 ? p + match[0].length : p + 1;
}

/**
 * Counts of pieces seen, in an open-addressing table probed by a hash of the piece's characters
 * where they stand: a repeated word costs no string allocation (it is compared in place).
 */
const SLOTS = 1 << 18;
const slotPieces: Array<string | undefined> = new Array(SLOTS);
const slotCounts = new Int32Array(SLOTS);
let slotsUsed = 0;
/** Longer pieces (a ruler, base64) rarely repeat and would pin large strings in memory. */
const LONGEST_REMEMBERED = 64;

function pieceCount(text: string, start: number, end: number): number {
  const length = end - start;
  if (length > LONGEST_REMEMBERED) return countTokens(text.slice(start, end));
  let hash = 0x811c9dc5;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 0x01000193);
  let slot = hash & (SLOTS - 1);
  for (let piece = slotPieces[slot]; piece !== undefined; piece = slotPieces[slot]) {
    if (piece.length === length && text.startsWith(piece, start)) return slotCounts[slot] as number;
    slot = (slot + 1) & (SLOTS - 1);
  }
  const piece = text.slice(start, end);
  const count = countTokens(piece);
  // Three-quarters full: start over, so probes stay short.
  if (slotsUsed >= (SLOTS >> 2) * 3) {
    slotPieces.fill(undefined);
    slotsUsed = 0;
    slot = hash & (SLOTS - 1);
  }
  slotPieces[slot] = piece;
  slotCounts[slot] = count;
  slotsUsed += 1;
  return count;
}

/**
 * `countTokens(text)` (o200k_base), several times faster on mostly-ASCII text and equal on
 * every input: the pieces are the pre-tokenising pattern's, each counted by `countTokens`.
 */
export function countDocumentTokens(text: string): number {
  let total = 0;
  const n = text.length;
  for (let p = 0; p < n; ) {
    let end = lowerWordEnd(text, p);
    if (end <= p) end = asciiPieceEnd(text, p);
    if (end <= p) end = regexPieceEnd(text, p);
    // One ASCII character is one byte, one token.
    total += end - p === 1 && text.charCodeAt(p) < 128 ? 1 : pieceCount(text, p, end);
    p = end;
  }
  return total;
}
