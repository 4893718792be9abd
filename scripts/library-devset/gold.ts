/** Scoring against the library dev set's gold: the rules eval-library.ts uses, shared by the scripts. */
import type { DocumentInterface } from "@langchain/core/documents";
import { documentHoldsEvidence } from "../../packages/pageindex-retriever/src/eval/metrics.js";
import type { LibraryQuestion } from "./library.js";

/** Gold numbers as the oracle judge reads them: pages, or every line of the range. */
export function goldNumbers(q: LibraryQuestion): number[] {
  if ("pages" in q.gold) return q.gold.pages;
  const [from, to] = q.gold.lines;
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

/** Whether a returned section holds the gold: metrics.ts's rule for pages, the same rule on lines. */
export function holdsGold(doc: DocumentInterface, q: LibraryQuestion): boolean {
  const gold = q.gold;
  if ("pages" in gold) return gold.pages.some((page) => documentHoldsEvidence(doc, { doc: q.docId, page }));
  const m = doc.metadata as Record<string, unknown>;
  if (m.docId !== q.docId || typeof m.startLine !== "number") return false;
  const own = m.includesDescendants !== true ? m.ownEndLine : undefined;
  const end = typeof own === "number" ? own : typeof m.endLine === "number" ? m.endLine : m.startLine;
  return m.startLine <= gold.lines[1] && end >= gold.lines[0];
}
