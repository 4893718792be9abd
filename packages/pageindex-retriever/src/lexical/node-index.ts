import {
  type Bm25fCountedField,
  Bm25fIndex,
  countField,
  type QueryTerm,
  type SkeletonNode,
  type TreeSkeleton,
  tokenize,
  tokenizeQuery,
  walk,
} from "pageindex-core";
import { EXPANSION_WEIGHT, expandQuery } from "./expand.js";

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

/**
 * Fields of the per-node BM25F document: weight and length normalisation. A title is short and
 * precise (weighs most, barely length-normalised); a node's own text is long and noisy. When the
 * text is indexed the extractive summary mostly repeats its opening, so it weighs less.
 */
const FIELDS = {
  title: { weight: 3, b: 0.3 },
  path: { weight: 0.5, b: 0.3 },
  summary: { weight: 1, b: 0.5 },
  summaryWithText: { weight: 0.5, b: 0.5 },
  text: { weight: 1, b: 0.75 },
} as const;

/** Query weights: words, adjacent word pairs (phrases), and expanded financial line items. */
const QUERY_WEIGHTS = { term: 1, phrase: 0.6 } as const;

/** How much a subsection's score counts for its ancestors (keeps the best branch on top). */
const SUBTREE_DECAY = 0.95;

/** `auto` reads node texts for documents up to this many tokens (a 190-page 10-K has ~110k; its index ~65k entries, ~0.15 s). */
export const AUTO_TEXT_MAX_TOKENS = 2_000_000;

/** Terms plus their adjacent pairs ("cash flow"), so phrases score above scattered words. */
export function withPhrases(terms: readonly string[]): string[] {
  const out = [...terms];
  for (let i = 1; i < terms.length; i += 1) out.push(`${terms[i - 1]} ${terms[i]}`);
  return out;
}

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

// A printed table of contents ("Item 7. Management's Discussion ........ 25") names every
// section, so indexing it would make the cover or contents node match any query as well as
// the sections themselves. Entries with dot leaders ending in a page number are left out
// (up to 120 characters before the leaders, so a summary flattened to one line keeps the rest).
const TOC_ENTRY = /[^\n.]{0,120}?(?:\.\s?){4,}\s*[0-9ivxlc]{1,5}\b/gi;

/** The text without printed table-of-contents entries (dot leaders followed by a page number). */
export function withoutTocLines(text: string): string {
  return text.includes("....") || text.includes(". . . .") ? text.replace(TOC_ENTRY, " ") : text;
}

/** Weight and length normalisation of the four per-node fields, in order. */
export function nodeFieldParams(withText: boolean): ReadonlyArray<{ weight: number; b: number }> {
  return [FIELDS.title, FIELDS.path, withText ? FIELDS.summaryWithText : FIELDS.summary, FIELDS.text];
}

/**
 * The counted BM25F fields of every node (skeleton order): title, ancestors' titles, summary and,
 * with `texts`, the node's own text. What {@link NodeTermIndex} is built from and what a saved
 * index keeps (see `lexical/persisted.ts`), so reading it back scores exactly the same.
 */
export function nodeFields(
  skeleton: TreeSkeleton,
  texts?: ReadonlyMap<string, string>,
): Bm25fCountedField[][] {
  const byId = new Map(skeleton.nodes.map((n) => [n.nodeId, n]));
  const pathTerms = (node: SkeletonNode): string[] => {
    const out: string[] = [];
    let parent = node.parentId === null ? undefined : byId.get(node.parentId);
    for (let hops = 0; parent && hops < 32; hops += 1) {
      out.push(...tokenize(parent.title));
      parent = parent.parentId === null ? undefined : byId.get(parent.parentId);
    }
    return out;
  };
  const [title, path, summary, text] = nodeFieldParams(texts !== undefined) as [
    { weight: number; b: number },
    { weight: number; b: number },
    { weight: number; b: number },
    { weight: number; b: number },
  ];
  return skeleton.nodes.map((node) =>
    [
      { terms: withPhrases(tokenize(node.title)), ...title },
      { terms: pathTerms(node), ...path },
      {
        terms: withPhrases(tokenize(withoutTocLines(`${node.summary ?? ""} ${node.prefixSummary ?? ""}`))),
        ...summary,
      },
      { terms: withPhrases(tokenize(withoutTocLines(texts?.get(node.nodeId) ?? ""))), ...text },
    ].map(countField),
  );
}

/** Counted fields of every node, e.g. read back from a saved index. */
export interface CountedNodeFields {
  /** Whether the nodes' own texts were indexed. */
  withText: boolean;
  /** One list of fields per skeleton node, in skeleton order (see {@link nodeFields}). */
  fields: ReadonlyArray<readonly Bm25fCountedField[]>;
}

/**
 * A BM25 index over the nodes of one document: each node is a document made of its title,
 * its ancestors' titles, its summary and (optionally) its own text. Branch scores propagate
 * bottom-up so navigation can tell which child holds the best match deeper down.
 */
export class NodeTermIndex {
  readonly docId: string;
  readonly withText: boolean;
  private readonly skeleton: TreeSkeleton;
  private readonly ids: string[];
  private readonly index: Bm25fIndex;

  /**
   * @param source the nodes' own texts (indexed with the skeleton's fields), or fields counted
   *   before (see {@link nodeFields}); neither: the skeleton's fields only.
   */
  constructor(skeleton: TreeSkeleton, source?: ReadonlyMap<string, string> | CountedNodeFields) {
    this.docId = skeleton.docId;
    this.skeleton = skeleton;
    this.ids = skeleton.nodes.map((n) => n.nodeId);
    if (source instanceof Map || source === undefined) {
      this.withText = source !== undefined;
      this.index = new Bm25fIndex(nodeFields(skeleton, source));
    } else {
      const counted = source as CountedNodeFields;
      if (counted.fields.length !== skeleton.nodes.length) {
        throw new RangeError(
          `NodeTermIndex: ${counted.fields.length} field lists for ${skeleton.nodes.length} nodes`,
        );
      }
      this.withText = counted.withText;
      this.index = new Bm25fIndex(counted.fields);
    }
  }

  /**
   * The share of the document's nodes that hold each term (0 for a term none holds): how much
   * of the document is about it, where a BM25 score tells which node is.
   */
  nodeShares(terms: readonly string[]): number[] {
    const nodes = Math.max(1, this.index.docs.length);
    return terms.map((term) => this.index.docs.filter((tf) => tf.has(term)).length / nodes);
  }

  /** Term entries held over all nodes (words and phrases): the index's size, for diagnostics. */
  get postings(): number {
    return this.index.docs.reduce((sum, tf) => sum + tf.size, 0);
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
    const docs = this.index.docs;
    const idIndex = new Map(this.ids.map((id, i) => [id, i]));
    // Shown in reasons: the query's own words (not phrases or expansions) found in a node.
    const termSet = [...new Set(tokenizeQuery(query))];
    return {
      own,
      subtree,
      bestIn,
      best: Math.max(0, ...raw),
      matched: (nodeId) => {
        const doc = docs[idIndex.get(nodeId) ?? -1];
        return doc ? termSet.filter((t) => doc.has(t)) : [];
      },
    };
  }
}
