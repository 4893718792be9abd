import { createHash } from "node:crypto";
import { gunzipSync, gzipSync } from "node:zlib";
import type { Bm25fCountedField, TreeSkeleton } from "pageindex-core";
import { registerDerivedArtifact } from "pageindex-store";
import { type CountedNodeFields, nodeFieldParams } from "./node-index.js";

/**
 * Name of a saved lexical index in a store's derived artifacts. Bump the version whenever the
 * tokenizer or the fields change, so indexes saved by an older release are rebuilt, not misread.
 */
export const LEXICAL_INDEX_ARTIFACT = "lexical-index-v1";
// Registered with the store, so a store handle that never read it (a process that only indexes)
// still removes it with the version it was built from.
registerDerivedArtifact(LEXICAL_INDEX_ARTIFACT);

/** Serialized form (before gzip): the skeleton it was built from, a vocabulary and counts. */
interface SavedIndex {
  format: 1;
  fingerprint: string;
  withText: boolean;
  vocabulary: string[];
  /** Per node, per field: `[length, termCount, term, count, term, count, …]`, flattened. */
  nodes: number[][];
}

/**
 * What a saved index must match: the skeleton's nodes (ids, structure, titles, summaries, sizes).
 * A writer can publish a new version between a reader's skeleton and text reads, so an index is
 * checked against the skeleton it is used with, not only stored under a version.
 */
export function skeletonFingerprint(skeleton: TreeSkeleton): string {
  const hash = createHash("sha256");
  hash.update(JSON.stringify([skeleton.docId, skeleton.createdAt, skeleton.contentHash ?? ""]));
  for (const n of skeleton.nodes) {
    hash.update(
      JSON.stringify([n.nodeId, n.parentId, n.title, n.summary ?? "", n.prefixSummary ?? "", n.tokenCount]),
    );
  }
  return hash.digest("hex");
}

/**
 * Encodes counted node fields compactly: one vocabulary, integer counts, gzip. Weights are not
 * stored (they come from the code that reads the index back), so tuning them needs no rebuild.
 */
export function encodeNodeFields(skeleton: TreeSkeleton, counted: CountedNodeFields): Uint8Array {
  const ids = new Map<string, number>();
  const vocabulary: string[] = [];
  const nodes = counted.fields.map((fields) => {
    const out: number[] = [];
    for (const field of fields) {
      out.push(field.length, field.counts.size);
      for (const [term, count] of field.counts) {
        let id = ids.get(term);
        if (id === undefined) {
          id = vocabulary.length;
          ids.set(term, id);
          vocabulary.push(term);
        }
        out.push(id, count);
      }
    }
    return out;
  });
  const saved: SavedIndex = {
    format: 1,
    fingerprint: skeletonFingerprint(skeleton),
    withText: counted.withText,
    vocabulary,
    nodes,
  };
  return gzipSync(JSON.stringify(saved));
}

/**
 * Reads counted node fields back, or `undefined` when the bytes are unreadable or were built
 * from another skeleton (the caller then rebuilds).
 */
export function decodeNodeFields(skeleton: TreeSkeleton, bytes: Uint8Array): CountedNodeFields | undefined {
  let saved: SavedIndex;
  try {
    saved = JSON.parse(gunzipSync(bytes).toString("utf8")) as SavedIndex;
  } catch {
    return undefined;
  }
  if (
    saved?.format !== 1 ||
    !Array.isArray(saved.vocabulary) ||
    !Array.isArray(saved.nodes) ||
    saved.nodes.length !== skeleton.nodes.length ||
    saved.fingerprint !== skeletonFingerprint(skeleton)
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
