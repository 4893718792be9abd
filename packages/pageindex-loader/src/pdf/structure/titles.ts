/**
 * Title cleaning and fuzzy matching, shared by the outline, printed-TOC and layout paths and
 * by the evaluation script.
 */
import { parseNumbering } from "./numbering.js";

/** Dot-like leader characters; an ellipsis counts as three. */
const DOTS = new Set([".", "·", "∙", "•", "⋅", "⋯", "…", "‥", "_"]);
const DASHES = new Set(["-", "–", "—"]);
const PAGE_TOKEN = /^(?:[A-Z]{0,2}-?\d{1,4}|[ivxlc]{1,6})$/i;
const isSpace = (c: string | undefined): boolean => c === " " || c === "\u00a0" || c === "\t" || c === "\n";

/**
 * Where a title's trailing leaders start, reading back from `end`: after an optional page
 * number, a run of two or more dot-like characters or three or more dashes (spaces between
 * allowed), or a tab or a wide gap before a page number. -1 when the tail is not leaders.
 */
function leaderStart(t: string, end: number): number {
  let i = end;
  while (i > 0 && isSpace(t[i - 1])) i--;
  let j = i;
  while (j > 0 && j > i - 8 && /[A-Za-z0-9-]/.test(t[j - 1] as string)) j--;
  const page =
    j < i && (j === 0 || isSpace(t[j - 1]) || DOTS.has(t[j - 1] as string)) && PAGE_TOKEN.test(t.slice(j, i));
  let k = page ? j : i;
  const afterPage = k;
  let gap = "";
  while (k > 0 && isSpace(t[k - 1])) gap = (t[--k] as string) + gap;
  let dots = 0;
  let dashes = 0;
  let m = k;
  while (m > 0) {
    const c = t[m - 1] as string;
    if (DOTS.has(c)) dots += c === "…" ? 3 : 1;
    else if (DASHES.has(c)) dashes++;
    else if (!isSpace(c)) break;
    m--;
  }
  // Dots and dashes do not mix in one run: count the run's own kind.
  if (dots >= 2 && dashes === 0) return m;
  if (dashes >= 3 && dots === 0) return m;
  if (page && (gap.includes("\t") || gap.length >= 2) && afterPage > 0) return k;
  return -1;
}

/**
 * Drops dot leaders at the end of a title, with the page number after them
 * ("1.1 Legalese . . . . . 5", "Scope ·····  iv", "Index ______ 12"). A bare trailing number
 * stays: it may be the title's own ("Note 12"). One backward scan per round: linear in the tail.
 */
export function stripLeaders(title: string): string {
  let t = title.trimEnd();
  for (let round = 0; round < 3; round++) {
    const at = leaderStart(t, t.length);
    if (at < 0) break;
    t = t.slice(0, at).trimEnd();
  }
  return t;
}

/** Control characters (other than tab and newline), DEL and BOMs, which some producers put in titles. */
const isControl = (code: number): boolean =>
  (code < 0x20 && code !== 0x09 && code !== 0x0a) || code === 0x7f || code === 0xfeff;

/** The text without control characters; the same string when it has none (the usual case). */
function dropControls(raw: string): string {
  let out = "";
  let from = 0;
  for (let i = 0; i < raw.length; i++) {
    if (!isControl(raw.charCodeAt(i))) continue;
    out += raw.slice(from, i);
    from = i + 1;
  }
  return from === 0 ? raw : out + raw.slice(from);
}

/** Collapses whitespace and drops dot leaders and a trailing page number set off by leaders or a tab. */
export function cleanTitle(raw: string): string {
  return stripLeaders(dropControls(raw)).replace(/\s+/g, " ").trim();
}

/** A lower-case ASCII letter or a digit. */
const isWordChar = (c: number): boolean => (c >= 97 && c <= 122) || (c >= 48 && c <= 57);

/** Any character outside ASCII (a UTF-16 code unit above 127). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * {@link normalizeTitle} of ASCII text in one pass instead of the general path's six (the
 * printed-contents index normalises every body line twice): letters lower-cased, digits kept,
 * quotes dropped, "&" read as "and", anything else a word break; `sep` joins the words ("" compacts them).
 */
function normalizeAscii(title: string, sep: string): string {
  const t = title.toLowerCase();
  let out = "";
  let gap = false;
  for (let i = 0; i < t.length; ) {
    const c = t.charCodeAt(i);
    if (isWordChar(c)) {
      let j = i + 1;
      while (j < t.length && isWordChar(t.charCodeAt(j))) j++;
      out += gap && out.length > 0 ? sep + t.slice(i, j) : t.slice(i, j);
      gap = false;
      i = j;
      continue;
    }
    // ' and ` vanish, even inside a word ("don't" reads "dont"); "&" reads "and".
    if (c === 38) out += out.length > 0 ? `${sep}and` : "and";
    if (c !== 39 && c !== 96) gap = true;
    i++;
  }
  return out;
}

/** {@link normalizeTitle} without the ASCII shortcuts: decomposed, accents dropped, punctuation a word break. */
function normalizeAny(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[’'`´]/g, "")
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Per non-ASCII code unit: whether the general path reads it as a plain word break (learnt on first sight). */
const wordBreaks = new Map<number, boolean>();

/**
 * Whether a non-ASCII code unit is nothing but a word break to {@link normalizeAny} (a bullet,
 * a typographic quote or dash, a no-break space): asked of the general path itself, between two
 * letters. Surrogates never are (a pair may decompose to letters: mathematical alphanumerics).
 */
function isWordBreak(code: number): boolean {
  let known = wordBreaks.get(code);
  if (known === undefined) {
    known = (code < 0xd800 || code > 0xdfff) && normalizeAny(`a${String.fromCharCode(code)}b`) === "a b";
    wordBreaks.set(code, known);
  }
  return known;
}

/**
 * The title with each non-ASCII character replaced by a space, when every one of them is a
 * plain word break ({@link isWordBreak}); `undefined` when one needs the general path. Body
 * lines with a bullet or a curly quote then take the one-pass ASCII path.
 */
function asciiWithBreaks(title: string): string | undefined {
  let out = "";
  let from = 0;
  for (let i = 0; i < title.length; i++) {
    const code = title.charCodeAt(i);
    if (code < 128) continue;
    if (!isWordBreak(code)) return undefined;
    out += `${title.slice(from, i)} `;
    from = i + 1;
  }
  return from === 0 ? title : out + title.slice(from);
}

/** Lower-case words without punctuation or accents: "ITEM 7. MANAGEMENT’S" → "item 7 managements". */
export function normalizeTitle(title: string): string {
  const ascii = NON_ASCII.test(title) ? asciiWithBreaks(title) : title;
  return ascii === undefined ? normalizeAny(title) : normalizeAscii(ascii, " ");
}

/** Letters and digits only; robust to letter-spaced or small-caps headings ("I NTRODUCTION"). */
export function compactTitle(title: string): string {
  const ascii = NON_ASCII.test(title) ? asciiWithBreaks(title) : title;
  return ascii === undefined ? normalizeAny(title).replace(/\s+/g, "") : normalizeAscii(ascii, "");
}

function tokenDice(a: string, b: string): number {
  const ta = a.split(" ").filter(Boolean);
  const tb = b.split(" ").filter(Boolean);
  if (ta.length === 0 || tb.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const t of tb) counts.set(t, (counts.get(t) ?? 0) + 1);
  let common = 0;
  for (const t of ta) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      common += 1;
      counts.set(t, n - 1);
    }
  }
  return (2 * common) / (ta.length + tb.length);
}

/**
 * How alike two titles are, 0..1: the larger of word overlap (Dice over normalised words)
 * and the shared prefix of the compacted titles relative to the longer one. The prefix
 * measure accepts letter-spaced headings and headings whose second line was not joined.
 */
export function titleSimilarity(a: string, b: string): number {
  return normalizedSimilarity(normalizeTitle(a), normalizeTitle(b));
}

/**
 * {@link titleSimilarity} of two titles already passed through {@link normalizeTitle}, for a
 * caller that compares one title with many lines and normalises each once.
 */
export function normalizedSimilarity(na: string, nb: string): number {
  if (!na || !nb) return 0;
  if (na === nb) return 1;
  const ca = na.replace(/\s+/g, "");
  const cb = nb.replace(/\s+/g, "");
  if (ca === cb) return 1;
  let prefix = 0;
  const max = Math.min(ca.length, cb.length);
  while (prefix < max && ca.charCodeAt(prefix) === cb.charCodeAt(prefix)) prefix++;
  return Math.max(tokenDice(na, nb), prefix / Math.max(ca.length, cb.length));
}

/** Strips a leading numbering ("Item 7.", "2.1.3", "B.2.3" in an appendix, "IV.", "Note 12 —") for matching titles across sources. */
export function stripNumbering(title: string): string {
  return title
    .replace(
      /^\s*(?:(?:part|chapter|item|note|section|article|appendix|annex|schedule)\s+[0-9a-z]{1,5}\b\.?|\d{1,3}(?:\.\d{1,3})*\.?|[A-Z](?:\.\d{1,3})+\.?|[ivxlc]{1,6}\.|[a-z][.)]|\([a-z0-9]{1,4}\))\s*[-—–:.]?\s*/i,
      "",
    )
    .trim();
}

/**
 * A numbered title whose words open with a name ("5.2 K65", "5 PDP-11", "8.6 FreedomBox 23.5
 * (2023-02-27)"): a section, whatever the share of digits in its model, version or date. A
 * table's figures ("2.3 1,234.5 kg") open with no name.
 */
export function namedAfterNumber(title: string): boolean {
  return parseNumbering(title) !== undefined && /^\p{L}/u.test(stripNumbering(title));
}
