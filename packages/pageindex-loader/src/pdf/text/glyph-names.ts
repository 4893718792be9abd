/**
 * Glyph names of an embedded Type 1 / CFF font, read from the OpenType file pdf.js builds for it
 * (its "cmap" maps pdf.js's private-use character to a glyph; its "CFF " table's charset names
 * the glyph). Only the names the ligature repair needs are recognised among CFF's standard
 * strings; others are read from the font's own string index.
 */

/** CFF standard string ids of the glyph names {@link glyphNames} reports (CFF spec, appendix A). */
const STANDARD_NAMES = new Map<number, string>([
  [8, "quoteright"],
  [65, "quoteleft"],
  [105, "quotedblleft"],
  [109, "fi"],
  [110, "fl"],
  [111, "endash"],
  [119, "quotedblright"],
  [137, "emdash"],
  [266, "ff"],
  [267, "ffi"],
  [268, "ffl"],
]);
const STANDARD_STRING_COUNT = 391;

class Reader {
  constructor(
    readonly bytes: Uint8Array,
    readonly view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength),
  ) {}
  u8 = (at: number): number => this.view.getUint8(at);
  u16 = (at: number): number => this.view.getUint16(at);
  u32 = (at: number): number => this.view.getUint32(at);
  /** An unsigned big-endian integer of `size` bytes (CFF offsets are 1 to 4 bytes). */
  uint(at: number, size: number): number {
    let n = 0;
    for (let i = 0; i < size; i++) n = n * 256 + this.u8(at + i);
    return n;
  }
}

/** The tables of an OpenType file by tag. */
function tables(r: Reader): Map<string, { offset: number; length: number }> {
  const out = new Map<string, { offset: number; length: number }>();
  const count = r.u16(4);
  for (let i = 0; i < count; i++) {
    const at = 12 + i * 16;
    const tag = String.fromCharCode(r.u8(at), r.u8(at + 1), r.u8(at + 2), r.u8(at + 3));
    out.set(tag, { offset: r.u32(at + 8), length: r.u32(at + 12) });
  }
  return out;
}

/** Glyph id of `char` in a format 4 cmap subtable, or 0. */
function format4Glyph(r: Reader, sub: number, char: number): number {
  const segX2 = r.u16(sub + 6);
  const ends = sub + 14;
  const starts = ends + segX2 + 2;
  const deltas = starts + segX2;
  const ranges = deltas + segX2;
  for (let s = 0; s < segX2; s += 2) {
    if (char > r.u16(ends + s)) continue;
    const start = r.u16(starts + s);
    if (char < start) return 0;
    const delta = r.u16(deltas + s);
    const rangeOffset = r.u16(ranges + s);
    if (rangeOffset === 0) return (char + delta) & 0xffff;
    const glyph = r.u16(ranges + s + rangeOffset + 2 * (char - start));
    return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
  }
  return 0;
}

/** The first format 4 subtable of a cmap table. */
function format4Subtable(r: Reader, cmap: number): number | undefined {
  const count = r.u16(cmap + 2);
  for (let i = 0; i < count; i++) {
    const sub = cmap + r.u32(cmap + 4 + i * 8 + 4);
    if (r.u16(sub) === 4) return sub;
  }
  return undefined;
}

/** A CFF INDEX: where each item starts and ends, and where the INDEX ends. */
function cffIndex(r: Reader, at: number): { items: Array<[number, number]>; end: number } {
  const count = r.u16(at);
  if (count === 0) return { items: [], end: at + 2 };
  const size = r.u8(at + 2);
  const data = at + 3 + (count + 1) * size - 1;
  const items: Array<[number, number]> = [];
  for (let i = 0; i < count; i++) {
    items.push([data + r.uint(at + 3 + i * size, size), data + r.uint(at + 3 + (i + 1) * size, size)]);
  }
  return { items, end: data + r.uint(at + 3 + count * size, size) };
}

/** The charset (op 15) and CharStrings (op 17) offsets of a CFF Top DICT. */
function topDictOffsets(r: Reader, start: number, end: number): { charset: number; charStrings: number } {
  const operands: number[] = [];
  const found = { charset: 0, charStrings: 0 };
  let at = start;
  while (at < end) {
    const b = r.u8(at);
    if (b <= 21) {
      const op = b === 12 ? 1200 + r.u8(at + 1) : b;
      at += b === 12 ? 2 : 1;
      if (op === 15) found.charset = operands[operands.length - 1] ?? 0;
      if (op === 17) found.charStrings = operands[operands.length - 1] ?? 0;
      operands.length = 0;
    } else if (b === 28) {
      operands.push(r.view.getInt16(at + 1));
      at += 3;
    } else if (b === 29) {
      operands.push(r.view.getInt32(at + 1));
      at += 5;
    } else if (b === 30) {
      // A real number: nibbles until one is 0xf; never an offset.
      at++;
      while (at < end && (r.u8(at) & 0x0f) !== 0x0f && (r.u8(at) & 0xf0) !== 0xf0) at++;
      at++;
      operands.push(0);
    } else if (b >= 32 && b <= 246) {
      operands.push(b - 139);
      at++;
    } else if (b >= 247 && b <= 250) {
      operands.push((b - 247) * 256 + r.u8(at + 1) + 108);
      at += 2;
    } else if (b >= 251 && b <= 254) {
      operands.push(-(b - 251) * 256 - r.u8(at + 1) - 108);
      at += 2;
    } else at++;
  }
  return found;
}

/** String id of every glyph (glyph 0 is .notdef), from a charset in format 0, 1 or 2. */
function charsetSids(r: Reader, at: number, glyphs: number): number[] {
  const sids = [0];
  const format = r.u8(at);
  let p = at + 1;
  while (sids.length < glyphs) {
    if (format === 0) {
      sids.push(r.u16(p));
      p += 2;
    } else {
      const first = r.u16(p);
      const left = format === 1 ? r.u8(p + 2) : r.u16(p + 2);
      p += format === 1 ? 3 : 4;
      for (let i = 0; i <= left && sids.length < glyphs; i++) sids.push(first + i);
    }
  }
  return sids;
}

/**
 * The glyph name behind each of some characters of a pdf.js-built OpenType font (`data` from
 * pdf.js with `fontExtraProperties`), for the names this module knows. Characters without a
 * glyph, fonts without a CFF table (TrueType) and damaged data give no entry, never an error.
 */
export function glyphNames(data: Uint8Array, chars: ReadonlyMap<number, number>): Map<number, string> {
  const out = new Map<number, string>();
  try {
    const r = new Reader(data);
    const t = tables(r);
    const cmap = t.get("cmap");
    const cff = t.get("CFF ");
    if (!cmap || !cff) return out;
    const sub = format4Subtable(r, cmap.offset);
    if (sub === undefined) return out;
    const base = cff.offset;
    const names = cffIndex(r, base + r.u8(base + 2));
    const top = cffIndex(r, names.end);
    const strings = cffIndex(r, top.end);
    const [topStart, topEnd] = top.items[0] ?? [0, 0];
    const offsets = topDictOffsets(r, topStart, topEnd);
    // Charsets 1 and 2 are CFF's expert sets, which name no glyph this module reports.
    if (offsets.charStrings === 0 || offsets.charset === 1 || offsets.charset === 2) return out;
    const glyphCount = r.u16(base + offsets.charStrings);
    const sids =
      offsets.charset === 0
        ? Array.from({ length: glyphCount }, (_, i) => i)
        : charsetSids(r, base + offsets.charset, glyphCount);
    // pdf.js writes its parsed charset, which starts with ".notdef", from glyph 1 on: every
    // name then sits one glyph late. A charset naming ".notdef" (always implicit) shows it.
    const shift = sids[1] === 0 ? 1 : 0;
    for (const [key, char] of chars) {
      const glyph = format4Glyph(r, sub, char);
      const sid = glyph > 0 ? sids[glyph + shift] : undefined;
      if (sid === undefined) continue;
      let name = STANDARD_NAMES.get(sid);
      if (name === undefined && sid >= STANDARD_STRING_COUNT) {
        const item = strings.items[sid - STANDARD_STRING_COUNT];
        if (item) name = String.fromCharCode(...r.bytes.subarray(item[0], item[1]));
      }
      if (name !== undefined) out.set(key, name);
    }
  } catch {
    // Out-of-range reads in a damaged font: no names rather than a failed page.
  }
  return out;
}
