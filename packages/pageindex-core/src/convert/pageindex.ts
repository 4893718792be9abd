import { z } from "zod/v4";
import { TreeValidationError } from "../errors.js";
import { toDocId } from "../ids.js";
import { createTree, type NodeDraft } from "../model/build.js";
import { MAX_TREE_DEPTH, nestingDepth, tooDeepMessage } from "../model/limits.js";
import { childrenOf, rootsOf } from "../model/navigate.js";
import type { TreeDocument, TreeKind, TreeNode } from "../model/types.js";
import { parseJsonInput, zodIssues } from "../model/validate.js";

/** One node of PageIndex's (Python) `*_structure.json`. */
export interface PageIndexNode {
  title: string;
  node_id?: string;
  /** First page, 1-based (PDF trees). */
  start_index?: number;
  /** PageIndex quirk: for a parent, where its own intro ends, not its subtree. */
  end_index?: number;
  /** First line, 1-based (Markdown trees). */
  line_num?: number;
  summary?: string;
  prefix_summary?: string;
  text?: string;
  nodes?: PageIndexNode[];
}

/** PageIndex's tree file: `{doc_name, doc_description?, structure}`. */
export interface PageIndexJson {
  doc_name?: string;
  doc_description?: string;
  structure: PageIndexNode[];
}

const PageIndexNodeSchema: z.ZodType<PageIndexNode> = z.lazy(() =>
  z.looseObject({
    title: z.string(),
    node_id: z.union([z.string(), z.number().transform(String)]).optional(),
    start_index: z.number().int().positive().optional(),
    end_index: z.number().int().positive().optional(),
    line_num: z.number().int().positive().optional(),
    summary: z.string().optional(),
    prefix_summary: z.string().optional(),
    text: z.string().optional(),
    nodes: z.array(PageIndexNodeSchema).optional(),
  }),
) as z.ZodType<PageIndexNode>;

const PageIndexJsonSchema = z.looseObject({
  doc_name: z.string().optional(),
  doc_description: z.string().optional(),
  structure: z.array(PageIndexNodeSchema),
});

/** Options for {@link fromPageIndexJson}. */
export interface FromPageIndexOptions {
  /** Document id; derived from `doc_name` (or `docName`) when omitted. */
  docId?: string;
  /** Name when the file has no `doc_name`. */
  docName?: string;
  /** Where the file came from, used in error messages and kept as `source`. */
  source?: string;
  /** Page count, when known; defaults to the largest page the tree mentions. */
  pageCount?: number;
  /** Line count of a Markdown source, when known. */
  lineCount?: number;
}

function flatten(nodes: PageIndexNode[], out: PageIndexNode[] = []): PageIndexNode[] {
  for (const node of nodes) {
    out.push(node);
    flatten(node.nodes ?? [], out);
  }
  return out;
}

/**
 * Imports a PageIndex tree (parsed JSON or a JSON string). Converts PageIndex's parent range
 * quirk to union semantics, keeping PageIndex's `end_index` as `ownEndPage` so an export
 * gives the same numbers back. Node ids are kept when present and unique.
 * @throws {TreeValidationError} naming the file and the bad node.
 */
export function fromPageIndexJson(input: unknown, options: FromPageIndexOptions = {}): TreeDocument {
  const context = options.source !== undefined ? { source: options.source } : {};
  const value = parseJsonInput(input, context);
  // Measured before the (recursive) schema check, which a hostile nesting would overflow.
  const structure = Array.isArray(value) ? value : (value as { structure?: unknown } | null)?.structure;
  const depth = nestingDepth(structure, "nodes");
  if (depth > MAX_TREE_DEPTH) {
    throw new TreeValidationError(
      [{ path: "structure", message: `a node ${tooDeepMessage(depth)}` }],
      context,
    );
  }
  // Older PageIndex versions wrote the bare node list.
  const parsed = PageIndexJsonSchema.safeParse(Array.isArray(value) ? { structure: value } : value);
  if (!parsed.success) throw new TreeValidationError(zodIssues(parsed.error), context);
  const json = parsed.data as PageIndexJson;

  const all = flatten(json.structure);
  const ids = all.map((n) => n.node_id);
  const keepIds =
    ids.every((id) => id !== undefined && /^[A-Za-z0-9_-][A-Za-z0-9_.-]*$/.test(id)) &&
    new Set(ids).size === ids.length;
  const kind: TreeKind = all.some((n) => n.start_index !== undefined)
    ? "pdf"
    : all.some((n) => n.line_num !== undefined)
      ? "markdown"
      : "text";
  const warnings: string[] = [];

  // Markdown trees carry only start lines: a node's own text runs to the next node's start.
  const nextLine = new Map<PageIndexNode, number>();
  let following: number | undefined;
  for (let i = all.length - 1; i >= 0; i -= 1) {
    const node = all[i] as PageIndexNode;
    if (following !== undefined) nextLine.set(node, following);
    if (node.line_num !== undefined) following = node.line_num;
  }

  const toDraft = (node: PageIndexNode, parentStart: number | undefined): NodeDraft => {
    const draft: NodeDraft = { title: node.title, text: node.text ?? "" };
    if (keepIds && node.node_id !== undefined) draft.nodeId = node.node_id;
    if (node.start_index !== undefined) {
      let start = node.start_index;
      if (parentStart !== undefined && start < parentStart) {
        warnings.push(
          `"${node.title}" started on page ${start}, before its parent (page ${parentStart}); moved to ${parentStart}`,
        );
        start = parentStart;
      }
      draft.startPage = start;
      let ownEnd = node.end_index ?? start;
      if (ownEnd < start) {
        warnings.push(
          `"${node.title}" ended (page ${ownEnd}) before it started (page ${start}); end set to its start`,
        );
        ownEnd = start;
      }
      draft.ownEndPage = ownEnd;
    }
    if (node.line_num !== undefined) {
      draft.startLine = node.line_num;
      const next = nextLine.get(node);
      draft.ownEndLine = next !== undefined && next > node.line_num ? next - 1 : node.line_num;
    }
    if (node.summary !== undefined) draft.summary = node.summary;
    if (node.prefix_summary !== undefined) draft.prefixSummary = node.prefix_summary;
    draft.children = (node.nodes ?? []).map((child) => toDraft(child, draft.startPage));
    return draft;
  };
  const roots = json.structure.map((node) => toDraft(node, undefined));

  const maxPage = Math.max(0, ...all.map((n) => Math.max(n.start_index ?? 0, n.end_index ?? 0)));
  const docName = json.doc_name ?? options.docName ?? options.source?.split(/[\\/]/).pop() ?? "document";
  try {
    return createTree(
      {
        docId: options.docId ?? toDocId(docName),
        docName,
        kind,
        build: {
          loader: "pageindex-import",
          structure: "imported",
          ...(warnings.length ? { warnings } : {}),
        },
        ...(options.source !== undefined ? { source: options.source } : {}),
        ...(kind === "pdf" ? { pageCount: Math.max(options.pageCount ?? 0, maxPage) } : {}),
        ...(options.lineCount !== undefined ? { lineCount: options.lineCount } : {}),
        ...(json.doc_description !== undefined ? { description: json.doc_description } : {}),
      },
      roots,
    );
  } catch (error) {
    if (error instanceof TreeValidationError) throw new TreeValidationError(error.issues, context);
    throw error;
  }
}

/** Options for {@link toPageIndexJson}. */
export interface ToPageIndexOptions {
  /** Include each node's own text as `text`. Default false. */
  includeText?: boolean;
  /** Include `summary` / `prefix_summary`. Default true. */
  includeSummaries?: boolean;
}

/**
 * Exports a tree in PageIndex's format. `end_index` of a parent is where its own text ends
 * (PageIndex's quirk): the recorded `ownEndPage`, or the page its first child starts on.
 */
export function toPageIndexJson(tree: TreeDocument, options: ToPageIndexOptions = {}): PageIndexJson {
  const { includeText = false, includeSummaries = true } = options;
  const convert = (node: TreeNode): PageIndexNode => {
    const out: PageIndexNode = { title: node.title, node_id: node.nodeId };
    const children = childrenOf(tree, node);
    if (node.startPage !== undefined) {
      out.start_index = node.startPage;
      out.end_index = node.ownEndPage ?? children[0]?.startPage ?? node.endPage ?? node.startPage;
    } else if (node.startLine !== undefined) {
      out.line_num = node.startLine;
    }
    if (includeSummaries && node.summary !== undefined) out.summary = node.summary;
    if (includeSummaries && node.prefixSummary !== undefined) out.prefix_summary = node.prefixSummary;
    if (includeText) out.text = node.text;
    if (children.length > 0) out.nodes = children.map(convert);
    return out;
  };
  const json: PageIndexJson = { doc_name: tree.docName, structure: rootsOf(tree).map(convert) };
  if (tree.description !== undefined) json.doc_description = tree.description;
  return json;
}
