import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import {
  ModelCallError,
  type SkeletonNode,
  type TreeReader,
  type TreeSkeleton,
  UsageTracker,
} from "pageindex-core";
import type { ExpertKnowledge } from "../judge/prompts.js";
import type {
  Judge,
  JudgeRequest,
  JudgeRun,
  Judgment,
  ModelCallOptions,
  NodeVerdict,
  OutlineRequest,
} from "../judge/types.js";
import { documentPriors } from "../lexical/doc-names.js";
import type { LexicalNeed } from "../lexical/index-cache.js";
import type { LexicalScores, NodeTermIndex } from "../lexical/node-index.js";
import type { BudgetStop, Candidate, RetrievalStats, SearchStrategy, VisitedNode } from "../types.js";
import { isUnaskedBackMatter } from "./back-matter.js";
import { introOwner } from "./intro.js";

/**
 * Runs `use` on a document's lexical index (`LexicalIndexes.read`: a saved index found damaged
 * while used is rebuilt and `use` runs again), telling how many texts were read to build it and
 * which sections' texts could not be read.
 */
export type LexicalIndexRead = <T>(
  skeleton: TreeSkeleton,
  need: LexicalNeed,
  use: (index: NodeTermIndex) => T | Promise<T>,
  onTextsRead: (nodes: number) => void,
  onUnreadable: (message: string) => void,
) => Promise<T>;
/** Settings a search reads (resolved retriever options). */
export interface SearchSettings {
  strategy: SearchStrategy;
  k: number;
  maxSteps: number;
  concurrency: number;
  minScore: number;
  beamWidth: number;
  internalNodes: boolean;
  collapseBelowTokens: number;
  /** Picks scored at most this are opened only while nothing stronger remains (with a model). */
  weakBranchScore: number;
  keepDeadEnds: boolean;
  deadEndMaxTokens: number;
  maxPromptTokens: number;
  /** Most entries listed under one parent in a prompt; wider levels are offered as groups. */
  fanOut: number;
  /** Tokens of an outline prompt that looks ahead when the whole tree does not fit (`auto`). */
  lookaheadTokens: number;
  /** Prompt tokens one query may spend (estimated before each call). */
  maxQueryTokens: number;
  /** Model requests one query may make (retries included). */
  maxCalls: number;
  onPromptTooLarge: "expand" | "error";
  expertKnowledge: ExpertKnowledge;
  lexicalThreshold: number;
  retries: number;
  timeoutMs: number;
  backoffMs: number;
  cacheNamespace: string;
}

/**
 * The ledger of one query: the skeletons read, the budget spent, the counters that end up in
 * {@link RetrievalStats}, the warnings and the nodes visited. It judges nothing itself: the
 * search asks its {@link Judge}, which spends the budget through it ({@link JudgeRun}).
 */
export class SearchLedger implements JudgeRun {
  readonly query: string;
  readonly reader: TreeReader;
  /** Who judges this query's questions (see {@link Judge}). */
  readonly judge: Judge;
  readonly settings: SearchSettings;
  readonly usage = new UsageTracker();
  readonly warnings: string[] = [];
  readonly visited: VisitedNode[] = [];
  readonly runManager: CallbackManagerForRetrieverRun | undefined;
  readonly skeletons = new Map<string, TreeSkeleton>();
  /** Documents searched, in order. */
  docIds: string[] = [];
  readonly counters = {
    steps: 0,
    roundTrips: 0,
    fallbacks: 0,
    cacheHits: 0,
    lexicalJudgments: 0,
    nodesJudged: 0,
    textsFetched: 0,
    indexTextsRead: 0,
    /** Skeletons read from the reader (not from this query's memo). */
    skeletonsRead: 0,
    /** Documents ranked to choose the ones searched (catalog candidates). */
    documentsConsidered: 0,
    budgetExhausted: false,
    /** Which budget stopped the search first. */
    budgetStop: undefined as BudgetStop | undefined,
    /** Prompt tokens reserved by calls made or in flight (our estimate, checked before each call). */
    promptTokensReserved: 0,
    /** Model answers received (cached ones included): the model works. */
    modelAnswers: 0,
    /** Model requests refused for a reason retrying cannot fix (see `ModelCallError`). */
    refusals: 0,
  };
  /** The first refused request, thrown by {@link SearchLedger.assertModelUsable}. */
  private refusal: ModelCallError | undefined;
  private readonly lexicalIndex: LexicalIndexRead;
  private readonly lexicalMemo = new Map<string, Promise<LexicalScores>>();
  private normaliser: Promise<number> | undefined;
  /**
   * Whether each document's lexical scores are scaled to its own best (see
   * {@link SearchLedger.separateDocuments}) rather than to the best over the searched documents.
   */
  private perDocument = false;
  private priors: Promise<Map<string, number>> | undefined;
  private rankPriors: ReadonlyMap<string, number> = new Map();
  private order = 0;
  private readonly signal: AbortSignal | undefined;

  constructor(init: {
    query: string;
    reader: TreeReader;
    judge: Judge;
    settings: SearchSettings;
    lexicalIndex: LexicalIndexRead;
    runManager?: CallbackManagerForRetrieverRun;
    /** The caller's cancellation (`invoke(query, { signal })`), passed to every model call. */
    signal?: AbortSignal;
  }) {
    this.signal = init.signal;
    this.query = init.query;
    this.reader = init.reader;
    this.judge = init.judge;
    this.settings = init.settings;
    this.lexicalIndex = init.lexicalIndex;
    this.runManager = init.runManager;
  }

  /** Next discovery number (stable tie-break for ranking). */
  nextOrder(): number {
    this.order += 1;
    return this.order;
  }

  /** The skeleton of a document, read once per query. */
  async skeleton(docId: string): Promise<TreeSkeleton> {
    let skeleton = this.skeletons.get(docId);
    if (!skeleton) {
      skeleton = await this.reader.getSkeleton(docId);
      this.counters.skeletonsRead += 1;
      this.skeletons.set(docId, skeleton);
    }
    return skeleton;
  }

  /**
   * Whether another model judgment (of a prompt of about `promptTokens`) fits the query's
   * budgets: `maxSteps` judgments, `maxCalls` requests, `maxQueryTokens` prompt tokens. Marks
   * the budget exhausted, and which one, if not.
   */
  takeStep(promptTokens = 0): boolean {
    const c = this.counters;
    const stop: BudgetStop | undefined =
      c.steps >= this.settings.maxSteps
        ? "steps"
        : this.usage.toJSON().calls >= this.settings.maxCalls
          ? "calls"
          : c.promptTokensReserved + promptTokens > this.settings.maxQueryTokens
            ? "promptTokens"
            : undefined;
    if (stop) {
      c.budgetExhausted = true;
      c.budgetStop ??= stop;
      return false;
    }
    c.steps += 1;
    c.promptTokensReserved += promptTokens;
    return true;
  }

  /**
   * Records a chain of dependent model calls of this length (retries included): the longest
   * one is the query's `roundTrips`.
   */
  noteChain(length: number): void {
    if (length > this.counters.roundTrips) this.counters.roundTrips = length;
  }

  /**
   * Throws when the model was asked and refused every time for a reason retrying cannot fix (a
   * wrong key, an unknown model, a bad request): answering lexically would hide a
   * misconfiguration. One usable answer is enough to go on (the rest fell back lexically).
   * @throws {ModelCallError}
   */
  assertModelUsable(): void {
    if (!this.refusal || this.counters.modelAnswers > 0) return;
    throw new ModelCallError(
      `every model call of this query was refused (${this.counters.refusals}), so it was not answered lexically: ${this.refusal.message}`,
      this.refusal.cause ?? this.refusal,
    );
  }

  /** Callbacks for an inner call, so traces nest under the retriever run. */
  callbacks(tag: string) {
    return this.runManager?.getChild(tag);
  }

  /** Options shared by every structured model call. */
  callOptions(step: string): ModelCallOptions {
    return {
      step,
      usage: this.usage,
      callbacks: this.callbacks(step),
      retries: this.settings.retries,
      timeoutMs: this.settings.timeoutMs,
      backoffMs: this.settings.backoffMs,
      ...(this.signal ? { signal: this.signal } : {}),
    };
  }

  /**
   * How likely each searched document is the one the query asks about (1, or less for the
   * documents it does not name when it names some), from the documents' names and descriptions.
   */
  documentPriors(): Promise<Map<string, number>> {
    this.priors ??= Promise.all(this.docIds.map((id) => this.skeleton(id))).then((docs) => {
      const priors = documentPriors(this.query, docs);
      for (const [docId, rank] of this.rankPriors) priors.set(docId, (priors.get(docId) ?? 1) * rank);
      return priors;
    });
    return this.priors;
  }

  /**
   * How the chosen documents ranked (1 for the best, less for the others): multiplies their
   * section scores, so a weaker document's sections do not crowd out the best one's. Set before
   * the search starts; clears the priors computed for the candidates.
   */
  rankDocuments(priors: ReadonlyMap<string, number>): void {
    this.rankPriors = priors;
    this.priors = undefined;
    this.normaliser = undefined;
    for (const key of [...this.lexicalMemo.keys()]) this.lexicalMemo.delete(key);
  }

  /**
   * Lexical scores of every node of a document for this query (weighted by its document prior).
   * `rank` (ordering inside a branch a model chose) never reads node texts; `judge` may, once
   * per document version (see `LexicalIndexes`).
   */
  lexical(skeleton: TreeSkeleton, need: LexicalNeed = "judge"): Promise<LexicalScores> {
    const judged = this.lexicalMemo.get(`judge:${skeleton.docId}`);
    if (judged) return judged;
    const key = `${need}:${skeleton.docId}`;
    let scores = this.lexicalMemo.get(key);
    if (!scores) {
      const priors = this.documentPriors(); // computed while the index is read
      // Awaited only once the index is read: a failed read must not leave its failure unhandled.
      priors.catch(() => undefined);
      scores = this.readIndex(skeleton, need, async (index) =>
        index.score(this.query, (await priors).get(skeleton.docId) ?? 1),
      );
      this.lexicalMemo.set(key, scores);
    }
    return scores;
  }

  /** {@link LexicalIndexRead} with this query's counters and warnings. */
  private readIndex<T>(
    skeleton: TreeSkeleton,
    need: LexicalNeed,
    use: (index: NodeTermIndex) => T | Promise<T>,
  ): Promise<T> {
    return this.lexicalIndex(
      skeleton,
      need,
      use,
      (nodes) => {
        this.counters.indexTextsRead += nodes;
      },
      (message) => this.warn(message),
    );
  }

  /**
   * The share of a document's nodes holding each term (see `NodeTermIndex.nodeShares`), from
   * the index its search reads (`judge`: no second read of node texts).
   */
  async nodeShares(skeleton: TreeSkeleton, terms: readonly string[]): Promise<number[]> {
    return this.readIndex(skeleton, "judge", (index) => index.nodeShares(terms));
  }

  /**
   * Searches each document as if it were named alone (its lexical scores scaled to its own best),
   * for a plan that ranks the documents' results against each other afterwards: with one scale
   * for all, a second document's answer falls below the relevance line of the first's words.
   */
  separateDocuments(): void {
    this.perDocument = true;
  }

  /**
   * Best lexical score over the searched documents (or over `docId` alone, when the documents are
   * searched separately): scores are divided by it to land in [0, 1].
   */
  lexicalNormaliser(docId?: string): Promise<number> {
    if (this.perDocument && docId !== undefined) {
      return this.skeleton(docId).then(async (skeleton) => Math.max(0, (await this.lexical(skeleton)).best));
    }
    this.normaliser ??= Promise.all(
      this.docIds.map(async (id) => (await this.lexical(await this.skeleton(id))).best),
    ).then((bests) => Math.max(0, ...bests));
    return this.normaliser;
  }

  /** Records a judgment of sibling candidates in `visited` (an introduction is its section, not a node of its own). */
  record(request: JudgeRequest, judgment: Judgment): Judgment {
    const byId = new Map(request.candidates.filter((c) => !introOwner(c.nodeId)).map((c) => [c.nodeId, c]));
    for (const v of judgment.verdicts) {
      const node = byId.get(v.nodeId);
      if (!node) continue;
      this.visited.push({
        docId: request.skeleton.docId,
        nodeId: v.nodeId,
        title: node.title,
        relevant: v.relevant,
        score: v.score,
        judge: judgment.judge,
      });
    }
    return judgment;
  }

  /** Records an outline judgment's verdicts on the sections shown in `visited`. */
  recordOutline(request: OutlineRequest, judgment: Judgment): void {
    this.counters.nodesJudged += request.shown.size;
    for (const v of judgment.verdicts) {
      const node = request.shown.get(v.nodeId);
      if (!node) continue;
      this.visited.push({
        docId: request.view.skeleton.docId,
        nodeId: node.nodeId,
        title: node.title,
        relevant: v.relevant,
        score: v.score,
        judge: judgment.judge,
      });
    }
  }

  /** Notes a model answer (usable or not): the model is reachable. */
  noteModelAnswer(): void {
    this.counters.modelAnswers += 1;
  }

  /** Notes a request the model refused for a reason retrying cannot fix. */
  noteRefusal(error: Error): void {
    this.counters.refusals += 1;
    this.refusal ??= error instanceof ModelCallError ? error : new ModelCallError(error.message, error);
  }

  count(counter: "cacheHits" | "fallbacks" | "lexicalJudgments", by = 1): void {
    this.counters[counter] += by;
  }

  warn(message: string): void {
    if (this.warnings.includes(message)) return; // one document's problem, met by several steps
    this.warnings.push(message);
  }

  /** A candidate for the result. */
  candidate(
    docId: string,
    node: SkeletonNode,
    verdict: Pick<NodeVerdict, "score" | "reason">,
    judge: Candidate["judge"],
    trail: Candidate["trail"],
    extra: Pick<Candidate, "whole" | "budgetStopped" | "deadEnd"> = {},
  ): Candidate {
    return {
      docId,
      node,
      score: verdict.score,
      reason: verdict.reason,
      judge,
      trail,
      order: this.nextOrder(),
      ...extra,
      ...(isUnaskedBackMatter(this.query, node) ? { backMatter: true } : {}),
    };
  }

  /** The counters as {@link RetrievalStats}. */
  stats(durationMs: number): RetrievalStats {
    const usage = this.usage.toJSON();
    return {
      calls: usage.calls,
      steps: this.counters.steps,
      roundTrips: this.counters.roundTrips,
      promptTokens: usage.promptTokens,
      completionTokens: usage.completionTokens,
      fallbacks: this.counters.fallbacks,
      cacheHits: this.counters.cacheHits,
      lexicalJudgments: this.counters.lexicalJudgments,
      nodesJudged: this.counters.nodesJudged,
      textsFetched: this.counters.textsFetched,
      indexTextsRead: this.counters.indexTextsRead,
      skeletonsRead: this.counters.skeletonsRead,
      documentsConsidered: this.counters.documentsConsidered,
      budgetExhausted: this.counters.budgetExhausted,
      ...(this.counters.budgetStop ? { budgetStop: this.counters.budgetStop } : {}),
      durationMs,
      usage,
    };
  }
}
