import type { SkeletonNode } from "pageindex-core";
import { StoreCorruptionError } from "pageindex-store";
import type { LexicalScores } from "../lexical/node-index.js";
import { withoutBackMatter } from "../search/back-matter.js";
import { entryId, type LevelEntry } from "../search/groups.js";
import type {
  DocumentChoice,
  DocumentChoiceRequest,
  Judge,
  JudgeOutcome,
  JudgeRequest,
  JudgeRun,
  Judgment,
  NodeVerdict,
  OutlineRequest,
  TableOfContentsRequest,
} from "./types.js";

/** Options of {@link LexicalJudge}. */
export interface LexicalJudgeOptions {
  /**
   * Relevance cut-off relative to the best match of the query over the searched documents (0..1).
   * @defaultValue 0.35
   */
  threshold?: number;
}

/**
 * The offline judge: BM25 over each node's title, summary and text (see `lexicalText`) instead
 * of a model. A node is relevant when its branch scores at least `threshold` of the query's best
 * match; back matter the question does not ask for is never picked. It needs no budget and never
 * fails, which makes it the fallback of a model's judge too.
 *
 * @example
 * ```ts
 * const retriever = new PageIndexRetriever({ reader: store, judge: new LexicalJudge({ threshold: 0.5 }) });
 * ```
 */
export class LexicalJudge implements Judge {
  readonly usesModel = false;
  readonly threshold: number;

  constructor(options: LexicalJudgeOptions = {}) {
    this.threshold = options.threshold ?? 0.35;
  }

  async judgeSiblings(request: JudgeRequest, run: JudgeRun): Promise<JudgeOutcome> {
    const scores = await run.lexical(request.skeleton);
    const normaliser = await run.lexicalNormaliser(request.skeleton.docId);
    run.count("lexicalJudgments");
    const judgment = lexicalJudgment(scores, normaliser, request.candidates, this.threshold, "lexical");
    const byId = new Map(request.candidates.map((c) => [c.nodeId, c]));
    judgment.verdicts = withoutBackMatter(run.query, judgment.verdicts, (id) => byId.get(id));
    return { judgment, roundTrips: 0 };
  }

  async judgeOutline(request: OutlineRequest | TableOfContentsRequest, run: JudgeRun): Promise<JudgeOutcome> {
    if (request.kind === "table-of-contents") {
      const docIds = request.documents.map((d) => d.skeleton.docId);
      return {
        judgment: { verdicts: await lexicalTop(run, docIds, request.k), judge: "lexical" },
        roundTrips: 0,
      };
    }
    const scores = await run.lexical(request.view.skeleton);
    run.count("lexicalJudgments");
    const judgment = lexicalEntryJudgment(
      scores,
      await run.lexicalNormaliser(request.view.skeleton.docId),
      request.entries,
      this.threshold,
      "lexical",
    );
    judgment.verdicts = withoutBackMatter(run.query, judgment.verdicts, (id) => request.shown.get(id));
    return { judgment, roundTrips: 0 };
  }

  async chooseDocuments(request: DocumentChoiceRequest, run: JudgeRun): Promise<DocumentChoice> {
    return { docIds: await lexicalDocumentChoice(request, run), judge: "lexical", roundTrips: 0 };
  }
}

/**
 * The best nodes of some documents by lexical score alone (a flat ranking, no navigation), as
 * verdicts naming their documents, best first: at most `2 × k`.
 */
export async function lexicalTop(
  run: JudgeRun,
  docIds: readonly string[],
  k: number,
): Promise<NodeVerdict[]> {
  const normaliser = (await run.lexicalNormaliser()) || 1;
  const scored: Array<{ docId: string; node: SkeletonNode; score: number; terms: string[] }> = [];
  for (const docId of docIds) {
    const skeleton = await run.skeleton(docId);
    const scores = await run.lexical(skeleton);
    for (const node of skeleton.nodes) {
      const own = scores.own.get(node.nodeId) ?? 0;
      if (own > 0)
        scored.push({
          docId,
          node,
          score: Math.min(1, own / normaliser),
          terms: scores.matched(node.nodeId),
        });
    }
  }
  scored.sort((a, b) => b.score - a.score);
  return scored.slice(0, Math.max(k * 2, k)).map(({ docId, node, score, terms }) => ({
    nodeId: node.nodeId,
    docId,
    relevant: true,
    score,
    reason: `lexical match on ${terms.slice(0, 6).join(", ") || "query terms"}`,
  }));
}

/**
 * Documents chosen without a model: in the order given when `ranked` (the catalog ranked them),
 * otherwise by their best lexical node match (all of them when nothing matches); at most `max`.
 * A document that cannot be read is skipped with a warning.
 */
export async function lexicalDocumentChoice(
  request: DocumentChoiceRequest,
  run: JudgeRun,
): Promise<string[]> {
  if (request.ranked) return request.documents.slice(0, request.max).map((d) => d.docId);
  const scored: Array<{ docId: string; best: number }> = [];
  for (const doc of request.documents) {
    try {
      const scores = await run.lexical(await run.skeleton(doc.docId));
      scored.push({ docId: doc.docId, best: scores.best });
    } catch (error) {
      if (!(error instanceof StoreCorruptionError)) throw error;
      run.warn(`skipped document "${doc.docId}": it cannot be read (${error.message})`);
    }
  }
  const matching = scored.filter((s) => s.best > 0).sort((a, b) => b.best - a.best);
  return (matching.length > 0 ? matching : scored).slice(0, request.max).map((s) => s.docId);
}

/**
 * Judges sibling candidates with BM25 scores instead of a model. A candidate is relevant when
 * its branch (itself or a descendant) scores at least `threshold` of the best node across the
 * searched documents; an internal node answers "by itself" when its own fields score at least
 * as well as anything below it.
 */
export function lexicalJudgment(
  scores: LexicalScores,
  normaliser: number,
  candidates: readonly SkeletonNode[],
  threshold: number,
  judge: "lexical" | "lexical-fallback",
): Judgment {
  const scale = normaliser > 0 ? normaliser : 1;
  const verdicts = candidates.map((node): NodeVerdict => {
    const branch = scores.subtree.get(node.nodeId) ?? 0;
    const own = scores.own.get(node.nodeId) ?? 0;
    const score = Math.min(1, branch / scale);
    const relevant = branch > 0 && score >= threshold;
    const verdict: NodeVerdict = { nodeId: node.nodeId, relevant, score, reason: "no query terms" };
    if (branch > 0) {
      const bestId = scores.bestIn.get(node.nodeId) ?? node.nodeId;
      const terms = scores.matched(bestId).slice(0, 6).join(", ");
      verdict.reason =
        bestId === node.nodeId
          ? `lexical match on ${terms || "query terms"}`
          : `lexical match deeper in this section on ${terms || "query terms"}`;
    }
    if (node.childIds.length > 0 && own > 0 && own / scale >= threshold && own >= branch) verdict.self = true;
    return verdict;
  });
  return { verdicts, judge };
}

/**
 * {@link lexicalJudgment} over the entries of a grouped level: a group scores as its best
 * section's branch; verdicts carry the entries' prompt ids.
 */
export function lexicalEntryJudgment(
  scores: LexicalScores,
  normaliser: number,
  entries: readonly LevelEntry[],
  threshold: number,
  judge: "lexical" | "lexical-fallback",
): Judgment {
  const nodes = entries.filter((e) => e.kind === "node").map((e) => e.node);
  const byNode = new Map(
    lexicalJudgment(scores, normaliser, nodes, threshold, judge).verdicts.map((v) => [v.nodeId, v]),
  );
  const scale = normaliser > 0 ? normaliser : 1;
  const verdicts = entries.map((entry): NodeVerdict => {
    if (entry.kind === "node") return byNode.get(entry.node.nodeId) as NodeVerdict;
    let best: SkeletonNode | undefined;
    let branch = 0;
    for (const node of entry.group.nodes) {
      const s = scores.subtree.get(node.nodeId) ?? 0;
      if (s > branch) [best, branch] = [node, s];
    }
    const score = Math.min(1, branch / scale);
    const terms = best ? scores.matched(scores.bestIn.get(best.nodeId) ?? best.nodeId).slice(0, 6) : [];
    return {
      nodeId: entryId(entry),
      relevant: branch > 0 && score >= threshold,
      score,
      reason:
        branch > 0 ? `lexical match in this group on ${terms.join(", ") || "query terms"}` : "no query terms",
    };
  });
  return { verdicts, judge };
}
