/**
 * BM25 (Robertson/Spärck Jones, Okapi weighting) over weighted fields (a BM25F simplification:
 * field term frequencies and lengths are summed with per-field weights before saturation).
 */

/** A document of the index: weighted term frequencies and its weighted length. */
export interface Bm25Doc {
  tf: Map<string, number>;
  length: number;
}

/** BM25 parameters. */
export interface Bm25Params {
  /** Term-frequency saturation. Default 1.2. */
  k1?: number;
  /** Length normalisation. Default 0.75. */
  b?: number;
}

/** One field of a document: its terms and weight. */
export interface WeightedField {
  terms: readonly string[];
  weight: number;
}

/** Builds a document from weighted fields. */
export function bm25Doc(fields: readonly WeightedField[]): Bm25Doc {
  const tf = new Map<string, number>();
  let length = 0;
  for (const { terms, weight } of fields) {
    if (weight <= 0) continue;
    for (const term of terms) tf.set(term, (tf.get(term) ?? 0) + weight);
    length += terms.length * weight;
  }
  return { tf, length };
}

/** An immutable BM25 index over a fixed list of documents. */
export class Bm25Index {
  readonly docs: readonly Bm25Doc[];
  private readonly df = new Map<string, number>();
  private readonly avgLength: number;
  private readonly k1: number;
  private readonly b: number;

  constructor(docs: readonly Bm25Doc[], params: Bm25Params = {}) {
    this.docs = docs;
    this.k1 = params.k1 ?? 1.2;
    this.b = params.b ?? 0.75;
    let total = 0;
    for (const doc of docs) {
      total += doc.length;
      for (const term of doc.tf.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
    }
    this.avgLength = docs.length > 0 ? total / docs.length || 1 : 1;
  }

  /** Inverse document frequency (the non-negative "+1" variant). */
  idf(term: string): number {
    return bm25Idf(this.docs.length, this.df.get(term) ?? 0);
  }

  /** BM25 score of every document for the query terms (repeated query terms count once). */
  scoreAll(queryTerms: readonly string[]): number[] {
    const terms = [...new Set(queryTerms)].filter((t) => this.df.has(t));
    const idf = terms.map((t) => this.idf(t));
    return this.docs.map((doc) => {
      let score = 0;
      const norm = this.k1 * (1 - this.b + (this.b * doc.length) / this.avgLength);
      terms.forEach((term, i) => {
        const f = doc.tf.get(term);
        if (f) score += ((idf[i] as number) * f * (this.k1 + 1)) / (f + norm);
      });
      return score;
    });
  }
}

/** One field of a BM25F document: its terms, weight and length normalisation. */
export interface Bm25fField {
  terms: readonly string[];
  weight: number;
  /** Length normalisation of this field (0: none, 1: full). */
  b: number;
}

/** A {@link Bm25fField} already counted: term frequencies and the field's length in terms. */
export interface Bm25fCountedField {
  counts: ReadonlyMap<string, number>;
  length: number;
  weight: number;
  b: number;
}

/** Counts a field's terms (what {@link Bm25fIndex} stores, and what a saved index keeps). */
export function countField(field: Bm25fField): Bm25fCountedField {
  const counts = new Map<string, number>();
  for (const term of field.terms) counts.set(term, (counts.get(term) ?? 0) + 1);
  return { counts, length: field.terms.length, weight: field.weight, b: field.b };
}

/** Query-term frequency saturation of {@link Bm25fIndex.scoreAll}. */
const K3 = 1.5;

/** A weighted query term (expanded terms weigh less). */
export interface QueryTerm {
  term: string;
  weight: number;
}

/**
 * BM25F (Robertson, Zaragoza & Taylor 2004): each field's term frequency is normalised by that
 * field's length relative to its average, weighted, summed, and only then saturated — so a
 * long text field neither drowns a title match nor is crushed by the document's total length.
 * The per-term pseudo-frequencies are query-independent and computed once at build time.
 */
export class Bm25fIndex {
  /** Pseudo term frequency per document. */
  readonly docs: ReadonlyArray<ReadonlyMap<string, number>>;
  private readonly df = new Map<string, number>();
  private readonly k1: number;

  /**
   * @param input one list of fields per document (term lists, or counted as by
   *   {@link countField}); fields at the same position are one field.
   */
  constructor(input: ReadonlyArray<ReadonlyArray<Bm25fField | Bm25fCountedField>>, k1 = 1.2) {
    this.k1 = k1;
    const docs = input.map((fields) => fields.map((f) => ("terms" in f ? countField(f) : f)));
    const fieldCount = Math.max(0, ...docs.map((d) => d.length));
    const avg = Array.from({ length: fieldCount }, (_, f) => {
      const lengths = docs.map((d) => d[f]?.length ?? 0);
      return lengths.reduce((a, b) => a + b, 0) / Math.max(1, lengths.length) || 1;
    });
    this.docs = docs.map((fields) => {
      const tf = new Map<string, number>();
      fields.forEach(({ counts, length, weight, b }, f) => {
        const add = bm25fFieldWeight(weight, b, length, avg[f] as number);
        if (add === 0) return;
        for (const [term, count] of counts) tf.set(term, (tf.get(term) ?? 0) + add * count);
      });
      for (const term of tf.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
      return tf;
    });
  }

  /** Inverse document frequency (the non-negative "+1" variant). */
  idf(term: string): number {
    return bm25Idf(this.docs.length, this.df.get(term) ?? 0);
  }

  /**
   * Score of every document for weighted query terms. A term repeated in the query weighs more,
   * saturating like BM25's query-term frequency (k3 = 1.5): the words a question insists on
   * ("gross margin … gross margin") matter more than its incidental ones.
   */
  scoreAll(query: readonly QueryTerm[]): number[] {
    const terms = bm25fQueryWeights(query, (term) => this.df.get(term) ?? 0, this.docs.length);
    return this.docs.map((tf) => {
      let score = 0;
      for (const { term, w } of terms) {
        const f = tf.get(term);
        if (f) score += bm25fTermScore(w, f, this.k1);
      }
      return score;
    });
  }
}

/** BM25's inverse document frequency, the non-negative "+1" variant, of a term in `df` of `docs` documents. */
export function bm25Idf(docs: number, df: number): number {
  return Math.log(1 + (docs - df + 0.5) / (df + 0.5));
}

/**
 * The query side of BM25F: each query term some document holds (`df` > 0), in the query's
 * order, its weights summed over repeats and saturated (k3), times its IDF.
 */
export function bm25fQueryWeights(
  query: readonly QueryTerm[],
  df: (term: string) => number,
  docs: number,
): Array<{ term: string; w: number }> {
  const weights = new Map<string, number>();
  const seen = new Map<string, number>();
  for (const { term, weight } of query) {
    let n = seen.get(term);
    if (n === undefined) {
      n = df(term);
      seen.set(term, n);
    }
    if (n > 0) weights.set(term, (weights.get(term) ?? 0) + weight);
  }
  return [...weights].map(([term, w]) => ({
    term,
    w: ((K3 + 1) * w * bm25Idf(docs, seen.get(term) as number)) / (K3 + w),
  }));
}

/**
 * What one occurrence in a field adds to a term's BM25F pseudo-frequency: the field's weight
 * over its length normalisation (`avgLength`: the field's average over the documents); 0 for
 * a field that does not count (no weight, or empty).
 */
export function bm25fFieldWeight(weight: number, b: number, length: number, avgLength: number): number {
  if (weight <= 0 || length === 0) return 0;
  const norm = 1 - b + (b * length) / avgLength;
  return weight / norm;
}

/** One query term's BM25F contribution to a document: its weight `w`, pseudo-frequency `f` saturated by `k1`. */
export function bm25fTermScore(w: number, f: number, k1: number): number {
  return (w * f * (k1 + 1)) / (f + k1);
}
