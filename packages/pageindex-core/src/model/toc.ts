import { oneLine } from "../llm/prompt.js";
import { type NodeGraph, walk } from "./navigate.js";
import type { SkeletonNode } from "./types.js";

/** Options for {@link renderToc}. */
export interface RenderTocOptions {
  /** Prefix each line with the node id in brackets. Default true. */
  ids?: boolean;
  /** Show the page or line range. Default true. */
  ranges?: boolean;
  /** Append the summary (or prefix summary) on the next line. Default false. */
  summaries?: boolean;
  /** Truncate summaries to this many characters. Default 200. */
  summaryChars?: number;
  /** Deepest level shown. Default: all. */
  maxDepth?: number;
  /** Indentation per level. Default two spaces. */
  indent?: string;
}

/** The node's range as "p. 3-5", "p. 7" or "lines 10-20"; empty when it has none. */
export function formatRange(node: SkeletonNode): string {
  if (node.startPage !== undefined) {
    const end = node.endPage ?? node.startPage;
    return end === node.startPage ? `p. ${node.startPage}` : `pp. ${node.startPage}-${end}`;
  }
  if (node.startLine !== undefined) {
    return `lines ${node.startLine}-${node.endLine ?? node.startLine}`;
  }
  return "";
}

/**
 * Renders a tree or skeleton as an indented table of contents, one node a line. Titles and
 * summaries are put on one line, so a title holding a newline cannot add a fake `[id]` entry.
 */
export function renderToc(tree: NodeGraph, options: RenderTocOptions = {}): string {
  const { ids = true, ranges = true, summaries = false, summaryChars = 200, indent = "  " } = options;
  const lines: string[] = [];
  walk(tree, (node, depth) => {
    if (options.maxDepth !== undefined && depth > options.maxDepth) return "skip";
    const pad = indent.repeat(depth - 1);
    const range = ranges ? formatRange(node) : "";
    lines.push(`${pad}${ids ? `[${node.nodeId}] ` : ""}${oneLine(node.title)}${range ? ` (${range})` : ""}`);
    const summary = summaries ? (node.summary ?? node.prefixSummary) : undefined;
    if (summary) {
      const flat = oneLine(summary);
      const cut = flat.length > summaryChars ? `${flat.slice(0, summaryChars - 1)}…` : flat;
      lines.push(`${pad}${indent}${cut}`);
    }
    return undefined;
  });
  return lines.join("\n");
}
