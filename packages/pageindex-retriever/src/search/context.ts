import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseMessage } from "@langchain/core/messages";
import {
  countTokens,
  invokeStructured,
  isContextOverflow,
  ModelCallError,
  type SkeletonNode,
  type TreeReader,
  type TreeSkeleton,
  UsageTracker,
} from "pageindex-core";
import { type JudgmentCache, judgmentKey, normaliseQuery } from "../judge/cache.js";
import { lexicalEntryJudgment, lexicalJudgment } from "../judge/lexical-judge.js";
import {
  type ExpertKnowledge,
  judgeChildrenPrompt,
  judgeOutlinePrompt,
  type OutlineView,
} from "../judge/prompts.js";
import { modelReason, normaliseScore, type Selection, SelectionSchema } from "../judge/schema.js";
import type { JudgeRequest, Judgment, NodeVerdict } from "../judge/types.js";
import { documentPriors } from "../lexical/doc-names.js";
import type { LexicalNeed } from "../lexical/index-cache.js";
import type { LexicalScores, NodeTermIndex } from "../lexical/node-index.js";
import type { BudgetStop, Candidate, RetrievalStats, SearchStrategy, VisitedNode } from "../types.js";
import { isUnaskedBackMatter, withoutBackMatter } from "./back-matter.js";
import type { LevelEntry } from "./groups.js";
import { introOwner } from "./intro.js";

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

/** A judgment plus the sequential model calls it took (for round-trip accounting). */
export interface JudgeOutcome {
  judgment: Judgment;
  /** Model calls made one after the other for it, retries included; 0 when cached or lexical. */
  roundTrips: number;
}

/** A model's selection, or why there is none, and how many sequential calls asking took. */
export interface SelectAnswer {
  value?: Selection;
  error?: string;
  /** The prompt was over the model's window: a smaller prompt may work (not a refusal). */
  overflow?: boolean;
  /** Model calls made, retries included (each waited for the previous one). */
  attempts: number;
}

/**
 * Everything one query shares: the reader, skeletons, the judge (model or lexical), the step
 * budget, the cache and the counters that end up in {@link RetrievalStats}.
 */
export class SearchContext {
  readonly query: string;
  readonly reader: TreeReader;
  readonly model: BaseChatModel | undefined;
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
  /** The first refused request, thrown by {@link SearchContext.assertModelUsable}. */
  private refusal: ModelCallError | undefined;
  private readonly cache: JudgmentCache | undefined;
  private readonly lexicalIndex: (
    skeleton: TreeSkeleton,
    need: LexicalNeed,
    onTextsRead: (nodes: number) => void,
  ) => Promise<NodeTermIndex>;
  private readonly lexicalMemo = new Map<string, Promise<LexicalScores>>();
  private normaliser: Promise<number> | undefined;
  private priors: Promise<Map<string, number>> | undefined;
  private rankPriors: ReadonlyMap<string, number> = new Map();
  private order = 0;
  private readonly signal: AbortSignal | undefined;

  constructor(init: {
    query: string;
    reader: TreeReader;
    model: BaseChatModel | undefined;
    settings: SearchSettings;
    cache: JudgmentCache | undefined;
    lexicalIndex: (
      skeleton: TreeSkeleton,
      need: LexicalNeed,
      onTextsRead: (nodes: number) => void,
    ) => Promise<NodeTermIndex>;
    runManager?: CallbackManagerForRetrieverRun;
    /** The caller's cancellation (`invoke(query, { signal })`), passed to every model call. */
    signal?: AbortSignal;
  }) {
    this.signal = init.signal;
    this.query = init.query;
    this.reader = init.reader;
    this.model = init.model;
    this.settings = init.settings;
    this.cache = init.cache;
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
  callOptions(step: string) {
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

  /** Asks the model for a selection; `undefined` plus a reason when its answer was unusable. */
  async select(messages: BaseMessage[], step: string): Promise<SelectAnswer> {
    if (!this.model) return { error: "no model", attempts: 0 };
    const result = await invokeStructured(this.model, {
      schema: SelectionSchema,
      messages,
      ...this.callOptions(step),
    });
    if (result.ok) {
      this.counters.modelAnswers += 1;
      return { value: result.value, attempts: result.attempts };
    }
    if (isContextOverflow(result.error)) {
      // Not a misconfiguration: the caller can try a smaller prompt.
      return { error: result.error.message, attempts: result.attempts, overflow: true };
    }
    if (result.error instanceof ModelCallError) {
      this.counters.refusals += 1;
      this.refusal ??= result.error;
    } else if (result.lastText !== undefined) {
      this.counters.modelAnswers += 1; // answered, only not usably: the model is reachable
    }
    return { error: result.error.message, attempts: result.attempts };
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
      scores = Promise.all([
        this.lexicalIndex(skeleton, need, (nodes) => {
          this.counters.indexTextsRead += nodes;
        }),
        this.documentPriors(),
      ]).then(([index, priors]) => index.score(this.query, priors.get(skeleton.docId) ?? 1));
      this.lexicalMemo.set(key, scores);
    }
    return scores;
  }

  /** Best lexical score over the searched documents: scores are divided by it to land in [0, 1]. */
  lexicalNormaliser(): Promise<number> {
    this.normaliser ??= Promise.all(
      this.docIds.map(async (id) => (await this.lexical(await this.skeleton(id))).best),
    ).then((bests) => Math.max(0, ...bests));
    return this.normaliser;
  }

  /** Judges a request with the lexical judge. */
  async judgeLexically(request: JudgeRequest, kind: "lexical" | "lexical-fallback", error?: string) {
    const scores = await this.lexical(request.skeleton);
    const normaliser = await this.lexicalNormaliser();
    this.counters.lexicalJudgments += 1;
    const judgment = lexicalJudgment(
      scores,
      normaliser,
      request.candidates,
      this.settings.lexicalThreshold,
      kind,
    );
    const byId = new Map(request.candidates.map((c) => [c.nodeId, c]));
    judgment.verdicts = withoutBackMatter(this.query, judgment.verdicts, (id) => byId.get(id));
    if (error !== undefined) judgment.error = error;
    return judgment;
  }

  /**
   * Judges which candidates can hold the answer: from the cache, with the model (one call for
   * all siblings), or lexically. Returns `undefined` when the model budget is spent. A prompt
   * over `maxPromptTokens` is sent with shorter summaries, then split across calls of the same
   * round trip (candidates are never dropped).
   */
  async judge(request: JudgeRequest): Promise<JudgeOutcome | undefined> {
    if (!this.model) {
      this.counters.nodesJudged += request.candidates.length;
      return {
        judgment: this.record(request, await this.judgeLexically(request, "lexical")),
        roundTrips: 0,
      };
    }
    let messages: BaseMessage[] = [];
    for (const chars of [undefined, 200, 0]) {
      messages = judgeChildrenPrompt(
        request.query,
        request.skeleton,
        request.parent,
        request.candidates,
        this.settings.expertKnowledge,
        request.secondLook ?? false,
        chars,
      );
      if (promptTokens(messages) <= this.settings.maxPromptTokens) break;
    }
    if (promptTokens(messages) > this.settings.maxPromptTokens && request.candidates.length > 1) {
      return this.judgeInParts(request.candidates, (candidates) => this.judge({ ...request, candidates }));
    }
    this.counters.nodesJudged += request.candidates.length;
    const outcome = await this.modelJudgment({
      keyParts: [
        request.parent?.nodeId ?? "",
        request.candidates.map((c) => c.nodeId),
        // Appended only when set, so first-pass keys stay what they were.
        ...(request.secondLook ? ["second-look"] : []),
      ],
      skeleton: request.skeleton,
      offered: request.candidates.map((c) => c.nodeId),
      messages,
      step: request.secondLook ? "judge-second-look" : "judge",
      where: where(request),
      lexical: (error) => this.judgeLexically(request, "lexical-fallback", error),
    });
    if (!outcome) this.counters.nodesJudged -= request.candidates.length;
    else outcome.judgment = this.record(request, outcome.judgment);
    return outcome;
  }

  /** Judges halves of a candidate list concurrently (one round trip) and merges the verdicts. */
  private async judgeInParts<T>(
    items: readonly T[],
    judgePart: (part: T[]) => Promise<JudgeOutcome | undefined>,
  ): Promise<JudgeOutcome | undefined> {
    const half = Math.ceil(items.length / 2);
    const parts = await Promise.all([judgePart(items.slice(0, half)), judgePart(items.slice(half))]);
    const done = parts.filter((p): p is JudgeOutcome => p !== undefined);
    if (done.length === 0) return undefined;
    const llm = done.some((p) => p.judgment.judge === "llm");
    return {
      judgment: {
        verdicts: done.flatMap((p) => p.judgment.verdicts),
        judge: llm ? "llm" : (done[0] as JudgeOutcome).judgment.judge,
      },
      roundTrips: Math.max(...done.map((p) => p.roundTrips)),
    };
  }

  /**
   * Judges an outline (one opened level shown as deep as its budget allowed): the model may pick
   * entries at any depth shown; ids are validated against every entry shown, and so is the
   * lexical judge (no model, or a fallback). `undefined` when the budget is spent.
   */
  async judgeOutline(request: {
    view: OutlineView;
    /** Every entry id shown, in display order. */
    offered: readonly string[];
    /** The entries shown (what the lexical judge judges). */
    entries: readonly LevelEntry[];
    /** The sections shown, for `visited`. */
    shown: ReadonlyMap<string, SkeletonNode>;
    secondLook?: boolean;
  }): Promise<JudgeOutcome | undefined> {
    const { view } = request;
    const lexical = async (kind: "lexical" | "lexical-fallback", error?: string) => {
      const scores = await this.lexical(view.skeleton);
      this.counters.lexicalJudgments += 1;
      const judgment = lexicalEntryJudgment(
        scores,
        await this.lexicalNormaliser(),
        request.entries,
        this.settings.lexicalThreshold,
        kind,
      );
      judgment.verdicts = withoutBackMatter(this.query, judgment.verdicts, (id) => request.shown.get(id));
      if (error !== undefined) judgment.error = error;
      return judgment;
    };
    let outcome: JudgeOutcome | undefined;
    if (!this.model) outcome = { judgment: await lexical("lexical"), roundTrips: 0 };
    else {
      const messages = judgeOutlinePrompt(
        this.query,
        view,
        this.settings.expertKnowledge,
        request.secondLook,
      );
      outcome = await this.modelJudgment({
        keyParts: [
          "outline",
          view.parent?.nodeId ?? "",
          view.groupId ?? "",
          request.offered,
          ...(request.secondLook ? ["second-look"] : []),
        ],
        skeleton: view.skeleton,
        offered: request.offered,
        messages,
        step: request.secondLook ? "judge-second-look" : "judge",
        where: `${view.skeleton.docId}/${view.groupId ?? view.parent?.nodeId ?? "(roots)"}`,
        lexical: (error) => lexical("lexical-fallback", error),
      });
    }
    if (!outcome) return undefined;
    this.counters.nodesJudged += request.shown.size;
    for (const v of outcome.judgment.verdicts) {
      const node = request.shown.get(v.nodeId);
      if (!node) continue;
      this.visited.push({
        docId: view.skeleton.docId,
        nodeId: node.nodeId,
        title: node.title,
        relevant: v.relevant,
        score: v.score,
        judge: outcome.judgment.judge,
      });
    }
    return outcome;
  }

  /**
   * One model judgment of an offered id set: from the cache, or asked (within the budgets), its
   * ids validated; an unusable answer is judged by `lexical` instead.
   */
  private async modelJudgment(args: {
    keyParts: Array<string | readonly string[]>;
    skeleton: TreeSkeleton;
    offered: readonly string[];
    messages: BaseMessage[];
    step: string;
    where: string;
    lexical: (error?: string) => Promise<Judgment>;
  }): Promise<JudgeOutcome | undefined> {
    const key = judgmentKey([
      this.settings.cacheNamespace,
      normaliseQuery(this.query),
      args.skeleton.docId,
      args.skeleton.contentHash ?? args.skeleton.createdAt,
      ...args.keyParts,
    ]);
    const cached = await this.cache?.get(key);
    if (cached) {
      this.counters.cacheHits += 1;
      this.counters.modelAnswers += 1;
      return { judgment: cached, roundTrips: 0 };
    }
    if (!this.takeStep(promptTokens(args.messages))) return undefined;
    const answer = await this.select(args.messages, args.step);
    let judgment: Judgment | undefined;
    let error = answer.error;
    if (answer.value) {
      const { verdicts, unknown } = verdictsFromSelection(
        answer.value,
        args.offered.map((nodeId) => ({ nodeId })),
      );
      if (unknown.length > 0) {
        this.warnings.push(
          `judge: dropped ids not offered (${unknown.slice(0, 5).join(", ")}) under ${args.where}`,
        );
      }
      if (unknown.length > 0 && verdicts.every((v) => !v.relevant)) {
        error = `judge named only ids that were not offered (${unknown.slice(0, 5).join(", ")})`;
      } else {
        judgment = { verdicts, judge: "llm" };
        await this.cache?.set(key, judgment);
      }
    }
    if (!judgment) {
      this.counters.fallbacks += 1;
      this.warnings.push(`judge failed under ${args.where}, judged lexically: ${error ?? "unknown error"}`);
      judgment = await args.lexical(error);
    }
    return { judgment, roundTrips: answer.attempts };
  }

  private record(request: JudgeRequest, judgment: Judgment): Judgment {
    // An introduction is its section, offered again: not a node of its own in `visited`.
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

/**
 * Room for what a structured call adds to the messages: the answer's JSON Schema, as text for a
 * model without tool calling or as a tool definition (about 230 tokens either way).
 */
const ANSWER_FORMAT_TOKENS = 256;

/** Tokens of a prompt (what `maxPromptTokens` and `maxQueryTokens` count), answer format included. */
export function promptTokens(messages: readonly BaseMessage[]): number {
  return (
    ANSWER_FORMAT_TOKENS +
    countTokens(
      messages.map((m) => (typeof m.content === "string" ? m.content : JSON.stringify(m.content))).join("\n"),
    )
  );
}

function where(request: JudgeRequest): string {
  return `${request.skeleton.docId}/${request.parent ? request.parent.nodeId : "(roots)"}`;
}

/**
 * Turns a model's selection into one verdict per candidate: named candidates are relevant with
 * the model's score, the others not; ids that were not offered are returned separately.
 */
export function verdictsFromSelection(
  selection: Selection,
  candidates: ReadonlyArray<Pick<SkeletonNode, "nodeId">>,
): { verdicts: NodeVerdict[]; unknown: string[] } {
  const offered = new Set(candidates.map((c) => c.nodeId));
  const chosen = new Map<string, NodeVerdict>();
  const unknown: string[] = [];
  selection.relevant.forEach((item, rank) => {
    const id = resolveId(String(item.id).trim(), offered);
    if (id === undefined) {
      unknown.push(String(item.id));
      return;
    }
    if (chosen.has(id)) return;
    const verdict: NodeVerdict = {
      nodeId: id,
      relevant: true,
      score: normaliseScore(item.score, rank),
      reason: modelReason(item.reason, "selected by the model"),
    };
    if (item.self) verdict.self = true;
    chosen.set(id, verdict);
  });
  const verdicts = candidates.map(
    (c) => chosen.get(c.nodeId) ?? { nodeId: c.nodeId, relevant: false, score: 0, reason: "not selected" },
  );
  return { verdicts, unknown };
}

/** Accepts "0003", "3" (unpadded), "[0003]" and "node 0003" for an offered "0003". */
export function resolveId(raw: string, offered: ReadonlySet<string>): string | undefined {
  if (offered.has(raw)) return raw;
  const cleaned = raw
    .replace(/^\[|\]$/g, "")
    .replace(/^(node|id)\s*[:#]?\s*/i, "")
    .trim();
  if (offered.has(cleaned)) return cleaned;
  if (/^\d+$/.test(cleaned)) {
    const padded = cleaned.padStart(4, "0");
    if (offered.has(padded)) return padded;
  }
  return undefined;
}
