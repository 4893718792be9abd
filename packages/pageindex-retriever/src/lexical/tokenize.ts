/**
 * Tokeniser for the lexical judge: lowercase, diacritics removed, split on anything that is not
 * a letter or digit, English stop words dropped, and a light suffix stemmer so "margins",
 * "margin" and "marginal" meet without the over-stemming of a full Porter stemmer (which would
 * merge "operating", "operations" and "operator" — distinct things in a filing).
 */

const STOP_WORDS = new Set(
  (
    "a about above after again against all am an and any are as at be because been before being below " +
    "between both but by can could did do does doing down during each few for from further had has have " +
    "having he her here hers herself him himself his how i if in into is it its itself just me more most " +
    "my myself no nor not now of off on once only or other our ours ourselves out over own same she should " +
    "so some such than that the their theirs them themselves then there these they this those through to " +
    "too under until up very was we were what when where which while who whom why will with would you " +
    "your yours yourself yourselves also may might must shall per via vs etc i.e e.g"
  ).split(/\s+/),
);

const VOWEL = /[aeiouy]/;

/** Light English stemmer: plural and verbal suffixes only, conservative on short words. */
export function stem(word: string): string {
  if (word.length <= 3 || /\d/.test(word)) return word;
  let w = word;
  if (w.endsWith("ies") && w.length > 4) w = `${w.slice(0, -3)}y`;
  else if (w.endsWith("sses")) w = w.slice(0, -2);
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

/** Terms of a text: normalised, stop words removed, stemmed. Order is kept (duplicates too). */
export function tokenize(text: string): string[] {
  const out: string[] = [];
  const normal = text
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase();
  for (const match of normal.matchAll(/[\p{L}\p{N}]+/gu)) {
    const word = match[0];
    if (STOP_WORDS.has(word)) continue;
    if (word.length === 1 && !/\d/.test(word)) continue;
    out.push(stem(word));
  }
  return out;
}

/** Whether a word is one of the stop words the tokeniser drops. */
export function isStopWord(word: string): boolean {
  return STOP_WORDS.has(word.toLowerCase());
}
