import { createHash } from "node:crypto";
import { gunzipSync } from "node:zlib";
import type { Bm25fCountedField, TreeSkeleton } from "pageindex-core";
import { registerDerivedArtifact } from "pageindex-store";
import { type CountedNodeFields, nodeFieldParams } from "./node-fields.js";
import { type PackedArrays, PackedNodeFields, POSTING_BLOCK } from "./packed-fields.js";

/**
 * Name of a saved lexical index in a store's derived artifacts. Bump the version whenever the
 * tokenizer, the fields or the format change, so indexes saved by an older release are rebuilt,
 * not misread. v2: typed arrays read in place (v1: gzipped JSON of counts per node, rebuilt
 * into maps on every read).
 */
export const LEXICAL_INDEX_ARTIFACT = "lexical-index-v2";
/**
 * The name the previous release saved indexes under (gzipped JSON, see
 * {@link decodeLegacyNodeFields}): still read, and removed with the versions it belongs to.
 */
export const LEGACY_LEXICAL_INDEX_ARTIFACT = "lexical-index-v1";
// Registered with the store, so a store handle that never read it (a process that only indexes)
// still removes it with the version it was built from.
for (const name of [LEXICAL_INDEX_ARTIFACT, LEGACY_LEXICAL_INDEX_ARTIFACT]) registerDerivedArtifact(name);

/**
 * The saved form: a header of {@link HEADER_WORDS} 32-bit words in the writer's byte order
 * (checked on read) — byte-order mark, format, withText, nodes, words, phrases, phrase key
 * width (4 or 8 bytes), postings bytes, then the skeleton's 32-byte fingerprint — followed by
 * the arrays of {@link PackedArrays}: phraseKeys (first: 8-byte aligned), lengths, wordEnds,
 * blockStarts, then the postings' and the words' bytes. No compression: reading it back is a
 * few array views (inflating a gzipped copy cost more than the whole read, measured).
 */
const FORMAT = 2;
const BYTE_ORDER_MARK = 0x01020304;
const HEADER_WORDS = 20;
const FINGERPRINT_WORD = 12;

/**
 * What a saved index must match: the skeleton's nodes (ids, structure, titles, summaries, sizes).
 * A writer can publish a new version between a reader's skeleton and text reads, so an index is
 * checked against the skeleton it is used with, not only stored under a version.
 */
export function skeletonFingerprint(skeleton: TreeSkeleton): Uint8Array {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([skeleton.docId, skeleton.createdAt, skeleton.contentHash ?? ""]));
  for (const n of skeleton.nodes) {
    hash.update(
      JSON.stringify([n.nodeId, n.parentId, n.title, n.summary ?? "", n.prefixSummary ?? "", n.tokenCount]),
    );
  }
  return hash.digest();
}

/**
 * Encodes a packed index with the fingerprint of its skeleton. Weights are not stored (they come
 * from the code that reads the index back), so tuning them needs no rebuild.
 */
export function encodeNodeFields(skeleton: TreeSkeleton, packed: PackedNodeFields): Uint8Array {
  const { withText, nodeCount, lengths, words, wordEnds, phraseKeys, blockStarts, postings } = packed.arrays;
  const wide = [lengths, wordEnds, blockStarts];
  const head = HEADER_WORDS * 4 + phraseKeys.byteLength;
  const tail = head + wide.reduce((sum, a) => sum + a.byteLength, 0);
  const out = new Uint8Array(tail + postings.length + words.length);
  new Uint32Array(out.buffer, 0, FINGERPRINT_WORD).set([
    BYTE_ORDER_MARK,
    FORMAT,
    withText ? 1 : 0,
    nodeCount,
    wordEnds.length - 1,
    phraseKeys.length,
    phraseKeys.BYTES_PER_ELEMENT,
    postings.length,
  ]);
  out.set(skeletonFingerprint(skeleton), FINGERPRINT_WORD * 4);
  out.set(new Uint8Array(phraseKeys.buffer, phraseKeys.byteOffset, phraseKeys.byteLength), HEADER_WORDS * 4);
  let at = head;
  for (const array of wide) {
    out.set(new Uint8Array(array.buffer, array.byteOffset, array.byteLength), at);
    at += array.byteLength;
  }
  out.set(postings, tail);
  out.set(words, tail + postings.length);
  return out;
}

/**
 * Reads a saved index back (views on the bytes; a term's postings are decoded when a query
 * looks it up, and their block checked then), or `undefined` when the bytes are unreadable, of
 * another format or were built from another skeleton (the caller then rebuilds). A damaged block
 * of postings surfaces as `LexicalIndexDamagedError` at that lookup (see `LexicalIndexes.read`).
 */
export function decodeNodeFields(skeleton: TreeSkeleton, bytes: Uint8Array): PackedNodeFields | undefined {
  if (bytes.byteLength < HEADER_WORDS * 4) return undefined;
  // Typed arrays need aligned offsets; a byte store may hand out a slice of a shared buffer.
  const aligned = bytes.byteOffset % 8 === 0 ? bytes : new Uint8Array(bytes);
  const base = aligned.byteOffset;
  const header = new Uint32Array(aligned.buffer, base, FINGERPRINT_WORD);
  const [mark, format, withText, nodeCount, wordCount, phraseCount, keyWidth, postingBytes] =
    header as unknown as [number, number, number, number, number, number, number, number];
  if (mark !== BYTE_ORDER_MARK || format !== FORMAT || (withText !== 0 && withText !== 1)) return undefined;
  if (nodeCount !== skeleton.nodes.length || (keyWidth !== 4 && keyWidth !== 8)) return undefined;
  const fieldCount = nodeFieldParams(withText === 1).length;
  const sizes = [
    nodeCount * fieldCount,
    wordCount + 1,
    Math.ceil((wordCount + phraseCount) / POSTING_BLOCK) + 1,
  ];
  const head = HEADER_WORDS * 4 + phraseCount * keyWidth;
  const tail = head + sizes.reduce((sum, n) => sum + n * 4, 0);
  if (aligned.byteLength < tail + postingBytes) return undefined;
  const fingerprint = aligned.subarray(FINGERPRINT_WORD * 4, FINGERPRINT_WORD * 4 + 32);
  if (!Buffer.from(skeletonFingerprint(skeleton)).equals(fingerprint)) return undefined;
  let at = base + head;
  const [lengths, wordEnds, blockStarts] = sizes.map((size) => {
    const array = new Uint32Array(aligned.buffer, at, size);
    at += size * 4;
    return array;
  }) as [Uint32Array, Uint32Array, Uint32Array];
  const keysAt = base + HEADER_WORDS * 4;
  const arrays: PackedArrays = {
    withText: withText === 1,
    nodeCount,
    lengths,
    wordEnds,
    blockStarts,
    phraseKeys:
      keyWidth === 4
        ? new Uint32Array(aligned.buffer, keysAt, phraseCount)
        : new Float64Array(aligned.buffer, keysAt, phraseCount),
    postings: aligned.subarray(tail, tail + postingBytes),
    words: aligned.subarray(tail + postingBytes),
  };
  try {
    // Checks the arrays fit together (the words' end included); the postings, block by block, when used.
    return new PackedNodeFields(
      arrays,
      `lexical index "${LEXICAL_INDEX_ARTIFACT}" of document "${skeleton.docId}"`,
    );
  } catch {
    return undefined; // a damaged index: rebuilt
  }
}

/** The previous release's saved form (before gzip): counts per node and field over a vocabulary. */
interface LegacySavedIndex {
  format: 1;
  fingerprint: string;
  withText: boolean;
  vocabulary: string[];
  /** Per node, per field: `[length, termCount, term, count, term, count, …]`, flattened. */
  nodes: number[][];
}

/**
 * Reads an index the previous release saved (`lexical-index-v1`) into counted fields (to be
 * packed), or `undefined` when unreadable or built from another skeleton.
 */
export function decodeLegacyNodeFields(
  skeleton: TreeSkeleton,
  bytes: Uint8Array,
): CountedNodeFields | undefined {
  let saved: LegacySavedIndex;
  try {
    saved = JSON.parse(gunzipSync(bytes).toString("utf8")) as LegacySavedIndex;
  } catch {
    return undefined;
  }
  if (
    saved?.format !== 1 ||
    !Array.isArray(saved.vocabulary) ||
    !Array.isArray(saved.nodes) ||
    saved.nodes.length !== skeleton.nodes.length ||
    saved.fingerprint !== Buffer.from(skeletonFingerprint(skeleton)).toString("hex")
  ) {
    return undefined;
  }
  const params = nodeFieldParams(saved.withText === true);
  const fields: Bm25fCountedField[][] = [];
  for (const flat of saved.nodes) {
    const node: Bm25fCountedField[] = [];
    let at = 0;
    for (const { weight, b } of params) {
      const length = flat[at] ?? 0;
      const size = flat[at + 1] ?? 0;
      at += 2;
      const counts = new Map<string, number>();
      for (let i = 0; i < size; i += 1, at += 2) {
        const term = saved.vocabulary[flat[at] ?? -1];
        const count = flat[at + 1];
        if (term === undefined || count === undefined) return undefined;
        counts.set(term, count);
      }
      node.push({ counts, length, weight, b });
    }
    if (at !== flat.length) return undefined;
    fields.push(node);
  }
  return { withText: saved.withText === true, fields };
}
