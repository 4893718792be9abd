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
    const n = this.docs.length;
    const df = this.df.get(term) ?? 0;
    return Math.log(1 + (n - df + 0.5) / (df + 0.5));
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
