import { abbreviationsOf, type DocumentInfo, tokenize, tokenizeQuery } from "pageindex-core";
import { CARD_FIELDS, type CardSection, type DocumentCard, metadataFacets, queryNameTerms } from "./card.js";
import { FIELD_COUNT, facetKey, type Segment, type SegmentEntry, unpackCount } from "./segment.js";

/** Metadata filter: every key must match (a list matches any of its values); compared case-insensitively. */
export type CatalogFilter = Record<
  string,
  string | number | boolean | ReadonlyArray<string | number | boolean>
>;

/**
 * Whether a document matches a metadata filter, as the catalog matches it: its metadata (one
 * nesting level, e.g. front matter) or `kind`, case-insensitively; every key must match.
 */
export function matchesFilter(info: DocumentInfo, filter: CatalogFilter): boolean {
  const facets = new Set(metadataFacets(info.metadata).map(([key, value]) => facetKey(key, value)));
  facets.add(facetKey("kind", info.kind));
  return Object.entries(filter).every(([key, wanted]) =>
    (Array.isArray(wanted) ? wanted : [wanted]).some((value) => facets.has(facetKey(key, String(value)))),
  );
}

/** Options of a catalog search. */
export interface SearchDocumentsOptions {
  /** Most documents returned. Default 10. */
  limit?: number;
  /** Only documents whose metadata (or `kind`) match. */
  filter?: CatalogFilter;
  /**
   * Whether a store checks each match against its document's head (one read of up to `limit`
   * heads), so that a document another process deleted within the catalog's refresh delay is
   * left out. Default `true`; `false` for a caller that reads the documents it uses anyway (the
   * retriever reads the skeletons of those it ranks or searches), so a query reads no key per
   * candidate.
   */
  verifyPresence?: boolean;
}

/** One ranked document of a catalog search. */
export interface DocumentMatch {
  card: DocumentCard;
  /** BM25F score over the card's fields (higher is better; comparable within one search). */
  score: number;
  /** The section titles that match the query best (at most 3): why it ranked. */
  evidence: CardSection[];
  /** Distinct query words in the best of them (0 without evidence): one title holding several is a strong sign. */
  evidenceWords: number;
  /** Query words found on the card. */
  matched: string[];
}

/** Options of a paged listing. */
export interface DocumentPageOptions {
  /** Documents per page. Default 50. */
  limit?: number;
  /** Documents to skip (in docId order). Default 0. */
  offset?: number;
  filter?: CatalogFilter;
}

/** One page of documents. */
export interface DocumentPage {
  documents: DocumentCard[];
  /** Documents matching (the filter) in all. */
  total: number;
  offset: number;
}

/** Where the live entry of a document is. */
interface LiveRef {
  segment: Segment;
  entry: number;
}

const K1 = 1.2;
/** Weight of a concatenation of two query words ("best buy" → "bestbuy"), matching names. */
const CONCAT_WEIGHT = 0.5;
const EVIDENCE = 3;
/** Query words whose presence on a card is tracked (bits of a number). */
const MAX_WORDS = 30;
/** Score-map key of an entry: segment index × ENTRY_SPAN + entry (a segment holds fewer entries). */
const ENTRY_SPAN = 2 ** 32;
const TERMS_FIELD = CARD_FIELDS.findIndex((f) => f.name === "terms");
const SECTIONS_FIELD = CARD_FIELDS.findIndex((f) => f.name === "sections");
/** Where a posting's counts fall: on the card's visible fields, among its section titles. */
const ON_CARD = 1;
const IN_SECTIONS = 2;
const NON_ASCII = /[\u0080-\uffff]/;

/** A card's accumulated score and which query words (bits) it holds. */
interface Hit {
  score: number;
  /** Query words on the card's visible fields (name, about, outline, sections). */
  onCard: number;
  /** Query words among its section titles. */
  inSections: number;
}
/** A term in more than this share of the cards is "common" (see `search`)… */
const COMMON_SHARE = 0.1;
/** …in a catalog of at least this many cards (small ones are scored exactly). */
const COMMON_MIN_CARDS = 1000;

/** The weighted terms a catalog search looks for. */
export function catalogQueryTerms(query: string): Map<string, number> {
  const weights = new Map<string, number>();
  for (const term of tokenizeQuery(query)) weights.set(term, (weights.get(term) ?? 0) + 1);
  for (const term of queryNameTerms(query)) if (!weights.has(term)) weights.set(term, CONCAT_WEIGHT);
  return weights;
}

/**
 * The catalog in memory: segments combined, each document's latest entry winning
 * (last-writer-wins by version id; a tombstone hides older cards). Segments are immutable;
 * adding or replacing them updates the live entries incrementally, so a write costs what it
 * adds, not the size of the catalog. Searches are BM25F over the live cards' fields with exact
 * live statistics (document frequency counted over live postings, average field lengths kept
 * as running totals).
 *
 * @example
 * ```ts
 * const index = new CatalogIndex();
 * index.apply([Segment.fromEntries(id, entries)], []);
 * index.search("boeing 2022 revenue", { limit: 5 });
 * ```
 */
export class CatalogIndex {
  private readonly segments = new Map<string, Segment>();
  private readonly live = new Map<string, LiveRef>();
  /** Lower-cased id → ids of live documents (case twins). */
  private readonly lower = new Map<string, string[]>();
  private readonly totals = new Float64Array(FIELD_COUNT);
  private cards = 0;
  private sorted: string[] | undefined;

  /** Ids of the segments held. */
  segmentIds(): string[] {
    return [...this.segments.keys()];
  }

  /** The segments held (read-only). */
  segmentList(): Segment[] {
    return [...this.segments.values()];
  }

  /** Number of live documents. */
  get size(): number {
    return this.cards;
  }

  /** The live card of a document, or `undefined` (absent or deleted). */
  card(docId: string): DocumentCard | undefined {
    const ref = this.live.get(docId);
    return ref ? ref.segment.entries[ref.entry]?.card : undefined;
  }

  /** The live entry (card or tombstone) of a document. */
  entry(docId: string): SegmentEntry | undefined {
    const ref = this.live.get(docId);
    return ref ? ref.segment.entries[ref.entry] : undefined;
  }

  /** A live document whose id equals `docId` but for letter case. */
  caseTwin(docId: string): string | undefined {
    return this.lower.get(docId.toLowerCase())?.find((other) => other !== docId);
  }

  /**
   * Adds segments and drops others (by id). When every dropped live entry is carried by an added
   * segment (a merge) the update is incremental; otherwise the live entries are recomputed.
   */
  apply(added: readonly Segment[], removed: readonly string[]): void {
    const gone = new Set(removed.filter((id) => this.segments.has(id)));
    const goneSegments = [...gone].map((id) => this.segments.get(id) as Segment);
    for (const segment of added) {
      if (this.segments.has(segment.id)) continue;
      this.segments.set(segment.id, segment);
      segment.entries.forEach((entry, i) => {
        const current = this.live.get(entry.docId);
        const currentVersion = current?.segment.entries[current.entry]?.versionId;
        if (
          !current ||
          (currentVersion as string) < entry.versionId ||
          (currentVersion === entry.versionId && gone.has(current.segment.id))
        ) {
          if (current) this.unset(current);
          this.set(entry.docId, { segment, entry: i });
        }
      });
    }
    for (const id of gone) this.segments.delete(id);
    const orphaned = goneSegments.some((segment) =>
      segment.entries.some((entry) => this.live.get(entry.docId)?.segment === segment),
    );
    if (orphaned) this.recompute();
    if (added.length > 0 || gone.size > 0) this.sorted = undefined;
  }

  /** Recomputes every live entry from the segments held (after segments vanished unexplained). */
  private recompute(): void {
    this.live.clear();
    this.lower.clear();
    this.totals.fill(0);
    this.cards = 0;
    for (const segment of this.segments.values()) segment.live.fill(0);
    for (const segment of this.segments.values()) {
      segment.entries.forEach((entry, i) => {
        const current = this.live.get(entry.docId);
        if (!current || (current.segment.entries[current.entry]?.versionId as string) < entry.versionId) {
          if (current) this.unset(current);
          this.set(entry.docId, { segment, entry: i });
        }
      });
    }
    this.sorted = undefined;
  }

  private set(docId: string, ref: LiveRef): void {
    this.live.set(docId, ref);
    if (!ref.segment.entries[ref.entry]?.card) return;
    ref.segment.live[ref.entry] = 1;
    this.cards += 1;
    for (let f = 0; f < FIELD_COUNT; f += 1) {
      this.totals[f] =
        (this.totals[f] as number) + (ref.segment.lengths[ref.entry * FIELD_COUNT + f] as number);
    }
    const key = docId.toLowerCase();
    const twins = this.lower.get(key);
    if (twins) twins.push(docId);
    else this.lower.set(key, [docId]);
  }

  private unset(ref: LiveRef): void {
    if (!ref.segment.live[ref.entry]) return;
    ref.segment.live[ref.entry] = 0;
    this.cards -= 1;
    for (let f = 0; f < FIELD_COUNT; f += 1) {
      this.totals[f] =
        (this.totals[f] as number) - (ref.segment.lengths[ref.entry * FIELD_COUNT + f] as number);
    }
    const docId = (ref.segment.entries[ref.entry] as SegmentEntry).docId;
    const key = docId.toLowerCase();
    const twins = (this.lower.get(key) ?? []).filter((id) => id !== docId);
    if (twins.length > 0) this.lower.set(key, twins);
    else this.lower.delete(key);
  }

  /** Live entries allowed by a filter, per segment (`undefined`: no filter). */
  private allowed(filter: CatalogFilter | undefined): Map<Segment, Set<number>> | undefined {
    if (!filter || Object.keys(filter).length === 0) return undefined;
    const out = new Map<Segment, Set<number>>();
    for (const segment of this.segments.values()) {
      let set: Set<number> | undefined;
      for (const [key, wanted] of Object.entries(filter)) {
        const values = Array.isArray(wanted) ? wanted : [wanted];
        const union = new Set<number>();
        for (const value of values) {
          for (const i of segment.facets.get(facetKey(key, String(value))) ?? []) {
            if (segment.live[i] && (!set || set.has(i))) union.add(i);
          }
        }
        set = union;
        if (set.size === 0) break;
      }
      if (set && set.size > 0) out.set(segment, set);
    }
    return out;
  }

  /**
   * Documents ranked for a query by BM25F over their cards. Scores accumulate in a map of the
   * cards a term touches (no per-segment arrays: nothing allocated in proportion to the catalog),
   * and which query words each card holds is noted from the postings on the way, so explaining a
   * match re-reads only the section titles that can hold one of its words.
   */
  search(query: string, options: SearchDocumentsOptions = {}): DocumentMatch[] {
    const limit = Math.max(0, Math.floor(options.limit ?? 10));
    const weights = catalogQueryTerms(query);
    const allowed = this.allowed(options.filter);
    if (limit === 0 || this.cards === 0 || weights.size === 0) return [];
    const avg = Array.from(this.totals, (t) => t / this.cards || 1);
    const segments = [...this.segments.values()];
    const words = [...new Set(tokenizeQuery(query))].slice(0, MAX_WORDS);
    const wordBit = new Map(words.map((word, i) => [word, 1 << i]));
    const hits = new Map<number, Hit>();
    // Rarest terms first: a term in more than COMMON_SHARE of a large catalog then only adds to
    // documents a rarer term already found, instead of scoring half the library.
    const terms = [...weights]
      .map(([term, weight]) => ({
        term,
        weight,
        postings: segments.reduce((n, seg) => n + (seg.postings.get(term)?.length ?? 0) / 2, 0),
      }))
      .filter((t) => t.postings > 0)
      .sort((x, y) => x.postings - y.postings);
    const largeCatalog = this.cards >= COMMON_MIN_CARDS;
    const contributions: number[] = [];
    for (const [t, { term, weight, postings }] of terms.entries()) {
      const onlyTouched = largeCatalog && t > 0 && postings > this.cards * COMMON_SHARE;
      let df = 0;
      contributions.length = 0;
      for (const [s, segment] of segments.entries()) {
        const list = segment.postings.get(term);
        if (!list) continue;
        const only = allowed?.get(segment);
        for (let p = 0; p < list.length; p += 2) {
          const entry = list[p] as number;
          if (!segment.live[entry]) continue;
          df += 1; // over every live card: statistics are global, whatever the filter
          const key = s * ENTRY_SPAN + entry;
          if ((allowed && !only?.has(entry)) || (onlyTouched && !hits.has(key))) continue;
          const packed = list[p + 1] as number;
          let tf = 0;
          let where = 0;
          for (let f = 0; f < FIELD_COUNT; f += 1) {
            const count = unpackCount(packed, f);
            if (count === 0) continue;
            if (f !== TERMS_FIELD) where |= ON_CARD;
            if (f === SECTIONS_FIELD) where |= IN_SECTIONS;
            const { weight: fw, b } = CARD_FIELDS[f] as { weight: number; b: number };
            const length = segment.lengths[entry * FIELD_COUNT + f] as number;
            tf += (fw * count) / (1 - b + (b * length) / (avg[f] as number));
          }
          contributions.push(key, (tf * (K1 + 1)) / (tf + K1), where);
        }
      }
      if (contributions.length === 0) continue;
      const idf = Math.log(1 + (this.cards - df + 0.5) / (df + 0.5));
      const w = ((1.5 + 1) * weight * idf) / (1.5 + weight);
      const bit = wordBit.get(term) ?? 0;
      for (let c = 0; c < contributions.length; c += 3) {
        const key = contributions[c] as number;
        let hit = hits.get(key);
        if (!hit) {
          hit = { score: 0, onCard: 0, inSections: 0 };
          hits.set(key, hit);
        }
        hit.score += w * (contributions[c + 1] as number);
        const where = contributions[c + 2] as number;
        if (where & ON_CARD) hit.onCard |= bit;
        if (where & IN_SECTIONS) hit.inSections |= bit;
      }
    }
    // Top `limit` without sorting every match.
    const top: Array<{ card: DocumentCard; hit: Hit }> = [];
    const before = (a: (typeof top)[number], b: (typeof top)[number]) =>
      a.hit.score > b.hit.score || (a.hit.score === b.hit.score && a.card.docId < b.card.docId);
    for (const [key, hit] of hits) {
      const segment = segments[Math.floor(key / ENTRY_SPAN)] as Segment;
      const item = { card: segment.entries[key % ENTRY_SPAN]?.card as DocumentCard, hit };
      if (top.length === limit && !before(item, top[top.length - 1] as (typeof top)[number])) continue;
      let at = top.length;
      while (at > 0 && before(item, top[at - 1] as (typeof top)[number])) at -= 1;
      top.splice(at, 0, item);
      if (top.length > limit) top.pop();
    }
    const of = (mask: number) => words.filter((_, i) => mask & (1 << i));
    return top.map(({ card, hit }) => ({
      card,
      score: hit.score,
      ...evidence(card, of(hit.inSections)),
      matched: of(hit.onCard),
    }));
  }

  /** Live documents in docId order, one page. */
  page(options: DocumentPageOptions = {}): DocumentPage {
    const limit = Math.max(0, Math.floor(options.limit ?? 50));
    const offset = Math.max(0, Math.floor(options.offset ?? 0));
    const allowed = this.allowed(options.filter);
    if (allowed) {
      const ids: string[] = [];
      for (const [segment, set] of allowed)
        for (const i of set) ids.push((segment.entries[i] as SegmentEntry).docId);
      ids.sort();
      const documents = ids.slice(offset, offset + limit).map((id) => this.card(id) as DocumentCard);
      return { documents, total: ids.length, offset };
    }
    // The count alone needs no sorted list (sorting every id after each change would grow with N).
    if (limit === 0) return { documents: [], total: this.cards, offset };
    this.sorted ??= [...this.live.keys()].filter((id) => this.card(id)).sort();
    const documents = this.sorted.slice(offset, offset + limit).map((id) => this.card(id) as DocumentCard);
    return { documents, total: this.sorted.length, offset };
  }
}

/**
 * The section titles of a card that hold the most of `words` (at most {@link EVIDENCE}), in
 * document order among equals. A title is tokenized only when it contains one of the words (a
 * stem is the start of the word it came from, its final "y" aside, or the word is spelled as an
 * abbreviation), so a 256-section card costs a few substring tests, not 256 tokenizations.
 */
function evidence(
  card: DocumentCard,
  words: readonly string[],
): { evidence: CardSection[]; evidenceWords: number } {
  if (words.length === 0) return { evidence: [], evidenceWords: 0 };
  const wanted = new Set(words);
  const needles = words.flatMap((word) => [
    word.endsWith("y") && word.length > 1 ? word.slice(0, -1) : word,
    ...abbreviationsOf(word),
  ]);
  const scored: Array<{ section: CardSection; hits: number; order: number }> = [];
  card.sections.forEach((section, order) => {
    const plain = NON_ASCII.test(section.title)
      ? section.title
          .normalize("NFKD")
          .replace(/[\u0300-\u036f]/g, "")
          .toLowerCase()
      : section.title.toLowerCase();
    if (!needles.some((needle) => plain.includes(needle))) return;
    let hits = 0;
    for (const term of new Set(tokenize(section.title))) if (wanted.has(term)) hits += 1;
    if (hits > 0) scored.push({ section, hits, order });
  });
  scored.sort((a, b) => b.hits - a.hits || a.order - b.order);
  return {
    evidence: scored.slice(0, EVIDENCE).map(({ section }) => section),
    evidenceWords: scored[0]?.hits ?? 0,
  };
}
