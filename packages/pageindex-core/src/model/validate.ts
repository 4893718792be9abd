import type { z } from "zod/v4";
import { type TreeIssue, TreeValidationError } from "../errors.js";
import { MAX_TREE_DEPTH, tooDeepMessage } from "./limits.js";
import { TreeDocumentSchema } from "./schema.js";
import type { TreeDocument, TreeNode } from "./types.js";

/** Turns zod's issues into our `path: message` form. */
export function zodIssues(error: z.ZodError): TreeIssue[] {
  return error.issues.map((issue) => ({
    path: formatPath(issue.path),
    message: issue.message,
  }));
}

function formatPath(path: PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    out += typeof part === "number" ? `[${part}]` : out ? `.${String(part)}` : String(part);
  }
  return out || "(root)";
}

type Range = [number | undefined, number | undefined, number | undefined];

function checkRange(
  node: TreeNode,
  [start, ownEnd, end]: Range,
  unit: "page" | "line",
  max: number | undefined,
  issues: TreeIssue[],
): void {
  const where = `node ${node.nodeId}`;
  if (start === undefined) {
    if (end !== undefined || ownEnd !== undefined) {
      issues.push({ path: where, message: `has an end ${unit} but no start ${unit}` });
    }
    return;
  }
  if (end !== undefined && end < start) {
    issues.push({ path: where, message: `end ${unit} ${end} is before start ${unit} ${start}` });
  }
  if (ownEnd !== undefined && (ownEnd < start || (end !== undefined && ownEnd > end))) {
    issues.push({
      path: where,
      message: `own end ${unit} ${ownEnd} is outside its range ${start}-${end ?? start}`,
    });
  }
  if (max !== undefined && (end ?? start) > max) {
    issues.push({
      path: where,
      message: `${unit} ${end ?? start} is past the document's last ${unit} ${max}`,
    });
  }
}

/** A text position starts on the node's first page and ends where it starts or later, within the node's pages. */
function checkPosition(node: TreeNode, issues: TreeIssue[]): void {
  const pos = node.position;
  if (!pos) return;
  const problem =
    node.startPage !== undefined && pos.page !== node.startPage
      ? `starts on page ${pos.page}, not on the node's first page ${node.startPage}`
      : pos.endPage < pos.page || (pos.endPage === pos.page && pos.endLine < pos.line)
        ? `ends (page ${pos.endPage} line ${pos.endLine}) before it starts (page ${pos.page} line ${pos.line})`
        : node.endPage !== undefined && pos.endPage > node.endPage
          ? `ends on page ${pos.endPage}, past the node's last page ${node.endPage}`
          : undefined;
  if (problem) issues.push({ path: `node ${node.nodeId}.position`, message: problem });
}

function rangeOf(node: TreeNode, unit: "page" | "line"): Range {
  return unit === "page"
    ? [node.startPage, node.ownEndPage, node.endPage]
    : [node.startLine, node.ownEndLine, node.endLine];
}

/**
 * The first node out of pre-order (each node before its children, roots and siblings in
 * `rootIds`/`childIds` order): readers and `treeToDocuments` rely on that order. Only
 * meaningful once links are sound.
 */
function preorderIssue(tree: TreeDocument, byId: Map<string, TreeNode>): TreeIssue | undefined {
  const order: string[] = [];
  const stack = [...tree.rootIds].reverse();
  while (stack.length > 0) {
    const id = stack.pop() as string;
    order.push(id);
    const children = byId.get(id)?.childIds ?? [];
    for (let i = children.length - 1; i >= 0; i -= 1) stack.push(children[i] as string);
  }
  const at = tree.nodes.findIndex((node, i) => node.nodeId !== order[i]);
  if (at < 0) return undefined;
  const nodeId = (tree.nodes[at] as TreeNode).nodeId;
  return {
    path: `nodes[${at}]`,
    message: `node "${nodeId}" is out of pre-order: it is at position ${at} but belongs at position ${order.indexOf(nodeId)}; position ${at} belongs to node "${order[at]}" (nodes must list each node before its children, siblings in childIds order)`,
  };
}

/**
 * Checks what a schema cannot: unique ids, consistent parent/child links, no cycles or
 * orphans, levels that follow depth, nodes in pre-order, and ranges that nest (union semantics).
 * Returns every problem found; an empty list means the tree is sound.
 */
export function checkTreeLinks(tree: TreeDocument): TreeIssue[] {
  const issues: TreeIssue[] = [];
  const byId = new Map<string, TreeNode>();
  tree.nodes.forEach((node, i) => {
    if (byId.has(node.nodeId)) {
      issues.push({ path: `nodes[${i}]`, message: `duplicate node id "${node.nodeId}"` });
    } else {
      byId.set(node.nodeId, node);
    }
  });

  const rootSet = new Set(tree.rootIds);
  tree.rootIds.forEach((id, i) => {
    const node = byId.get(id);
    if (!node) issues.push({ path: `rootIds[${i}]`, message: `root "${id}" is not a node` });
    else if (node.parentId !== null) {
      issues.push({ path: `rootIds[${i}]`, message: `root "${id}" has parent "${node.parentId}"` });
    }
  });

  for (const node of byId.values()) {
    const where = `node ${node.nodeId}`;
    if (node.parentId === null) {
      if (!rootSet.has(node.nodeId)) {
        issues.push({ path: where, message: "has no parent but is not listed in rootIds" });
      }
    } else {
      const parent = byId.get(node.parentId);
      if (!parent) {
        issues.push({ path: where, message: `parent "${node.parentId}" does not exist` });
      } else if (!parent.childIds.includes(node.nodeId)) {
        issues.push({ path: where, message: `parent "${node.parentId}" does not list it as a child` });
      }
    }
    const seenChildren = new Set<string>();
    node.childIds.forEach((childId, i) => {
      const child = byId.get(childId);
      const at = `${where}.childIds[${i}]`;
      if (seenChildren.has(childId)) issues.push({ path: at, message: `child "${childId}" listed twice` });
      seenChildren.add(childId);
      if (!child) issues.push({ path: at, message: `child "${childId}" does not exist` });
      else if (child.parentId !== node.nodeId) {
        issues.push({
          path: at,
          message: `child "${childId}" names "${child.parentId ?? "none"}" as its parent`,
        });
      }
    });
  }

  // Walk from the roots: a node met twice is a cycle (or shared child); one never met is cut off.
  const reached = new Set<string>();
  const stack: Array<{ id: string; level: number }> = tree.rootIds.map((id) => ({ id, level: 1 }));
  while (stack.length > 0) {
    const { id, level } = stack.pop() as { id: string; level: number };
    const node = byId.get(id);
    if (!node) continue;
    if (reached.has(id)) {
      issues.push({ path: `node ${id}`, message: "is reached twice from the roots (cycle)" });
      continue;
    }
    reached.add(id);
    if (node.level !== level) {
      issues.push({ path: `node ${id}`, message: `level ${node.level} does not match its depth ${level}` });
    }
    if (level >= MAX_TREE_DEPTH && node.childIds.length > 0) {
      issues.push({ path: `node ${node.childIds[0]}`, message: tooDeepMessage(level + 1) });
      for (const childId of node.childIds) reached.add(childId); // reported once, not as orphans
      continue;
    }
    for (const childId of node.childIds) stack.push({ id: childId, level: level + 1 });
  }
  for (const id of byId.keys()) {
    if (!reached.has(id)) {
      issues.push({ path: `node ${id}`, message: "cannot be reached from any root (cycle or orphan)" });
    }
  }

  if (issues.length === 0) {
    const order = preorderIssue(tree, byId);
    if (order) issues.push(order);
  }
  if (tree.pageLabels && tree.pageCount !== undefined && tree.pageLabels.length !== tree.pageCount) {
    issues.push({
      path: "pageLabels",
      message: `has ${tree.pageLabels.length} labels for ${tree.pageCount} pages (one a page is expected)`,
    });
  }

  for (const node of byId.values()) {
    checkPosition(node, issues);
    checkRange(node, rangeOf(node, "page"), "page", tree.pageCount || undefined, issues);
    checkRange(node, rangeOf(node, "line"), "line", tree.lineCount || undefined, issues);
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    if (!parent) continue;
    for (const unit of ["page", "line"] as const) {
      const [cs, , ce] = rangeOf(node, unit);
      const [ps, , pe] = rangeOf(parent, unit);
      if (cs === undefined || ps === undefined) continue;
      if (cs < ps || (pe !== undefined && (ce ?? cs) > pe)) {
        issues.push({
          path: `node ${node.nodeId}`,
          message: `${unit}s ${cs}-${ce ?? cs} fall outside parent ${parent.nodeId}'s ${ps}-${pe ?? ps}`,
        });
      }
    }
  }
  return issues;
}

/**
 * A JSON string parsed, or an already-parsed value as it is: the tree readers' common first step.
 * @throws {TreeValidationError} when the string is not valid JSON.
 */
export function parseJsonInput(input: unknown, context?: { source?: string }): unknown {
  if (typeof input !== "string") return input;
  try {
    return JSON.parse(input);
  } catch (error) {
    throw new TreeValidationError(
      [{ path: "(root)", message: `not valid JSON: ${(error as Error).message}` }],
      context,
    );
  }
}

/**
 * Parses and fully validates a tree from a JSON string or an already-parsed value.
 * @throws {TreeValidationError} listing every problem and where it is.
 */
export function parseTree(input: unknown, context?: { source?: string }): TreeDocument {
  const value = parseJsonInput(input, context);
  const parsed = TreeDocumentSchema.safeParse(value);
  const docId =
    value && typeof value === "object" && typeof (value as { docId?: unknown }).docId === "string"
      ? (value as { docId: string }).docId
      : undefined;
  if (!parsed.success) {
    throw new TreeValidationError(zodIssues(parsed.error), { ...context, ...(docId ? { docId } : {}) });
  }
  const issues = checkTreeLinks(parsed.data);
  if (issues.length > 0) throw new TreeValidationError(issues, { ...context, docId: parsed.data.docId });
  return parsed.data;
}
