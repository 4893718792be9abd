import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { TreeDocument, UsageTracker } from "pageindex-store";
import { describeDocument } from "./describe.js";
import type { TextMarkup } from "./extractive.js";
import { modelName, type SummaryMode, summarizeTree } from "./summarize.js";

/** The loader options that decide summaries, description and model calls (both loaders share them). */
export interface EnrichOptions {
  model?: BaseChatModel;
  summaryThreshold?: number;
  summaryChars?: number;
  concurrency?: number;
  description?: boolean;
  retries?: number;
  timeoutMs?: number;
  /** The caller's tracker: this build's usage is added to it at the end. */
  usage?: UsageTracker;
  callbacks?: Callbacks;
  signal?: AbortSignal;
}

/**
 * The last steps every loader runs on a freshly built tree: summaries (`mode`), the optional
 * document description, and the record of what it cost (`build.model`, `build.usage`,
 * `build.warnings`). A failed model call never aborts: it leaves an extractive result and a
 * warning.
 */
export async function enrichTree(
  tree: TreeDocument,
  options: EnrichOptions,
  run: {
    mode: SummaryMode;
    markup: TextMarkup;
    usage: UsageTracker;
    warnings: string[];
    /** Title to describe the document by (front matter, PDF info), when known. */
    title?: string;
    onPhase?: (phase: "summarize" | "describe") => void;
  },
): Promise<void> {
  const { usage, warnings, markup } = run;
  const shared = {
    usage,
    ...(options.model ? { model: options.model } : {}),
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
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
  if (options.description) {
    run.onPhase?.("describe");
    const described = await describeDocument(tree, {
      ...shared,
      markup,
      ...(run.title ? { title: run.title } : {}),
    });
    if (described.description !== undefined) tree.description = described.description;
    if (described.warning) warnings.push(described.warning);
  }
  if (options.model && usage.total.calls > 0) tree.build.model = modelName(options.model);
  tree.build.usage = usage.toJSON();
  tree.build.warnings = warnings;
  options.usage?.merge(usage);
}
