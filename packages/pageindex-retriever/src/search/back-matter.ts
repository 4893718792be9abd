import { asksForBackMatter, detectBackMatter, type SkeletonNode } from "pageindex-core";
import type { NodeVerdict } from "../judge/types.js";

/**
 * Whether a node is back matter (index, contents, list of figures…) that the question does not
 * ask for: such a node is never ranked ahead of content, and the lexical judge does not pick it
 * (an index page matches every term it lists). Trees stored before back matter was marked are
 * recognised by title and summary shape.
 */
export function isUnaskedBackMatter(query: string, node: SkeletonNode): boolean {
  const kind = detectBackMatter(node);
  return kind !== undefined && !asksForBackMatter(query, kind);
}

/** Verdicts with unasked back matter turned down (for the lexical judge). */
export function withoutBackMatter(
  query: string,
  verdicts: NodeVerdict[],
  nodeOf: (id: string) => SkeletonNode | undefined,
): NodeVerdict[] {
  return verdicts.map((v) => {
    const node = nodeOf(v.nodeId);
    if (!v.relevant || !node || !isUnaskedBackMatter(query, node)) return v;
    return { ...v, relevant: false, self: false, reason: `back matter, not asked for (${v.reason})` };
  });
}
