/**
 * The tree model shared by every package: one indexed document is a {@link TreeDocument}
 * holding a flat, pre-ordered list of {@link TreeNode}s linked by `parentId` / `childIds`.
 *
 * Ranges use union semantics: a parent's range covers its whole subtree. Where a parent's
 * own introduction ends is kept separately (`ownEndPage` / `ownEndLine`), which is what
 * PageIndex's JSON calls `end_index`.
 */

/** Current version of the persisted tree format. Bumped on incompatible changes. */
export const TREE_SCHEMA_VERSION = 1 as const;

/** Every kind of source a tree can be built from (the one list the types and schemas use). */
export const TREE_KINDS = ["pdf", "markdown", "text"] as const;

/** What kind of source a tree was built from. */
export type TreeKind = (typeof TREE_KINDS)[number];

/** Which path produced a tree's structure. */
export type StructureSource = "headings" | "outline" | "layout" | "llm" | "flat" | "imported" | "mixed";

/**
 * What kind of back matter (or front-matter list) a section is: parts a reader consults to find
 * content, not content itself. Retrievers offer them only to questions that ask for them.
 */
export type BackMatterKind =
  | "contents"
  | "index"
  | "figures"
  | "tables"
  | "list"
  | "bibliography"
  | "glossary";

/** LLM usage accounted while building or querying, by step. */
export interface LlmUsage {
  /** Number of model calls made. */
  calls: number;
  /** Prompt (input) tokens, as reported by the model or estimated with tiktoken. */
  promptTokens: number;
  /** Completion (output) tokens, as reported by the model or estimated. */
  completionTokens: number;
  /** Failed calls (after retries); their work fell back to a cheaper path. */
  failures: number;
  /** Per-step breakdown, e.g. `{ "summary": {...}, "toc-detect": {...} }`. */
  byStep?: Record<string, Omit<LlmUsage, "byStep">>;
}

/** How a tree was built: recorded so a reader knows what to trust. */
export interface BuildInfo {
  /** Loader that produced the tree, e.g. `"markdown"`, `"pdf"`, `"pageindex-import"`. */
  loader: string;
  /** Which structure path ran. */
  structure: StructureSource;
  /** Model identifier used for LLM steps, when one was used. */
  model?: string;
  /** The loader options that affect the result (JSON-serialisable). */
  options?: Record<string, unknown>;
  /** Non-fatal problems met while building (e.g. a failed summary call). */
  warnings?: string[];
  /** LLM calls and tokens spent building the tree. */
  usage?: LlmUsage;
}

/**
 * Where a node's own text lies within its pages: it starts on `page` at `line` (its heading's
 * line) and ends on `endPage` at `endLine`. Lines are 1-based, inclusive, counted in each page's
 * text as the loader extracted it (one line per visual line, running heads included).
 */
export interface TextPosition {
  page: number;
  line: number;
  endPage: number;
  endLine: number;
}

/** One section of a document. */
export interface TreeNode {
  /** Stable id within the document; 4-digit pre-order ids ("0000", "0001", …) by default. */
  nodeId: string;
  /** Plain-text title (inline markup removed). */
  title: string;
  /** Depth in the tree; root nodes have level 1. */
  level: number;
  /** Parent node id, or `null` for a root. */
  parentId: string | null;
  /** Children in document order. */
  childIds: string[];
  /** First physical page (1-based, inclusive), for paged sources. */
  startPage?: number;
  /** Last page of the whole subtree (1-based, inclusive; union semantics). */
  endPage?: number;
  /** Last page of this node's own text (before its first child). */
  ownEndPage?: number;
  /** First line (1-based, inclusive), for text sources. */
  startLine?: number;
  /** Last line of the whole subtree (1-based, inclusive; union semantics). */
  endLine?: number;
  /** Last line of this node's own text (before its first child). */
  ownEndLine?: number;
  /** Original heading level in the source (Markdown `#` count, outline depth), when known. */
  headingLevel?: number;
  /** Where the node's own text lies within its pages (PDF), when known: see {@link TextPosition}. */
  position?: TextPosition;
  /** The node's own text: from its heading to its first child (or to its end for a leaf). */
  text: string;
  /** Token count of `text` (js-tiktoken, o200k_base). */
  tokenCount: number;
  /** Summary of a leaf's text. */
  summary?: string;
  /** Summary of an internal node's own (intro) text. */
  prefixSummary?: string;
  /**
   * For an internal node whose own introduction gives no usable summary: what its subsections
   * cover (derived from their titles and summaries; see `branchOverview`).
   */
  branchSummary?: string;
  /** Set when the section is back matter (index, contents, list of figures, bibliography…). */
  backMatter?: BackMatterKind;
  /** Free-form extra data (JSON-serialisable). */
  metadata?: Record<string, unknown>;
}

/** A node without its text: what navigation reads. */
export type SkeletonNode = Omit<TreeNode, "text">;

/** One indexed document. */
export interface TreeDocument {
  /** Version of this format; see {@link TREE_SCHEMA_VERSION}. */
  schemaVersion: typeof TREE_SCHEMA_VERSION;
  /** Identifier, restricted to `[A-Za-z0-9_.-]` so it is safe in store keys and paths. */
  docId: string;
  /** Human-readable name, usually the file name. */
  docName: string;
  /** Where the document came from (a path or URL), when known. */
  source?: string;
  kind: TreeKind;
  /** Number of pages, for paged sources. */
  pageCount?: number;
  /** Number of lines, for text sources. */
  lineCount?: number;
  /** One-sentence description that helps choose among many documents. */
  description?: string;
  /**
   * Printed page labels by physical page (`pageLabels[0]` is page 1's label), for PDFs whose
   * printed numbering differs from the physical one ("iii", "12", "A-3"); absent otherwise.
   */
  pageLabels?: string[];
  /** SHA-256 of the source bytes, used to skip re-indexing unchanged files. */
  contentHash?: string;
  /** ISO-8601 time the tree was built. */
  createdAt: string;
  build: BuildInfo;
  /** Document-level metadata, e.g. Markdown front matter. */
  metadata?: Record<string, unknown>;
  /** Ids of the root nodes, in document order. */
  rootIds: string[];
  /** Every node, in pre-order (document order). */
  nodes: TreeNode[];
}

/** A tree whose nodes carry no text: what a store returns for navigation. */
export interface TreeSkeleton extends Omit<TreeDocument, "nodes"> {
  nodes: SkeletonNode[];
}
