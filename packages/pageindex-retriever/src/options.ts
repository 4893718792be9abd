import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { BaseRetrieverInterface } from "@langchain/core/retrievers";
import type { BaseStore } from "@langchain/core/stores";
import type { CatalogFilter } from "pageindex-store";
import { RetrieverConfigError } from "./errors.js";
import { ByteStoreJudgmentCache, isByteStore, type JudgmentCache, LruJudgmentCache } from "./judge/cache.js";
import type { ExpertKnowledge } from "./judge/prompts.js";
import type { LexicalTextMode } from "./lexical/node-index.js";
import type { DocumentScope, DocumentScoring } from "./search/documents.js";
import type { SearchSettings } from "./search/ledger.js";
import { isStrategy } from "./search/strategies.js";
import type { SearchStrategy } from "./types.js";

/**
 * Every default of {@link PageIndexRetriever}'s options, in one place (the TSDoc `@defaultValue`
 * of each option names the same value).
 */
export const RETRIEVER_DEFAULTS = {
  strategy: "auto" as SearchStrategy,
  k: 5,
  minScore: 0,
  beamWidth: 3,
  internalNodes: true,
  collapseBelowTokens: 300,
  weakBranchScore: 0.3,
  budget: {
    maxSteps: 25,
    maxCalls: Number.POSITIVE_INFINITY,
    /** Without a declared model window; a smaller window gives `promptWindowShare` of it. */
    maxPromptTokens: 6_000,
    promptWindowShare: 0.75,
    /** `maxQueryTokens`: at least this, and at least `queryPrompts` × `maxPromptTokens`. */
    minQueryTokens: 50_000,
    queryPrompts: 8,
    /** `lookaheadTokens` = `maxPromptTokens` / this (rounded down). */
    lookaheadDivisor: 3,
    fanOut: 24,
    onPromptTooLarge: "expand" as const,
  },
  documents: {
    selection: "all" as const,
    maxDocuments: 3,
    candidates: 20,
    rerank: 5,
    margin: 1.5,
    scoring: "sum" as DocumentScoring,
    firstStageScope: "subtree" as const,
  },
  calls: { concurrency: 4, retries: 2, timeoutMs: 60_000, backoffMs: 1000 },
  deadEnds: { keep: true, maxTokens: 4000 },
  lexical: { text: "auto" as LexicalTextMode, threshold: 0.35, indexCacheSize: 64 },
  cache: { size: 2000 },
} as const;

/** What a query may spend, and how prompts are bounded. */
export interface BudgetOptions {
  /** Most model judgments per query (retries not counted). @defaultValue 25 */
  maxSteps?: number;
  /** Model requests (retries included) one query may make (`maxSteps` still applies). @defaultValue unlimited */
  maxCalls?: number;
  /**
   * Prompt tokens one query may spend; then the best found so far is returned (`stats.budgetStop`).
   * @defaultValue 50 000, or 8 × `maxPromptTokens` when that is more
   */
  maxQueryTokens?: number;
  /**
   * Largest prompt sent (tokens, every strategy): summaries are shortened, then candidates split
   * across calls of the same round trip to fit. A single-shot prompt over it is not sent (see
   * `onPromptTooLarge`).
   * @defaultValue 6 000, or three quarters of the model's input window when its LangChain profile
   * declares a smaller one (`model.profile.maxInputTokens`)
   */
  maxPromptTokens?: number;
  /** Size (tokens) an `auto` prompt may grow to by looking deeper than the opened level. @defaultValue `maxPromptTokens` / 3 */
  lookaheadTokens?: number;
  /** Most entries listed under one parent in a prompt; a wider level is offered as nested groups. @defaultValue 24 */
  fanOut?: number;
  /** Budget (tokens) for the content of all returned Documents together. @defaultValue unlimited */
  maxContentTokens?: number;
  /** When the single-shot prompt is too large: `expand` instead, or throw `PromptTooLargeError`. @defaultValue "expand" */
  onPromptTooLarge?: "expand" | "error";
}

/** Which documents are searched. */
export interface DocumentOptions {
  /** Search only these documents. @defaultValue every document (see `selection`) */
  docIds?: string[];
  /**
   * Which documents are searched when `docIds` is not given:
   * - `all`: every document while there are at most `maxDocuments`; beyond that (a library) the
   *   best by the catalog (re-ranked by their sections when it is not clear), and the next ones
   *   up to `maxDocuments` only while they score within `margin` of it;
   * - `llm`: the best candidate alone when it leads clearly (`margin`), otherwise the judge
   *   chooses among the best `candidates` from their names, descriptions and matching section
   *   titles (lexically without a model).
   * With a reader that has no catalog, `all` searches every document and `llm` offers every
   * document to the judge.
   * @defaultValue "all"
   */
  selection?: "all" | "llm";
  /** Most documents searched when they are chosen. @defaultValue 3 */
  maxDocuments?: number;
  /** Documents ranked by the catalog (M): the candidates, and what the judge may choose from. @defaultValue 20 */
  candidates?: number;
  /**
   * When the catalog's best candidate does not lead the next by `margin`, this many of the best
   * are re-ranked by their sections' lexical scores; 0 ranks by the catalog alone. @defaultValue 5
   */
  rerank?: number;
  /**
   * Without a library index (a catalog of cards): the best candidate is searched alone, without
   * asking the judge, when its score is at least this many times the next one's; `Infinity`
   * always asks. With a library index it is not used: the model is always asked, and offline
   * the best `maxDocuments` are searched and their sections ranked by the library's evidence.
   * @defaultValue 1.5
   */
  margin?: number;
  /**
   * How a candidate's section scores make its score: `sum` (PageIndex's DocScore, Σ of its best
   * ≤ 5 section scores / √(N+1)) or `best` (its best section). @defaultValue "sum"
   */
  scoring?: DocumentScoring;
  /**
   * Only documents whose metadata match (front matter or metadata given at index time, one level
   * deep; or `kind`), e.g. `{ company: "Boeing", year: 2022 }`: applied before ranking.
   */
  filter?: CatalogFilter;
  /**
   * A first-stage LangChain retriever (e.g. a vector store over node summaries) whose hits carry
   * `metadata.docId` / `metadata.nodeId`: the search starts from those nodes (hybrid retrieval).
   */
  firstStage?: BaseRetrieverInterface;
  /** `subtree`: start at the hit nodes; `document`: only pick documents from the hits. @defaultValue "subtree" */
  firstStageScope?: "subtree" | "document";
}

/** How model calls are made. */
export interface CallOptions {
  /** Most model calls in flight at once. @defaultValue 4 */
  concurrency?: number;
  /**
   * Extra attempts per model call after a rate limit, a timeout, a server error or an unusable
   * answer. A request the model refuses (wrong key, unknown model, bad request) is not retried;
   * when every model call of a query is refused, `invoke` throws `ModelCallError`. @defaultValue 2
   */
  retries?: number;
  /** Per-attempt model timeout (ms). @defaultValue 60 000 */
  timeoutMs?: number;
  /** First retry delay after a rate limit or timeout (ms). @defaultValue 1000 */
  backoffMs?: number;
}

/**
 * A section judged relevant none of whose subsections is: one of the two judgments was wrong, so
 * the branch is kept rather than dropped (`metadata.deadEnd`, ranked after sections found
 * directly). Needs `internalNodes`.
 */
export interface DeadEndOptions {
  /** Keep dead ends. @defaultValue true */
  keep?: boolean;
  /** Largest dead-end subtree returned whole (tokens); a larger one by its best lexical matches inside. @defaultValue 4000 */
  maxTokens?: number;
}

/** The lexical (BM25) judge: the offline default and a model judge's fallback. */
export interface LexicalOptions {
  /** Which text the lexical judge indexes (see {@link LexicalTextMode}). @defaultValue "auto" */
  text?: LexicalTextMode;
  /** Relevance cut-off, relative to the best match of the query (0..1). @defaultValue 0.35 */
  threshold?: number;
}

/** The judgment cache (query × node set → judgment). */
export interface CacheOptions {
  /**
   * Where judgments are kept: a {@link JudgmentCache} or a LangChain byte store to share them,
   * `false` to disable. @defaultValue an in-memory LRU of `size` entries
   */
  store?: JudgmentCache | BaseStore<string, Uint8Array> | false;
  /** Entries of the default LRU cache. @defaultValue 2000 */
  size?: number;
}

/** The options of a retriever, normalised and validated once at construction. */
export interface RetrieverSettings {
  search: SearchSettings;
  documents: Omit<DocumentScope, "docIds" | "filter" | "firstStage"> & {
    docIds: readonly string[] | undefined;
    filter: CatalogFilter | undefined;
    firstStage: BaseRetrieverInterface | undefined;
  };
  maxContentTokens: number | undefined;
  lexicalText: LexicalTextMode;
  cache: JudgmentCache | undefined;
}

/** The flat (deprecated) and grouped options {@link normaliseOptions} reads. */
export interface RawRetrieverOptions {
  model?: BaseChatModel | undefined;
  strategy?: SearchStrategy;
  k?: number;
  minScore?: number;
  beamWidth?: number;
  internalNodes?: boolean;
  collapseBelowTokens?: number;
  weakBranchScore?: number;
  expertKnowledge?: ExpertKnowledge;
  budget?: BudgetOptions;
  documents?: DocumentOptions;
  calls?: CallOptions;
  deadEnds?: DeadEndOptions;
  lexical?: LexicalOptions;
  cache?: JudgmentCache | BaseStore<string, Uint8Array> | false | CacheOptions;
  fanOut?: number;
  lookaheadTokens?: number;
  maxQueryTokens?: number;
  maxCalls?: number;
  maxSteps?: number;
  concurrency?: number;
  keepDeadEnds?: boolean;
  deadEndMaxTokens?: number;
  maxContentTokens?: number;
  maxPromptTokens?: number;
  onPromptTooLarge?: "expand" | "error";
  docIds?: string[];
  documentSelection?: "all" | "llm";
  maxDocuments?: number;
  documentCandidates?: number;
  documentRerank?: number;
  documentMargin?: number;
  documentScoring?: DocumentScoring;
  filter?: CatalogFilter;
  firstStage?: BaseRetrieverInterface;
  firstStageScope?: "subtree" | "document";
  lexicalText?: LexicalTextMode;
  lexicalThreshold?: number;
  cacheSize?: number;
  retries?: number;
  timeoutMs?: number;
  backoffMs?: number;
}

function fail(message: string): never {
  throw new RetrieverConfigError(`PageIndexRetriever: ${message}`);
}

/** A finite number of at least `min` (or `Infinity` when `unbounded`), or the default. */
function atLeast(
  name: string,
  value: number | undefined,
  fallback: number,
  min = 1,
  unbounded = false,
): number {
  if (value === undefined) return fallback;
  const finite =
    typeof value === "number" &&
    (Number.isFinite(value) || (unbounded && value === Number.POSITIVE_INFINITY));
  if (!finite || value < min)
    fail(`${name} must be a number >= ${min}${unbounded ? " or Infinity" : ""} (got ${value})`);
  return value;
}

/** A finite number within [min, max], or the default. */
function within(name: string, value: number | undefined, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isFinite(value) || value < min || value > max) {
    fail(`${name} must be a number from ${min} to ${max} (got ${value})`);
  }
  return value;
}

function oneOf<T extends string>(name: string, value: T | undefined, fallback: T, allowed: readonly T[]): T {
  if (value === undefined) return fallback;
  if (!allowed.includes(value))
    fail(`${name} must be one of ${allowed.map((a) => `"${a}"`).join(", ")} (got "${value}")`);
  return value;
}

/** Default prompt budget: 6k tokens, less when the model's declared input window is smaller. */
function defaultPromptBudget(model: BaseChatModel | undefined): number {
  const { maxPromptTokens, promptWindowShare } = RETRIEVER_DEFAULTS.budget;
  let window: number | undefined;
  try {
    window = model?.profile?.maxInputTokens;
  } catch {
    window = undefined; // a model class whose profile getter fails: keep the default
  }
  return typeof window === "number" && window > 0
    ? Math.min(maxPromptTokens, Math.floor(window * promptWindowShare))
    : maxPromptTokens;
}

/** Whether `cache` is the grouped {@link CacheOptions} rather than a cache or a byte store. */
function isCacheOptions(value: RawRetrieverOptions["cache"]): value is CacheOptions {
  return (
    typeof value === "object" &&
    value !== null &&
    !isByteStore(value) &&
    typeof (value as { get?: unknown }).get !== "function"
  );
}

/**
 * Normalises and validates a retriever's options once: grouped options win over the flat
 * (deprecated) names, every default comes from {@link RETRIEVER_DEFAULTS}.
 * @throws {RetrieverConfigError} naming the first option that cannot work.
 */
export function normaliseOptions(fields: RawRetrieverOptions, cacheNamespace: string): RetrieverSettings {
  const D = RETRIEVER_DEFAULTS;
  const budget = fields.budget ?? {};
  const docs = fields.documents ?? {};
  const calls = fields.calls ?? {};
  const deadEnds = fields.deadEnds ?? {};
  const lexical = fields.lexical ?? {};
  const cacheGroup = isCacheOptions(fields.cache) ? fields.cache : {};
  const strategy = fields.strategy ?? D.strategy;
  if (!isStrategy(strategy)) fail(`unknown strategy "${strategy}"`);
  const maxPromptTokens = atLeast(
    "budget.maxPromptTokens",
    budget.maxPromptTokens ?? fields.maxPromptTokens,
    defaultPromptBudget(fields.model),
  );
  const search: SearchSettings = {
    strategy,
    k: atLeast("k", fields.k, D.k),
    maxSteps: atLeast("budget.maxSteps", budget.maxSteps ?? fields.maxSteps, D.budget.maxSteps, 0),
    concurrency: atLeast("calls.concurrency", calls.concurrency ?? fields.concurrency, D.calls.concurrency),
    minScore: within("minScore", fields.minScore, D.minScore, 0, 1),
    beamWidth: atLeast("beamWidth", fields.beamWidth, D.beamWidth),
    internalNodes: fields.internalNodes ?? D.internalNodes,
    collapseBelowTokens: atLeast("collapseBelowTokens", fields.collapseBelowTokens, D.collapseBelowTokens, 0),
    weakBranchScore: within("weakBranchScore", fields.weakBranchScore, D.weakBranchScore, 0, 1),
    keepDeadEnds: deadEnds.keep ?? fields.keepDeadEnds ?? D.deadEnds.keep,
    deadEndMaxTokens: atLeast(
      "deadEnds.maxTokens",
      deadEnds.maxTokens ?? fields.deadEndMaxTokens,
      D.deadEnds.maxTokens,
      0,
    ),
    maxPromptTokens,
    fanOut: atLeast("budget.fanOut", budget.fanOut ?? fields.fanOut, D.budget.fanOut, 2),
    lookaheadTokens: atLeast(
      "budget.lookaheadTokens",
      budget.lookaheadTokens ?? fields.lookaheadTokens,
      Math.floor(maxPromptTokens / D.budget.lookaheadDivisor),
    ),
    maxQueryTokens: atLeast(
      "budget.maxQueryTokens",
      budget.maxQueryTokens ?? fields.maxQueryTokens,
      Math.max(D.budget.minQueryTokens, D.budget.queryPrompts * maxPromptTokens),
    ),
    maxCalls: atLeast("budget.maxCalls", budget.maxCalls ?? fields.maxCalls, D.budget.maxCalls, 1, true),
    onPromptTooLarge: oneOf(
      "budget.onPromptTooLarge",
      budget.onPromptTooLarge ?? fields.onPromptTooLarge,
      D.budget.onPromptTooLarge,
      ["expand", "error"],
    ),
    expertKnowledge: fields.expertKnowledge,
    lexicalThreshold: within(
      "lexical.threshold",
      lexical.threshold ?? fields.lexicalThreshold,
      D.lexical.threshold,
      0,
      1,
    ),
    retries: atLeast("calls.retries", calls.retries ?? fields.retries, D.calls.retries, 0),
    timeoutMs: atLeast("calls.timeoutMs", calls.timeoutMs ?? fields.timeoutMs, D.calls.timeoutMs),
    backoffMs: atLeast("calls.backoffMs", calls.backoffMs ?? fields.backoffMs, D.calls.backoffMs, 0),
    cacheNamespace,
  };
  const docIds = docs.docIds ?? fields.docIds;
  if (
    docIds !== undefined &&
    (!Array.isArray(docIds) || docIds.some((id) => typeof id !== "string" || !id))
  ) {
    fail("documents.docIds must be an array of document ids");
  }
  const documents: RetrieverSettings["documents"] = {
    docIds,
    documentSelection: oneOf(
      "documents.selection",
      docs.selection ?? fields.documentSelection,
      D.documents.selection,
      ["all", "llm"],
    ),
    maxDocuments: atLeast(
      "documents.maxDocuments",
      docs.maxDocuments ?? fields.maxDocuments,
      D.documents.maxDocuments,
    ),
    candidates: atLeast(
      "documents.candidates",
      docs.candidates ?? fields.documentCandidates,
      D.documents.candidates,
    ),
    rerank: atLeast("documents.rerank", docs.rerank ?? fields.documentRerank, D.documents.rerank, 0),
    margin: atLeast("documents.margin", docs.margin ?? fields.documentMargin, D.documents.margin, 1, true),
    scoring: oneOf("documents.scoring", docs.scoring ?? fields.documentScoring, D.documents.scoring, [
      "sum",
      "best",
    ]),
    filter: docs.filter ?? fields.filter,
    firstStage: docs.firstStage ?? fields.firstStage,
    firstStageScope: oneOf(
      "documents.firstStageScope",
      docs.firstStageScope ?? fields.firstStageScope,
      D.documents.firstStageScope,
      ["subtree", "document"],
    ),
  };
  const maxContentTokens = budget.maxContentTokens ?? fields.maxContentTokens;
  if (maxContentTokens !== undefined) atLeast("budget.maxContentTokens", maxContentTokens, 0);
  const store = isCacheOptions(fields.cache) ? cacheGroup.store : fields.cache;
  const size = atLeast("cache.size", cacheGroup.size ?? fields.cacheSize, D.cache.size);
  const cache =
    store === false
      ? undefined
      : store === undefined
        ? new LruJudgmentCache(size)
        : isByteStore(store)
          ? new ByteStoreJudgmentCache(store)
          : store;
  return {
    search,
    documents,
    maxContentTokens,
    lexicalText: oneOf("lexical.text", lexical.text ?? fields.lexicalText, D.lexical.text, [
      "auto",
      "skeleton",
      "full",
    ]),
    cache,
  };
}
