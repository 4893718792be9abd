import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { detectBackMatter, type TreeDocument, throwIfAborted, type UsageTracker } from "pageindex-core";
import { type DocumentFacts, describeDocument } from "./describe.js";
import type { TextMarkup } from "./extractive.js";
import { checkSummaryOptions, modelName, type SummaryMode, summarizeTree } from "./summarize.js";

/** Options every tree loader takes: identity, summaries, description, model calls, limits. */
export interface TreeLoaderOptions {
  /** Document id; derived from the name (or, for unnamed input, the content hash) when omitted. */
  docId?: string;
  /** Human-readable name; defaults to the file name. */
  docName?: string;
  /** Where the document came from; defaults to the file path. */
  source?: string;
  /**
   * `"extractive"` (default): a deterministic lead of each section; `"llm"`: written by `model`;
   * `"none"`: no summaries.
   */
  summaries?: SummaryMode;
  /** Chat model for LLM summaries and the description (and, for PDFs, the LLM structure path). */
  model?: BaseChatModel;
  /** In LLM mode, sections under this many tokens are their own summary. Default 200. */
  summaryThreshold?: number;
  /** Length of extractive summaries in characters. Default 300. */
  summaryChars?: number;
  /** Concurrent model calls. Default 4 for summaries (3 for the PDF structure path). */
  concurrency?: number;
  /**
   * Ask `model` for a one-sentence document description (one call). Default false. Every tree
   * gets a description either way: without this (or without a model) it is drawn from what the
   * document says about itself (metadata, title page, front matter, first paragraph, top-level
   * sections); the model's sentence replaces it.
   */
  description?: boolean;
  /** Retries per model call on a bad answer or rate limit. */
  retries?: number;
  /** Per-call timeout in ms. Default 60 s. */
  timeoutMs?: number;
  /** Refuse inputs larger than this many bytes. Default: no limit. */
  maxBytes?: number;
  /** Also add this document's LLM usage to a caller's tracker (e.g. over a batch). */
  usage?: UsageTracker;
  callbacks?: Callbacks;
  signal?: AbortSignal;
}

/**
 * Checks the summary options every tree loader takes, before any work.
 * @throws {InvalidInputError} naming `where`.
 */
export function checkLoaderSummaryOptions(options: TreeLoaderOptions, where: string): void {
  checkSummaryOptions(
    {
      mode: options.summaries ?? "extractive",
      ...(options.model ? { model: options.model } : {}),
      ...(options.summaryThreshold !== undefined ? { threshold: options.summaryThreshold } : {}),
      ...(options.summaryChars !== undefined ? { maxChars: options.summaryChars } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    },
    where,
  );
}

/**
 * The last steps every loader runs on a freshly built tree: summaries (`mode`), the optional
 * document description, and the record of what it cost (`build.model`, `build.usage`,
 * `build.warnings`). A failed model call never aborts: it leaves an extractive result and a
 * warning.
 * @throws The abort error (see `abortError`) when `options.signal` fires: an aborted load
 * rejects instead of returning a tree of fallbacks.
 */
export async function enrichTree(
  tree: TreeDocument,
  options: TreeLoaderOptions,
  run: {
    mode: SummaryMode;
    markup: TextMarkup;
    usage: UsageTracker;
    warnings: string[];
    /** Title to describe the document by (front matter, PDF info), when known. */
    title?: string;
    /** What the document says about itself, for the description. */
    facts?: DocumentFacts;
    onPhase?: (phase: "summarize" | "describe") => void;
  },
): Promise<void> {
  throwIfAborted(options.signal);
  const { usage, warnings, markup } = run;
  const calls = {
    usage,
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
  const shared = options.model ? { ...calls, model: options.model } : calls;
  markBackMatter(tree);
  if (run.mode !== "none") {
    run.onPhase?.("summarize");
    const result = await summarizeTree(tree, {
      ...shared,
      mode: run.mode,
      markup,
      ...(options.summaryThreshold !== undefined ? { threshold: options.summaryThreshold } : {}),
      ...(options.summaryChars !== undefined ? { maxChars: options.summaryChars } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    });
    warnings.push(...result.warnings);
  }
  // Always described: from the document's own facts, or by the model when asked for.
  if (options.description) run.onPhase?.("describe");
  const described = await describeDocument(tree, {
    ...(options.description ? shared : calls),
    markup,
    ...(run.title ? { title: run.title } : {}),
    ...(run.facts ? { facts: run.facts } : {}),
  });
  tree.description = described.description ?? tree.docName;
  if (described.warning) warnings.push(described.warning);
  if (options.model && usage.total.calls > 0) tree.build.model = modelName(options.model);
  tree.build.usage = usage.toJSON();
  tree.build.warnings = warnings;
  options.usage?.merge(usage);
}

/**
 * Marks back matter (index, contents, lists of figures or tables, bibliography, glossary) by
 * title and content shape ("term 23, 32" lines), so retrievers do not offer it as content.
 */
export function markBackMatter(tree: TreeDocument): void {
  for (const node of tree.nodes) {
    const kind = detectBackMatter({ title: node.title, text: node.text });
    if (kind) node.backMatter = kind;
    else delete node.backMatter;
  }
}
