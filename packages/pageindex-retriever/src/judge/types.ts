import type { SkeletonNode, TreeSkeleton } from "pageindex-core";

/** Who judged a set of nodes. */
export type JudgeKind = "llm" | "lexical" | "lexical-fallback";

/** The verdict on one candidate node. */
export interface NodeVerdict {
  nodeId: string;
  /** Whether the node (or its subtree) can hold the answer. */
  relevant: boolean;
  /** Confidence in [0, 1]. */
  score: number;
  /** Short justification, shown in the returned Document's metadata. */
  reason: string;
  /** For an internal node: its own text (intro) answers by itself. */
  self?: boolean;
}

/** A judgment of one set of sibling candidates. */
export interface Judgment {
  verdicts: NodeVerdict[];
  judge: JudgeKind;
  /** Why the model's answer was not used, for `lexical-fallback`. */
  error?: string;
}

/** One judging request: which of these candidates (siblings under `parent`) can hold the answer. */
export interface JudgeRequest {
  query: string;
  skeleton: TreeSkeleton;
  /** The node whose children are judged; `null` for the document's roots. */
  parent: SkeletonNode | null;
  candidates: SkeletonNode[];
  /**
   * The parent was judged relevant but, in a first pass, none of these candidates: ask again,
   * saying so (one extra call, only at such dead ends).
   */
  secondLook?: boolean;
}
