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
import {
  chatModelProblem,
  raceAbort,
  type TreeDocument,
  type TreeReader,
  throwIfAborted,
} from "pageindex-core";
import { type CatalogFilter, MemoryTreeReader } from "pageindex-store";
import { RetrieverConfigError } from "./errors.js";
import type { JudgmentCache } from "./judge/cache.js";
import { CachedJudge } from "./judge/cached-judge.js";
import { FallbackJudge } from "./judge/fallback-judge.js";
import { LexicalJudge } from "./judge/lexical-judge.js";
import { LlmJudge, modelNamespace } from "./judge/llm-judge.js";
import type { Judge } from "./judge/types.js";
import { LexicalIndexes } from "./lexical/index-cache.js";
import type { LexicalTextMode } from "./lexical/node-index.js";
import {
  type BudgetOptions,
  type CacheOptions,
  type CallOptions,
  type DeadEndOptions,
  type DocumentOptions,
  type LexicalOptions,
  normaliseOptions,
  RETRIEVER_DEFAULTS,
  type RetrieverSettings,
} from "./options.js";
import { collectDocuments } from "./search/collect.js";
import { type DocumentScoring, planStarts, readableStarts } from "./search/documents.js";
import { SearchLedger } from "./search/ledger.js";
import { fuseLibraryEvidence, rescueFromLibrary, withLibraryPicks } from "./search/library-starts.js";
import { STRATEGIES } from "./search/strategies.js";
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
   * Who judges (which siblings, which outline entries, which documents), the way LangChain
   * retrievers take a `documentCompressor`: any {@link Judge}, e.g. an `LlmJudge` with another
   * prompt style, a cheaper model, a cross-encoder. Given, it is used as is (wrap it in
   * `CachedJudge` / `FallbackJudge` for a cache and a lexical fallback; `cache` and
   * `lexical.threshold` do not apply to it).
   * @defaultValue with `model`: the model's `LlmJudge`, cached (unless `cache: false`), falling
   * back to a `LexicalJudge`; without: a `LexicalJudge`
   */
  judge?: Judge;
  /** What a query may spend and how prompts are bounded (see {@link BudgetOptions}). */
  budget?: BudgetOptions;
  /** Which documents are searched (see {@link DocumentOptions}). */
  documents?: DocumentOptions;
  /** How model calls are made (see {@link CallOptions}). */
  calls?: CallOptions;
  /** Relevant sections none of whose subsections is (see {@link DeadEndOptions}). */
  deadEnds?: DeadEndOptions;
  /** The lexical judge (see {@link LexicalOptions}). */
  lexical?: LexicalOptions;
  /**
   * `auto` (default): with a model, the whole table of contents in one prompt where it fits
   * `maxPromptTokens`, bounded expansion with lookahead where it does not; without one, `expand`.
   * `expand`, `beam` and `single-shot` as before.
   * @defaultValue "auto"
   */
  strategy?: SearchStrategy;
  /**
   * Most entries listed under one parent in a prompt; a wider level is offered as nested groups. Default 24.
   * @deprecated Use `budget.fanOut` (works for one more release; the grouped name wins).
   */
  fanOut?: number;
  /**
   * Size (tokens) an `auto` prompt may grow to by looking deeper than the opened level. Default `maxPromptTokens` / 3.
   * @deprecated Use `budget.lookaheadTokens` (works for one more release; the grouped name wins).
   */
  lookaheadTokens?: number;
  /**
   * Prompt tokens one query may spend; then the best found so far is returned (`stats.budgetStop`). Default 50 000 (at least 8 × `maxPromptTokens`).
   * @deprecated Use `budget.maxQueryTokens` (works for one more release; the grouped name wins).
   */
  maxQueryTokens?: number;
  /**
   * Model requests (retries included) one query may make. Default unlimited (`maxSteps` still applies).
   * @deprecated Use `budget.maxCalls` (works for one more release; the grouped name wins).
   */
  maxCalls?: number;
  /** Most Documents returned. @defaultValue 5 */
  k?: number;
  /**
   * Most model judgments per query (retries not counted). Default 25.
   * @deprecated Use `budget.maxSteps` (works for one more release; the grouped name wins).
   */
  maxSteps?: number;
  /** Most model calls in flight at once. Default 4. @deprecated Use `calls.concurrency` (works for one more release; the grouped name wins). */
  concurrency?: number;
  /** Drop results scored below this (0..1). @defaultValue 0 */
  minScore?: number;
  /** Beam width: relevant internal nodes kept per level (strategy `beam`). @defaultValue 3 */
  beamWidth?: number;
  /**
   * Whether an internal node may itself be returned: when the judge says its own text answers,
   * or when its whole subtree is under `collapseBelowTokens` (returned as one section, children
   * not judged). A node the step budget stopped at is returned either way.
   * @defaultValue true
   */
  internalNodes?: boolean;
  /**
   * With a model, a branch picked with at most this score is opened only while nothing stronger
   * remains: after every stronger branch, and only when fewer than `k` sections scored above it
   * were found (otherwise it is kept as a result itself, ranked by its score). 0 opens every pick.
   * @defaultValue 0.3
   */
  weakBranchScore?: number;
  /** Subtrees at most this many tokens are returned whole instead of opened. @defaultValue 300 */
  collapseBelowTokens?: number;
  /**
   * When a section is judged relevant but none of its subsections is, one of the two judgments
   * was wrong: keep the branch instead of dropping it (`metadata.deadEnd`, ranked after sections
   * found directly). The section is returned whole when its subtree has at most
   * `deadEndMaxTokens`, otherwise its best lexical matches inside are. Needs `internalNodes`.
   * Default true.
   * @deprecated Use `deadEnds.keep` (works for one more release; the grouped name wins).
   */
  keepDeadEnds?: boolean;
  /**
   * Largest dead-end subtree returned whole (tokens). Default 4000.
   * @deprecated Use `deadEnds.maxTokens` (works for one more release; the grouped name wins).
   */
  deadEndMaxTokens?: number;
  /**
   * Budget (tokens) for the content of all returned Documents together. Default unlimited.
   * @deprecated Use `budget.maxContentTokens` (works for one more release; the grouped name wins).
   */
  maxContentTokens?: number;
  /**
   * Largest prompt sent (tokens, every strategy): summaries are shortened, then candidates split
   * across calls of the same round trip to fit. Default 6 000 (a small local model), or three
   * quarters of the model's input window when its LangChain profile declares a smaller one
   * (`model.profile.maxInputTokens`). A single-shot prompt over it is not sent (see `onPromptTooLarge`).
   * @deprecated Use `budget.maxPromptTokens` (works for one more release; the grouped name wins).
   */
  maxPromptTokens?: number;
  /**
   * When the single-shot prompt is too large: `expand` instead (default) or throw.
   * @deprecated Use `budget.onPromptTooLarge` (works for one more release; the grouped name wins).
   */
  onPromptTooLarge?: "expand" | "error";
  /** Search only these documents. @deprecated Use `documents.docIds` (works for one more release; the grouped name wins). */
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
   * @deprecated Use `documents.selection` (works for one more release; the grouped name wins).
   */
  documentSelection?: "all" | "llm";
  /**
   * Most documents searched when they are chosen. Default 3.
   * @deprecated Use `documents.maxDocuments` (works for one more release; the grouped name wins).
   */
  maxDocuments?: number;
  /**
   * Documents ranked by the catalog (M): the candidates, and what the model may choose from. Default 20.
   * @deprecated Use `documents.candidates` (works for one more release; the grouped name wins).
   */
  documentCandidates?: number;
  /**
   * When the catalog's best candidate does not lead the next by `documentMargin`, this many of
   * the best are re-ranked by their sections' lexical scores (reading each one's skeleton and
   * saved section index). Default 5; 0 ranks by the catalog alone.
   * @deprecated Use `documents.rerank` (works for one more release; the grouped name wins).
   */
  documentRerank?: number;
  /**
   * Without a model: the best candidate is searched alone when its score is at least this many
   * times the next one's (`all`: the next ones are searched while within it). Default 1.5. A
   * model choosing documents always sees the candidates.
   * @deprecated Use `documents.margin` (works for one more release; the grouped name wins).
   */
  documentMargin?: number;
  /**
   * How a candidate's section scores make its score: `sum` (default; PageIndex's DocScore,
   * Σ of its best ≤ 5 section scores / √(N+1)) or `best` (its best section).
   * @deprecated Use `documents.scoring` (works for one more release; the grouped name wins).
   */
  documentScoring?: DocumentScoring;
  /**
   * Only documents whose metadata match (front matter or metadata given at index time, one level
   * deep; or `kind`), e.g. `{ company: "Boeing", year: 2022 }`: applied before ranking.
   * @deprecated Use `documents.filter` (works for one more release; the grouped name wins).
   */
  filter?: CatalogFilter;
  /**
   * A first-stage LangChain retriever (e.g. a vector store over node summaries) whose hits carry
   * `metadata.docId` / `metadata.nodeId`: the search starts from those nodes (hybrid retrieval).
   * @deprecated Use `documents.firstStage` (works for one more release; the grouped name wins).
   */
  firstStage?: BaseRetrieverInterface;
  /**
   `subtree` (default): start at the hit nodes; `document`: only pick documents from the hits.
   * @deprecated Use `documents.firstStageScope` (works for one more release; the grouped name wins).
   */
  firstStageScope?: "subtree" | "document";
  /** Domain knowledge or preferences for the judge, e.g. "For EBITDA questions prefer Item 7". */
  expertKnowledge?: string | string[];
  /**
   * Which text the lexical judge indexes (see {@link LexicalTextMode}). Default `auto`.
   * @deprecated Use `lexical.text` (works for one more release; the grouped name wins).
   */
  lexicalText?: LexicalTextMode;
  /**
   * Lexical relevance cut-off, relative to the best match of the query (0..1). Default 0.35.
   * @deprecated Use `lexical.threshold` (works for one more release; the grouped name wins).
   */
  lexicalThreshold?: number;
  /**
   * Cache of judgments (query × node set): a {@link JudgmentCache} or a LangChain byte store to
   * share it, `false` to disable, or {@link CacheOptions} (`{ store, size }`).
   * @defaultValue an in-memory LRU of 2000 entries
   */
  cache?: JudgmentCache | BaseStore<string, Uint8Array> | false | CacheOptions;
  /** Entries of the default LRU cache. Default 2000. @deprecated Use `cache.size` (works for one more release; the grouped name wins). */
  cacheSize?: number;
  /**
   * Extra attempts per model call after a rate limit, a timeout, a server error or an unusable
   * answer. Default 2. A request the model refuses (wrong key, unknown model, bad request) is not
   * retried; when every model call of a query is refused, `invoke` throws `ModelCallError`.
   * @deprecated Use `calls.retries` (works for one more release; the grouped name wins).
   */
  retries?: number;
  /** Per-attempt model timeout. Default 60 000 ms. @deprecated Use `calls.timeoutMs` (works for one more release; the grouped name wins). */
  timeoutMs?: number;
  /**
   * First retry delay after a rate limit or timeout. Default 1000 ms.
   * @deprecated Use `calls.backoffMs` (works for one more release; the grouped name wins).
   */
  backoffMs?: number;
  /** Called with each query's record (safe with concurrent queries, unlike `lastRun`). */
  onRun?: (run: RetrievalRun) => void;
}

/** @deprecated Use `RETRIEVER_DEFAULTS.budget.maxPromptTokens`. */
export const DEFAULT_MAX_PROMPT_TOKENS = RETRIEVER_DEFAULTS.budget.maxPromptTokens;

/** The default judge: the model's, cached, falling back to the lexical judge; the lexical judge offline. */
function defaultJudge(fields: PageIndexRetrieverInput, settings: RetrieverSettings): Judge {
  const lexical = new LexicalJudge({ threshold: settings.search.lexicalThreshold });
  if (!fields.model) return lexical;
  const llm = new LlmJudge({
    model: fields.model,
    ...(fields.expertKnowledge !== undefined ? { expertKnowledge: fields.expertKnowledge } : {}),
  });
  const cached = settings.cache
    ? new CachedJudge(llm, settings.cache, { namespace: settings.search.cacheNamespace })
    : llm;
  return new FallbackJudge(cached, lexical);
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

  /** Who judges (the `judge` option, or the default built from `model`). */
  readonly judge: Judge;

  private readonly settings: RetrieverSettings;
  private readonly onRun: ((run: RetrievalRun) => void) | undefined;
  private readonly lexicalIndexes: LexicalIndexes;

  constructor(fields: PageIndexRetrieverInput) {
    super(fields);
    if (fields.reader && fields.trees) {
      throw new RetrieverConfigError("PageIndexRetriever: give either `reader` or `trees`, not both");
    }
    if (!fields.reader && !fields.trees) {
      throw new RetrieverConfigError("PageIndexRetriever: give `reader` (a TreeReader) or `trees`");
    }
    const modelProblem = fields.model === undefined ? undefined : chatModelProblem(fields.model);
    if (modelProblem) throw new RetrieverConfigError(`PageIndexRetriever: model ${modelProblem}`);
    this.reader = fields.reader ?? new MemoryTreeReader(fields.trees);
    this.model = fields.model;
    this.onRun = fields.onRun;
    this.settings = normaliseOptions(
      fields,
      `${modelNamespace(fields.model)}|${JSON.stringify(fields.expertKnowledge ?? "")}`,
    );
    this.judge = fields.judge ?? defaultJudge(fields, this.settings);
    this.lexicalIndexes = new LexicalIndexes(
      this.reader,
      this.settings.lexicalText,
      RETRIEVER_DEFAULTS.lexical.indexCacheSize,
    );
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
    const { search, documents } = this.settings;
    const ctx = new SearchLedger({
      query,
      reader: this.reader,
      judge: this.judge,
      settings: search,
      lexicalIndex: (skeleton, need, use, onTextsRead, onUnreadable) =>
        this.lexicalIndexes.read(skeleton, need, use, onTextsRead, onUnreadable),
      ...(runManager ? { runManager } : {}),
      ...(signal ? { signal } : {}),
    });
    const { strategy } = search;
    const plan = await readableStarts(ctx, await planStarts(ctx, documents));
    const searched = withLibraryPicks(
      plan,
      plan.starts.length > 0 ? await STRATEGIES[strategy](ctx, plan) : [],
    );
    // Hook: sections matched in the library, nothing found by the search: they stand in.
    const candidates = await fuseLibraryEvidence(ctx, plan, await rescueFromLibrary(ctx, plan, searched));
    ctx.assertModelUsable();
    const found = await collectDocuments(ctx, candidates, {
      k: search.k,
      minScore: search.minScore,
      maxContentTokens: this.settings.maxContentTokens,
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
    this.onRun?.(run);
    await runManager?.handleCustomEvent?.("pageindex_retrieval_run", run, runManager.runId);
    return found;
  }
}
