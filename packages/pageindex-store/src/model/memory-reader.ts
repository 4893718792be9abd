import {
  type DocumentInfo,
  DocumentNotFoundError,
  documentInfo,
  getNode,
  type TreeDocument,
  type TreeReader,
  type TreeSkeleton,
  TreeValidationError,
  toSkeleton,
} from "pageindex-core";
import {
  CatalogIndex,
  type DocumentMatch,
  type DocumentPage,
  type DocumentPageOptions,
  type SearchDocumentsOptions,
} from "../catalog/index.js";
import { DEFAULT_MERGE_POLICY, mergeSegments, nextMerge } from "../catalog/merge.js";
import type { CatalogReader } from "../catalog/reader.js";
import { catalogEntry, Segment } from "../catalog/segment.js";
import { libraryEntry } from "../library/entry.js";
import { MemoryLibraryIndex } from "../library/memory-library-index.js";
import type { LibraryDocumentHit, LibraryReader, SearchLibraryOptions } from "../library/types.js";
import { newVersionId } from "../store/keys.js";

/**
 * A {@link TreeReader} over trees held in memory (no persistence), with the same corpus catalog
 * as `PageIndexStore` (see {@link CatalogReader}).
 * @example
 * ```ts
 * const reader = new MemoryTreeReader([treeA, treeB]);
 * await reader.searchDocuments("gross margin 2023", { limit: 3 });
 * ```
 */
export class MemoryTreeReader implements TreeReader, CatalogReader, LibraryReader {
  private readonly trees = new Map<string, TreeDocument>();
  private readonly skeletons = new Map<string, TreeSkeleton>();
  private readonly catalog = new CatalogIndex();
  private readonly library = new MemoryLibraryIndex();

  constructor(trees: Iterable<TreeDocument> = []) {
    const entries = [];
    for (const tree of trees) entries.push(this.put(tree));
    if (entries.length > 0) this.catalog.apply([Segment.fromEntries(newVersionId(), entries)], []);
  }

  /** Adds or replaces a tree. */
  add(tree: TreeDocument): void {
    this.catalog.apply([Segment.fromEntries(newVersionId(), [this.put(tree)])], []);
    for (let group = nextMerge(this.catalog.segmentList(), DEFAULT_MERGE_POLICY); group; ) {
      this.catalog.apply(
        [mergeSegments(group)],
        group.map((s) => s.id),
      );
      group = nextMerge(this.catalog.segmentList(), DEFAULT_MERGE_POLICY);
    }
  }

  private put(tree: TreeDocument) {
    // Trees come from the loaders or a store, already validated: check only the shape, so a
    // value that is no tree at all is named rather than failing as a TypeError deep inside.
    const shape = tree as Partial<TreeDocument> | null | undefined;
    if (typeof shape?.docId !== "string" || !Array.isArray(shape.nodes)) {
      throw new TreeValidationError([
        {
          path: "(tree)",
          message: "not a tree: expected an object with docId and nodes (e.g. from loadTree())",
        },
      ]);
    }
    const versionId = newVersionId();
    this.trees.set(tree.docId, tree);
    this.skeletons.set(tree.docId, toSkeleton(tree));
    this.library.set(libraryEntry(tree, versionId));
    return catalogEntry(tree, versionId);
  }

  async listDocuments(): Promise<DocumentInfo[]>;
  async listDocuments(page: DocumentPageOptions): Promise<DocumentPage>;
  async listDocuments(page?: DocumentPageOptions): Promise<DocumentInfo[] | DocumentPage> {
    if (page !== undefined) return this.catalog.page(page);
    return [...this.trees.values()].map(documentInfo);
  }

  async searchDocuments(query: string, options?: SearchDocumentsOptions): Promise<DocumentMatch[]> {
    return this.catalog.search(query, options);
  }

  /** Documents ranked by their sections (an in-memory library index, see `MemoryLibraryIndex`). */
  async searchLibrary(query: string, options?: SearchLibraryOptions): Promise<LibraryDocumentHit[]> {
    return this.library.searchLibrary(query, options);
  }

  async getSkeleton(docId: string): Promise<TreeSkeleton> {
    const skeleton = this.skeletons.get(docId);
    if (!skeleton) throw new DocumentNotFoundError(docId, "memory");
    return skeleton;
  }

  async getNodeTexts(docId: string, nodeIds: readonly string[]): Promise<Map<string, string>> {
    const tree = this.trees.get(docId);
    if (!tree) throw new DocumentNotFoundError(docId, "memory");
    const out = new Map<string, string>();
    for (const id of nodeIds) {
      const node = getNode(tree, id);
      if (node) out.set(id, node.text);
    }
    return out;
  }
}
