import { buildCard } from "../catalog/card.js";
import { detectBackMatter } from "../model/back-matter.js";
import type { TreeDocument, TreeNode } from "../model/types.js";
import type { LibraryEntry, LibrarySection } from "./types.js";

/** Size limits of what the library index holds per section. */
export const LIBRARY_LIMITS = {
  /**
   * Characters of a section's own text that are indexed. BM25 normalises by length, so the
   * head of a very long section (a flat document's single node) says what it is about; the
   * rest would only grow the index.
   */
  textChars: 16_000,
  /** Characters of a title or an ancestor title. */
  titleChars: 300,
  /** Characters of a section's summary. */
  summaryChars: 2_000,
} as const;

function cut(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) : text;
}

/** The section of one node: own text and summary, with its ancestors' titles as context. */
function librarySection(node: TreeNode, ancestors: string[]): LibrarySection {
  const section: LibrarySection = {
    nodeId: node.nodeId,
    title: cut(node.title, LIBRARY_LIMITS.titleChars),
    ancestors,
    level: node.level,
    summary: cut(node.summary ?? node.prefixSummary ?? "", LIBRARY_LIMITS.summaryChars),
    text: cut(node.text, LIBRARY_LIMITS.textChars),
    backMatter: detectBackMatter(node) !== undefined,
  };
  if (node.startPage !== undefined) section.startPage = node.startPage;
  if (node.endPage !== undefined) section.endPage = node.endPage;
  if (node.startLine !== undefined) section.startLine = node.startLine;
  if (node.endLine !== undefined) section.endLine = node.endLine;
  return section;
}

/**
 * What the library index holds for one published version of a tree: its card (the catalog's
 * card builder) and one entry per node, with the titles of its ancestors.
 *
 * @example
 * ```ts
 * await library.putDocument(libraryEntry(tree, versionId));
 * ```
 */
export function libraryEntry(tree: TreeDocument, versionId: string): LibraryEntry {
  const byId = new Map(tree.nodes.map((node) => [node.nodeId, node]));
  const paths = new Map<string, string[]>();
  // Validated trees list parents first; the walk up keeps any order right all the same.
  const pathOf = (node: TreeNode): string[] => {
    const known = paths.get(node.nodeId);
    if (known) return known;
    const parent = node.parentId === null ? undefined : byId.get(node.parentId);
    const path = parent ? [...pathOf(parent), cut(parent.title, LIBRARY_LIMITS.titleChars)] : [];
    paths.set(node.nodeId, path);
    return path;
  };
  const sections = tree.nodes.map((node) => librarySection(node, pathOf(node)));
  return { card: buildCard(tree, versionId), sections };
}
