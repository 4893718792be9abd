import type { SkeletonNode } from "pageindex-core";

/** Suffix of the prompt id of an opened section's introduction (`0012~intro`; never a node id). */
const INTRO = "~intro";

/** Own-text tokens from which an opened section's introduction is worth offering (a heading alone is not). */
export const MIN_INTRO_TOKENS = 40;

/**
 * An opened section's own introduction as a candidate among its subsections ("intro of X"), so
 * an answer there stays reachable once the section is opened; `undefined` when the section has
 * no substantial text of its own. Picking it returns the section itself (see {@link introOwner}).
 */
export function introCandidate(parent: SkeletonNode): SkeletonNode | undefined {
  if (parent.childIds.length === 0 || parent.tokenCount < MIN_INTRO_TOKENS) return undefined;
  const intro: SkeletonNode = {
    nodeId: `${parent.nodeId}${INTRO}`,
    title: `Introduction of "${parent.title}" (its own text, before its subsections)`,
    level: parent.level + 1,
    parentId: parent.nodeId,
    childIds: [],
    tokenCount: parent.tokenCount,
  };
  if (parent.startPage !== undefined) {
    intro.startPage = parent.startPage;
    intro.endPage = parent.ownEndPage ?? parent.startPage;
  }
  if (parent.startLine !== undefined) {
    intro.startLine = parent.startLine;
    intro.endLine = parent.ownEndLine ?? parent.startLine;
  }
  const summary = parent.prefixSummary ?? parent.summary;
  if (summary) intro.summary = summary;
  return intro;
}

/** The id of the section whose introduction this prompt id stands for, or `undefined`. */
export function introOwner(id: string): string | undefined {
  return id.endsWith(INTRO) ? id.slice(0, -INTRO.length) : undefined;
}
