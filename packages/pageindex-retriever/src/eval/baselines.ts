/**
 * Baselines for A/B evaluation: fixed-size chunks of a tree's text, searched with BM25 or with
 * embeddings. Written here (not imported from `@langchain/community` or `@langchain/classic`) so
 * the retriever package keeps no runtime dependency on them.
 */
import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import { Document } from "@langchain/core/documents";
import { Embeddings, type EmbeddingsInterface, type EmbeddingsParams } from "@langchain/core/embeddings";
import { BaseRetriever, type BaseRetrieverInput } from "@langchain/core/retrievers";
import {
  Bm25Index,
  bm25Doc,
  countTokens,
  type TreeDocument,
  type TreeNode,
  titlePath,
  tokenize,
} from "pageindex-core";
import { RetrieverConfigError } from "../errors.js";

/** Options of {@link chunkTree}. */
export interface ChunkOptions {
  /** Largest chunk, in o200k_base tokens. Default 400. */
  chunkTokens?: number;
  /** Tokens repeated at the start of the next chunk of the same node. Default 50. */
  overlapTokens?: number;
}

/** The chunking {@link chunkTree} uses when not told otherwise (also recorded in eval reports). */
export const DEFAULT_CHUNKING = { chunkTokens: 400, overlapTokens: 50 } as const;

/** Metadata of a chunk from {@link chunkTree}. */
export interface ChunkMetadata {
  docId: string;
  docName: string;
  source?: string;
  /** The node the chunk's text comes from (chunks never span two nodes). */
  nodeId: string;
  title: string;
  /** Titles from the root down to the chunk's node. */
  path: string[];
  /** The page, when the chunk's pages are a single page (PDF). */
  page?: number;
  /** First and last page the chunk may lie on (PDF: its node's own pages). */
  startPage?: number;
  endPage?: number;
  /** First and last source line of the chunk (Markdown/text). */
  startLine?: number;
  endLine?: number;
  /** 0-based position of the chunk in its document. */
  chunk: number;
  tokenCount: number;
  [key: string]: unknown;
}

/** A whitespace-delimited piece of a text: `[start, end)` offsets and its token count. */
interface Piece {
  start: number;
  end: number;
  tokens: number;
}

/** Splits a text into words (with their leading whitespace counted), cutting over-long words. */
function pieces(text: string, maxTokens: number): Piece[] {
  const out: Piece[] = [];
  for (const match of text.matchAll(/\s*\S+/g)) {
    const lead = match[0].length - match[0].trimStart().length;
    const start = match.index + lead;
    const end = match.index + match[0].length;
    const tokens = countTokens(match[0]);
    if (tokens <= maxTokens) {
      out.push({ start, end, tokens });
      continue;
    }
    // A "word" longer than a chunk (a URL, a base64 blob): cut it into slices that fit.
    const step = Math.max(1, Math.floor(((end - start) * maxTokens) / tokens));
    for (let s = start; s < end; s += step) {
      const e = Math.min(end, s + step);
      out.push({ start: s, end: e, tokens: Math.min(maxTokens, countTokens(text.slice(s, e))) });
    }
  }
  return out;
}

/** Windows of pieces (`[first, last]` indices) of at most `size` tokens, overlapping by `overlap`. */
function windows(list: Piece[], size: number, overlap: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let first = 0;
  while (first < list.length) {
    let last = first;
    let total = (list[first] as Piece).tokens;
    while (last + 1 < list.length && total + (list[last + 1] as Piece).tokens <= size) {
      last += 1;
      total += (list[last] as Piece).tokens;
    }
    out.push([first, last]);
    if (last === list.length - 1) break;
    // Step back over the tail that fits the overlap, but always move forward.
    let next = last + 1;
    let carried = 0;
    while (next - 1 > first && carried + (list[next - 1] as Piece).tokens <= overlap) {
      next -= 1;
      carried += (list[next] as Piece).tokens;
    }
    first = next;
  }
  return out;
}

/** The node's own page span: from its start to where its own text ends. */
function ownPages(node: TreeNode): [number, number] | undefined {
  if (node.startPage === undefined) return undefined;
  const end =
    node.ownEndPage ?? (node.childIds.length === 0 ? (node.endPage ?? node.startPage) : node.startPage);
  return [node.startPage, Math.max(node.startPage, end)];
}

function ownLines(node: TreeNode): [number, number] | undefined {
  if (node.startLine === undefined) return undefined;
  const end =
    node.ownEndLine ?? (node.childIds.length === 0 ? (node.endLine ?? node.startLine) : node.startLine);
  return [node.startLine, Math.max(node.startLine, end)];
}

const newlines = (text: string, from: number, to: number) => {
  let n = 0;
  for (let i = text.indexOf("\n", from); i !== -1 && i < to; i = text.indexOf("\n", i + 1)) n += 1;
  return n;
};

/**
 * Cuts a tree's text into chunks of at most `chunkTokens` tokens (o200k_base), split at
 * whitespace, consecutive chunks of one node overlapping by up to `overlapTokens`: the text a
 * conventional vector-RAG pipeline would index, for comparing against tree search.
 *
 * Chunks follow the nodes' own texts in document order and never span two nodes, so they never
 * cross a section boundary.
 * - Markdown/text trees: a node's text is its source lines verbatim, so each chunk gets its
 *   exact `startLine`/`endLine`.
 * - PDF trees: the tree does not keep per-page text, so a chunk cannot be placed on one page;
 *   it gets its node's own page span (`startPage`/`endPage`, plus `page` when that span is a
 *   single page). Within that span a chunk never crosses into another node's pages, but for a
 *   node spanning several pages the chunk's range is wider than the chunk: page-based hit rates
 *   of chunk baselines are therefore slightly generous.
 *
 * @throws {RetrieverConfigError} when `chunkTokens` < 1 or `overlapTokens` is not in `[0, chunkTokens)`.
 */
export function chunkTree(tree: TreeDocument, options: ChunkOptions = {}): Document<ChunkMetadata>[] {
  const size = options.chunkTokens ?? DEFAULT_CHUNKING.chunkTokens;
  const overlap = options.overlapTokens ?? DEFAULT_CHUNKING.overlapTokens;
  if (!Number.isInteger(size) || size < 1) {
    throw new RetrieverConfigError(`chunkTree: chunkTokens must be an integer >= 1 (got ${size})`);
  }
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new RetrieverConfigError(
      `chunkTree: overlapTokens must be an integer in [0, chunkTokens) (got ${overlap} with chunkTokens ${size})`,
    );
  }
  const out: Document<ChunkMetadata>[] = [];
  for (const node of tree.nodes) {
    const list = pieces(node.text, size);
    if (list.length === 0) continue;
    const pages = ownPages(node);
    const lines = ownLines(node);
    const path = titlePath(tree, node.nodeId);
    for (const [first, last] of windows(list, size, overlap)) {
      const start = (list[first] as Piece).start;
      const end = (list[last] as Piece).end;
      const text = node.text.slice(start, end);
      const meta: ChunkMetadata = {
        docId: tree.docId,
        docName: tree.docName,
        nodeId: node.nodeId,
        title: node.title,
        path,
        chunk: out.length,
        tokenCount: countTokens(text),
      };
      if (tree.source !== undefined) meta.source = tree.source;
      if (pages) {
        if (pages[0] === pages[1]) meta.page = pages[0];
        meta.startPage = pages[0];
        meta.endPage = pages[1];
      }
      if (lines) {
        // Clamp: a node whose text is not its source lines verbatim still gets lines inside its span.
        const from = Math.min(lines[1], lines[0] + newlines(node.text, 0, start));
        meta.startLine = from;
        meta.endLine = Math.min(lines[1], from + newlines(node.text, start, end));
      }
      out.push(new Document({ pageContent: text, metadata: meta, id: `${tree.docId}#${meta.chunk}` }));
    }
  }
  return out;
}

/** Chunks of several trees, in order. */
export function chunkTrees(
  trees: readonly TreeDocument[],
  options: ChunkOptions = {},
): Document<ChunkMetadata>[] {
  return trees.flatMap((tree) => chunkTree(tree, options));
}

function checkK(name: string, k: number | undefined): number {
  const value = k ?? 5;
  if (!Number.isInteger(value) || value < 1) {
    throw new RetrieverConfigError(`${name}: k must be an integer >= 1 (got ${k})`);
  }
  return value;
}

/** A copy of a chunk with its score, so results never alias the indexed Documents. */
function scored<M extends Record<string, unknown>>(
  doc: Document<M>,
  score: number,
): Document<M & { score: number }> {
  return new Document({
    pageContent: doc.pageContent,
    metadata: { ...doc.metadata, score },
    ...(doc.id !== undefined ? { id: doc.id } : {}),
  });
}

/** Indices of the `k` best scores above zero, best first (ties keep document order). */
function topK(scores: readonly number[], k: number): number[] {
  return scores
    .map((score, i) => ({ score, i }))
    .filter((s) => s.score > 0)
    .sort((a, b) => b.score - a.score || a.i - b.i)
    .slice(0, k)
    .map((s) => s.i);
}

/** Options of {@link Bm25ChunkRetriever}. */
export interface Bm25ChunkRetrieverInput extends BaseRetrieverInput {
  /** The chunks to search, e.g. from {@link chunkTree}. */
  documents: Document[];
  /** Most Documents returned. Default 5. */
  k?: number;
}

/**
 * BM25 over chunks (the retriever's own `Bm25Index` and tokeniser): the classic lexical
 * baseline. Returns up to `k` chunks that share a term with the query, best first, with
 * `metadata.score`.
 */
export class Bm25ChunkRetriever extends BaseRetriever {
  static override lc_name(): string {
    return "Bm25ChunkRetriever";
  }

  override lc_namespace = ["pageindex", "retrievers", "baselines"];

  readonly documents: readonly Document[];
  readonly k: number;
  private readonly index: Bm25Index;

  constructor(fields: Bm25ChunkRetrieverInput) {
    super(fields);
    this.documents = fields.documents;
    this.k = checkK("Bm25ChunkRetriever", fields.k);
    this.index = new Bm25Index(
      fields.documents.map((doc) => bm25Doc([{ terms: tokenize(doc.pageContent), weight: 1 }])),
    );
  }

  /** BM25 over the chunks of `trees` (see {@link chunkTree}). */
  static fromTrees(
    trees: readonly TreeDocument[],
    options: ChunkOptions & Omit<Bm25ChunkRetrieverInput, "documents"> = {},
  ): Bm25ChunkRetriever {
    const { chunkTokens, overlapTokens, ...rest } = options;
    return new Bm25ChunkRetriever({ ...rest, documents: chunkTrees(trees, { chunkTokens, overlapTokens }) });
  }

  /** @internal LangChain entry point; use `invoke`. */
  override async _getRelevantDocuments(query: string): Promise<Document[]> {
    const scores = this.index.scoreAll(tokenize(query));
    return topK(scores, this.k).map((i) => scored(this.documents[i] as Document, scores[i] as number));
  }
}

/** Options of {@link VectorChunkRetriever}. */
export interface VectorChunkRetrieverInput extends BaseRetrieverInput {
  /** The chunks to search, e.g. from {@link chunkTree}. */
  documents: Document[];
  /** Any LangChain embeddings (OpenAI, Ollama, {@link HashingEmbeddings}…). */
  embeddings: EmbeddingsInterface;
  /** Most Documents returned. Default 5. */
  k?: number;
  /** Chunks per `embedDocuments` call. Default 64. */
  batchSize?: number;
}

/** Cosine similarity; 0 when either vector is all zeros. */
export function cosineSimilarity(a: readonly number[], b: readonly number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i += 1) {
    const x = a[i] as number;
    const y = b[i] as number;
    dot += x * y;
    na += x * x;
  }
  for (let i = 0; i < b.length; i += 1) nb += (b[i] as number) ** 2;
  for (let i = n; i < a.length; i += 1) na += (a[i] as number) ** 2;
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/**
 * Dense retrieval over chunks: embeds every chunk once (in batches, on the first query) and
 * returns the `k` most cosine-similar chunks to the query embedding, with `metadata.score`.
 * The vector-RAG baseline of an A/B test, without a vector-store dependency.
 */
export class VectorChunkRetriever extends BaseRetriever {
  static override lc_name(): string {
    return "VectorChunkRetriever";
  }

  override lc_namespace = ["pageindex", "retrievers", "baselines"];

  readonly documents: readonly Document[];
  readonly embeddings: EmbeddingsInterface;
  readonly k: number;
  private readonly batchSize: number;
  private vectors: Promise<number[][]> | undefined;

  constructor(fields: VectorChunkRetrieverInput) {
    super(fields);
    this.documents = fields.documents;
    this.embeddings = fields.embeddings;
    this.k = checkK("VectorChunkRetriever", fields.k);
    const batch = fields.batchSize ?? 64;
    if (!Number.isInteger(batch) || batch < 1) {
      throw new RetrieverConfigError(
        `VectorChunkRetriever: batchSize must be an integer >= 1 (got ${batch})`,
      );
    }
    this.batchSize = batch;
  }

  /** Vector search over the chunks of `trees` (see {@link chunkTree}). */
  static fromTrees(
    trees: readonly TreeDocument[],
    options: ChunkOptions & Omit<VectorChunkRetrieverInput, "documents">,
  ): VectorChunkRetriever {
    const { chunkTokens, overlapTokens, ...rest } = options;
    return new VectorChunkRetriever({
      ...rest,
      documents: chunkTrees(trees, { chunkTokens, overlapTokens }),
    });
  }

  /** Embeds the chunks now rather than on the first query (e.g. to time indexing apart). */
  embedChunks(): Promise<number[][]> {
    if (!this.vectors) {
      const run = async () => {
        const out: number[][] = [];
        for (let i = 0; i < this.documents.length; i += this.batchSize) {
          const batch = this.documents.slice(i, i + this.batchSize).map((d) => d.pageContent);
          const vectors = await this.embeddings.embedDocuments(batch);
          if (vectors.length !== batch.length) {
            throw new RetrieverConfigError(
              `VectorChunkRetriever: embeddings returned ${vectors.length} vectors for ${batch.length} chunks`,
            );
          }
          out.push(...vectors);
        }
        return out;
      };
      this.vectors = run();
      // A failed embedding run (network, rate limit) is retried by the next query.
      this.vectors.catch(() => {
        this.vectors = undefined;
      });
    }
    return this.vectors;
  }

  /** @internal LangChain entry point; use `invoke`. */
  override async _getRelevantDocuments(query: string, _runManager?: CallbackManagerForRetrieverRun) {
    const [vectors, queryVector] = await Promise.all([this.embedChunks(), this.embeddings.embedQuery(query)]);
    const scores = vectors.map((v) => cosineSimilarity(queryVector, v));
    return topK(scores, this.k).map((i) => scored(this.documents[i] as Document, scores[i] as number));
  }
}

/** Options of {@link HashingEmbeddings}. */
export interface HashingEmbeddingsParams extends EmbeddingsParams {
  /** Vector size. Default 512. */
  dimensions?: number;
  /** Also hash adjacent word pairs. Default true. */
  bigrams?: boolean;
}

/** FNV-1a, 32 bits: a fast, stable string hash (same vectors on every machine and run). */
function fnv1a(text: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * A deterministic, offline stand-in for an embedding model: feature hashing of word unigrams
 * and bigrams (the retriever's tokeniser: stop words dropped, light stemming) into
 * `dimensions` buckets with sublinear term frequency (1 + ln tf), a hash-derived sign to keep
 * collisions unbiased, and L2 normalisation.
 *
 * It is a **lexical** model in vector form — it knows no synonyms or meaning, only shared
 * words — so a "vector" baseline built on it measures chunking plus bag-of-words similarity,
 * not what a semantic embedding model would do. Use a real model (e.g. `OpenAIEmbeddings`)
 * for a real comparison.
 */
export class HashingEmbeddings extends Embeddings {
  readonly dimensions: number;
  readonly bigrams: boolean;

  constructor(params: HashingEmbeddingsParams = {}) {
    super(params);
    const dims = params.dimensions ?? 512;
    if (!Number.isInteger(dims) || dims < 1) {
      throw new RetrieverConfigError(`HashingEmbeddings: dimensions must be an integer >= 1 (got ${dims})`);
    }
    this.dimensions = dims;
    this.bigrams = params.bigrams ?? true;
  }

  /** The vector of one text (synchronous; the async methods wrap it). */
  embed(text: string): number[] {
    const terms = tokenize(text);
    const counts = new Map<string, number>();
    const add = (feature: string) => counts.set(feature, (counts.get(feature) ?? 0) + 1);
    terms.forEach((term, i) => {
      add(term);
      if (this.bigrams && i > 0) add(`${terms[i - 1]} ${term}`);
    });
    const vector = new Array<number>(this.dimensions).fill(0);
    for (const [feature, tf] of counts) {
      const hash = fnv1a(feature);
      const sign = hash & 0x80000000 ? -1 : 1;
      const slot = hash % this.dimensions;
      vector[slot] = (vector[slot] as number) + sign * (1 + Math.log(tf));
    }
    const norm = Math.sqrt(vector.reduce((sum, x) => sum + x * x, 0));
    return norm === 0 ? vector : vector.map((x) => x / norm);
  }

  override async embedDocuments(documents: string[]): Promise<number[][]> {
    return documents.map((text) => this.embed(text));
  }

  override async embedQuery(document: string): Promise<number[]> {
    return this.embed(document);
  }
}
