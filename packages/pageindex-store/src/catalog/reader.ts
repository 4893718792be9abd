import type { TreeReader } from "pageindex-core";
import type { DocumentMatch, DocumentPage, DocumentPageOptions, SearchDocumentsOptions } from "./index.js";

/**
 * A {@link TreeReader} that keeps a corpus catalog: documents are found by a search over their
 * cards and listed page by page, never by reading every document's entry. `PageIndexStore` and
 * `MemoryTreeReader` implement it; the retriever uses it when a reader has it (see
 * {@link isCatalogReader}) and falls back to `listDocuments()` otherwise.
 */
export interface CatalogReader {
  /** Documents ranked for a query, with the section titles that matched. */
  searchDocuments(query: string, options?: SearchDocumentsOptions): Promise<DocumentMatch[]>;
  /** One page of documents in id order, with the total. */
  listDocuments(page: DocumentPageOptions): Promise<DocumentPage>;
}

/** Whether a reader keeps a corpus catalog. */
export function isCatalogReader(reader: TreeReader): reader is TreeReader & CatalogReader {
  return typeof (reader as unknown as Partial<CatalogReader>).searchDocuments === "function";
}
