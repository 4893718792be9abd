import { type SkeletonNode, type TreeSkeleton, titlePath } from "pageindex-core";

/** A section chosen to have a question written about it. */
export interface SampledSection {
  docId: string;
  docName: string;
  node: SkeletonNode;
  /** Titles from the root down to the section. */
  path: string[];
  /** Ids of the section's ancestors, root first. */
  ancestors: string[];
}

/** Options of {@link sampleSections}. */
export interface SampleOptions {
  /** Fixed seed: the same seed and documents give the same order of sections. */
  seed: number;
  /** Sections whose own text is shorter than this (tokens) are skipped. Default 80. */
  minTokens?: number;
}

/**
 * Back matter and front-matter lists: they name everything and answer nothing, so no question
 * is written about them (or about anything under them).
 */
const NOT_CONTENT =
  /^(?:[\dA-Z]{1,3}[.)]?\s+)?(?:(?:general|subject|concept|function|alphabetical)\s+)?(?:index(?:\s+of\s+.+)?|indices|contents|table of contents|list of (?:figures|tables|illustrations|abbreviations)|bibliography|references|works cited|glossary(?:\s+of\s+.+)?|acknowledge?ments|colophon|copyright(?:\s+notice)?|licen[cs]e|about this (?:document|manual|book))\s*[.:]?$/i;

/** Whether a section is back matter or a contents list, by its title or an ancestor's. */
export function isBackMatter(path: readonly string[]): boolean {
  return path.some((title) => NOT_CONTENT.test(title.trim()));
}

/** Small, fast, seedable PRNG (mulberry32): sampling must repeat exactly for a seed. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher-Yates with the given random source; returns a new array. */
export function shuffled<T>(items: readonly T[], random: () => number): T[] {
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j] as T, out[i] as T];
  }
  return out;
}

/** Depth and size class of a section: sampling cycles through them so no one kind dominates. */
function stratum(node: SkeletonNode): string {
  const depth = Math.min(node.level, 2);
  const size = node.tokenCount < 300 ? 0 : node.tokenCount < 1500 ? 1 : 2;
  return `${depth}:${size}`;
}

/** Takes one item from each list in turn until all are empty. */
function interleave<T>(lists: T[][]): T[] {
  const out: T[] = [];
  const queues = lists.map((list) => [...list]);
  while (queues.some((q) => q.length > 0)) {
    for (const queue of queues) {
      const item = queue.shift();
      if (item !== undefined) out.push(item);
    }
  }
  return out;
}

/**
 * Orders the eligible sections of some documents for question writing: spread over documents
 * (one from each in turn), and within a document over depths and sizes, in an order fixed by
 * `seed`. Callers take sections from the front until they have enough questions, so a rejected
 * question is replaced by the next section without changing the ones before it.
 */
export function sampleSections(skeletons: readonly TreeSkeleton[], options: SampleOptions): SampledSection[] {
  const random = seededRandom(options.seed);
  const minTokens = options.minTokens ?? 80;
  const perDocument = [...skeletons]
    .sort((a, b) => (a.docId < b.docId ? -1 : a.docId > b.docId ? 1 : 0))
    .map((skeleton) => {
      const byId = new Map(skeleton.nodes.map((n) => [n.nodeId, n]));
      const strata = new Map<string, SampledSection[]>();
      for (const node of skeleton.nodes) {
        if (node.tokenCount < minTokens) continue;
        const path = titlePath(skeleton, node.nodeId);
        if (isBackMatter(path)) continue;
        const ancestors: string[] = [];
        for (let p = node.parentId; p !== null; p = byId.get(p)?.parentId ?? null) ancestors.unshift(p);
        const key = stratum(node);
        const list = strata.get(key) ?? [];
        list.push({ docId: skeleton.docId, docName: skeleton.docName, node, path, ancestors });
        strata.set(key, list);
      }
      const keys = shuffled([...strata.keys()].sort(), random);
      return interleave(keys.map((key) => shuffled(strata.get(key) ?? [], random)));
    });
  return interleave(shuffled(perDocument, random));
}
