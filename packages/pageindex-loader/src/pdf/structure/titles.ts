/**
 * Title cleaning and fuzzy matching, shared by the outline, printed-TOC and layout paths and
 * by the evaluation script.
 */

/**
 * A run of leader characters: dots (also spaced, ". . . ."), middle dots, ellipses, bullets,
 * underscores, or dashes (three or more), in any mix.
 */
const LEADER_RUN = String.raw`(?:(?:[.·∙•⋅⋯…‥_][\s\u00a0]*){2,}|…|(?:[-–—][\s\u00a0]*){3,})`;
/** Leaders (or a tab, or a wide gap) and then a page number ("12", "iv", "A-3"), at the end. */
const LEADERS_AND_PAGE = new RegExp(
  String.raw`[\s\u00a0]*(?:${LEADER_RUN}|\t| {2,})[\s\u00a0]*(?:[A-Z]{0,2}-?\d{1,4}|[ivxlc]{1,6})[\s\u00a0]*$`,
  "i",
);
const TAIL_CHARS = 400;
/** Two leader characters near each other, a tab or a wide gap: the only tails the expressions can change. */
const LEADER_HINT = /[.·∙•⋅⋯…‥_][\s\u00a0]*[.·∙•⋅⋯…‥_]|…|[-–—][\s\u00a0]*[-–—]|\t| {2}/;
const HINT_CHARS = 24;
const TRAILING_LEADERS = new RegExp(String.raw`[\s\u00a0]*${LEADER_RUN}[\s\u00a0]*$`);

/**
 * Drops dot leaders at the end of a title, with the page number after them
 * ("1.1 Legalese . . . . . 5", "Scope ·····  iv", "Index ______ 12"). A bare trailing number
 * stays: it may be the title's own ("Note 12").
 */
export function stripLeaders(title: string): string {
  // Most lines end without two leader characters close together: skip the expressions.
  if (!LEADER_HINT.test(title.slice(-HINT_CHARS))) return title.trimEnd();
  // Matched a tail at a time: leader runs are short, and one long line of dots would cost the
  // regular expressions time quadratic in its length. A tail that was all leaders moves on.
  let end = title.length;
  for (;;) {
    const cut = Math.max(0, end - TAIL_CHARS);
    let t = title.slice(cut, end);
    for (let round = 0; round < 3; round++) {
      const next = t.replace(LEADERS_AND_PAGE, "").replace(TRAILING_LEADERS, "");
      if (next === t) break;
      t = next;
    }
    if (t.trim() !== "" || cut === 0) return (title.slice(0, cut) + t).trimEnd();
    end = cut;
  }
}

/** Collapses whitespace and drops dot leaders and a trailing page number set off by leaders or a tab. */
export function cleanTitle(raw: string): string {
  // Control characters (other than tab/newline) and BOMs that some producers put in titles.
  const t = Array.from(raw)
    .filter((c) => {
      const code = c.charCodeAt(0);
      return !((code < 0x20 && c !== "\t" && c !== "\n") || code === 0x7f || code === 0xfeff);
    })
    .join("");
  return stripLeaders(t).replace(/\s+/g, " ").trim();
}

/** Lower-case words without punctuation or accents: "ITEM 7. MANAGEMENT’S" → "item 7 managements". */
export function normalizeTitle(title: string): string {
  return title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[’'`´]/g, "")
    .replace(/&/g, " and ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

/** Letters and digits only; robust to letter-spaced or small-caps headings ("I NTRODUCTION"). */
export function compactTitle(title: string): string {
  return normalizeTitle(title).replace(/\s+/g, "");
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
  const na = normalizeTitle(a);
  const nb = normalizeTitle(b);
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

/** Strips a leading numbering ("Item 7.", "2.1.3", "IV.", "Note 12 —") for matching titles across sources. */
export function stripNumbering(title: string): string {
  return title
    .replace(
      /^\s*(?:(?:part|chapter|item|note|section|article|appendix|annex|schedule)\s+[0-9a-z]{1,5}\b\.?|\d{1,3}(?:\.\d{1,3})*\.?|[ivxlc]{1,6}\.|[a-z][.)]|\([a-z0-9]{1,4}\))\s*[-—–:.]?\s*/i,
      "",
    )
    .trim();
}
