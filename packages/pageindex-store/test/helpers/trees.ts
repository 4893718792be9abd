import { createTree, type NodeDraft, type TreeDocument } from "pageindex-core";

/** Options of {@link makeTree}. */
export interface MakeTreeOptions {
  /** Number of nodes (default 30). */
  nodes?: number;
  /** Children per internal node (default 4). */
  branching?: number;
  /** Characters of text per node (default 200). */
  textChars?: number;
  /** Varies titles and texts, so two trees with the same shape differ (default 1). */
  seed?: number;
  docName?: string;
  source?: string;
  description?: string;
  contentHash?: string;
}

// Non-ASCII on purpose: values must round-trip as UTF-8.
const WORDS = [
  "revenue",
  "clause",
  "section",
  "überblick",
  "日本語",
  "naïve",
  "risk",
  "🙂",
  "table",
  "appendix",
];

/** Deterministic pseudo-random text of about `chars` characters. */
export function makeText(seed: number, chars: number): string {
  let state = (seed * 2654435761) >>> 0 || 1;
  const parts: string[] = [];
  let length = 0;
  while (length < chars) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    const word = WORDS[state % WORDS.length] as string;
    parts.push(word);
    length += word.length + 1;
  }
  return parts.join(" ");
}

/**
 * A valid tree of `nodes` nodes shaped like a heap (node i's parent is (i-1)/branching), in
 * pre-order with line ranges. Token counts are estimated so large trees build fast.
 */
export function makeTree(docId: string, options: MakeTreeOptions = {}): TreeDocument {
  const total = options.nodes ?? 30;
  const branching = options.branching ?? 4;
  const textChars = options.textChars ?? 200;
  const seed = options.seed ?? 1;
  let line = 0;
  const build = (heapIndex: number): NodeDraft => {
    line += 1;
    const text = makeText(seed * 100_003 + heapIndex, textChars);
    const draft: NodeDraft = {
      title: `Section ${heapIndex} (seed ${seed})`,
      text,
      tokenCount: Math.ceil(text.length / 4),
      startLine: line,
      summary: `Summary of section ${heapIndex}`,
    };
    const children: NodeDraft[] = [];
    for (let c = 1; c <= branching; c += 1) {
      const child = heapIndex * branching + c;
      if (child < total) children.push(build(child));
    }
    if (children.length > 0) draft.children = children;
    else draft.endLine = draft.startLine as number;
    return draft;
  };
  const roots = total > 0 ? [build(0)] : [];
  return createTree(
    {
      docId,
      docName: options.docName ?? `${docId}.md`,
      kind: "markdown",
      lineCount: Math.max(line, 1),
      build: { loader: "test", structure: "headings" },
      createdAt: "2025-01-02T03:04:05.000Z",
      ...(options.source !== undefined ? { source: options.source } : {}),
      ...(options.description !== undefined ? { description: options.description } : {}),
      ...(options.contentHash !== undefined ? { contentHash: options.contentHash } : {}),
    },
    roots,
  );
}

/**
 * A small tree about `topics`: one section per topic word (title and text name it), so a catalog
 * search for a topic finds this document.
 */
export function topicTree(
  docId: string,
  topics: readonly string[],
  extra: { metadata?: Record<string, unknown>; description?: string; docName?: string } = {},
): TreeDocument {
  return createTree(
    {
      docId,
      docName: extra.docName ?? `${docId}.md`,
      kind: "markdown",
      lineCount: topics.length + 1,
      build: { loader: "test", structure: "headings" },
      createdAt: "2025-01-02T03:04:05.000Z",
      ...(extra.metadata ? { metadata: extra.metadata } : {}),
      ...(extra.description ? { description: extra.description } : {}),
    },
    topics.map((topic, i) => ({
      title: `About ${topic}`,
      text: `The ${topic} section explains ${topic} in detail.`,
      tokenCount: 8,
      startLine: i + 1,
      endLine: i + 1,
    })),
  );
}
