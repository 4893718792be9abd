/**
 * Tokeniser for the lexical judge: lowercase, diacritics removed, split on anything that is not
 * a letter or digit (and between letters and digits: "FY2023" → "fy", "2023"), English stop
 * words dropped, and a light suffix stemmer so "margins", "margin" and "marginal" meet without
 * the over-stemming of a full Porter stemmer (which would merge "operating", "operations" and
 * "operator" — distinct things in a filing).
 *
 * Numbers: small integers and years are kept ("Item 7", "2023"); amounts with separators or
 * more than four digits ("4,935", "15.6", "1234567") are dropped — they fill statement tables,
 * are almost never asked for verbatim, and would only inflate a table's length for BM25.
 */

const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below " +
    "between both but by can could did do does doing down during each few for from further had has have " +
    "having he her here hers herself him himself his how i if in into is it its itself just me more most " +
    "my myself no nor not now of off on once only or other our ours ourselves out over own same she should " +
    "so some such than that the their theirs them themselves then there these they this those through to " +
    "too under until up very was we were what when where which while who whom why will with would you " +
    "your yours yourself yourselves also may might must shall per via vs etc"
  ).split(/\s+/),
);

/**
 * Words that carry the request rather than its topic ("please explain whether …"). Dropped from
 * queries only: in a document they can be content ("List of Exhibits").
 */
const QUERY_FILLER = new Set(
  (
    "please explain describe tell show give list provide find whether kind like anything something " +
    "question answer know want need mention mentioned say said according"
  ).split(/\s+/),
);

const VOWEL = /[aeiouy]/;

/** Light English stemmer: plural and verbal suffixes only, conservative on short words. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
  // "taxes" → "tax", "matches" → "match" (not "taxe", which would miss "tax").
  else if (/(x|ch|sh|zz)es$/.test(w)) w = w.slice(0, -2);
  else if (w.endsWith("s") && !/(ss|us|is)$/.test(w)) w = w.slice(0, -1);

  for (const suffix of ["ingly", "edly", "ing", "ed"]) {
    if (w.endsWith(suffix)) {
      const base = w.slice(0, -suffix.length);
      if (base.length >= 3 && VOWEL.test(base)) {
        w = base;
        // "running" → "runn" → "run"; keep ll/ss/zz ("billing" → "bill").
        if (/([^aeiouylsz])\1$/.test(w)) w = w.slice(0, -1);
      }
      break;
    }
  }
  if (w.endsWith("ly") && w.length > 5) w = w.slice(0, -2);
  if (w.endsWith("al") && w.length > 6) w = w.slice(0, -2);
  if (w.endsWith("e") && w.length > 4) w = w.slice(0, -1);
  return w;
}

/** Abbreviations read as the word they stand for. */
const ABBREVIATIONS = new Map([
  ["fy", "fiscal"],
  ["yr", "year"],
  ["qtr", "quarter"],
]);

/** The abbreviations the tokeniser reads as `term` (`["fy"]` for the term of "fiscal"). */
export function abbreviationsOf(term: string): string[] {
  return [...ABBREVIATIONS].filter(([, full]) => stem(full) === term).map(([short]) => short);
}

/** A number worth indexing: a small integer or a year, not an amount. */
function keepNumber(word: string): boolean {
  return /^\d{1,4}$/.test(word);
}

/** Terms of a text: normalised, stop words removed, stemmed. Order is kept (duplicates too). */
export function tokenize(text: string): string[] {
  return terms(text, STOP_WORDS);
}

/** Terms of a query: {@link tokenize} without the words that only phrase the request. */
export function tokenizeQuery(text: string): string[] {
  return terms(text, STOP_WORDS, QUERY_FILLER);
}

function terms(text: string, stop: ReadonlySet<string>, filler?: ReadonlySet<string>): string[] {
  const out: string[] = [];
  const normal = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  for (const match of normal.matchAll(/\p{L}+|\p{N}+(?:[.,]\p{N}+)*/gu)) {
    const word = match[0];
    if (/^\p{N}/u.test(word)) {
      if (keepNumber(word)) out.push(word);
      continue;
    }
    if (stop.has(word) || filler?.has(word)) continue;
    if (word.length === 1) continue;
    out.push(stem(ABBREVIATIONS.get(word) ?? word));
  }
  return out;
}

/** Whether a word is one of the stop words the tokeniser drops. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word.toLowerCase());
}
