/**
 * A test-only LibraryReader: in-memory trees whose `searchLibrary` ranks every section of every
 * document by BM25 over title + ancestors' titles + summary + own text (the shape the store's
 * SQLite/PostgreSQL library index answers with), aggregated per document by DocScore. Stands in
 * for the store's engine in tests and in measuring scripts until it lands.
 */

import {
  Bm25Index,
  bm25Doc,
  detectBackMatter,
  documentInfo,
  type TreeDocument,
  titlePath,
  tokenize,
  tokenizeQuery,
} from "pageindex-core";
import {
  type CatalogFilter,
  type DocumentCard,
  type LibraryDocumentHit,
  type LibraryReader,
  MemoryTreeReader,
  matchesFilter,
  type SearchLibraryOptions,
  type SectionHit,
} from "pageindex-store";

interface IndexedSection {
  hit: Omit<SectionHit, "score">;
}

/** Field weights: a title is short and precise, the text long and noisy. */
const WEIGHTS = { title: 3, ancestors: 1.5, summary: 1, text: 1 } as const;
/** Back matter (an index lists every term) counts for less. */
const BACK_MATTER_WEIGHT = 0.3;
/** Sections summed into a document's score (DocScore = Σ / √(N+1)). */
const DOC_SCORE_TOP = 5;

/**
 * `MemoryTreeReader` plus a section-level library search.
 * @example
 * ```ts
 * const reader = new SectionLibraryReader([treeA, treeB]);
 * const hits = await reader.searchLibrary("fonts missing after upgrade", { limit: 3 });
 * ```
 */
export class SectionLibraryReader extends MemoryTreeReader implements LibraryReader {
  private readonly sections: IndexedSection[] = [];
  private readonly cards = new Map<string, DocumentCard>();
  private readonly index: Bm25Index;
  /** Calls of `searchLibrary` (tests count them). */
  searches = 0;

  constructor(trees: readonly TreeDocument[]) {
    super(trees);
    const docs = [];
    for (const tree of trees) {
      // Every section title in document order, as the store's cards list them.
      const sections = tree.nodes.map((n) => ({ nodeId: n.nodeId, title: n.title }));
      this.cards.set(tree.docId, { ...documentInfo(tree), versionId: "test", outline: [], sections });
      for (const node of tree.nodes) {
        const ancestors = titlePath(tree, node.nodeId).slice(0, -1);
        const summary = node.summary ?? node.prefixSummary ?? "";
        const backMatter = detectBackMatter(node) !== undefined;
        docs.push(
          bm25Doc([
            { terms: tokenize(node.title), weight: WEIGHTS.title },
            { terms: tokenize(ancestors.join(" ")), weight: WEIGHTS.ancestors },
            { terms: tokenize(summary), weight: WEIGHTS.summary },
            { terms: tokenize(node.text), weight: WEIGHTS.text },
          ]),
        );
        this.sections.push({
          hit: {
            docId: tree.docId,
            nodeId: node.nodeId,
            title: node.title,
            ancestors,
            level: ancestors.length,
            backMatter,
            ...(summary ? { summary: summary.replace(/\s+/g, " ").slice(0, 200) } : {}),
            ...(node.startPage !== undefined ? { startPage: node.startPage } : {}),
            ...(node.endPage !== undefined ? { endPage: node.endPage } : {}),
            ...(node.startLine !== undefined ? { startLine: node.startLine } : {}),
            ...(node.endLine !== undefined ? { endLine: node.endLine } : {}),
          },
        });
      }
    }
    this.index = new Bm25Index(docs);
  }

  override async searchLibrary(
    query: string,
    options: SearchLibraryOptions = {},
  ): Promise<LibraryDocumentHit[]> {
    this.searches += 1;
    const limit = options.limit ?? 10;
    const perDocument = options.sectionsPerDocument ?? 5;
    const allowed = (docId: string) => this.allowed(docId, options.filter, options.docIds);
    const scores = this.index.scoreAll(tokenizeQuery(query));
    const byDoc = new Map<string, SectionHit[]>();
    scores.forEach((raw, i) => {
      const { hit } = this.sections[i] as IndexedSection;
      if (raw <= 0 || !allowed(hit.docId)) return;
      const score = hit.backMatter ? raw * BACK_MATTER_WEIGHT : raw;
      byDoc.set(hit.docId, [...(byDoc.get(hit.docId) ?? []), { ...hit, score }]);
    });
    const out: LibraryDocumentHit[] = [];
    for (const [docId, hits] of byDoc) {
      hits.sort((a, b) => b.score - a.score);
      const top = hits.slice(0, DOC_SCORE_TOP);
      const score = top.reduce((sum, h) => sum + h.score, 0) / Math.sqrt(top.length + 1);
      out.push({
        docId,
        score,
        card: this.cards.get(docId) as DocumentCard,
        sections: hits.slice(0, perDocument),
      });
    }
    return out.sort((a, b) => b.score - a.score || a.docId.localeCompare(b.docId)).slice(0, limit);
  }

  private allowed(docId: string, filter?: CatalogFilter, docIds?: readonly string[]): boolean {
    if (docIds && !docIds.includes(docId)) return false;
    const card = this.cards.get(docId);
    return card !== undefined && (!filter || matchesFilter(card, filter));
  }
}
