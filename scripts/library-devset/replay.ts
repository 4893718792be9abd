/**
 * What the offline analyses of the library dev set share (scripts/analyze-library-offline.ts,
 * scripts/analyze-library-choice.ts): the retriever's constants they replay its fusion with (read from its sources), a
 * returned section marked against the gold, and a document's library evidence per node.
 */
import { join } from "node:path";
import { parseArgs } from "node:util";
import { Document } from "@langchain/core/documents";
import { getNode, nodeMetadata, pathToRoot } from "pageindex-core";
import type { PageIndexStore } from "pageindex-store";
import { RETRIEVER_DEFAULTS } from "../../packages/pageindex-retriever/src/options.js";
import { holdsGold } from "./gold.js";
import type { LibraryQuestion } from "./library.js";

// The retriever's constants the replays read (this checkout's sources, as the analyses run them).
export {
  ANCESTOR_DECAY as DECAY,
  COVERAGE_SATURATION as SATURATION,
  COVERAGE_WEIGHT as COVERAGE,
  SECTIONS_PER_DOCUMENT as SECTIONS,
} from "../../packages/pageindex-retriever/src/search/library-starts.js";
/** Results of a searched document ranked first by the fusion (the retriever's default `k`). */
export const K = RETRIEVER_DEFAULTS.k;

/** A section a search returned, marked against the gold. */
export interface GoldSection {
  nodeId: string;
  score: number;
  hit: boolean;
  /** Node ids from the parent up to the root. */
  ancestors: string[];
}

/** Marks section `nodeId` of `docId` against question `q`'s gold pages or lines. */
export async function goldSection(
  store: PageIndexStore,
  q: LibraryQuestion,
  docId: string,
  nodeId: string,
  score: number,
): Promise<GoldSection> {
  const skeleton = await store.getSkeleton(docId);
  const node = getNode(skeleton, nodeId);
  const metadata = node ? nodeMetadata(skeleton, node) : undefined;
  return {
    nodeId,
    score,
    hit: metadata !== undefined && holdsGold(new Document({ pageContent: "", metadata }), q),
    ancestors: pathToRoot(skeleton, nodeId)
      .slice(0, -1)
      .map((n) => n.nodeId),
  };
}

/** Library evidence per node: the best match at or below it, `decay` a level up (as `sectionEvidence`). */
export function libraryEvidence(library: readonly GoldSection[], decay: number): Map<string, number> {
  const evidence = new Map<string, number>();
  for (const s of library)
    [s.nodeId, ...s.ancestors].forEach((id, up) => {
      const v = s.score * decay ** up;
      if (v > (evidence.get(id) ?? 0)) evidence.set(id, v);
    });
  return evidence;
}

/**
 * An analysis's command line: `--split dev|validation|all` (default dev) and `--collect`, and
 * where it caches what it collected for that split (.bench-out/<name>-<split>.json).
 */
export function analysisArgs(name: string): { split: string; collect: boolean; cache: string } {
  const { values } = parseArgs({
    options: { split: { type: "string", default: "dev" }, collect: { type: "boolean", default: false } },
  });
  const split = values.split ?? "dev";
  if (!["dev", "validation", "all"].includes(split))
    throw new Error("--split must be dev, validation or all");
  return { split, collect: values.collect ?? false, cache: join(".bench-out", `${name}-${split}.json`) };
}
