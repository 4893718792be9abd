import { bm25fFieldWeight, bm25fQueryWeights, bm25fTermScore, type QueryTerm } from "./bm25.js";

/** One term's postings in a {@link Bm25fPostingLists}. */
export interface Bm25fTermPostings {
  /** `document × fieldCount + field` of each posting, ascending (a document's fields in order). */
  readonly slots: ArrayLike<number>;
  /** The term's occurrences in each posting's field. */
  readonly counts: ArrayLike<number>;
}

/**
 * A BM25F index stored term by term (what {@link Bm25fPostings} scores): per field its weight
 * and length normalisation, per document and field its length, per term its postings. Such a
 * form can be read straight from saved bytes: a query touches its own terms' postings only.
 */
export interface Bm25fPostingLists {
  readonly docCount: number;
  /** Weight and length normalisation of each field, in field order. */
  readonly fields: ReadonlyArray<{ readonly weight: number; readonly b: number }>;
  /** Field lengths in terms: `lengths[document × fieldCount + field]`. */
  readonly lengths: ArrayLike<number>;
  /** The term's postings, or `undefined` when no document holds it. */
  postings(term: string): Bm25fTermPostings | undefined;
}

/**
 * BM25F over term-major postings: the same scores as {@link Bm25fIndex} built from the same
 * fields, to the last bit (the same operations in the same order: a term's pseudo-frequency is
 * summed over its fields in field order, a document's score over the query's terms in query
 * order), without building a map per document. What a document's lexical index is read into.
 * @example
 * ```ts
 * const index = new Bm25fPostings(lists); // lists: e.g. a saved lexical index's typed arrays
 * const scores = index.scoreAll([{ term: "margin", weight: 1 }]);
 * ```
 */
export class Bm25fPostings {
  readonly docCount: number;
  private readonly lists: Bm25fPostingLists;
  private readonly fieldCount: number;
  /** What one occurrence adds to a pseudo-frequency, per `document × fieldCount + field`. */
  private readonly slotWeights: Float64Array;
  private readonly k1: number;

  constructor(lists: Bm25fPostingLists, k1 = 1.2) {
    this.lists = lists;
    this.k1 = k1;
    this.docCount = lists.docCount;
    const fieldCount = lists.fields.length;
    this.fieldCount = fieldCount;
    if (lists.lengths.length !== lists.docCount * fieldCount) {
      throw new RangeError(
        `Bm25fPostings: ${lists.lengths.length} field lengths for ${lists.docCount} documents of ${fieldCount} fields`,
      );
    }
    this.slotWeights = new Float64Array(lists.docCount * fieldCount);
    lists.fields.forEach(({ weight, b }, f) => {
      let total = 0;
      for (let d = 0; d < lists.docCount; d += 1) total += lists.lengths[d * fieldCount + f] as number;
      const avg = total / Math.max(1, lists.docCount) || 1;
      for (let d = 0; d < lists.docCount; d += 1) {
        const slot = d * fieldCount + f;
        this.slotWeights[slot] = bm25fFieldWeight(weight, b, lists.lengths[slot] as number, avg);
      }
    });
  }

  /**
   * Visits each document holding the term (ascending) with its pseudo-frequency: the weighted,
   * length-normalised counts of its fields, summed in field order.
   */
  private eachDocument(term: string, visit: (doc: number, frequency: number) => void): void {
    const list = this.lists.postings(term);
    if (!list) return;
    const { slots, counts } = list;
    let doc = -1;
    let frequency = 0;
    for (let i = 0; i < slots.length; i += 1) {
      const slot = slots[i] as number;
      const add = this.slotWeights[slot] ?? 0;
      if (add === 0) continue;
      const d = Math.floor(slot / this.fieldCount);
      if (d !== doc) {
        if (doc >= 0) visit(doc, frequency);
        doc = d;
        frequency = 0;
      }
      frequency += add * (counts[i] as number);
    }
    if (doc >= 0) visit(doc, frequency);
  }

  /** The documents holding the term, ascending. */
  documentsHolding(term: string): number[] {
    const out: number[] = [];
    this.eachDocument(term, (doc) => void out.push(doc));
    return out;
  }

  /** How many documents hold the term. */
  documentFrequency(term: string): number {
    let n = 0;
    this.eachDocument(term, () => {
      n += 1;
    });
    return n;
  }

  /** Score of every document for weighted query terms, as {@link Bm25fIndex.scoreAll}. */
  scoreAll(query: readonly QueryTerm[]): number[] {
    const terms = bm25fQueryWeights(query, (term) => this.documentFrequency(term), this.docCount);
    const scores = new Array<number>(this.docCount).fill(0);
    for (const { term, w } of terms) {
      this.eachDocument(term, (doc, frequency) => {
        scores[doc] = (scores[doc] as number) + bm25fTermScore(w, frequency, this.k1);
      });
    }
    return scores;
  }
}
