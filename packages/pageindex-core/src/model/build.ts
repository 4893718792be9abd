import { TreeValidationError } from "../errors.js";
import { countTokens } from "../tokens.js";
import { MAX_TREE_DEPTH, tooDeepMessage } from "./limits.js";
import type { BuildInfo, TextPosition, TreeDocument, TreeKind, TreeNode } from "./types.js";
import { TREE_SCHEMA_VERSION } from "./types.js";
import { checkTreeLinks } from "./validate.js";

/** A node as a loader produces it: nested, ids and levels not yet assigned. */
export interface NodeDraft {
  title: string;
  /** The node's own text (before its first child). */
  text?: string;
  /** Keep this id instead of assigning a pre-order one (e.g. when importing). */
  nodeId?: string;
  startPage?: number;
  /** Subtree end; computed from the children when omitted (union semantics). */
  endPage?: number;
  /** End of the node's own text; defaults to `endPage` for leaves. */
  ownEndPage?: number;
  startLine?: number;
  endLine?: number;
  ownEndLine?: number;
  headingLevel?: number;
  /** Where the own text lies within its pages (PDF). */
  position?: TextPosition;
  /** Precomputed token count of `text`; counted with tiktoken when omitted. */
  tokenCount?: number;
  summary?: string;
  prefixSummary?: string;
  metadata?: Record<string, unknown>;
  children?: NodeDraft[];
}

/** Document-level fields of a tree being created. */
export interface TreeInit {
  docId: string;
  docName: string;
  kind: TreeKind;
  build: BuildInfo;
  source?: string;
  pageCount?: number;
  lineCount?: number;
  description?: string;
  contentHash?: string;
  /** Defaults to now. */
  createdAt?: string;
  metadata?: Record<string, unknown>;
}

/** Formats the n-th pre-order id the way PageIndex does: "0000", "0001", … */
export function preorderId(n: number): string {
  return String(n).padStart(4, "0");
}

function maxDefined(values: Array<number | undefined>): number | undefined {
  let out: number | undefined;
  for (const v of values) if (v !== undefined && (out === undefined || v > out)) out = v;
  return out;
}

/**
 * Builds a validated {@link TreeDocument} from nested drafts: assigns pre-order ids
 * (unless drafts carry their own), levels, parent/child links, union ranges and token counts.
 * @throws {TreeValidationError} when the drafts are inconsistent (e.g. a child starting
 * before its parent, or duplicate ids).
 */
export function createTree(init: TreeInit, roots: NodeDraft[]): TreeDocument {
  const nodes: TreeNode[] = [];
  let counter = 0;

  const visit = (draft: NodeDraft, parentId: string | null, level: number): TreeNode => {
    if (level > MAX_TREE_DEPTH) {
      throw new TreeValidationError(
        [{ path: `node "${draft.title.slice(0, 60)}"`, message: tooDeepMessage(level) }],
        {
          docId: init.docId,
        },
      );
    }
    const nodeId = draft.nodeId ?? preorderId(counter);
    counter += 1;
    const text = draft.text ?? "";
    const node: TreeNode = {
      nodeId,
      title: draft.title,
      level,
      parentId,
      childIds: [],
      text,
      tokenCount: draft.tokenCount ?? countTokens(text),
    };
    nodes.push(node);
    const children = (draft.children ?? []).map((child) => visit(child, nodeId, level + 1));
    node.childIds = children.map((c) => c.nodeId);

    for (const unit of ["Page", "Line"] as const) {
      const start = draft[`start${unit}`];
      if (start === undefined) continue;
      const childEnd = maxDefined(children.map((c) => c[`end${unit}`]));
      const ownEnd =
        draft[`ownEnd${unit}`] ?? (children.length === 0 ? (draft[`end${unit}`] ?? start) : undefined);
      const end = maxDefined([draft[`end${unit}`], ownEnd, childEnd, start]) as number;
      node[`start${unit}`] = start;
      node[`end${unit}`] = end;
      if (ownEnd !== undefined) node[`ownEnd${unit}`] = ownEnd;
    }
    if (draft.headingLevel !== undefined) node.headingLevel = draft.headingLevel;
    if (draft.position !== undefined) node.position = { ...draft.position };
    if (draft.summary !== undefined) node.summary = draft.summary;
    if (draft.prefixSummary !== undefined) node.prefixSummary = draft.prefixSummary;
    if (draft.metadata !== undefined) node.metadata = draft.metadata;
    return node;
  };

  const rootIds = roots.map((root) => visit(root, null, 1).nodeId);
  const tree: TreeDocument = {
    schemaVersion: TREE_SCHEMA_VERSION,
    docId: init.docId,
    docName: init.docName,
    kind: init.kind,
    createdAt: init.createdAt ?? new Date().toISOString(),
    build: init.build,
    rootIds,
    nodes,
  };
  if (init.source !== undefined) tree.source = init.source;
  if (init.pageCount !== undefined) tree.pageCount = init.pageCount;
  if (init.lineCount !== undefined) tree.lineCount = init.lineCount;
  if (init.description !== undefined) tree.description = init.description;
  if (init.contentHash !== undefined) tree.contentHash = init.contentHash;
  if (init.metadata !== undefined) tree.metadata = init.metadata;

  const issues = checkTreeLinks(tree);
  if (issues.length > 0) throw new TreeValidationError(issues, { docId: init.docId });
  return tree;
}
