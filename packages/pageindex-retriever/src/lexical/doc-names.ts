/**
 * Which documents a query names. Questions over a collection usually say whose filing they
 * mean ("Adobe", "Best Buy's", "Ulta Beauty") — words that match inside every section of that
 * document (so they carry no weight within it) but tell documents apart. A document's name and
 * description are matched against the query; words common to all documents' names ("10-K",
 * "annual report") carry no weight.
 */
import { stem, tokenize, tokenizeQuery } from "pageindex-core";

/** What naming needs of a document. */
export interface NamedDocument {
  docId: string;
  docName: string;
  description?: string | undefined;
}

/** Score multiplier for documents the query does not name, when it names some. */
export const UNNAMED_DOCUMENT_PRIOR = 0.5;

/** Weight of a match in the description relative to one in the name. */
const DESCRIPTION_WEIGHT = 0.3;
/** Numbers (years) name a document weakly: many filings share a year. */
const NUMBER_WEIGHT = 0.25;
/** A named document scores at least this share of the best-named one. */
const NAMED_SHARE = 0.6;

/** Name words: file extension dropped, camelCase and letter-digit boundaries split. */
function nameTerms(name: string): Set<string> {
  const base = name.replace(/\.[a-z0-9]{2,5}$/i, "").replace(/([a-z])([A-Z])/g, "$1 $2");
  return new Set(tokenize(base));
}

/**
 * Query words plus concatenations of adjacent words, so "Best Buy" meets "BESTBUY" and
 * "Ulta Beauty" meets "ULTABEAUTY" in a file name.
 */
function queryNameTerms(query: string): Set<string> {
  const words = tokenizeQuery(query);
  const raw = query
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .match(/\p{L}+/gu);
  const out = new Set(words);
  if (raw) for (let i = 1; i < raw.length; i += 1) out.add(stem(`${raw[i - 1]}${raw[i]}`));
  return out;
}

/**
 * Per document, a multiplier for its lexical scores: 1 for the documents the query names (or
 * for all when it names none or there is a single document), {@link UNNAMED_DOCUMENT_PRIOR}
 * for the others.
 */
export function documentPriors(query: string, docs: readonly NamedDocument[]): Map<string, number> {
  const priors = new Map(docs.map((d) => [d.docId, 1]));
  if (docs.length < 2) return priors;
  const profiles = docs.map((d) => ({
    docId: d.docId,
    name: nameTerms(d.docName),
    description: new Set(tokenize(d.description ?? "")),
  }));
  const df = new Map<string, number>();
  for (const p of profiles)
    for (const t of new Set([...p.name, ...p.description])) df.set(t, (df.get(t) ?? 0) + 1);
  const terms = queryNameTerms(query);
  const scores = profiles.map((p) => {
    let score = 0;
    for (const t of terms) {
      const inName = p.name.has(t);
      if (!inName && !p.description.has(t)) continue;
      // Strict IDF: a word every document has tells none apart.
      const idf = Math.log(docs.length / (df.get(t) ?? docs.length));
      score += idf * (inName ? 1 : DESCRIPTION_WEIGHT) * (/^\d+$/.test(t) ? NUMBER_WEIGHT : 1);
    }
    return score;
  });
  const best = Math.max(0, ...scores);
  if (best <= 0) return priors;
  profiles.forEach((p, i) => {
    if ((scores[i] ?? 0) < best * NAMED_SHARE) priors.set(p.docId, UNNAMED_DOCUMENT_PRIOR);
  });
  return priors;
}
