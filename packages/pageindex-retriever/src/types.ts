import type { LlmUsage, NodeDocumentMetadata, SkeletonNode } from "pageindex-core";
import type { JudgeKind } from "./judge/types.js";

/**
 * How the tree is searched. `auto` (the default with a model): the whole table of contents in one
 * prompt where it fits `maxPromptTokens`, otherwise bounded expansion whose prompts look ahead as
 * deep as `lookaheadTokens` allows. Without a model `auto` is `expand` (the lexical judge has no
 * prompt to bound).
 */
export type SearchStrategy = "auto" | "expand" | "beam" | "single-shot";

/** The budget that stopped a search: `maxSteps`, `maxCalls` or `maxQueryTokens`. */
export type BudgetStop = "steps" | "calls" | "promptTokens";

/** One judged step on the way to a returned node: why the search went there. */
export interface TrailStep {
  nodeId: string;
  title: string;
  score: number;
  reason: string;
  judge: JudgeKind;
}

/** What one query cost. Counts, not clock time (apart from `durationMs`). */
export interface RetrievalStats {
  /**
   * Model requests made: every call, including retries after a rate limit, a timeout or an
   * unusable answer, and calls that failed.
   */
  calls: number;
  /** Judgments asked of the model (what `maxSteps` caps; retries not counted). */
  steps: number;
  /**
   * Sequential round trips: the number of model calls on the longest chain of calls that each
   * had to wait for the previous one (a parent's judgment before its children's, a retry after
   * the failed attempt). It is the critical-path length of the query in model calls, i.e. its
   * latency in round trips given enough concurrency; with `concurrency` below the number of
   * independent calls ready at once, calls also queue and wall-clock waves can exceed it. Top-down
   * search cannot go below the depth reached (plus a dead end's second look, plus retries).
   */
  roundTrips: number;
  promptTokens: number;
  completionTokens: number;
  /** Judgments whose model answer could not be used (judged lexically instead). */
  fallbacks: number;
  /** Judgments answered from the cache. */
  cacheHits: number;
  /** Judgments made by the lexical judge (no model, or fallbacks). */
  lexicalJudgments: number;
  /** Nodes offered to a judge. */
  nodesJudged: number;
  /** Nodes whose text was read to build the result. */
  textsFetched: number;
  /**
   * Node texts this query read to build a lexical index (a document's first offline query, or a
   * model judgment falling back to BM25); 0 once the index is in memory or saved in the store.
   */
  indexTextsRead: number;
  /** Document skeletons read from the reader (choosing documents and searching them). */
  skeletonsRead: number;
  /**
   * Documents ranked to choose the ones searched: the catalog's candidates (at most
   * `documentCandidates`), or every document of a reader without a catalog.
   */
  documentsConsidered: number;
  /**
   * Whether a budget (`maxSteps`, `maxCalls`, `maxQueryTokens`) stopped the search before it was
   * complete; the result is then the best found so far.
   */
  budgetExhausted: boolean;
  /** Which budget ran out first, when one did. */
  budgetStop?: BudgetStop;
  durationMs: number;
  /** Per-step model usage ("judge", "single-shot", "choose-documents"). */
  usage: LlmUsage;
}

/** A candidate document and why it ranked where it did. */
export interface RankedDocument {
  docId: string;
  /** Combined score used to rank (catalog and sections). */
  score: number;
  /** BM25F score of the document's catalog card (0 when it was listed, not matched). */
  catalogScore: number;
  /** DocScore over its sections' lexical scores (see `documentScore`). */
  sectionScore: number;
  /** Section titles that matched (the catalog's evidence). */
  evidence: string[];
}

/** One node the search looked at (offered to a judge), with the verdict. */
export interface VisitedNode {
  docId: string;
  nodeId: string;
  title: string;
  relevant: boolean;
  score: number;
  judge: JudgeKind;
}

/** The record of one query: what was searched, what it cost, what went wrong. */
export interface RetrievalRun {
  query: string;
  strategy: SearchStrategy;
  /** Documents searched. */
  docIds: string[];
  /** How the candidate documents ranked (best first), when the retriever chose among them. */
  documentRanking?: RankedDocument[];
  stats: RetrievalStats;
  /** Non-fatal problems (failed judgments, unknown ids from the model or first stage…). */
  warnings: string[];
  visited: VisitedNode[];
}

/** Metadata of a Document the retriever returns: the node's metadata plus why it was chosen. */
export interface PageIndexDocumentMetadata extends NodeDocumentMetadata {
  /** Relevance in [0, 1] as judged. */
  score: number;
  /** The judge's reason. */
  reason: string;
  /** Who judged this node. */
  judge: JudgeKind;
  /** Judged nodes from the root down to this node. */
  trail: TrailStep[];
  /** Node ids of `trail`, root first (the visited path). */
  visited: string[];
  strategy: SearchStrategy;
  /** Rank in the result, 1-based. */
  rank: number;
  /** The content holds the whole subtree (small subtree returned as one section). */
  includesDescendants?: boolean;
  /** An internal node returned because the step budget ran out before its children were judged. */
  budgetStopped?: boolean;
  /**
   * An internal node judged relevant whose subsections were all judged not relevant: returned
   * whole (see `keepDeadEnds`), ranked after sections found directly.
   */
  deadEnd?: boolean;
  /** The content was cut to fit `maxContentTokens`. */
  truncated?: boolean;
}

/** A node selected by a search strategy, before its text is fetched. */
export interface Candidate {
  docId: string;
  node: SkeletonNode;
  score: number;
  reason: string;
  judge: JudgeKind;
  trail: TrailStep[];
  /** Return the whole subtree's text. */
  whole?: boolean;
  budgetStopped?: boolean;
  /** Relevant section whose children were all judged not relevant. */
  deadEnd?: boolean;
  /** Back matter (index, contents…) the question did not ask for: ranked after all content. */
  backMatter?: boolean;
  /** Discovery order, a stable tie-break. */
  order: number;
}
