import type { Bm25fPostingLists, Bm25fTermPostings } from "pageindex-core";
import { LexicalIndexDamagedError } from "../errors.js";
import { type CountedNodeFields, nodeFieldParams } from "./node-fields.js";

/**
 * The arrays of a {@link PackedNodeFields}, what a saved lexical index holds (see `persisted.ts`).
 * Term ids: the words in byte order, then the phrases ("word word") in key order. Phrases are
 * most of a document's terms, so they are kept as two word ids, not as text.
 */
export interface PackedArrays {
  /** Whether the nodes' own texts were indexed (it picks the fields' weights). */
  withText: boolean;
  nodeCount: number;
  /** Field lengths in terms, `node × fieldCount + field`. */
  lengths: Uint32Array;
  /** The words: UTF-8, back to back, in byte order (binary-searched). */
  words: Uint8Array;
  /** End of each word in `words`, with a leading 0 (`wordCount + 1` entries). */
  wordEnds: Uint32Array;
  /** Each phrase's key, ascending: its first word's id × wordCount + its second's. */
  phraseKeys: Uint32Array | Float64Array;
  /** Where each block of {@link POSTING_BLOCK} terms starts in `postings`, with the end last. */
  blockStarts: Uint32Array;
  /**
   * Per term in id order, varints: its number of postings, then per posting
   * `(slot − previous slot − 1) × 2 + (count > 1)`, followed by `count − 2` when count > 1
   * (slot: `node × fieldCount + field`, ascending; the previous of the first is −1).
   */
  postings: Uint8Array;
}

/** Terms per entry of `blockStarts`: a lookup skips at most this many terms' postings. */
export const POSTING_BLOCK = 16;

const utf8 = new TextEncoder();

/** Byte order of `a` against `b[from, to)`: negative when `a` sorts first. */
function compareBytes(a: Uint8Array, b: Uint8Array, from: number, to: number): number {
  const length = Math.min(a.length, to - from);
  for (let i = 0; i < length; i += 1) {
    const diff = (a[i] as number) - (b[from + i] as number);
    if (diff !== 0) return diff;
  }
  return a.length - (to - from);
}

/** A phrase term's two words, or undefined for a word (one space between two non-empty words). */
function phraseWords(term: string): [string, string] | undefined {
  const space = term.indexOf(" ");
  if (space <= 0 || space === term.length - 1 || term.indexOf(" ", space + 1) >= 0) return undefined;
  return [term.slice(0, space), term.slice(space + 1)];
}

/** Thrown inside {@link PackedNodeFields}' reads of a damaged postings stream. */
class DamagedIndex extends RangeError {}

/** A block of postings walked and found whole (0: not walked yet), in `PackedNodeFields.blocks`. */
const WHOLE = 1;

/** A reader of unsigned LEB128 varints (arithmetic, so values up to 2^53). */
class Varints {
  at: number;
  private readonly bytes: Uint8Array;
  constructor(bytes: Uint8Array, at: number) {
    this.bytes = bytes;
    this.at = at;
  }
  next(): number {
    let value = 0;
    let scale = 1;
    for (;;) {
      const byte = this.bytes[this.at];
      if (byte === undefined || scale > 2 ** 49) throw new DamagedIndex("lexical index: postings cut short");
      this.at += 1;
      value += (byte & 0x7f) * scale;
      if (byte < 0x80) return value;
      scale *= 128;
    }
  }
}

/** Appends unsigned varints to a growing byte list. */
function pushVarint(out: number[], value: number): void {
  let v = value;
  while (v >= 0x80) {
    out.push((v % 0x80) | 0x80);
    v = Math.floor(v / 0x80);
  }
  out.push(v);
}

/**
 * A document's lexical index term by term: node fields' lengths, a sorted vocabulary, postings
 * by term. What BM25F scoring reads (`Bm25fPostings`) and what is saved, so an index read back
 * from its bytes is used in place: a query looks its own terms up (binary searches) and decodes
 * their postings only, instead of a map per node rebuilt on every read.
 */
export class PackedNodeFields implements Bm25fPostingLists {
  readonly arrays: PackedArrays;
  readonly docCount: number;
  readonly withText: boolean;
  readonly fields: ReadonlyArray<{ weight: number; b: number }>;
  readonly lengths: Uint32Array;
  private readonly wordCount: number;
  private readonly termCount: number;
  /** Per block of {@link POSTING_BLOCK} terms: whether its postings were walked and found whole. */
  private readonly blocks: Uint8Array;
  /** What the index is, for its errors (e.g. `lexical index "…" of document "…"`). */
  private readonly source: string;

  /**
   * Checks the sizes and orders of the arrays; each block of postings is checked when a lookup
   * first decodes it (see {@link PackedNodeFields.postings}), so reading a saved index does not
   * walk every term's postings, only the query's.
   * @param source names the index in a {@link LexicalIndexDamagedError}.
   * @throws {RangeError} when the arrays do not fit together (sizes, order).
   */
  constructor(arrays: PackedArrays, source = "lexical index") {
    const { nodeCount, lengths, words, wordEnds, phraseKeys, blockStarts, postings } = arrays;
    const fields = nodeFieldParams(arrays.withText);
    this.arrays = arrays;
    this.docCount = nodeCount;
    this.withText = arrays.withText;
    this.fields = fields;
    this.lengths = lengths;
    this.source = source;
    this.wordCount = wordEnds.length - 1;
    this.termCount = this.wordCount + phraseKeys.length;
    this.blocks = new Uint8Array(Math.max(0, blockStarts.length - 1));
    const fits =
      lengths.length === nodeCount * fields.length &&
      this.wordCount >= 0 &&
      wordEnds[0] === 0 &&
      wordEnds[this.wordCount] === words.length &&
      blockStarts.length === Math.ceil(this.termCount / POSTING_BLOCK) + 1 &&
      blockStarts[blockStarts.length - 1] === postings.length &&
      ascending(wordEnds, false) &&
      ascending(blockStarts, false) &&
      ascending(phraseKeys, true) &&
      (phraseKeys.length === 0 ||
        (phraseKeys[phraseKeys.length - 1] as number) < this.wordCount * this.wordCount);
    if (!fits) throw new RangeError("PackedNodeFields: the arrays of a lexical index do not fit together");
  }

  /**
   * Checks a block's postings the first time a lookup decodes it: every term's list decodes
   * within the block, with slots ascending and in range.
   * @throws {LexicalIndexDamagedError} when they do not.
   */
  private checkBlock(block: number): void {
    if (this.blocks[block] === WHOLE) return;
    const { blockStarts, postings } = this.arrays;
    let whole = false;
    try {
      const reader = new Varints(postings, blockStarts[block] as number);
      const last = Math.min(this.termCount, (block + 1) * POSTING_BLOCK);
      for (let t = block * POSTING_BLOCK; t < last; t += 1) this.skipList(reader);
      whole = reader.at === blockStarts[block + 1];
    } catch (error) {
      if (!(error instanceof DamagedIndex)) throw error;
    }
    if (!whole) throw new LexicalIndexDamagedError(this.source, block);
    this.blocks[block] = WHOLE;
  }

  /** Passes over one term's postings at the reader's position (checked as `readList` checks them). */
  private skipList(reader: Varints): void {
    const n = reader.next();
    let slot = -1;
    for (let i = 0; i < n; i += 1) {
      const value = reader.next();
      slot += Math.floor(value / 2) + 1;
      if (value % 2 === 1) reader.next();
    }
    if (slot >= this.lengths.length) throw new DamagedIndex("lexical index: posting out of range");
  }

  /** Reads one term's postings at the reader's position (checked: slots ascend, stay in range). */
  private readList(reader: Varints): { slots: Uint32Array; counts: Uint32Array } {
    const n = reader.next();
    if (n > this.lengths.length) throw new DamagedIndex("lexical index: too many postings");
    const slots = new Uint32Array(n);
    const counts = new Uint32Array(n);
    let slot = -1;
    for (let i = 0; i < n; i += 1) {
      const value = reader.next();
      slot += Math.floor(value / 2) + 1;
      if (slot >= this.lengths.length) throw new DamagedIndex("lexical index: posting out of range");
      slots[i] = slot;
      counts[i] = value % 2 === 1 ? reader.next() + 2 : 1;
    }
    return { slots, counts };
  }

  /**
   * Terms held over all nodes, each node counted once (the index's size, for diagnostics).
   * @throws {LexicalIndexDamagedError} when a block of postings is damaged.
   */
  get entries(): number {
    for (let block = 0; block < this.blocks.length; block += 1) this.checkBlock(block);
    const fieldCount = this.fields.length;
    const reader = new Varints(this.arrays.postings, 0);
    let n = 0;
    for (let t = 0; t < this.termCount; t += 1) {
      let last = -1;
      for (const slot of this.readList(reader).slots) {
        const node = Math.floor(slot / fieldCount);
        if (node !== last) n += 1;
        last = node;
      }
    }
    return n;
  }

  /**
   * The term's postings (its block checked first, once: see the constructor).
   * @throws {LexicalIndexDamagedError} when its block of postings is damaged.
   */
  postings(term: string): Bm25fTermPostings | undefined {
    const id = this.termId(term);
    if (id < 0) return undefined;
    const block = Math.floor(id / POSTING_BLOCK);
    this.checkBlock(block);
    const reader = new Varints(this.arrays.postings, this.arrays.blockStarts[block] as number);
    for (let t = block * POSTING_BLOCK; t < id; t += 1) this.skipList(reader);
    const list = this.readList(reader);
    return list.slots.length > 0 ? list : undefined;
  }

  /** The term's id (see {@link PackedArrays}), or -1. */
  private termId(term: string): number {
    const phrase = phraseWords(term);
    if (!phrase) return this.wordId(term);
    const first = this.wordId(phrase[0]);
    const second = first < 0 ? -1 : this.wordId(phrase[1]);
    if (second < 0) return -1;
    const key = first * this.wordCount + second;
    const keys = this.arrays.phraseKeys;
    let low = 0;
    let high = keys.length - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const at = keys[mid] as number;
      if (at === key) return this.wordCount + mid;
      if (at > key) high = mid - 1;
      else low = mid + 1;
    }
    return -1;
  }

  private wordId(word: string): number {
    const { words, wordEnds } = this.arrays;
    const bytes = utf8.encode(word);
    let low = 0;
    let high = this.wordCount - 1;
    while (low <= high) {
      const mid = (low + high) >>> 1;
      const order = compareBytes(bytes, words, wordEnds[mid] as number, wordEnds[mid + 1] as number);
      if (order === 0) return mid;
      if (order < 0) high = mid - 1;
      else low = mid + 1;
    }
    return -1;
  }
}

/** Whether the values ascend (strictly, or not decreasing). */
function ascending(values: ArrayLike<number>, strictly: boolean): boolean {
  for (let i = 1; i < values.length; i += 1) {
    const step = (values[i] as number) - (values[i - 1] as number);
    if (step < 0 || (strictly && step === 0)) return false;
  }
  return true;
}

/** Packs counted node fields (see `nodeFields`) term by term. */
export function packNodeFields(counted: CountedNodeFields): PackedNodeFields {
  const fieldCount = nodeFieldParams(counted.withText).length;
  const nodeCount = counted.fields.length;
  const lengths = new Uint32Array(nodeCount * fieldCount);
  // Per term: slot, count, slot, count, … — nodes and fields visited in order, so slots ascend.
  const byTerm = new Map<string, number[]>();
  counted.fields.forEach((fields, node) => {
    if (fields.length !== fieldCount)
      throw new RangeError(`packNodeFields: node ${node} has ${fields.length} fields, not ${fieldCount}`);
    fields.forEach(({ counts, length }, field) => {
      const slot = node * fieldCount + field;
      lengths[slot] = length;
      for (const [term, count] of counts) {
        const list = byTerm.get(term);
        if (list) list.push(slot, count);
        else byTerm.set(term, [slot, count]);
      }
    });
  });
  // Every phrase's words are words of the vocabulary (with no postings of their own, if need be).
  const wordSet = new Set<string>();
  const phrases: Array<{ term: string; words: [string, string] }> = [];
  for (const term of byTerm.keys()) {
    const pair = phraseWords(term);
    if (pair) {
      phrases.push({ term, words: pair });
      wordSet.add(pair[0]).add(pair[1]);
    } else wordSet.add(term);
  }
  const words = [...wordSet]
    .map((word) => ({ word, bytes: utf8.encode(word) }))
    .sort((a, b) => compareBytes(a.bytes, b.bytes, 0, b.bytes.length));
  const wordIds = new Map(words.map(({ word }, i) => [word, i]));
  const wordEnds = new Uint32Array(words.length + 1);
  words.forEach(({ bytes }, i) => {
    wordEnds[i + 1] = (wordEnds[i] as number) + bytes.length;
  });
  const wordBytes = new Uint8Array(wordEnds[words.length] as number);
  words.forEach(({ bytes }, i) => void wordBytes.set(bytes, wordEnds[i] as number));
  const keyed = phrases
    .map(({ term, words: [a, b] }) => ({
      term,
      key: (wordIds.get(a) as number) * words.length + (wordIds.get(b) as number),
    }))
    .sort((x, y) => x.key - y.key);
  const phraseKeys =
    words.length * words.length <= 2 ** 32 ? new Uint32Array(keyed.length) : new Float64Array(keyed.length);
  keyed.forEach(({ key }, i) => {
    phraseKeys[i] = key;
  });
  const terms = [...words.map(({ word }) => word), ...keyed.map(({ term }) => term)];
  const blockStarts = new Uint32Array(Math.ceil(terms.length / POSTING_BLOCK) + 1);
  const stream: number[] = [];
  terms.forEach((term, t) => {
    if (t % POSTING_BLOCK === 0) blockStarts[t / POSTING_BLOCK] = stream.length;
    const list = byTerm.get(term) ?? [];
    pushVarint(stream, list.length / 2);
    let previous = -1;
    for (let i = 0; i < list.length; i += 2) {
      const slot = list[i] as number;
      const count = list[i + 1] as number;
      pushVarint(stream, (slot - previous - 1) * 2 + (count > 1 ? 1 : 0));
      if (count > 1) pushVarint(stream, count - 2);
      previous = slot;
    }
  });
  blockStarts[blockStarts.length - 1] = stream.length;
  return new PackedNodeFields({
    withText: counted.withText,
    nodeCount,
    lengths,
    words: wordBytes,
    wordEnds,
    phraseKeys,
    blockStarts,
    postings: Uint8Array.from(stream),
  });
}
