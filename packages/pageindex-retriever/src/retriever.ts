import { AsyncLocalStorage } from "node:async_hooks";
import type { CallbackManagerForRetrieverRun } from "@langchain/core/callbacks/manager";
import type { Document } from "@langchain/core/documents";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  BaseRetriever,
  type BaseRetrieverInput,
  type BaseRetrieverInterface,
} from "@langchain/core/retrievers";
import { ensureConfig, type RunnableConfig } from "@langchain/core/runnables";
import type { BaseStore } from "@langchain/core/stores";
import { type CatalogFilter, MemoryTreeReader, type TreeDocument, type TreeReader } from "pageindex-store";
import { raceAbort, throwIfAborted } from "pageindex-store/internals";
import { RetrieverConfigError } from "./errors.js";
import { ByteStoreJudgmentCache, isByteStore, type JudgmentCache, LruJudgmentCache } from "./judge/cache.js";
import { LexicalIndexes } from "./lexical/index-cache.js";
import type { LexicalTextMode } from "./lexical/node-index.js";
import { boundedSearch } from "./search/bounded-search.js";
import { collectDocuments } from "./search/collect.js";
import { SearchContext, type SearchSettings } from "./search/context.js";
import { type DocumentScoring, planStarts, readableStarts } from "./search/documents.js";
import { rescueFromLibrary } from "./search/library-starts.js";
import { singleShotSearch } from "./search/single-shot.js";
import { beamSearch, expandSearch } from "./search/tree-search.js";
import type { PageIndexDocumentMetadata, RetrievalRun, SearchStrategy } from "./types.js";

/** Options of {@link PageIndexRetriever}. */
export interface PageIndexRetrieverInput extends BaseRetrieverInput {
  /** Where the trees are: a `PageIndexStore`, a `MemoryTreeReader`, or any {@link TreeReader}. */
  reader?: TreeReader;
  /** Trees given directly (wrapped in a `MemoryTreeReader`). */
  trees?: TreeDocument[];
  /** The judging model. Without one, the lexical (BM25) judge navigates offline. */
  model?: BaseChatModel;
  /**
   * `auto` (default): with a model, the whole table of contents in one prompt where it fits
   * `maxPromptTokens`, bounded expansion with lookahead where it does not; without one, `expand`.
   * `expand`, `beam` and `single-shot` as before.
   */
  strategy?: SearchStrategy;
  /** Most entries listed under one parent in a prompt; a wider level is offered as nested groups. Default 24. */
  fanOut?: number;
  /** Size (tokens) an `auto` prompt may grow to by looking deeper than the opened level. Default `maxPromptTokens` / 3. */
  lookaheadTokens?: number;
  /** Prompt tokens one query may spend; then the best found so far is returned (`stats.budgetStop`). Default 50 000 (at least 8 × `maxPromptTokens`). */
  maxQueryTokens?: number;
  /** Model requests (retries included) one query may make. Default unlimited (`maxSteps` still applies). */
  maxCalls?: number;
  /** Most Documents returned. Default 5. */
  k?: number;
  /** Most model judgments per query (retries not counted). Default 25. */
  maxSteps?: number;
  /** Most model calls in flight at once. Default 4. */
  concurrency?: number;
  /** Drop results scored below this (0..1). Default 0. */
  minScore?: number;
  /** Beam width: relevant internal nodes kept per level (strategy `beam`). Default 3. */
  beamWidth?: number;
  /**
   * Whether an internal node may itself be returned: when the judge says its own text answers,
   * or when its whole subtree is under `collapseBelowTokens` (returned as one section, children
   * not judged). Default true. (A node the step budget stopped at is returned either way.)
   */
  internalNodes?: boolean;
  /**
   * With a model, a branch picked with at most this score is opened only while nothing stronger
   * remains: after every stronger branch, and only when fewer than `k` sections scored above it
   * were found (otherwise it is kept as a result itself, ranked by its score). 0 opens every pick.
   * Default 0.3.
   */
  weakBranchScore?: number;
  /** Subtrees at most this many tokens are returned whole instead of opened. Default 300. */
  collapseBelowTokens?: number;
  /**
   * When a section is judged relevant but none of its subsections is, one of the two judgments
   * was wrong: keep the branch instead of dropping it (`metadata.deadEnd`, ranked after sections
   * found directly). The section is returned whole when its subtree has at most
   * `deadEndMaxTokens`, otherwise its best lexical matches inside are. Needs `internalNodes`.
   * Default true.
   */
  keepDeadEnds?: boolean;
  /** Largest dead-end subtree returned whole (tokens). Default 4000. */
  deadEndMaxTokens?: number;
  /** Budget (tokens) for the content of all returned Documents together. Default unlimited. */
  maxContentTokens?: number;
  /**
   * Largest prompt sent (tokens, every strategy): summaries are shortened, then candidates split
   * across calls of the same round trip to fit. Default 6 000 (a small local model), or three
   * quarters of the model's input window when its LangChain profile declares a smaller one
   * (`model.profile.maxInputTokens`). A single-shot prompt over it is not sent (see `onPromptTooLarge`).
   */
  maxPromptTokens?: number;
  /** When the single-shot prompt is too large: `expand` instead (default) or throw. */
  onPromptTooLarge?: "expand" | "error";
  /** Search only these documents. */
  docIds?: string[];
  /**
   * Which documents are searched when `docIds` is not given:
   * - `all` (default): every document while there are at most `maxDocuments`; beyond that (a
   *   library) the best by the catalog (re-ranked by their sections when it is not clear), and
   *   the next ones up to `maxDocuments` only while they score within `documentMargin` of it;
   * - `llm`: the model chooses among the best `documentCandidates` from their names, descriptions
   *   and matching section titles, however clearly one leads lexically (without a model: the best
   *   alone when it leads by `documentMargin`, else the lexical ranking).
   * With a reader that has a library index (`searchLibrary`), the candidates are the documents of
   * the best-matching sections, and with a model its first prompt shows them with those sections
   * and it picks documents and sections at once (in both modes, for a library larger than
   * `maxDocuments`); the search starts at the picked sections, or (offline) at the best sections
   * as well as the roots.
   * With a reader that has no catalog (a custom `TreeReader` without `searchDocuments`), `all`
   * searches every document and `llm` offers every document to the model, as before.
   */
  documentSelection?: "all" | "llm";
  /** Most documents searched when they are chosen. Default 3. */
  maxDocuments?: number;
  /** Documents ranked by the catalog (M): the candidates, and what the model may choose from. Default 20. */
  documentCandidates?: number;
  /**
   * When the catalog's best candidate does not lead the next by `documentMargin`, this many of
   * the best are re-ranked by their sections' lexical scores (reading each one's skeleton and
   * saved section index). Default 5; 0 ranks by the catalog alone.
   */
  documentRerank?: number;
  /**
   * Without a model: the best candidate is searched alone when its score is at least this many
   * times the next one's (`all`: the next ones are searched while within it). Default 1.5. A
   * model choosing documents always sees the candidates.
   */
  documentMargin?: number;
  /**
   * How a candidate's section scores make its score: `sum` (default; PageIndex's DocScore,
   * Σ of its best ≤ 5 section scores / √(N+1)) or `best` (its best section).
   */
  documentScoring?: DocumentScoring;
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
  /** `subtree` (default): start at the hit nodes; `document`: only pick documents from the hits. */
  firstStageScope?: "subtree" | "document";
  /** Domain knowledge or preferences for the judge, e.g. "For EBITDA questions prefer Item 7". */
  expertKnowledge?: string | string[];
  /** Which text the lexical judge indexes (see {@link LexicalTextMode}). Default `auto`. */
  lexicalText?: LexicalTextMode;
  /** Lexical relevance cut-off, relative to the best match of the query (0..1). Default 0.35. */
  lexicalThreshold?: number;
  /**
   * Cache of judgments (query × node set). Default an in-memory LRU of `cacheSize` entries; a
   * {@link JudgmentCache} or a LangChain byte store to share it; `false` to disable.
   */
  cache?: JudgmentCache | BaseStore<string, Uint8Array> | false;
  /** Entries of the default LRU cache. Default 2000. */
  cacheSize?: number;
  /**
   * Extra attempts per model call after a rate limit, a timeout, a server error or an unusable
   * answer. Default 2. A request the model refuses (wrong key, unknown model, bad request) is not
   * retried; when every model call of a query is refused, `invoke` throws `ModelCallError`.
   */
  retries?: number;
  /** Per-attempt model timeout. Default 60 000 ms. */
  timeoutMs?: number;
  /** First retry delay after a rate limit or timeout. Default 1000 ms. */
  backoffMs?: number;
  /** Called with each query's record (safe with concurrent queries, unlike `lastRun`). */
  onRun?: (run: RetrievalRun) => void;
}

const LEXICAL_INDEX_CACHE = 64;

function modelNamespace(model: BaseChatModel | undefined): string {
  if (!model) return "lexical";
  try {
    return `${model._llmType()}:${JSON.stringify(model._identifyingParams())}`;
  } catch {
    return model._llmType();
  }
}

function positive(name: string, value: number | undefined, fallback: number, min = 1): number {
  if (value === undefined) return fallback;
  if (!Number.isFinite(value) || value < min) {
    throw new RetrieverConfigError(`PageIndexRetriever: ${name} must be a number >= ${min} (got ${value})`);
  }
  return value;
}

/** `documentMargin`: a number >= 1, or `Infinity` to always ask the model. */
function margin(value: number | undefined): number {
  if (value === undefined) return 1.5;
  if (Number.isNaN(value) || value < 1) {
    throw new RetrieverConfigError(
      `PageIndexRetriever: documentMargin must be >= 1 or Infinity (got ${value})`,
    );
  }
  return value;
}

/** Default prompt budget: 6k tokens, less when the model's declared input window is smaller. */
export const DEFAULT_MAX_PROMPT_TOKENS = 6_000;

function defaultPromptBudget(model: BaseChatModel | undefined): number {
  let window: number | undefined;
  try {
    window = model?.profile?.maxInputTokens;
  } catch {
    window = undefined; // a model class whose profile getter fails: keep the default
  }
  return typeof window === "number" && window > 0
    ? Math.min(DEFAULT_MAX_PROMPT_TOKENS, Math.floor(window * 0.75))
    : DEFAULT_MAX_PROMPT_TOKENS;
}

/**
 * A LangChain retriever that reads documents the way a person reads a table of contents: it
 * walks each document's tree top-down and opens only the branches a judge (an LLM, or BM25
 * offline) finds relevant, then returns one Document per selected section with its text,
 * location, score, reason and the path that led there.
 *
 * Works wherever a retriever does: `.invoke(query)`, LCEL `.pipe`, `createRetrievalChain`,
 * `EnsembleRetriever`. Per-query costs are in {@link PageIndexRetriever.lastRun}, in `onRun`,
 * and in the custom callback event `pageindex_retrieval_run`.
 *
 * @example
 * ```ts
 * const retriever = new PageIndexRetriever({ reader: store, model, k: 3 });
 * const docs = await retriever.invoke("What drove the change in gross margin?");
 * docs[0].metadata.startPage; docs[0].metadata.reason;
 * ```
 */
export class PageIndexRetriever extends BaseRetriever<PageIndexDocumentMetadata> {
  static override lc_name(): string {
    return "PageIndexRetriever";
  }

  override lc_namespace = ["pageindex", "retrievers"];

  readonly reader: TreeReader;
  readonly model: BaseChatModel | undefined;
  /** The record of the latest query (overwritten by each query; see `onRun` for concurrency). */
  lastRun: RetrievalRun | undefined;

  private readonly settings: SearchSettings;
  private readonly options: PageIndexRetrieverInput;
  private readonly cache: JudgmentCache | undefined;
  private readonly lexicalIndexes: LexicalIndexes;

  constructor(fields: PageIndexRetrieverInput) {
    super(fields);
    if (fields.reader && fields.trees) {
      throw new RetrieverConfigError("PageIndexRetriever: give either `reader` or `trees`, not both");
    }
    if (!fields.reader && !fields.trees) {
      throw new RetrieverConfigError("PageIndexRetriever: give `reader` (a TreeReader) or `trees`");
    }
    this.reader = fields.reader ?? new MemoryTreeReader(fields.trees);
    this.model = fields.model;
    this.options = fields;
    const k = positive("k", fields.k, 5);
    const strategy = fields.strategy ?? "auto";
    if (!["auto", "expand", "beam", "single-shot"].includes(strategy)) {
      throw new RetrieverConfigError(`PageIndexRetriever: unknown strategy "${strategy}"`);
    }
    const maxPromptTokens = positive(
      "maxPromptTokens",
      fields.maxPromptTokens,
      defaultPromptBudget(fields.model),
    );
    this.settings = {
      strategy,
      k,
      maxSteps: positive("maxSteps", fields.maxSteps, 25, 0),
      concurrency: positive("concurrency", fields.concurrency, 4),
      minScore: fields.minScore ?? 0,
      beamWidth: positive("beamWidth", fields.beamWidth, 3),
      internalNodes: fields.internalNodes ?? true,
      collapseBelowTokens: fields.collapseBelowTokens ?? 300,
      weakBranchScore: fields.weakBranchScore ?? 0.3,
      keepDeadEnds: fields.keepDeadEnds ?? true,
      deadEndMaxTokens: positive("deadEndMaxTokens", fields.deadEndMaxTokens, 4000, 0),
      maxPromptTokens,
      fanOut: positive("fanOut", fields.fanOut, 24, 2),
      lookaheadTokens: positive("lookaheadTokens", fields.lookaheadTokens, Math.floor(maxPromptTokens / 3)),
      maxQueryTokens: positive(
        "maxQueryTokens",
        fields.maxQueryTokens,
        Math.max(50_000, 8 * maxPromptTokens),
      ),
      maxCalls: positive("maxCalls", fields.maxCalls, Number.POSITIVE_INFINITY),
      onPromptTooLarge: fields.onPromptTooLarge ?? "expand",
      expertKnowledge: fields.expertKnowledge,
      lexicalThreshold: fields.lexicalThreshold ?? 0.35,
      retries: positive("retries", fields.retries, 2, 0),
      timeoutMs: positive("timeoutMs", fields.timeoutMs, 60_000),
      backoffMs: positive("backoffMs", fields.backoffMs, 1000, 0),
      cacheNamespace: `${modelNamespace(fields.model)}|${JSON.stringify(fields.expertKnowledge ?? "")}`,
    };
    if (fields.cache === false) this.cache = undefined;
    else if (fields.cache === undefined) this.cache = new LruJudgmentCache(fields.cacheSize ?? 2000);
    else this.cache = isByteStore(fields.cache) ? new ByteStoreJudgmentCache(fields.cache) : fields.cache;
    this.lexicalIndexes = new LexicalIndexes(this.reader, fields.lexicalText ?? "auto", LEXICAL_INDEX_CACHE);
  }

  /** The signal of the `invoke` call running in this async context (LangChain does not pass it on). */
  private readonly abortScope = new AsyncLocalStorage<AbortSignal>();

  /**
   * Retrieves the sections for a query. A `signal` or a `timeout` (ms) in `options`, given here or
   * through `withConfig`, cancels the search: model calls in flight are aborted and the promise
   * rejects at once with `signal.reason` (wrapped in an `AbortError` when it is not an `Error`,
   * as the loaders do).
   */
  override async invoke(
    input: string,
    options?: RunnableConfig,
  ): Promise<Document<PageIndexDocumentMetadata>[]> {
    // LangChain turns `timeout` into a signal only inside super.invoke, too late for us to see it.
    const config = options?.timeout === undefined ? options : ensureConfig(options);
    const signal = config?.signal;
    if (!signal) return super.invoke(input, config);
    throwIfAborted(signal);
    const work = this.abortScope.run(signal, () => super.invoke(input, config));
    work.catch(() => undefined); // settled after an abort: nobody awaits it any more
    return raceAbort(work, signal);
  }

  /** @internal LangChain entry point; use `invoke`. */
  override async _getRelevantDocuments(
    query: string,
    runManager?: CallbackManagerForRetrieverRun,
  ): Promise<Document<PageIndexDocumentMetadata>[]> {
    const started = Date.now();
    const signal = this.abortScope.getStore();
    const ctx = new SearchContext({
      query,
      reader: this.reader,
      model: this.model,
      settings: this.settings,
      cache: this.cache,
      lexicalIndex: (skeleton, need, onTextsRead) => this.lexicalIndexes.get(skeleton, need, onTextsRead),
      ...(runManager ? { runManager } : {}),
      ...(signal ? { signal } : {}),
    });
    const { strategy } = this.settings;
    const planned = await planStarts(ctx, {
      docIds: this.options.docIds,
      documentSelection: this.options.documentSelection ?? "all",
      maxDocuments: positive("maxDocuments", this.options.maxDocuments, 3),
      candidates: positive("documentCandidates", this.options.documentCandidates, 20),
      rerank: positive("documentRerank", this.options.documentRerank, 5, 0),
      margin: margin(this.options.documentMargin),
      scoring: this.options.documentScoring ?? "sum",
      filter: this.options.filter,
      firstStage: this.options.firstStage,
      firstStageScope: this.options.firstStageScope ?? "subtree",
    });
    const plan = await readableStarts(ctx, planned);
    let candidates: Awaited<ReturnType<typeof expandSearch>> = [];
    if (plan.starts.length > 0) {
      if (strategy === "single-shot") candidates = await singleShotSearch(ctx, plan.starts, plan.chain);
      else if (strategy === "beam") candidates = await beamSearch(ctx, plan.starts);
      else if (strategy === "auto" && this.model) candidates = await boundedSearch(ctx, plan.starts);
      else candidates = await expandSearch(ctx, plan.starts);
    }
    // Hook: sections matched in the library, nothing found by the search: they stand in.
    candidates = await rescueFromLibrary(ctx, plan, candidates);
    ctx.assertModelUsable();
    const documents = await collectDocuments(ctx, candidates, {
      k: this.settings.k,
      minScore: this.settings.minScore,
      maxContentTokens: this.options.maxContentTokens,
      strategy,
    });
    const run: RetrievalRun = {
      query,
      strategy,
      docIds: ctx.docIds,
      ...(plan.ranking ? { documentRanking: plan.ranking } : {}),
      stats: ctx.stats(Date.now() - started),
      warnings: ctx.warnings,
      visited: ctx.visited,
    };
    this.lastRun = run;
    this.options.onRun?.(run);
    await runManager?.handleCustomEvent?.("pageindex_retrieval_run", run, runManager.runId);
    return documents;
  }
}
