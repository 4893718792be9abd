import { newVersionId } from "../store/keys.js";
import type { CatalogIndex } from "./index.js";
import { Segment, type SegmentEntry } from "./segment.js";

/** How segments are merged (tiered, as Lucene does). */
export interface MergePolicy {
  /** Segments of one size tier merged at once (default 8): the catalog keeps about `factor × log_factor(N)` segments. */
  factor: number;
  /** Segments with at least this many entries are not merged further (default 20,000), bounding a value's size. */
  maxSegmentDocs: number;
}

export const DEFAULT_MERGE_POLICY: MergePolicy = { factor: 8, maxSegmentDocs: 20_000 };

/** The next group of segments to merge, oldest first, or `undefined` when no tier is full. */
export function nextMerge(segments: readonly Segment[], policy: MergePolicy): Segment[] | undefined {
  const factor = Math.max(2, policy.factor);
  const tiers = new Map<number, Segment[]>();
  for (const segment of segments) {
    const size = segment.entries.length;
    if (size >= policy.maxSegmentDocs) continue;
    const tier = Math.floor(Math.log(Math.max(1, size)) / Math.log(factor));
    const list = tiers.get(tier);
    if (list) list.push(segment);
    else tiers.set(tier, [segment]);
  }
  for (const tier of [...tiers.keys()].sort((a, b) => a - b)) {
    const list = tiers.get(tier) as Segment[];
    if (list.length >= factor) return list.sort((a, b) => (a.id < b.id ? -1 : 1)).slice(0, factor);
  }
  return undefined;
}

/**
 * One segment replacing `inputs`: per document only the latest entry among them (a tombstone
 * stays, since an older segment outside the merge may still hold a card it must hide).
 */
export function mergeSegments(inputs: readonly Segment[]): Segment {
  const latest = new Map<string, { s: number; i: number; versionId: string }>();
  inputs.forEach((segment, s) => {
    segment.entries.forEach((entry: SegmentEntry, i) => {
      const current = latest.get(entry.docId);
      if (!current || current.versionId < entry.versionId)
        latest.set(entry.docId, { s, i, versionId: entry.versionId });
    });
  });
  const keep: number[][] = inputs.map(() => []);
  for (const { s, i } of latest.values()) keep[s]?.push(i);
  for (const list of keep) list.sort((a, b) => a - b);
  return Segment.merge(newVersionId(), inputs, keep);
}

/**
 * Segments holding exactly the live cards of `index` that `keepDoc` accepts (tombstones and
 * superseded entries dropped), at most `maxSegmentDocs` each: a full compaction.
 */
export function compactSegments(
  index: CatalogIndex,
  keepDoc: (entry: SegmentEntry) => boolean,
  maxSegmentDocs: number,
): Segment[] {
  const out: Segment[] = [];
  let inputs: Segment[] = [];
  let keep: number[][] = [];
  let count = 0;
  const flush = () => {
    if (count > 0) out.push(Segment.merge(newVersionId(), inputs, keep));
    inputs = [];
    keep = [];
    count = 0;
  };
  for (const segment of index.segmentList()) {
    let list: number[] = [];
    segment.entries.forEach((entry, i) => {
      if (!segment.live[i] || !keepDoc(entry)) return;
      list.push(i);
      count += 1;
      if (count >= maxSegmentDocs) {
        inputs.push(segment);
        keep.push(list);
        list = [];
        flush();
      }
    });
    if (list.length > 0) {
      inputs.push(segment);
      keep.push(list);
    }
  }
  flush();
  return out;
}
