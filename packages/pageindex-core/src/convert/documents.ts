import { Document } from "@langchain/core/documents";
import { PageIndexError, TreeValidationError } from "../errors.js";
import { createTree, type NodeDraft, type TreeInit } from "../model/build.js";
import { MAX_TREE_DEPTH, tooDeepMessage } from "../model/limits.js";
import { nodeIndex, titlePath } from "../model/navigate.js";
import type {
  SkeletonNode,
  TextPosition,
  TreeDocument,
  TreeKind,
  TreeNode,
  TreeSkeleton,
} from "../model/types.js";

/**
 * Metadata of a node Document. Ids live here as well as in `Document.id`, because
 * LangChain's encoder-backed stores drop `Document.id`.
 */
export interface NodeDocumentMetadata {
  docId: string;
  nodeId: string;
  parentId: string | null;
  childIds: string[];
  level: number;
  isLeaf: boolean;
  title: string;
  /** Titles from the root down to this node. */
  path: string[];
  docName: string;
  kind: TreeKind;
  source?: string;
  pageCount?: number;
  lineCount?: number;
  startPage?: number;
  endPage?: number;
  ownEndPage?: number;
  startLine?: number;
  endLine?: number;
  ownEndLine?: number;
  headingLevel?: number;
  /** Where the own text lies within its pages (PDF). */
  position?: TextPosition;
  tokenCount: number;
  summary?: string;
  prefixSummary?: string;
  /** The node's own free-form metadata, when it has any. */
  nodeMetadata?: Record<string, unknown>;
  /** Where the node is, in LangChain's convention (its PDF loader and text splitters). */
  loc?: NodeLocation;
  [key: string]: unknown;
}

/**
 * A node's location as LangChain's loaders write it: `pageNumber` (the first page, as the PDF
 * loader's per-page Documents carry it) with the whole page span, and the 1-based inclusive
 * `lines` span (as the text splitters' `loc.lines`): for text documents, lines of the document;
 * for PDFs whose node knows its {@link TextPosition}, the heading's line on `pageNumber` to the
 * own text's last line on its last page, with `start` and `end` saying which page each is on.
 */
export interface NodeLocation {
  pageNumber?: number;
  pages?: { from: number; to: number };
  lines?: { from: number; to: number };
  /** Where the node's own text starts (PDF): its heading's page and line. */
  start?: { page: number; line: number };
  /** Where the node's own text ends (PDF): the page and line of its last line. */
  end?: { page: number; line: number };
}

function locationOf(node: SkeletonNode): NodeLocation | undefined {
  const loc: NodeLocation = {};
  if (node.startPage !== undefined) {
    loc.pageNumber = node.startPage;
    loc.pages = { from: node.startPage, to: node.endPage ?? node.startPage };
  }
  if (node.startLine !== undefined) loc.lines = { from: node.startLine, to: node.endLine ?? node.startLine };
  const pos = node.position;
  if (pos && loc.lines === undefined) {
    loc.pageNumber = pos.page;
    loc.lines = { from: pos.line, to: pos.endLine };
    loc.start = { page: pos.page, line: pos.line };
    loc.end = { page: pos.endPage, line: pos.endLine };
  }
  return Object.keys(loc).length > 0 ? loc : undefined;
}

/** The `Document.id` of a node: `docId:nodeId`. */
export function nodeDocumentId(docId: string, nodeId: string): string {
  return `${docId}:${nodeId}`;
}

const OPTIONAL_NODE_FIELDS = [
  "startPage",
  "endPage",
  "ownEndPage",
  "startLine",
  "endLine",
  "ownEndLine",
  "headingLevel",
  "position",
  "summary",
  "prefixSummary",
] as const;

/** The metadata DESIGN.md §3 lists, for one node of a tree. */
export function nodeMetadata(tree: TreeSkeleton, node: SkeletonNode): NodeDocumentMetadata {
  const meta: NodeDocumentMetadata = {
    docId: tree.docId,
    nodeId: node.nodeId,
    parentId: node.parentId,
    childIds: [...node.childIds],
    level: node.level,
    isLeaf: node.childIds.length === 0,
    title: node.title,
    path: titlePath(tree, node.nodeId),
    docName: tree.docName,
    kind: tree.kind,
    tokenCount: node.tokenCount,
  };
  if (tree.source !== undefined) meta.source = tree.source;
  if (tree.pageCount !== undefined) meta.pageCount = tree.pageCount;
  if (tree.lineCount !== undefined) meta.lineCount = tree.lineCount;
  for (const key of OPTIONAL_NODE_FIELDS) {
    const value = node[key];
    if (value !== undefined) (meta as Record<string, unknown>)[key] = value;
  }
  if (node.metadata !== undefined) meta.nodeMetadata = node.metadata;
  const loc = locationOf(node);
  if (loc) meta.loc = loc;
  return meta;
}

/** One LangChain Document per node, in document order. */
export function treeToDocuments(tree: TreeDocument): Document<NodeDocumentMetadata>[] {
  return tree.nodes.map(
    (node) =>
      new Document<NodeDocumentMetadata>({
        id: nodeDocumentId(tree.docId, node.nodeId),
        pageContent: node.text,
        metadata: nodeMetadata(tree, node),
      }),
  );
}

/**
 * Document-level fields given to {@link documentsToTree}. Node metadata carries `docId`,
 * `docName`, `kind`, `source`, `pageCount` and `lineCount`; the others (`description`,
 * `contentHash`, `createdAt`, `build`, front-matter `metadata`) only survive when given here.
 * A field given here replaces the one read from node metadata.
 */
export type DocumentsToTreeInit = Partial<TreeInit>;

/**
 * Rebuilds a tree from the Documents {@link treeToDocuments} produced (e.g. after they went
 * through a vector store). Node ids, links and ranges come from metadata; document-level
 * fields not carried by node metadata can be supplied in `init`.
 * @throws {TreeValidationError} when the documents do not form one consistent tree.
 */
export function documentsToTree(documents: Document[], init: DocumentsToTreeInit = {}): TreeDocument {
  if (documents.length === 0) throw new PageIndexError("documentsToTree: no documents given");
  const metas = documents.map((d, i) => {
    const m = d.metadata as Partial<NodeDocumentMetadata>;
    if (typeof m.docId !== "string" || typeof m.nodeId !== "string" || !Array.isArray(m.childIds)) {
      throw new TreeValidationError([
        { path: `documents[${i}].metadata`, message: "missing docId, nodeId or childIds" },
      ]);
    }
    return m as NodeDocumentMetadata;
  });
  const first = metas[0] as NodeDocumentMetadata;
  const otherDoc = metas.find((m) => m.docId !== first.docId);
  if (otherDoc) {
    throw new TreeValidationError([
      { path: "documents", message: `mixes documents "${first.docId}" and "${otherDoc.docId}"` },
    ]);
  }
  const byId = new Map<string, { meta: NodeDocumentMetadata; text: string }>();
  metas.forEach((meta, i) => {
    byId.set(meta.nodeId, { meta, text: (documents[i] as Document).pageContent });
  });

  const toDraft = (id: string, seen: Set<string>, level = 1): NodeDraft => {
    if (level > MAX_TREE_DEPTH)
      throw new TreeValidationError([{ path: `node ${id}`, message: tooDeepMessage(level) }]);
    const entry = byId.get(id);
    if (!entry)
      throw new TreeValidationError([{ path: `node ${id}`, message: "is listed as a child but missing" }]);
    if (seen.has(id)) throw new TreeValidationError([{ path: `node ${id}`, message: "is part of a cycle" }]);
    seen.add(id);
    const { meta, text } = entry;
    const draft: NodeDraft = { nodeId: id, title: meta.title, text, tokenCount: meta.tokenCount };
    for (const key of OPTIONAL_NODE_FIELDS) {
      const value = meta[key];
      if (value !== undefined) (draft as unknown as Record<string, unknown>)[key] = value;
    }
    if (meta.nodeMetadata !== undefined) draft.metadata = meta.nodeMetadata;
    draft.children = meta.childIds.map((c) => toDraft(c, seen, level + 1));
    return draft;
  };
  const seen = new Set<string>();
  const roots = metas
    .filter((m) => m.parentId === null || m.parentId === undefined)
    .map((m) => toDraft(m.nodeId, seen));
  const unreached = metas.filter((m) => !seen.has(m.nodeId));
  if (unreached.length > 0) {
    throw new TreeValidationError(
      unreached.map((m) => ({
        path: `node ${m.nodeId}`,
        message: `parent "${m.parentId}" is missing or does not list it`,
      })),
      { docId: first.docId },
    );
  }
  const given = Object.fromEntries(Object.entries(init).filter(([, value]) => value !== undefined));
  return createTree(
    {
      docId: first.docId,
      docName: first.docName ?? first.docId,
      kind: first.kind ?? "text",
      build: { loader: "documents", structure: "imported" },
      ...(first.source !== undefined ? { source: first.source } : {}),
      ...(first.pageCount !== undefined ? { pageCount: first.pageCount } : {}),
      ...(first.lineCount !== undefined ? { lineCount: first.lineCount } : {}),
      ...(given as DocumentsToTreeInit),
    },
    roots,
  );
}

/** Looks a node Document's node up in its tree. */
export function nodeOfDocument(tree: TreeDocument, document: Document): TreeNode | undefined {
  const nodeId = (document.metadata as Partial<NodeDocumentMetadata>).nodeId;
  return nodeId === undefined ? undefined : nodeIndex(tree).get(nodeId);
}
