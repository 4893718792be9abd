/** A heading's numbering, which decides nesting when style alone cannot. */
export interface Numbering {
  /**
   * `keyword` (PART II, Item 7, Note 12, Chapter IV), `dotted` (2.1.3 or 4), `roman` (IV.),
   * `alpha` (B.), `alpha-lower` (b.), `paren` ((a), (1), (iv)).
   */
  kind: "keyword" | "dotted" | "roman" | "alpha" | "alpha-lower" | "paren";
  /** For keywords: the lower-cased keyword. */
  keyword?: string;
  /** For keywords: lower tiers contain higher ones (part 0 ⊃ chapter 1 ⊃ article 2 ⊃ item 3 ⊃ note 4). */
  tier?: number;
  /** For dotted numbers: the number of components. */
  depth?: number;
  /** The number itself, e.g. "7A", "2.1.3", "IV". */
  value: string;
}

const KEYWORD_TIERS: Record<string, number> = {
  part: 0,
  book: 0,
  chapter: 1,
  appendix: 1,
  annex: 1,
  article: 2,
  item: 3,
  section: 3,
  note: 4,
  schedule: 4,
  exhibit: 4,
};

const KEYWORD = new RegExp(
  `^(${Object.keys(KEYWORD_TIERS).join("|")})\\s+([0-9]{1,3}[A-Z]?|[IVXLC]{1,6}|[A-Z])(?=$|[\\s.:\\-—–)])`,
  "i",
);
/**
 * "2.1.3", and an appendix's "A.1" / "B.2.3" (a letter then numbers; "U.S." is no numbering).
 * Past the first, a component may reach three digits (a reference's "C.100", "5.100", "18.1.100")
 * but not lead with a zero ("23.000", "0.001" are amounts); the first stays at two digits, which
 * keeps out years ("2019.1"), addresses ("127.0.0.1") and most amounts ("342.000").
 */
const DOTTED = /^((?:\d{1,2}|[A-Z])(?:\.(?:[1-9]\d\d|\d{1,2})){1,4})\.?(?:\s+|\t)(?=\S)/;
const SINGLE = /^(\d{1,2})(?:\.\s*|\s+|\t)(?=\p{L})/u;
const ROMAN = /^([IVXLC]{2,6}|[IVX])(?:\.\s*|\t)(?=\S)/;
/**
 * A book part's number before its title, with a plain space ("II External Packages", "IV
 * Miscellaneous", "III CIDER"); not "I Have" or "CD Players": a one-letter numeral needs a title
 * of two words or more in mixed case.
 */
const PART_ROMAN =
  /^(?:((?=[IVX]{2})X{0,3}(?:IX|IV|V?I{0,3}))\s+(?=\p{Lu}[\p{L}’']+)|([IVX])\s+(?=\p{Lu}\p{Ll}+\s+\p{L}))/u;
const ALPHA = /^([A-Z])[.)](?:\s+|\t)(?=\S)/;
const ALPHA_LOWER = /^([a-z])[.)](?:\s+|\t)(?=\S)/;
const PAREN = /^\(([a-z]|\d{1,2}|[ivx]{1,4})\)\s+(?=\S)/i;

/** Keywords strong enough to make a heading of an unstyled line (they are rare in running text at a line start). */
export function isStrongKeyword(n: Numbering | undefined): boolean {
  return n?.kind === "keyword" && (n.tier ?? 9) <= 3;
}

/** Reads the numbering at the start of a heading, if any. */
export function parseNumbering(text: string): Numbering | undefined {
  const t = text.trim();
  let m = KEYWORD.exec(t);
  if (m) {
    const keyword = (m[1] as string).toLowerCase();
    return {
      kind: "keyword",
      keyword,
      tier: KEYWORD_TIERS[keyword] as number,
      value: (m[2] as string).toUpperCase(),
    };
  }
  m = DOTTED.exec(t);
  if (m) return { kind: "dotted", depth: (m[1] as string).split(".").length, value: m[1] as string };
  m = ROMAN.exec(t) ?? PART_ROMAN.exec(t);
  if (m) return { kind: "roman", value: (m[1] ?? m[2]) as string };
  m = SINGLE.exec(t);
  if (m) return { kind: "dotted", depth: 1, value: m[1] as string };
  m = ALPHA.exec(t);
  if (m) return { kind: "alpha", value: m[1] as string };
  m = ALPHA_LOWER.exec(t);
  if (m) return { kind: "alpha-lower", value: m[1] as string };
  m = PAREN.exec(t);
  if (m) return { kind: "paren", value: m[1] as string };
  return undefined;
}

/** Kind used by the "a kind already open above is a sibling" rule. */
export function numberingClass(n: Numbering): string {
  return n.kind === "keyword" ? `keyword:${n.keyword}` : n.kind;
}

const ROMAN_VALUES: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };

/** Position of a letter in the alphabet: A = 1, b = 2. */
export const letterOrdinal = (letter: string): number => letter.toUpperCase().charCodeAt(0) - 64;

/** IV = 4: the position a roman numbering claims in its list. */
export function romanOrdinal(value: string): number {
  let total = 0;
  const digits = [...value.toUpperCase()].map((c) => ROMAN_VALUES[c] ?? 0);
  digits.forEach((d, i) => {
    total += d < (digits[i + 1] ?? 0) ? -d : d;
  });
  return total;
}

/**
 * The lists a letter or roman numbering may belong to, with the position it claims in each.
 * Roman and letter lists are counted apart (an outline runs I., A., B., II.); a lone I, V or X
 * may also be a letter (…, H., I., J.).
 */
function claims(n: Numbering): [list: string, at: number][] {
  if (n.kind === "alpha" || n.kind === "alpha-lower") return [[n.kind, letterOrdinal(n.value)]];
  if (n.kind !== "roman") return [];
  const roman: [string, number] = ["roman", romanOrdinal(n.value)];
  return n.value.length === 1 ? [roman, ["alpha", letterOrdinal(n.value)]] : [roman];
}

/**
 * Removes letter and roman numbering that is not part of a list: a real list starts at A (I)
 * and goes on in order, so "J. David Lopez-Salido" or "V. Nicole Bynum" out of the blue is a
 * person's initial, not item J or V. One missed item is tolerated (A., C.). Headings are in
 * document order; the ones kept are returned unchanged.
 */
export function dropInitials<T extends { numbering?: Numbering }>(headings: readonly T[]): T[] {
  const last = new Map<string, number>();
  return headings.map((h) => {
    const n = h.numbering;
    const lists = n ? claims(n) : [];
    if (!n || lists.length === 0) return h;
    let fits = false;
    for (const [list, at] of lists) {
      const prev = last.get(list);
      if (at === 1 || (prev !== undefined && at > prev && at <= prev + 2)) {
        last.set(list, at);
        fits = true;
      }
    }
    if (fits) return h;
    const { numbering: _initial, ...rest } = h;
    return rest as T;
  });
}
