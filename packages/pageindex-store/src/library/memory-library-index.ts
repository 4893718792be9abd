import { type Bm25fField, Bm25fIndex, tokenize } from "pageindex-core";
import { cardTerms, type DocumentCard } from "../catalog/card.js";
import {
  type CatalogFilter,
  type DocumentMatch,
  type DocumentPage,
  type DocumentPageOptions,
  matchesFilter,
  type SearchDocumentsOptions,
} from "../catalog/index.js";
import {
  AGGREGATION,
  aggregateSections,
  analyzeQuery,
  bySectionScore,
  CARD_INDEX_FIELDS,
  discounted,
  rankDocuments,
  SECTION_FIELDS,
  searchLimits,
  summaryLine,
  toDocumentMatch,
} from "./query.js";
import type {
  LibraryDocumentHit,
  LibraryEntry,
  LibraryIndex,
  LibrarySection,
  SearchLibraryOptions,
  SectionHit,
} from "./types.js";

/** Length normalisation per section field: titles are short by nature, texts vary most. */
const SECTION_B = [0.3, 0.3, 0.6, 0.75] as const;

/** The ranking structures of one state of the library, built on first search after a change. */
interface Ranking {
  rows: Array<{ docId: string; section: LibrarySection }>;
  sections: Bm25fIndex;
  cardIds: string[];
  cards: Bm25fIndex;
}

/**
 * A {@link LibraryIndex} held in memory: BM25F (pageindex-core's) over every section's title,
 * ancestors' titles, summary and own text with the field weights the engines share, documents
 * ranked by their best sections plus their card. For tests, small libraries and
 * `MemoryTreeReader`; nothing survives the process (intents included), so crash repair is only
 * exercised within one process.
 * @example
 * ```ts
 * const library = new MemoryLibraryIndex();
 * const store = new PageIndexStore(new InMemoryStore(), { library });
 * await store.addTree(tree);
 * const hits = await store.searchLibrary("paper jam", { limit: 3 });
 * ```
 */
export class MemoryLibraryIndex implements LibraryIndex {
  readonly engine = "memory";
  private readonly entries = new Map<string, LibraryEntry>();
  /** docId → versionIds announced ("" for a delete). */
  private readonly intents = new Map<string, Set<string>>();
  private ranking: Ranking | undefined;

  async begin(docId: string, versionId?: string): Promise<void> {
    const versions = this.intents.get(docId) ?? new Set<string>();
    versions.add(versionId ?? "");
    this.intents.set(docId, versions);
  }

  async putDocument(entry: LibraryEntry): Promise<void> {
    this.set(entry);
  }

  async putDocuments(entries: readonly LibraryEntry[]): Promise<void> {
    for (const entry of entries) this.set(entry);
  }

  async removeDocument(docId: string): Promise<void> {
    this.delete(docId);
  }

  async pending(): Promise<Map<string, Array<string | undefined>>> {
    return new Map(
      [...this.intents]
        .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
        .map(([docId, versions]) => [docId, [...versions].sort().map((v) => (v === "" ? undefined : v))]),
    );
  }

  async clear(docId: string, versionId?: string): Promise<void> {
    this.clearIntent(docId, versionId ?? "");
  }

  private clearIntent(docId: string, version: string): void {
    const versions = this.intents.get(docId);
    versions?.delete(version);
    if (versions?.size === 0) this.intents.delete(docId);
  }

  async indexedVersions(): Promise<Map<string, string>> {
    return new Map([...this.entries].map(([docId, entry]) => [docId, entry.card.versionId]));
  }

  async getCard(docId: string): Promise<DocumentCard | undefined> {
    return this.entries.get(docId)?.card;
  }

  async count(): Promise<number> {
    return this.entries.size;
  }

  async close(): Promise<void> {
    // Nothing to release: the index lives in this object.
  }

  /** Replaces a document's entry and clears that version's intent (synchronous, for in-memory readers). */
  set(entry: LibraryEntry): void {
    this.entries.set(entry.card.docId, entry);
    this.clearIntent(entry.card.docId, entry.card.versionId);
    this.ranking = undefined;
  }

  /** Removes a document and clears its delete intent (synchronous, for in-memory readers). */
  delete(docId: string): void {
    if (this.entries.delete(docId)) this.ranking = undefined;
    this.clearIntent(docId, "");
  }

  async searchSections(
    query: string,
    options: { limit?: number; filter?: CatalogFilter; docIds?: readonly string[] } = {},
  ): Promise<SectionHit[]> {
    const limit = Math.max(0, Math.floor(options.limit ?? 20));
    return this.rankSections(query, options).slice(0, limit);
  }

  async searchLibrary(query: string, options: SearchLibraryOptions = {}): Promise<LibraryDocumentHit[]> {
    const limits = searchLimits(options);
    const analyzed = analyzeQuery(query);
    if (analyzed.terms.length === 0 || limits.limit === 0) return [];
    const sections = this.rankSections(query, options).slice(0, AGGREGATION.sectionRows);
    const ranking = this.rank();
    const allowed = this.allowed(options);
    const cardScores = new Map<string, number>();
    ranking.cards.scoreAll(analyzed.terms).forEach((score, i) => {
      const docId = ranking.cardIds[i] as string;
      if (score > 0 && allowed(docId)) cardScores.set(docId, score);
    });
    const sizes = new Map([...this.entries].map(([docId, entry]) => [docId, entry.card.nodeCount]));
    return rankDocuments(aggregateSections(sections), cardScores, { ...limits, sizes }).flatMap((ranked) => {
      const card = this.entries.get(ranked.docId)?.card;
      return card ? [{ ...ranked, card }] : [];
    });
  }

  async searchDocuments(query: string, options: SearchDocumentsOptions = {}): Promise<DocumentMatch[]> {
    const search: SearchLibraryOptions = { limit: options.limit ?? 10, sectionsPerDocument: 3 };
    if (options.filter) search.filter = options.filter;
    return (await this.searchLibrary(query, search)).map((hit) => toDocumentMatch(hit, query));
  }

  async listDocuments(page: DocumentPageOptions): Promise<DocumentPage> {
    const offset = Math.max(0, Math.floor(page.offset ?? 0));
    const limit = Math.max(0, Math.floor(page.limit ?? 50));
    const filter = page.filter;
    const matching = [...this.entries.values()]
      .map((entry) => entry.card)
      .filter((card) => !filter || matchesFilter(card, filter))
      .sort((a, b) => (a.docId < b.docId ? -1 : a.docId > b.docId ? 1 : 0));
    return { documents: matching.slice(offset, offset + limit), total: matching.length, offset };
  }

  /** Section hits for a query, best first, back matter discounted unless asked for. */
  private rankSections(
    query: string,
    options: { filter?: CatalogFilter; docIds?: readonly string[] },
  ): SectionHit[] {
    const analyzed = analyzeQuery(query);
    if (analyzed.terms.length === 0) return [];
    const ranking = this.rank();
    const allowed = this.allowed(options);
    const hits: SectionHit[] = [];
    ranking.sections.scoreAll(analyzed.terms).forEach((score, i) => {
      if (score <= 0) return;
      const { docId, section } = ranking.rows[i] as Ranking["rows"][number];
      if (!allowed(docId)) return;
      hits.push(sectionHit(docId, section, discounted(score, section.backMatter, analyzed)));
    });
    return hits.sort(bySectionScore);
  }

  /** Which documents a search may return (its `docIds` and `filter`). */
  private allowed(options: {
    filter?: CatalogFilter;
    docIds?: readonly string[];
  }): (docId: string) => boolean {
    const ids = options.docIds ? new Set(options.docIds) : undefined;
    const filter = options.filter;
    return (docId) => {
      if (ids && !ids.has(docId)) return false;
      const card = this.entries.get(docId)?.card;
      return card !== undefined && (!filter || matchesFilter(card, filter));
    };
  }

  private rank(): Ranking {
    if (this.ranking) return this.ranking;
    const rows: Ranking["rows"] = [];
    const sectionFields: Bm25fField[][] = [];
    const cardIds: string[] = [];
    const cardFields: Bm25fField[][] = [];
    for (const [docId, entry] of this.entries) {
      for (const section of entry.sections) {
        rows.push({ docId, section });
        const texts = [section.title, section.ancestors.join(" "), section.summary, section.text];
        sectionFields.push(
          SECTION_FIELDS.map((field, f) => ({
            terms: tokenize(texts[f] as string),
            weight: field.weight,
            b: SECTION_B[f] as number,
          })),
        );
      }
      cardIds.push(docId);
      const terms = cardTerms(entry.card, []);
      cardFields.push(
        CARD_INDEX_FIELDS.map((field, f) => ({ terms: terms[f] ?? [], weight: field.weight, b: 0.5 })),
      );
    }
    this.ranking = {
      rows,
      sections: new Bm25fIndex(sectionFields),
      cardIds,
      cards: new Bm25fIndex(cardFields),
    };
    return this.ranking;
  }
}

function sectionHit(docId: string, section: LibrarySection, score: number): SectionHit {
  const hit: SectionHit = {
    docId,
    nodeId: section.nodeId,
    title: section.title,
    ancestors: section.ancestors,
    level: section.level,
    score,
    backMatter: section.backMatter,
  };
  for (const key of ["startPage", "endPage", "startLine", "endLine"] as const) {
    const value = section[key];
    if (value !== undefined) hit[key] = value;
  }
  if (section.summary) hit.summary = summaryLine(section.summary);
  return hit;
}
