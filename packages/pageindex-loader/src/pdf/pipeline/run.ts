import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { UsageTracker } from "pageindex-core";
import { sha256Hex } from "../../common/source.js";
import type { LlmStructureOptions } from "../llm/index.js";
import { type PdfSourceInfo, type PdfTreeLoaderOptions, tocScanPages } from "../options.js";
import type { PdfProgressEvent } from "../types.js";

type Phase = PdfProgressEvent["phase"];

/** Progress events: the pages parsed so far and the model calls so far ride along with every phase. */
export class ProgressReporter {
  pagesParsed = 0;
  pageCount = 0;

  constructor(
    private readonly usage: UsageTracker,
    private readonly listener: ((event: PdfProgressEvent) => void) | undefined,
  ) {}

  report(phase: Phase, step?: number, steps?: number): void {
    this.listener?.({
      phase,
      pagesParsed: this.pagesParsed,
      pageCount: this.pageCount,
      llmCalls: this.usage.total.calls,
      ...(step !== undefined && steps !== undefined ? { step, steps } : {}),
    });
  }

  /**
   * Reports a step and yields: the structure work is synchronous, so between its steps the event
   * loop gets a turn and a timer-drawn progress bar shows the new phase instead of freezing on
   * the last parsed page.
   */
  async stepDone(phase: Phase, step: number, steps: number): Promise<void> {
    this.report(phase, step, steps);
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
}

/** What every step of one PDF's build shares: its options, its name in errors, and the ledgers. */
export interface PdfRun {
  readonly options: PdfTreeLoaderOptions;
  readonly info: PdfSourceInfo;
  /** What errors call the input. */
  readonly label: string;
  readonly contentHash: string;
  /** Model calls and tokens, by step. */
  readonly usage: UsageTracker;
  /** Non-fatal problems in the order met; they end up on the tree. */
  readonly warnings: string[];
  readonly progress: ProgressReporter;
}

/** Starts a build of `bytes`: nothing is read yet. */
export function startRun(bytes: Uint8Array, options: PdfTreeLoaderOptions, info: PdfSourceInfo): PdfRun {
  const usage = new UsageTracker();
  return {
    options,
    info,
    label: info.label ?? info.path ?? options.docName ?? info.name ?? "(in-memory PDF)",
    contentHash: sha256Hex(bytes),
    usage,
    warnings: [],
    progress: new ProgressReporter(usage, options.onProgress),
  };
}

/** Options of a model call; its calls are reported under the phase that makes them (structure, or splitting large nodes). */
export function llmOptions(
  run: PdfRun,
  model: BaseChatModel,
  phase: "structure" | "split",
): LlmStructureOptions {
  const { options } = run;
  return {
    model,
    usage: run.usage,
    tocScanPages: tocScanPages(options),
    onProgress: () => run.progress.report(phase),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  };
}
