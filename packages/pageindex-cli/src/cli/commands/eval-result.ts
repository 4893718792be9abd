import type { DocumentInfo } from "pageindex-core";
import { type EvaluationResult, renameRetriever } from "pageindex-retriever/eval";
import type { IndexOutcome } from "./index-files.js";

/**
 * Renames the tree retriever when its model failed: a label naming the model must not claim the
 * model judged when the lexical judge did (every judgment, or some of them).
 */
export function relabelFallbacks(result: EvaluationResult, name: string, model: string): EvaluationResult {
  const summary = result.summaries.find((s) => s.name === name);
  if (!summary || summary.fallbacks === 0) return result;
  const label =
    summary.fallbacks >= summary.judgments
      ? `pageindex (lexical fallback: ${model} failed every judgment)`
      : `pageindex (${model}; ${summary.fallbacks}/${summary.judgments} judgments by lexical fallback)`;
  return renameRetriever(result, name, label);
}

/**
 * Adds the time spent building the trees to the tree retriever's index time when every document
 * was indexed in this run; otherwise that time is unknown (trees from an earlier run) and the
 * summary says so with `indexMs: undefined`.
 */
export function withTreeIndexing(
  result: EvaluationResult,
  name: string,
  indexed: readonly IndexOutcome[],
  docs: readonly DocumentInfo[],
): EvaluationResult {
  const built = new Map(
    indexed.filter((o) => o.status === "indexed").map((o) => [o.docId, o.durationMs ?? 0] as const),
  );
  const known = docs.length > 0 && docs.every((d) => built.has(d.docId));
  const treeMs = docs.reduce((sum, d) => sum + (built.get(d.docId) ?? 0), 0);
  const summaries = result.summaries.map((s) => {
    if (s.name !== name) return s;
    return { ...s, indexMs: known ? (s.indexMs ?? 0) + treeMs : undefined };
  });
  return { ...result, summaries };
}
