import {
  type Bm25fCountedField,
  countField,
  type SkeletonNode,
  type TreeSkeleton,
  tokenize,
} from "pageindex-core";

/**
 * Fields of the per-node BM25F document: weight and length normalisation. A title is short and
 * precise (weighs most, barely length-normalised); a node's own text is long and noisy. When the
 * text is indexed the extractive summary mostly repeats its opening, so it weighs less.
 */
const FIELDS = {
  title: { weight: 3, b: 0.3 },
  path: { weight: 0.5, b: 0.3 },
  summary: { weight: 1, b: 0.5 },
  summaryWithText: { weight: 0.5, b: 0.5 },
  text: { weight: 1, b: 0.75 },
} as const;

/** Terms plus their adjacent pairs ("cash flow"), so phrases score above scattered words. */
export function withPhrases(terms: readonly string[]): string[] {
  const out = [...terms];
  for (let i = 1; i < terms.length; i += 1) out.push(`${terms[i - 1]} ${terms[i]}`);
  return out;
}

// A printed table of contents ("Item 7. Management's Discussion ........ 25") names every
// section, so indexing it would make the cover or contents node match any query as well as
// the sections themselves. Entries with dot leaders ending in a page number are left out
// (up to 120 characters before the leaders, so a summary flattened to one line keeps the rest).
const TOC_ENTRY = /[^\n.]{0,120}?(?:\.\s?){4,}\s*[0-9ivxlc]{1,5}\b/gi;

/** The text without printed table-of-contents entries (dot leaders followed by a page number). */
export function withoutTocLines(text: string): string {
  return text.includes("....") || text.includes(". . . .") ? text.replace(TOC_ENTRY, " ") : text;
}

/** Weight and length normalisation of the four per-node fields, in order. */
export function nodeFieldParams(withText: boolean): ReadonlyArray<{ weight: number; b: number }> {
  return [FIELDS.title, FIELDS.path, withText ? FIELDS.summaryWithText : FIELDS.summary, FIELDS.text];
}

/**
 * The counted BM25F fields of every node (skeleton order): title, ancestors' titles, summary and,
 * with `texts`, the node's own text. What {@link NodeTermIndex} is built from and what a saved
 * index keeps (see `lexical/persisted.ts`), so reading it back scores exactly the same.
 */
export function nodeFields(
  skeleton: TreeSkeleton,
  texts?: ReadonlyMap<string, string>,
): Bm25fCountedField[][] {
  const byId = new Map(skeleton.nodes.map((n) => [n.nodeId, n]));
  const pathTerms = (node: SkeletonNode): string[] => {
    const out: string[] = [];
    let parent = node.parentId === null ? undefined : byId.get(node.parentId);
    for (let hops = 0; parent && hops < 32; hops += 1) {
      out.push(...tokenize(parent.title));
      parent = parent.parentId === null ? undefined : byId.get(parent.parentId);
    }
    return out;
  };
  const [title, path, summary, text] = nodeFieldParams(texts !== undefined) as [
    { weight: number; b: number },
    { weight: number; b: number },
    { weight: number; b: number },
    { weight: number; b: number },
  ];
  return skeleton.nodes.map((node) =>
    [
      { terms: withPhrases(tokenize(node.title)), ...title },
      { terms: pathTerms(node), ...path },
      {
        terms: withPhrases(tokenize(withoutTocLines(`${node.summary ?? ""} ${node.prefixSummary ?? ""}`))),
        ...summary,
      },
      { terms: withPhrases(tokenize(withoutTocLines(texts?.get(node.nodeId) ?? ""))), ...text },
    ].map(countField),
  );
}

/** Counted fields of every node, e.g. read back from a saved index. */
export interface CountedNodeFields {
  /** Whether the nodes' own texts were indexed. */
  withText: boolean;
  /** One list of fields per skeleton node, in skeleton order (see {@link nodeFields}). */
  fields: ReadonlyArray<readonly Bm25fCountedField[]>;
}
