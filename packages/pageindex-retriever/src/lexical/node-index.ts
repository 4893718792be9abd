import { type SkeletonNode, type TreeSkeleton, walk } from "pageindex-store";
import { Bm25Index, bm25Doc } from "./bm25.js";
import { tokenize } from "./tokenize.js";

/**
 * Which text the lexical index reads. The skeleton carries no node text, so:
 * - `skeleton`: titles, ancestor titles and summaries only (reads no text at all);
 * - `full`: also every node's own text, fetched once per document and cached by the retriever
 *   (an indexing cost, like any BM25 index, not a per-query one);
 * - `auto` (default): `full` when fewer than half of the nodes carry a summary (e.g. PageIndex
 *   trees imported with titles only), `skeleton` otherwise.
 */
export type LexicalTextMode = "auto" | "skeleton" | "full";

/** Field weights of the per-node BM25F document. */
const WEIGHTS = { title: 2, path: 0.5, summary: 1, text: 1 } as const;

/** How much a subsection's score counts for its ancestors (keeps the best branch on top). */
const SUBTREE_DECAY = 0.95;

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

/** Whether the skeleton is poor in summaries, so `auto` should read node texts. */
export function needsText(skeleton: TreeSkeleton): boolean {
  const withSummary = skeleton.nodes.filter((n) => (n.summary ?? n.prefixSummary ?? "").trim()).length;
  return withSummary * 2 < skeleton.nodes.length;
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
  private readonly index: Bm25Index;

  constructor(skeleton: TreeSkeleton, texts?: ReadonlyMap<string, string>) {
    this.docId = skeleton.docId;
    this.skeleton = skeleton;
    this.withText = texts !== undefined;
    this.ids = skeleton.nodes.map((n) => n.nodeId);
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
    this.index = new Bm25Index(
      skeleton.nodes.map((node) =>
        bm25Doc([
          { terms: tokenize(node.title), weight: WEIGHTS.title },
          { terms: pathTerms(node), weight: WEIGHTS.path },
          { terms: tokenize(`${node.summary ?? ""} ${node.prefixSummary ?? ""}`), weight: WEIGHTS.summary },
          { terms: tokenize(texts?.get(node.nodeId) ?? ""), weight: WEIGHTS.text },
        ]),
      ),
    );
  }

  /** Scores every node for a query. */
  score(query: string): LexicalScores {
    const terms = tokenize(query);
    const raw = this.index.scoreAll(terms);
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
    const termSet = [...new Set(terms)];
    return {
      own,
      subtree,
      bestIn,
      best: Math.max(0, ...raw),
      matched: (nodeId) => {
        const doc = docs[idIndex.get(nodeId) ?? -1];
        return doc ? termSet.filter((t) => doc.tf.has(t)) : [];
      },
    };
  }
}
