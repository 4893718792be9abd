import { PageIndexError } from "../errors.js";
import type { TreeDocument, TreeKind, TreeSkeleton } from "./types.js";

/** What a document list shows: enough to choose a document without opening it. */
export interface DocumentInfo {
  docId: string;
  docName: string;
  kind: TreeKind;
  description?: string;
  source?: string;
  pageCount?: number;
  lineCount?: number;
  nodeCount: number;
  createdAt: string;
  contentHash?: string;
  /** Document-level user metadata (Markdown front matter, metadata given at index time). */
  metadata?: Record<string, unknown>;
}

/**
 * Read access to indexed trees, as navigation needs it: skeletons first, texts only for the
 * nodes chosen. `PageIndexStore` implements it over any LangChain byte store;
 * {@link MemoryTreeReader} over trees held in memory.
 */
export interface TreeReader {
  /** Every document, in a stable order. */
  listDocuments(): Promise<DocumentInfo[]>;
  /** The tree without node texts. @throws {DocumentNotFoundError} */
  getSkeleton(docId: string): Promise<TreeSkeleton>;
  /** Texts of the given nodes; unknown ids are absent from the result. @throws {DocumentNotFoundError} */
  getNodeTexts(docId: string, nodeIds: readonly string[]): Promise<Map<string, string>>;
}

/** The document asked for is not in the store. */
export class DocumentNotFoundError extends PageIndexError {
  readonly docId: string;
  constructor(docId: string, where = "the store") {
    super(`No document "${docId}" in ${where}`);
    this.docId = docId;
  }
}

/** Document-list entry of a tree. */
export function documentInfo(tree: TreeDocument | TreeSkeleton): DocumentInfo {
  const info: DocumentInfo = {
    docId: tree.docId,
    docName: tree.docName,
    kind: tree.kind,
    nodeCount: tree.nodes.length,
    createdAt: tree.createdAt,
  };
  for (const key of ["description", "source", "pageCount", "lineCount", "contentHash", "metadata"] as const) {
    const value = tree[key];
    if (value !== undefined) (info as unknown as Record<string, unknown>)[key] = value;
  }
  return info;
}

/** The tree without its node texts. */
export function toSkeleton(tree: TreeDocument): TreeSkeleton {
  return {
    ...tree,
    nodes: tree.nodes.map(({ text: _text, ...rest }) => rest),
  };
}
