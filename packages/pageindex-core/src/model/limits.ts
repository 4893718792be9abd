/**
 * Deepest tree accepted (levels, roots at 1). Real documents nest a handful of levels (Markdown
 * six, outlines rarely past ten); a hostile file can nest thousands, which would overflow the
 * stack of every recursive step downstream. Deeper input is refused with a
 * `TreeValidationError`, or flattened at this depth where a loader can keep a partial tree.
 */
export const MAX_TREE_DEPTH = 256;

/** The message of a tree issue for a node nested deeper than {@link MAX_TREE_DEPTH}. */
export function tooDeepMessage(level: number): string {
  return `is nested ${level} levels deep; trees are limited to ${MAX_TREE_DEPTH} levels`;
}

/**
 * Nesting depth of a structure whose nodes keep children under `key`, found without recursion
 * (so a hostile input cannot overflow the stack while it is measured); stops counting past
 * `limit`.
 */
export function nestingDepth(roots: unknown, key: string, limit = MAX_TREE_DEPTH + 1): number {
  let deepest = 0;
  const stack: Array<[unknown, number]> = Array.isArray(roots) ? roots.map((r) => [r, 1]) : [];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    deepest = Math.max(deepest, depth);
    if (deepest >= limit) return deepest;
    const children = (node as Record<string, unknown> | null)?.[key];
    if (Array.isArray(children)) for (const child of children) stack.push([child, depth + 1]);
  }
  return deepest;
}
