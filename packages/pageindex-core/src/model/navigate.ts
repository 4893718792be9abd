import type { SkeletonNode, TreeNode } from "./types.js";

/** Anything with linked nodes: a full tree or a skeleton. */
export interface NodeGraph<N extends SkeletonNode = SkeletonNode> {
  rootIds: string[];
  nodes: N[];
}

// Index per tree object, so repeated lookups are O(1) without the caller holding a map.
// Trees are treated as immutable once built; mutate a copy, not a shared tree.
const indexCache = new WeakMap<object, Map<string, SkeletonNode>>();

/** Map from node id to node, cached per tree object. */
export function nodeIndex<N extends SkeletonNode>(tree: NodeGraph<N>): Map<string, N> {
  let index = indexCache.get(tree.nodes);
  if (!index) {
    index = new Map(tree.nodes.map((n) => [n.nodeId, n]));
    indexCache.set(tree.nodes, index);
  }
  return index as Map<string, N>;
}

/** The node with this id, or `undefined`. */
export function getNode<N extends SkeletonNode>(tree: NodeGraph<N>, nodeId: string): N | undefined {
  return nodeIndex(tree).get(nodeId);
}

/** The first node (pre-order) matching a predicate, or `undefined`. */
export function findNode<N extends SkeletonNode>(
  tree: NodeGraph<N>,
  predicate: (node: N) => boolean,
): N | undefined {
  let found: N | undefined;
  walk(tree, (node) => {
    if (predicate(node)) {
      found = node;
      return false;
    }
    return undefined;
  });
  return found;
}

/** The node's children in document order. */
export function childrenOf<N extends SkeletonNode>(tree: NodeGraph<N>, node: N | string): N[] {
  const index = nodeIndex(tree);
  const resolved = typeof node === "string" ? index.get(node) : node;
  if (!resolved) return [];
  return resolved.childIds.map((id) => index.get(id)).filter((n): n is N => n !== undefined);
}

/** The root nodes in document order. */
export function rootsOf<N extends SkeletonNode>(tree: NodeGraph<N>): N[] {
  const index = nodeIndex(tree);
  return tree.rootIds.map((id) => index.get(id)).filter((n): n is N => n !== undefined);
}

/** Nodes from the root down to (and including) `nodeId`; empty when the id is unknown. */
export function pathToRoot<N extends SkeletonNode>(tree: NodeGraph<N>, nodeId: string): N[] {
  const index = nodeIndex(tree);
  const path: N[] = [];
  const seen = new Set<string>();
  let current = index.get(nodeId);
  while (current && !seen.has(current.nodeId)) {
    seen.add(current.nodeId);
    path.push(current);
    current = current.parentId === null ? undefined : index.get(current.parentId);
  }
  return path.reverse();
}

/** Titles from the root down to the node. */
export function titlePath(tree: NodeGraph, nodeId: string): string[] {
  return pathToRoot(tree, nodeId).map((n) => n.title);
}

/**
 * Visits nodes in pre-order (document order) starting at the roots, or at `from`.
 * Return `false` from the visitor to stop the walk; `"skip"` to skip a node's children.
 */
export function walk<N extends SkeletonNode>(
  tree: NodeGraph<N>,
  visitor: (node: N, depth: number) => boolean | "skip" | undefined | void,
  from?: string,
): void {
  const index = nodeIndex(tree);
  const start = from === undefined ? tree.rootIds : [from];
  const stack: Array<[string, number]> = start.map((id) => [id, 1] as [string, number]).reverse();
  while (stack.length > 0) {
    const [id, depth] = stack.pop() as [string, number];
    const node = index.get(id);
    if (!node) continue;
    const result = visitor(node, depth);
    if (result === false) return;
    if (result === "skip") continue;
    for (let i = node.childIds.length - 1; i >= 0; i -= 1)
      stack.push([node.childIds[i] as string, depth + 1]);
  }
}

/** The node and all its descendants in document order. */
export function subtreeNodes<N extends SkeletonNode>(tree: NodeGraph<N>, nodeId: string): N[] {
  const out: N[] = [];
  walk(tree, (node) => void out.push(node), nodeId);
  return out;
}

/** Whether the node has no children. */
export function isLeaf(node: SkeletonNode): boolean {
  return node.childIds.length === 0;
}

/**
 * The full text of a node's subtree: its own text followed by its descendants', in order.
 * With `includeTitles`, each descendant's title is written as a heading line before its text
 * (a node's own text usually starts with its heading already, so this is off by default).
 */
export function subtreeText(
  tree: NodeGraph<TreeNode>,
  nodeId: string,
  options: { includeTitles?: boolean; separator?: string } = {},
): string {
  const separator = options.separator ?? "\n\n";
  return subtreeNodes(tree, nodeId)
    .map((node) => (options.includeTitles ? `${node.title}\n${node.text}` : node.text))
    .filter((part) => part.trim().length > 0)
    .join(separator);
}

/** Sum of own-text token counts over the node's subtree. */
export function subtreeTokenCount(tree: NodeGraph, nodeId: string): number {
  return subtreeNodes(tree, nodeId).reduce((sum, node) => sum + node.tokenCount, 0);
}
