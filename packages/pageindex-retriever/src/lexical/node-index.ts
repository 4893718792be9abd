import {
  Bm25fPostings,
  type QueryTerm,
  type SkeletonNode,
  type TreeSkeleton,
  tokenizeQuery,
  walk,
} from "pageindex-core";
import { EXPANSION_WEIGHT, expandQuery } from "./expand.js";
import { nodeFields, withPhrases } from "./node-fields.js";
import { PackedNodeFields, packNodeFields } from "./packed-fields.js";

/**
 * Which text the lexical index reads. The skeleton carries no node text, so:
 * - `skeleton`: titles, ancestor titles and summaries only (reads no text at all);
 * - `full`: also every node's own text, read once per document version and then kept: in
 *   memory, and saved in the store (`PageIndexStore.putDerived`) so other processes read one key
 *   instead of every text chunk (an indexing cost, like any BM25 index, not a per-query one).
 *   With a model judge the texts are read only when a judgment falls back to BM25;
 * - `auto` (default): `full` unless the document is very large (over
 *   {@link AUTO_TEXT_MAX_TOKENS} tokens) and most of its nodes carry summaries; section text is
 *   where a filing's answers are (statement line items, figures), summaries alone miss them.
 */
export type LexicalTextMode = "auto" | "skeleton" | "full";

/** Query weights: words, adjacent word pairs (phrases), and expanded financial line items. */
const QUERY_WEIGHTS = { term: 1, phrase: 0.6 } as const;

/** How much a subsection's score counts for its ancestors (keeps the best branch on top). */
const SUBTREE_DECAY = 0.95;

/** `auto` reads node texts for documents up to this many tokens (a 190-page 10-K has ~110k; its index ~65k entries, ~0.15 s). */
export const AUTO_TEXT_MAX_TOKENS = 2_000_000;

/** The weighted terms of a query: words, phrases, and expansions at a lower weight. */
export function queryTerms(query: string): QueryTerm[] {
  const terms = tokenizeQuery(query);
  const out: QueryTerm[] = terms.map((term) => ({ term, weight: QUERY_WEIGHTS.term }));
  for (let i = 1; i < terms.length; i += 1)
    out.push({ term: `${terms[i - 1]} ${terms[i]}`, weight: QUERY_WEIGHTS.phrase });
  for (const phrase of expandQuery(terms)) {
    for (const term of withPhrases(phrase)) out.push({ term, weight: EXPANSION_WEIGHT });
  }
  return out;
}

/** Lexical scores of every node of one document for one query. */
export interface LexicalScores {
  /** Score of the node's own fields. */
  own: Map<string, number>;
  /** max(own, decayed best descendant): how promising the branch is. */
  subtree: Map<string, number>;
  /** The node whose own score gives the branch its subtree score. */
  bestIn: Map<string, string>;
  /** Highest own score in the document. */
  best: number;
  /** Query terms that occur in each node's own fields. */
  matched(nodeId: string): string[];
}

/** Whether `auto` should read the document's node texts (see {@link LexicalTextMode}). */
export function needsText(skeleton: TreeSkeleton): boolean {
  const withSummary = skeleton.nodes.filter((n) => (n.summary ?? n.prefixSummary ?? "").trim()).length;
  if (withSummary * 2 < skeleton.nodes.length) return true;
  const tokens = skeleton.nodes.reduce((sum, n) => sum + n.tokenCount, 0);
  return tokens <= AUTO_TEXT_MAX_TOKENS;
}

/**
 * A BM25 index over the nodes of one document: each node is a document made of its title,
 * its ancestors' titles, its summary and (optionally) its own text. Branch scores propagate
 * bottom-up so navigation can tell which child holds the best match deeper down. Held term by
 * term ({@link PackedNodeFields}): a query reads its own terms' postings only, so an index read
 * back from its saved bytes is used as it is, not rebuilt.
 */
export class NodeTermIndex {
  readonly docId: string;
  readonly withText: boolean;
  /** The index's terms and counts, as saved (see `lexical/persisted.ts`). */
  readonly fields: PackedNodeFields;
  private readonly skeleton: TreeSkeleton;
  private readonly ids: string[];
  private readonly index: Bm25fPostings;
  private idIndex?: Map<string, number>;

  /**
   * @param source the nodes' own texts (indexed with the skeleton's fields), or an index packed
   *   before (see {@link packNodeFields}, `decodeNodeFields`); neither: the skeleton's fields only.
   */
  constructor(skeleton: TreeSkeleton, source?: ReadonlyMap<string, string> | PackedNodeFields) {
    this.docId = skeleton.docId;
    this.skeleton = skeleton;
    this.ids = skeleton.nodes.map((n) => n.nodeId);
    this.fields =
      source instanceof PackedNodeFields
        ? source
        : packNodeFields({ withText: source !== undefined, fields: nodeFields(skeleton, source) });
    if (this.fields.docCount !== skeleton.nodes.length) {
      throw new RangeError(
        `NodeTermIndex: an index of ${this.fields.docCount} nodes for ${skeleton.nodes.length} nodes`,
      );
    }
    this.withText = this.fields.withText;
    this.index = new Bm25fPostings(this.fields);
  }

  /**
   * The share of the document's nodes that hold each term (0 for a term none holds): how much
   * of the document is about it, where a BM25 score tells which node is.
   */
  nodeShares(terms: readonly string[]): number[] {
    const nodes = Math.max(1, this.index.docCount);
    return terms.map((term) => this.index.documentFrequency(term) / nodes);
  }

  /** Term entries held over all nodes (words and phrases): the index's size, for diagnostics. */
  get postings(): number {
    return this.fields.entries;
  }

  /**
   * Scores every node for a query.
   * @param prior multiplies every score: how likely this document is the one asked about
   *   (see `documentPriors`), so scores compare across documents.
   */
  score(query: string, prior = 1): LexicalScores {
    const terms = queryTerms(query);
    const raw = this.index.scoreAll(terms).map((s) => s * prior);
    const own = new Map<string, number>();
    for (const [i, id] of this.ids.entries()) own.set(id, raw[i] ?? 0);
    const subtree = new Map<string, number>();
    const bestIn = new Map<string, string>();
    // Post-order: children before parents (reverse pre-order visits every child first).
    const order: SkeletonNode[] = [];
    walk(this.skeleton, (node) => void order.push(node));
    for (let i = order.length - 1; i >= 0; i -= 1) {
      const node = order[i] as SkeletonNode;
      let score = own.get(node.nodeId) ?? 0;
      let best = node.nodeId;
      for (const childId of node.childIds) {
        const child = (subtree.get(childId) ?? 0) * SUBTREE_DECAY;
        if (child > score) {
          score = child;
          best = bestIn.get(childId) ?? childId;
        }
      }
      subtree.set(node.nodeId, score);
      bestIn.set(node.nodeId, best);
    }
    // Shown in reasons: the query's own words (not phrases or expansions) found in a node.
    const termSet = [...new Set(tokenizeQuery(query))];
    let holders: Array<Set<number>> | undefined;
    return {
      own,
      subtree,
      bestIn,
      best: Math.max(0, ...raw),
      matched: (nodeId) => {
        this.idIndex ??= new Map(this.ids.map((id, i) => [id, i]));
        const node = this.idIndex.get(nodeId);
        if (node === undefined) return [];
        holders ??= termSet.map((term) => new Set(this.index.documentsHolding(term)));
        return termSet.filter((_, t) => holders?.[t]?.has(node));
      },
    };
  }
}
