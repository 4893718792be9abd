/**
 * Semantic models learned from the library's own text (no questions, no downloaded weights), for
 * scripts/analyze-library-semantic.ts: the library's sections tokenized as the index tokenizes
 * them (cached), and three fits over them — LSA over sections, LSA over documents, and word
 * vectors from the SVD of a windowed PPMI co-occurrence matrix — each mapping a bag of terms
 * (a question, a section, a document) to a unit vector compared by cosine.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { tokenize } from "pageindex-core";
import { libraryEntry } from "pageindex-store";
import { libraryFiles, libraryStore, libraryTrees } from "./library.js";
import { type SparseRows, sparseRows, truncatedSvd } from "./sparse-svd.js";

/** The library's text per document: each section's terms (title, summary and own text). */
export interface SemanticCorpus {
  /** The folder store of the same trees (for searches the collection lacks). */
  storeDir: string;
  docs: Array<{ docId: string; sections: Array<{ nodeId: string; terms: string[] }> }>;
}

/** The corpus, read from the trees once and cached in `cache` (`recollect` after the trees change). */
export async function semanticCorpus(cache: string, recollect: boolean): Promise<SemanticCorpus> {
  if (!recollect && existsSync(cache)) return JSON.parse(readFileSync(cache, "utf8")) as SemanticCorpus;
  const trees = await libraryTrees(libraryFiles(), false);
  const { dir } = await libraryStore(trees, false);
  const corpus: SemanticCorpus = {
    storeDir: dir,
    docs: trees.map((t) => ({
      docId: t.docId,
      sections: libraryEntry(t, "v").sections.map((s) => ({
        nodeId: s.nodeId,
        terms: tokenize([s.title, s.summary, s.text].join(" ")),
      })),
    })),
  };
  mkdirSync(dirname(cache), { recursive: true });
  writeFileSync(cache, JSON.stringify(corpus));
  return corpus;
}

/** Maps bags of terms to unit vectors of one model. */
export interface SemanticModel {
  name: string;
  /** Whether sections are embedded too (not for a vocabulary-long vector). */
  sections?: false;
  /** The unit vector of a bag of terms (zero when none of its terms is known). */
  embed(terms: readonly string[]): Float64Array;
}

/** Term ids and section IDF over the corpus (terms in at least `minSections` sections). */
export interface Vocabulary {
  ids: Map<string, number>;
  idf: Float64Array;
}
export function vocabulary(corpus: SemanticCorpus, minSections: number): Vocabulary {
  const df = new Map<string, number>();
  let sections = 0;
  for (const d of corpus.docs)
    for (const s of d.sections) {
      sections += 1;
      for (const t of new Set(s.terms)) df.set(t, (df.get(t) ?? 0) + 1);
    }
  const kept = [...df].filter(([, n]) => n >= minSections);
  return {
    ids: new Map(kept.map(([t], i) => [t, i])),
    idf: Float64Array.from(kept, ([, n]) => Math.log(sections / n)),
  };
}

/** (1 + log tf) × idf of a bag's known terms, unit length. */
export function weighedBag(terms: readonly string[], vocab: Vocabulary): Map<number, number> {
  const tf = new Map<number, number>();
  for (const t of terms) {
    const id = vocab.ids.get(t);
    if (id !== undefined) tf.set(id, (tf.get(id) ?? 0) + 1);
  }
  const bag = new Map<number, number>();
  let norm = 0;
  for (const [id, n] of tf) {
    const w = (1 + Math.log(n)) * (vocab.idf[id] as number);
    bag.set(id, w);
    norm += w * w;
  }
  norm = Math.sqrt(norm) || 1;
  for (const [id, w] of bag) bag.set(id, w / norm);
  return bag;
}

function unit(x: Float64Array): Float64Array {
  let n = 0;
  for (const v of x) n += v * v;
  n = Math.sqrt(n);
  if (n > 0) for (let i = 0; i < x.length; i++) x[i] = (x[i] as number) / n;
  return x;
}

export function cosine(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += (a[i] as number) * (b[i] as number);
  return s;
}

/** No factoring (the control): a bag's weighed terms themselves, a vector as long as the vocabulary. */
export function tfidfModel(name: string, vocab: Vocabulary): SemanticModel {
  return {
    name,
    sections: false,
    embed(terms) {
      const x = new Float64Array(vocab.ids.size);
      for (const [id, w] of weighedBag(terms, vocab)) x[id] = w;
      return x;
    },
  };
}

/**
 * LSA: the truncated SVD of rows of weighed bags (sections, or whole documents); a bag is
 * folded in as bag · V · diag(σ^(exponent − 1)) (exponent 1: the rows' own U Σ space).
 */
export function lsaModel(
  name: string,
  rows: ReadonlyArray<readonly string[]>,
  vocab: Vocabulary,
  k: number,
  exponent: number,
): SemanticModel {
  const matrix: SparseRows = sparseRows(
    rows.map((r) => weighedBag(r, vocab)),
    vocab.ids.size,
  );
  const svd = truncatedSvd(matrix, k);
  const scale = svd.sigma.map((s) => (s > 0 ? s ** (exponent - 1) : 0));
  return {
    name,
    embed(terms) {
      const x = new Float64Array(svd.k);
      for (const [id, w] of weighedBag(terms, vocab))
        for (let j = 0; j < svd.k; j++) x[j] = (x[j] as number) + w * (svd.v[id * svd.k + j] as number);
      for (let j = 0; j < svd.k; j++) x[j] = (x[j] as number) * (scale[j] as number);
      return unit(x);
    },
  };
}

/**
 * Word vectors from the PPMI of co-occurrence within ±`window` terms of a section (context
 * counts smoothed to the power 0.75, as Levy, Goldberg and Dagan recommend), factored to `k`
 * dimensions (U Σ^½, each word's vector unit length); a bag is the IDF-weighed sum of its words'.
 */
export function ppmiModel(
  name: string,
  corpus: SemanticCorpus,
  vocab: Vocabulary,
  window: number,
  k: number,
): SemanticModel {
  const n = vocab.ids.size;
  const pairs = new Map<number, number>();
  for (const d of corpus.docs)
    for (const s of d.sections) {
      const ids = s.terms.map((t) => vocab.ids.get(t) ?? -1);
      for (let i = 0; i < ids.length; i++) {
        const a = ids[i] as number;
        if (a < 0) continue;
        for (let j = i + 1; j <= i + window && j < ids.length; j++) {
          const b = ids[j] as number;
          if (b < 0 || b === a) continue;
          pairs.set(a * n + b, (pairs.get(a * n + b) ?? 0) + 1);
          pairs.set(b * n + a, (pairs.get(b * n + a) ?? 0) + 1);
        }
      }
    }
  const rowSum = new Float64Array(n);
  const colSum = new Float64Array(n);
  let total = 0;
  for (const [key, c] of pairs) {
    rowSum[Math.floor(key / n)] = (rowSum[Math.floor(key / n)] as number) + c;
    colSum[key % n] = (colSum[key % n] as number) + c ** 0.75;
    total += c;
  }
  const colTotal = colSum.reduce((s, v) => s + v, 0);
  const rows: Array<Map<number, number>> = Array.from({ length: n }, () => new Map());
  for (const [key, c] of pairs) {
    const a = Math.floor(key / n);
    const b = key % n;
    const pmi = Math.log(c / total / (((rowSum[a] as number) / total) * ((colSum[b] as number) / colTotal)));
    if (pmi > 0) (rows[a] as Map<number, number>).set(b, pmi);
  }
  const svd = truncatedSvd(sparseRows(rows, n), k);
  const vectors = Array.from({ length: n }, (_, id) =>
    unit(
      Float64Array.from(
        { length: svd.k },
        (_, j) => (svd.u[id * svd.k + j] as number) * Math.sqrt(svd.sigma[j] as number),
      ),
    ),
  );
  return {
    name,
    embed(terms) {
      const x = new Float64Array(svd.k);
      for (const t of terms) {
        const id = vocab.ids.get(t);
        if (id === undefined) continue;
        const w = vocab.idf[id] as number;
        const v = vectors[id] as Float64Array;
        for (let j = 0; j < svd.k; j++) x[j] = (x[j] as number) + w * (v[j] as number);
      }
      return unit(x);
    },
  };
}
