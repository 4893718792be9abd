import type { NodeDraft } from "pageindex-core";
import { countDocumentTokens } from "../common/token-count.js";
import { linesText, type ParsedMarkdown } from "./parse.js";

/** Title of the node holding the text before the first heading. */
export const PREFACE_TITLE = "Preface";

/** One section while the tree is being shaped (line numbers 1-based, inclusive). */
export interface MarkdownSection {
  title: string;
  /** `#` count, absent for the preface and for a document without headings. */
  headingLevel?: number;
  startLine: number;
  /** End of the section's own text (before its first child). */
  ownEndLine: number;
  /** End of the whole subtree. */
  endLine: number;
  text: string;
  tokenCount: number;
  children: MarkdownSection[];
}

function section(title: string, startLine: number, endLine: number, headingLevel?: number): MarkdownSection {
  const s: MarkdownSection = {
    title,
    startLine,
    ownEndLine: endLine,
    endLine,
    text: "",
    tokenCount: 0,
    children: [],
  };
  if (headingLevel !== undefined) s.headingLevel = headingLevel;
  return s;
}

/** First non-blank line in `from`..`to`, or undefined. */
function firstNonBlankLine(parsed: ParsedMarkdown, from: number, to: number): number | undefined {
  for (let line = from; line <= to; line++) {
    if (linesText(parsed, line, line).trim() !== "") return line;
  }
  return undefined;
}

function fillText(parsed: ParsedMarkdown, s: MarkdownSection): void {
  // Trailing blank lines belong to the range (a section runs to the next heading) but not the text.
  s.text = linesText(parsed, s.startLine, s.ownEndLine).trimEnd();
  s.tokenCount = countDocumentTokens(s.text);
  for (const child of s.children) fillText(parsed, child);
}

/**
 * Shapes a parsed document into sections: each heading's section runs to the next heading of
 * any level; a heading nests under the nearest preceding heading of a smaller level (so a skip
 * from h1 to h4 attaches to the h1); text before the first heading becomes a preface when it
 * holds content (not only blank lines, HTML comments, thematic breaks or link reference
 * definitions: those lines stay counted in `lineCount` but belong to no node). A document
 * without headings is one section titled `fallbackTitle`; when it has no content either (only
 * front matter, say) that section covers the whole file with empty text, as front matter is
 * metadata, not text.
 */
export function buildSections(parsed: ParsedMarkdown, fallbackTitle: string): MarkdownSection[] {
  const { headings, lineCount } = parsed;
  const bodyStart = (parsed.frontMatter?.endLine ?? 0) + 1;
  const roots: MarkdownSection[] = [];

  if (headings.length === 0) {
    if (parsed.firstContentLine === undefined) return [section(fallbackTitle, 1, Math.max(lineCount, 1))];
    const start = firstNonBlankLine(parsed, bodyStart, lineCount) ?? parsed.firstContentLine;
    const only = section(fallbackTitle, start, lineCount);
    fillText(parsed, only);
    return [only];
  }

  const firstHeading = (headings[0] as { line: number }).line;
  if (parsed.firstContentLine !== undefined && parsed.firstContentLine < firstHeading) {
    const prefaceStart = firstNonBlankLine(parsed, bodyStart, firstHeading - 1) ?? parsed.firstContentLine;
    roots.push(section(PREFACE_TITLE, prefaceStart, firstHeading - 1));
  }

  const stack: MarkdownSection[] = [];
  headings.forEach((h, i) => {
    const next = headings[i + 1];
    const end = next ? next.line - 1 : Math.max(lineCount, h.lastLine);
    const s = section(h.title, h.line, end, h.level);
    while (stack.length > 0 && (stack[stack.length - 1]?.headingLevel ?? 0) >= h.level) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) {
      if (parent.children.length === 0) parent.ownEndLine = h.line - 1;
      parent.children.push(s);
      // Union semantics: every open ancestor's range grows to cover this section.
      for (const open of stack) open.endLine = end;
    } else roots.push(s);
    stack.push(s);
  });
  for (const root of roots) fillText(parsed, root);
  return roots;
}

function subtreeTokens(s: MarkdownSection): number {
  let total = s.tokenCount;
  for (const child of s.children) total += subtreeTokens(child);
  return total;
}

/**
 * Thinning, as PageIndex does it: bottom-up, a section whose whole subtree has fewer than
 * `minTokens` tokens absorbs its descendants (its text becomes the subtree's text and it
 * becomes a leaf). Merging into the subtree's own root keeps every node's text one
 * contiguous line range. Returns how many sections were merged away.
 */
export function thinSections(parsed: ParsedMarkdown, roots: MarkdownSection[], minTokens: number): number {
  let merged = 0;
  const count = (s: MarkdownSection): number => 1 + s.children.reduce((n, c) => n + count(c), 0);
  const visit = (s: MarkdownSection): void => {
    for (const child of s.children) visit(child);
    if (s.children.length === 0 || subtreeTokens(s) >= minTokens) return;
    merged += count(s) - 1;
    s.children = [];
    s.ownEndLine = s.endLine;
    s.text = linesText(parsed, s.startLine, s.endLine).trimEnd();
    s.tokenCount = countDocumentTokens(s.text);
  };
  for (const root of roots) visit(root);
  return merged;
}

/** Converts sections to the drafts `createTree` takes (token counts already known). */
export function toDrafts(sections: MarkdownSection[]): NodeDraft[] {
  return sections.map((s) => {
    const draft: NodeDraft = {
      title: s.title,
      text: s.text,
      tokenCount: s.tokenCount,
      startLine: s.startLine,
      endLine: s.endLine,
      ownEndLine: s.ownEndLine,
      children: toDrafts(s.children),
    };
    if (s.headingLevel !== undefined) draft.headingLevel = s.headingLevel;
    return draft;
  });
}
