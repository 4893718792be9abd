import { glyphNames } from "./glyph-names.js";

/**
 * Text for the glyph names that a partial ToUnicode map loses. TeX's OT1 fonts put "fi" at
 * code 12 and an em dash at 124: with a ToUnicode map that skips them, pdf.js reads the code
 * itself (a form feed, so a space; a "|"), although the embedded font names the glyph.
 */
const GLYPH_TEXT: Readonly<Record<string, string>> = {
  ff: "ff",
  fi: "fi",
  fl: "fl",
  ffi: "ffi",
  ffl: "ffl",
  endash: "\u2013",
  emdash: "\u2014",
  quoteleft: "\u2018",
  quoteright: "\u2019",
  quotedblleft: "\u201c",
  quotedblright: "\u201d",
};

/**
 * ASCII characters that stand well enough for a glyph: a font whose code 39 draws a right quote
 * reads "'", which costs the reader nothing, so it is not worth reading the page's glyphs for.
 */
const STAND_INS: Readonly<Record<string, string>> = {
  quoteleft: "`'",
  quoteright: "'",
  quotedblleft: '"',
  quotedblright: '"',
  endash: "-",
};

/** The font facts pdf.js hands over with `fontExtraProperties` (the parts this module reads). */
export interface PdfJsFontFacts {
  /** The OpenType file pdf.js built from the embedded font. */
  data?: Uint8Array;
  /** pdf.js's character code → Unicode map; `_map` holds a simple font's entries. */
  toUnicode?: { _map?: ReadonlyArray<string | null | undefined> } | null;
  /** Character code → the private-use character pdf.js gave the glyph. */
  toFontChar?: ReadonlyArray<number | null | undefined>;
}

/**
 * The codes of a simple font whose text pdf.js gets wrong and the text they should read: codes
 * the PDF's own (partial) ToUnicode map leaves out while the embedded font names their glyph
 * "fi", "fl", "emdash"…, unless the code itself reads as a fair stand-in ("'" for a right
 * quote). Undefined when nothing needs repair (the usual case).
 */
export function fontRepairs(font: PdfJsFontFacts | null | undefined): Map<number, string> | undefined {
  const map = font?.toUnicode?._map;
  const toFontChar = font?.toFontChar;
  if (!font?.data || !map || !toFontChar) return undefined;
  const chars = new Map<number, number>();
  for (let code = 0; code < Math.min(256, toFontChar.length); code++) {
    const fontChar = toFontChar[code];
    if (typeof fontChar === "number" && !map[code]) chars.set(code, fontChar);
  }
  if (chars.size === 0) return undefined;
  const repairs = new Map<number, string>();
  for (const [code, name] of glyphNames(font.data, chars)) {
    const text = GLYPH_TEXT[name];
    const read = String.fromCharCode(code);
    if (text !== undefined && text !== read && !STAND_INS[name]?.includes(read)) repairs.set(code, text);
  }
  return repairs.size > 0 ? repairs : undefined;
}

/** One glyph of a pdf.js operator list's showText arguments. */
interface OpGlyph {
  originalCharCode: number;
  unicode: string;
}

/** A glyph as text extraction saw it: its text (empty for whitespace), its repair, whether a word gap precedes it. */
interface Token {
  text: string;
  repair: string | undefined;
  gap: boolean;
}

/** A TJ adjustment this wide (thousandths of an em) moves to the next word. */
const WORD_GAP = 150;
const WHITESPACE = /^\s+$/u;
const INVISIBLE = /^\p{Cf}+$/u;

/**
 * The glyphs each repaired font shows on a page, in content order, from the page's operator
 * list (`fnArray`/`argsArray`; `setFont` and `showText` are pdf.js's operator ids).
 */
export function glyphTokens(
  ops: { fnArray: ArrayLike<number>; argsArray: ArrayLike<unknown> },
  opIds: { setFont: number; showText: number },
  repairs: ReadonlyMap<string, ReadonlyMap<number, string>>,
): Map<string, Token[]> {
  const out = new Map<string, Token[]>();
  let font: string | undefined;
  for (let i = 0; i < ops.fnArray.length; i++) {
    const fn = ops.fnArray[i];
    const args = ops.argsArray[i] as unknown[] | null;
    if (fn === opIds.setFont) font = typeof args?.[0] === "string" ? args[0] : undefined;
    if (fn !== opIds.showText || font === undefined) continue;
    const fix = repairs.get(font);
    if (!fix) continue;
    const list = out.get(font) ?? [];
    out.set(font, list);
    // A new text-showing operator may start a new line or word: a gap, as far as a repair knows.
    let gap = true;
    for (const g of (args?.[0] as Array<OpGlyph | number | null>) ?? []) {
      if (typeof g === "number") {
        if (-g >= WORD_GAP) gap = true;
        continue;
      }
      if (!g || INVISIBLE.test(g.unicode)) continue;
      list.push({
        text: WHITESPACE.test(g.unicode) ? "" : g.unicode,
        repair: fix.get(g.originalCharCode),
        gap,
      });
      gap = false;
    }
  }
  return out;
}

/**
 * Rewrites the strings of one font's text items with the repaired glyphs, walking the items'
 * characters and the font's glyphs side by side: a space that stands for a lost "fi" becomes
 * "fi" (" fi" after a word gap), a "|" drawn by the em dash glyph becomes "—". Returns the
 * new strings, or undefined when the two do not line up (the items are then left as they are).
 */
export function repairStrings(strs: readonly string[], tokens: readonly Token[]): string[] | undefined {
  let k = 0;
  const out: string[] = [];
  const takeWhitespace = (): string => {
    let text = "";
    while (k < tokens.length && (tokens[k] as Token).text === "") {
      const t = tokens[k++] as Token;
      if (t.repair !== undefined) text += `${t.gap && text === "" ? " " : ""}${t.repair}`;
    }
    return text;
  };
  for (const str of strs) {
    let fixed = "";
    let j = 0;
    while (j < str.length) {
      if (/\s/u.test(str[j] as string)) {
        fixed += takeWhitespace() || " ";
        j++;
        continue;
      }
      fixed += takeWhitespace();
      const t = tokens[k];
      if (!t) return undefined;
      const text = str.startsWith(t.text, j) ? t.text : t.text.normalize("NFKC");
      if (text.length === 0 || !str.startsWith(text, j)) return undefined;
      fixed += t.repair ?? text;
      j += text.length;
      k++;
    }
    out.push(fixed);
  }
  return out;
}
