import { gunzipSync, gzipSync } from "node:zlib";
import type { TreeDocument, TreeSkeleton } from "pageindex-core";
import { StoreCorruptionError, StoreVersionError } from "../store/errors.js";
import {
  buildCard,
  CARD_FIELDS,
  type CardTerms,
  cardTerms,
  type DocumentCard,
  distinctiveTerms,
  metadataFacets,
} from "./card.js";

/** Format of a stored catalog segment; bumped on incompatible changes. */
export const CATALOG_FORMAT = 1;

/** Fields per card (see {@link CARD_FIELDS}). */
export const FIELD_COUNT = CARD_FIELDS.length;
/** Per-field term counts are packed into one number, 10 bits each (capped at 1023). */
const COUNT_BASE = 1024;
const POWERS = CARD_FIELDS.map((_, f) => COUNT_BASE ** f);

/** One document's entry in a segment: its card, or a tombstone (deleted) when `card` is absent. */
export interface SegmentEntry {
  docId: string;
  /** Orders entries of one document: the latest wins (a tombstone's is the deletion time). */
  versionId: string;
  card?: DocumentCard;
}

/** An entry being written, with its lexical fields. */
export interface NewEntry extends SegmentEntry {
  terms?: CardTerms;
}

/** The catalog entry of a published version of a tree: its card and lexical fields. */
export function catalogEntry(tree: TreeDocument | TreeSkeleton, versionId: string): NewEntry {
  const card = buildCard(tree, versionId);
  return { docId: tree.docId, versionId, card, terms: cardTerms(card, distinctiveTerms(tree)) };
}

/** What a segment holds on disk (before gzip). */
interface SegmentRecord {
  format: number;
  id: string;
  /** Segments this one was merged from (their entries are all here). */
  merged: string[];
  entries: SegmentEntry[];
  vocabulary: string[];
  /** Per vocabulary term: `[entry, packedCounts, entry, packedCounts, …]`. */
  postings: number[][];
}

/** Packs per-field counts into one number. */
export function packCounts(counts: readonly number[]): number {
  let packed = 0;
  counts.forEach((c, f) => {
    packed += Math.min(COUNT_BASE - 1, c) * (POWERS[f] as number);
  });
  return packed;
}

/** The count of field `f` in a packed number. */
export function unpackCount(packed: number, f: number): number {
  return Math.floor(packed / (POWERS[f] as number)) % COUNT_BASE;
}

/** Largest decompressed catalog segment read (1 GiB, far above the largest a merge writes). */
const MAX_SEGMENT_BYTES = 1 << 30;

/**
 * An immutable, decoded catalog segment: cards plus an inverted index (term → entries with
 * per-field counts) and a facet index (`key=value` of user metadata → entries). Never changed
 * once made; a catalog combines several, the latest entry of each document winning.
 */

export class Segment {
  readonly id: string;
  readonly merged: readonly string[];
  readonly entries: readonly SegmentEntry[];
  readonly postings: ReadonlyMap<string, readonly number[]>;
  /** Field lengths, `entries.length × FIELD_COUNT`. */
  readonly lengths: Float64Array;
  readonly facets: ReadonlyMap<string, readonly number[]>;
  /** Which entries are the live version of their document (maintained by the catalog index). */
  readonly live: Uint8Array;
  /** Bytes of the encoded value (for accounting). */
  readonly bytes: number;

  constructor(record: Omit<SegmentRecord, "format">, bytes = 0) {
    this.id = record.id;
    this.merged = record.merged;
    this.entries = record.entries;
    this.bytes = bytes;
    const postings = new Map<string, number[]>();
    this.lengths = new Float64Array(record.entries.length * FIELD_COUNT);
    record.vocabulary.forEach((term, t) => {
      const list = record.postings[t] ?? [];
      postings.set(term, list);
      for (let i = 0; i < list.length; i += 2) {
        const entry = list[i] as number;
        const packed = list[i + 1] as number;
        for (let f = 0; f < FIELD_COUNT; f += 1) {
          const at = entry * FIELD_COUNT + f;
          this.lengths[at] = (this.lengths[at] as number) + unpackCount(packed, f);
        }
      }
    });
    this.postings = postings;
    const facets = new Map<string, number[]>();
    record.entries.forEach((entry, i) => {
      if (!entry.card) return;
      const pairs = metadataFacets(entry.card.metadata);
      pairs.push(["kind", entry.card.kind]);
      for (const [key, value] of pairs) {
        const facet = facetKey(key, value);
        const list = facets.get(facet);
        if (list) {
          if (list[list.length - 1] !== i) list.push(i);
        } else facets.set(facet, [i]);
      }
    });
    this.facets = facets;
    this.live = new Uint8Array(record.entries.length);
  }

  /** Builds a segment from new entries (tokenized fields given). */
  static fromEntries(id: string, entries: readonly NewEntry[], merged: string[] = []): Segment {
    const byTerm = new Map<string, number[]>();
    const stored: SegmentEntry[] = entries.map((entry, i) => {
      const counts = new Map<string, number[]>();
      entry.terms?.forEach((terms, f) => {
        for (const term of terms) {
          let perField = counts.get(term);
          if (!perField) {
            perField = new Array<number>(FIELD_COUNT).fill(0);
            counts.set(term, perField);
          }
          perField[f] = (perField[f] as number) + 1;
        }
      });
      for (const [term, perField] of counts) {
        const list = byTerm.get(term);
        if (list) list.push(i, packCounts(perField));
        else byTerm.set(term, [i, packCounts(perField)]);
      }
      return entry.card
        ? { docId: entry.docId, versionId: entry.versionId, card: entry.card }
        : { docId: entry.docId, versionId: entry.versionId };
    });
    return new Segment({
      id,
      merged,
      entries: stored,
      vocabulary: [...byTerm.keys()],
      postings: [...byTerm.values()],
    });
  }

  /**
   * One segment holding the given entries of these segments (`keep[s]`: entry indexes of
   * `segments[s]`, in order), postings carried over without re-tokenizing.
   */
  static merge(id: string, segments: readonly Segment[], keep: ReadonlyArray<readonly number[]>): Segment {
    const entries: SegmentEntry[] = [];
    const byTerm = new Map<string, number[]>();
    segments.forEach((segment, s) => {
      const renumber = new Map<number, number>();
      for (const i of keep[s] ?? []) {
        renumber.set(i, entries.length);
        entries.push(segment.entries[i] as SegmentEntry);
      }
      for (const [term, list] of segment.postings) {
        let out: number[] | undefined;
        for (let p = 0; p < list.length; p += 2) {
          const to = renumber.get(list[p] as number);
          if (to === undefined) continue;
          out ??= byTerm.get(term);
          if (!out) {
            out = [];
            byTerm.set(term, out);
          }
          out.push(to, list[p + 1] as number);
        }
      }
    });
    // Direct inputs only: transitive ancestry would grow with every write.
    const merged = segments.map((s) => s.id);
    return new Segment({
      id,
      merged,
      entries,
      vocabulary: [...byTerm.keys()],
      postings: [...byTerm.values()],
    });
  }

  /** Number of cards (entries that are not tombstones). */
  get cardCount(): number {
    return this.entries.reduce((n, e) => n + (e.card ? 1 : 0), 0);
  }

  /** The stored value. */
  encode(): Uint8Array {
    const record: SegmentRecord = {
      format: CATALOG_FORMAT,
      id: this.id,
      merged: [...this.merged],
      entries: [...this.entries],
      vocabulary: [...this.postings.keys()],
      postings: [...this.postings.values()].map((list) => [...list]),
    };
    return gzipSync(JSON.stringify(record), { level: 1 });
  }

  /** Reads a stored segment back. @throws {StoreCorruptionError} @throws {StoreVersionError} */
  static decode(bytes: Uint8Array, key: string, id: string): Segment {
    let record: SegmentRecord;
    try {
      // Bounded: a small gzip bomb under a segment's name must not exhaust memory.
      record = JSON.parse(
        gunzipSync(bytes, { maxOutputLength: MAX_SEGMENT_BYTES }).toString("utf8"),
      ) as SegmentRecord;
    } catch (error) {
      throw new StoreCorruptionError(key, `not a catalog segment (${(error as Error).message})`, undefined, {
        cause: error,
      });
    }
    if (typeof record?.format === "number" && record.format !== CATALOG_FORMAT) {
      throw new StoreVersionError(key, record.format, CATALOG_FORMAT, "catalog segment");
    }
    const valid =
      record?.id === id &&
      Array.isArray(record.merged) &&
      Array.isArray(record.entries) &&
      Array.isArray(record.vocabulary) &&
      Array.isArray(record.postings) &&
      record.vocabulary.length === record.postings.length &&
      record.entries.every(
        (e) =>
          typeof e?.docId === "string" &&
          typeof e.versionId === "string" &&
          (e.card === undefined || (typeof e.card === "object" && e.card?.docId === e.docId)),
      ) &&
      record.postings.every(
        (list) =>
          Array.isArray(list) &&
          list.every((n, i) => Number.isInteger(n) && n >= 0 && (i % 2 === 1 || n < record.entries.length)),
      );
    if (!valid) throw new StoreCorruptionError(key, "malformed catalog segment");
    return new Segment(record, bytes.byteLength);
  }
}

/** The facet key of a metadata value (lower case). */
export function facetKey(key: string, value: string): string {
  return `${key.toLowerCase()}\u0000${value.trim().toLowerCase()}`;
}
