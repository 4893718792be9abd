import type { DocumentInfo, SkeletonNode, TreeDocument, TreeNode, TreeSkeleton } from "pageindex-core";
import type {
  DocumentMatch,
  DocumentPage,
  DocumentPageOptions,
  SearchDocumentsOptions,
} from "../catalog/index.js";
import type { LibraryDocumentHit, SearchLibraryOptions } from "../library/types.js";
import { assertDerivedName } from "./derived.js";
import type { DocumentListing, DocumentQuery } from "./options.js";
import type { StoreState } from "./state.js";

/**
 * The read paths of a {@link PageIndexStore}: document lists and searches (from the library
 * index when the store has one, from the catalog otherwise), skeletons, texts, whole trees and
 * derived artifacts. Documents another process deleted are checked against their heads.
 */
export class StoreReader {
  constructor(private readonly s: StoreState) {}

  async listDocuments(): Promise<DocumentInfo[]>;
  async listDocuments(page: DocumentPageOptions): Promise<DocumentPage>;
  async listDocuments(page?: DocumentPageOptions): Promise<DocumentInfo[] | DocumentPage> {
    if (page !== undefined) {
      const library = this.s.library?.index;
      const result = library ? await library.listDocuments(page) : (await this.s.catalog.view()).page(page);
      const present = await this.presentDocuments(result.documents.map((d) => d.docId));
      return { ...result, documents: result.documents.filter((d) => present.has(d.docId)) };
    }
    const { documents, problems } = await this.inspectDocuments();
    for (const problem of problems) this.s.onProblem(problem);
    return documents;
  }

  async searchDocuments(query: string, options: SearchDocumentsOptions = {}): Promise<DocumentMatch[]> {
    const library = this.s.library?.index;
    const matches = library
      ? await library.searchDocuments(query, options)
      : (await this.s.catalog.view()).search(query, options);
    if (options.verifyPresence === false) return matches;
    const present = await this.presentDocuments(matches.map((m) => m.card.docId));
    return matches.filter((m) => present.has(m.card.docId));
  }

  /** Documents ranked by their sections in the library index (undefined: the store has none). */
  async searchLibrary(
    query: string,
    options: SearchLibraryOptions = {},
  ): Promise<LibraryDocumentHit[] | undefined> {
    const library = this.s.library?.index;
    if (!library) return undefined;
    const hits = await library.searchLibrary(query, options);
    // The index agrees with the heads but for documents a write is changing or a crash left
    // half-changed: each has an intent, recorded before its head changes and cleared with its
    // index change. Only those heads are read (a file each in a folder: at 100,000 documents
    // the 20 hits' heads cost 5-14 ms of CPU, about what the index's search costs).
    const unsettled = await library.pending();
    const check = hits.flatMap((hit) => (unsettled.has(hit.docId) ? [hit.docId] : []));
    if (check.length === 0) return hits;
    const present = await this.presentDocuments(check);
    return hits.filter((hit) => !unsettled.has(hit.docId) || present.has(hit.docId));
  }

  async syncCatalog(): Promise<void> {
    await this.s.catalog.sync();
  }

  /** Which of these documents have a head (one read): an index may lag a delete by another process. */
  async presentDocuments(docIds: string[]): Promise<Set<string>> {
    if (docIds.length === 0) return new Set();
    const values = await this.s.readHeadValues(docIds);
    return new Set(docIds.filter((_, i) => values[i] !== undefined));
  }

  async inspectDocuments(): Promise<DocumentListing> {
    const { heads, problems } = await this.s.readAllHeads();
    return { documents: heads.map((head) => head.info), problems };
  }

  async getDocumentInfo(docId: string): Promise<DocumentInfo | undefined> {
    return (await this.s.readHead(this.s.keys.assertDocId(docId)))?.info;
  }

  async findDocuments(query: DocumentQuery): Promise<DocumentInfo[]> {
    const contains = query.match === "contains";
    const matches = (value: string | undefined, wanted: string | undefined): boolean => {
      if (wanted === undefined) return true;
      if (value === undefined) return false;
      return contains ? value.toLowerCase().includes(wanted.toLowerCase()) : value === wanted;
    };
    const { documents } = await this.inspectDocuments();
    return documents.filter(
      (info) =>
        matches(info.docName, query.name) &&
        matches(info.source, query.source) &&
        (query.contentHash === undefined || info.contentHash === query.contentHash),
    );
  }

  async hasDocument(docId: string): Promise<boolean> {
    return this.s.hasDocument(docId);
  }

  async getTree(docId: string): Promise<TreeDocument> {
    return this.s.readTree(docId);
  }

  async getSkeleton(docId: string): Promise<TreeSkeleton> {
    return (await this.s.currentVersion(this.s.keys.assertDocId(docId))).skeleton;
  }

  async getNodeTexts(docId: string, nodeIds: readonly string[]): Promise<Map<string, string>> {
    return (await this.s.readTexts(this.s.keys.assertDocId(docId), nodeIds)).texts;
  }

  async getNodes(docId: string, nodeIds: readonly string[]): Promise<TreeNode[]> {
    const { version, texts } = await this.s.readTexts(this.s.keys.assertDocId(docId), nodeIds);
    const out: TreeNode[] = [];
    for (const id of nodeIds) {
      const position = version.positions.get(id);
      const text = texts.get(id);
      if (position === undefined || text === undefined) continue;
      out.push({ ...structuredClone(version.skeleton.nodes[position] as SkeletonNode), text });
    }
    return out;
  }

  async getDerived(docId: string, name: string, of?: TreeSkeleton): Promise<Uint8Array | undefined> {
    assertDerivedName(name); // before the head read: a bad name is an error even for a missing document
    this.s.noteDerivedName(name);
    const id = this.s.keys.assertDocId(docId);
    // The skeleton this handle last read of the document names its version: no head to read.
    this.s.noteDerivedRead(name);
    const cached = this.s.cache.get(id);
    if (of !== undefined && cached?.skeleton === of) {
      // Read with the skeleton (see `LoadedVersion.prefetched`): a version's artifact is written
      // once, from that version, so the value read then is the one a read now would find.
      const early = cached.prefetched?.get(name);
      if (early !== undefined) {
        cached.prefetched?.delete(name);
        return early;
      }
      return this.s.derived.get(id, cached.versionId, name);
    }
    const head = await this.s.requireHead(id);
    return this.s.derived.get(docId, head.versionId, name);
  }
}
