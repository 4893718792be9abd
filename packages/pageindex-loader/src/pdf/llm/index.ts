/**
 * The PDF loader's LLM structure path (PageIndex's method, with fewer calls and no hard
 * failures): find the table of contents, read it, place its entries on physical pages, verify
 * them, and fall back mode by mode (toc-with-pages → toc-without-pages → no-toc) down to a
 * partial tree of verified sections and page-range nodes.
 * @packageDocumentation
 */
import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { NodeDraft, UsageTracker } from "pageindex-core";
import type { PdfPage } from "../types.js";
import { LlmCaller } from "./caller.js";
import { titleKey } from "./entries.js";
import { type LlmMode, type ModeContext, noToc, tocWithoutPages, tocWithPages } from "./modes.js";
import { nestEntries, rangeDrafts } from "./nest.js";
import { PageSet } from "./pages.js";
import { detectToc } from "./toc-detect.js";
import { transformToc } from "./toc-transform.js";
import type { CheckedEntries } from "./verify.js";

/** Result of the LLM structure path. */
export interface LlmStructureResult {
  /**
   * Nested sections in document order. Each has `title`, `startPage` (physical, 1-based),
   * optional `children`, and `metadata.appearStart` (whether it starts at the top of its page,
   * so that page is not shared with the previous section). No "Preface" node is added.
   */
  drafts: NodeDraft[];
  /** Non-fatal problems: failed calls, dropped entries, fallbacks taken. */
  warnings: string[];
  /**
   * `false` when no mode produced a verified structure (the drafts are the verified sections
   * plus "Pages a-b" nodes) or `maxPages` left pages unread.
   */
  complete: boolean;
  /** The mode that produced the drafts: `toc-with-pages`, `toc-without-pages`, `no-toc`, `partial` or `empty`. */
  mode: string;
  /**
   * Sections the model placed (verified), not counting the "Pages a-b" nodes that cover what it
   * could not structure. 0 means the model contributed nothing: the drafts are page ranges only.
   */
  placed: number;
}

/** Options of {@link buildStructureWithLlm} and {@link splitLargeNodeWithLlm}. */
export interface LlmStructureOptions {
  /** Any LangChain chat model (tool calling used when it has it, JSON text otherwise). */
  model: BaseChatModel;
  /** Concurrent model calls, at most. Default 3. */
  concurrency?: number;
  /** Records calls and tokens by step (`toc-detect`, `toc-transform`, `toc-offset`, `toc-locate`, `no-toc-structure`, `verify`, `relocate`). */
  usage: UsageTracker;
  callbacks?: Callbacks;
  /** Pages searched for a table of contents. Default 20. */
  tocScanPages?: number;
  /** Page tokens per call when reading the document in groups. Default 20,000. */
  groupTokens?: number;
  /** Read only the first `maxPages` pages; the rest become page-range nodes (`complete: false`). */
  maxPages?: number;
  /** Called after every model call with the tracker's running total. */
  onProgress?: (e: { llmCalls: number }) => void;
  /** Aborting stops the work and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Extra attempts per call after a bad answer, rate limit or timeout. Default 2. */
  retries?: number;
  /** Per-attempt timeout. Default 60 s. */
  timeoutMs?: number;
  /** First backoff after a rate limit or timeout (doubles). Default 1 s. */
  backoffMs?: number;
  /**
   * {@link splitLargeNodeWithLlm} only: the title of the node being split. The model is told
   * it reads that section, and a first section repeating this title is replaced by its children.
   */
  nodeTitle?: string;
}

const DEFAULTS = { concurrency: 3, tocScanPages: 20, groupTokens: 20_000 };
/** Page tokens per verification or relocation call: smaller than a reading group, as many claims share it. */
const CHECK_TOKENS = 12_000;

function setup(pages: PdfPage[], opts: LlmStructureOptions) {
  const caller = new LlmCaller({
    model: opts.model,
    usage: opts.usage,
    concurrency: opts.concurrency ?? DEFAULTS.concurrency,
    ...(opts.callbacks !== undefined ? { callbacks: opts.callbacks } : {}),
    ...(opts.signal !== undefined ? { signal: opts.signal } : {}),
    ...(opts.retries !== undefined ? { retries: opts.retries } : {}),
    ...(opts.timeoutMs !== undefined ? { timeoutMs: opts.timeoutMs } : {}),
    ...(opts.backoffMs !== undefined ? { backoffMs: opts.backoffMs } : {}),
    ...(opts.onProgress !== undefined ? { onProgress: opts.onProgress } : {}),
  });
  const groupTokens = Math.max(500, opts.groupTokens ?? DEFAULTS.groupTokens);
  const maxPages =
    opts.maxPages !== undefined && opts.maxPages > 0 ? Math.floor(opts.maxPages) : pages.length;
  const read = pages.slice(0, maxPages);
  const unread = pages.slice(maxPages);
  const warnings: string[] = [];
  if (unread.length > 0) {
    warnings.push(
      `maxPages: only pages ${read[0]?.pageNumber}-${read[read.length - 1]?.pageNumber} were read; the rest are page-range nodes`,
    );
  }
  const ctx: ModeContext = {
    caller,
    pages: new PageSet(read),
    groupTokens,
    budgetTokens: Math.min(groupTokens, CHECK_TOKENS),
    warnings,
  };
  return { ctx, unread };
}

/** Turns the winning attempt (or the best failed one) into the result. */
function finish(
  ctx: ModeContext,
  unread: PdfPage[],
  winner: { mode: LlmMode; result: CheckedEntries } | undefined,
  attempts: Array<{ mode: LlmMode; result: CheckedEntries }>,
): LlmStructureResult {
  const warnings = [...ctx.warnings, ...ctx.caller.warnings()];
  const tail = rangeDrafts(unread, ctx.groupTokens);
  if (winner) {
    return {
      drafts: [...nestEntries(winner.result.entries), ...tail],
      warnings,
      complete: unread.length === 0,
      mode: winner.mode,
      placed: winner.result.entries.length,
    };
  }
  // Every mode failed: keep what was verified (from the attempt that verified most) and cover
  // the pages before it with page-range nodes, rather than lose the work.
  const best = [...attempts].sort((a, b) => b.result.entries.length - a.result.entries.length)[0];
  const verified = (best?.result.entries ?? []).filter((e) => e.page !== undefined);
  const firstVerified = verified[0]?.page ?? ctx.pages.last + 1;
  const head = rangeDrafts(
    ctx.pages.pages.filter((p) => p.pageNumber < firstVerified),
    ctx.groupTokens,
  );
  warnings.push(
    verified.length > 0
      ? `no mode produced a verified structure; kept ${verified.length} verified section(s) from ${best?.mode} and page-range nodes for the rest`
      : "no mode produced a verified structure; the document is split into page-range nodes",
  );
  return {
    drafts: [...head, ...nestEntries(verified), ...tail],
    warnings,
    complete: false,
    mode: "partial",
    placed: verified.length,
  };
}

/**
 * Builds a PDF's section structure with a chat model. Tries the table of contents with page
 * numbers, then without, then reading the document itself; each mode's result is verified
 * against the pages before it is accepted. Never throws for model failures: when every mode
 * fails, the result is partial (`complete: false`) with a warning.
 * @param pages The document's pages in order (physical numbers from 1).
 * @throws The signal's reason when `opts.signal` aborts.
 */
export async function buildStructureWithLlm(
  pages: PdfPage[],
  opts: LlmStructureOptions,
): Promise<LlmStructureResult> {
  if (pages.length === 0)
    return { drafts: [], warnings: ["no pages to structure"], complete: true, mode: "empty", placed: 0 };
  const { ctx, unread } = setup(pages, opts);
  const attempts: Array<{ mode: LlmMode; result: CheckedEntries }> = [];
  const attempt = async (mode: LlmMode, run: () => Promise<CheckedEntries>) => {
    ctx.caller.checkAborted();
    const result = await run();
    attempts.push({ mode, result });
    if (!result.accepted && !ctx.caller.gaveUp) {
      ctx.warnings.push(`${mode}: ${Math.round(result.accuracy * 100)}% of entries verified; falling back`);
    }
    return result.accepted ? { mode, result } : undefined;
  };

  const toc = await detectToc(ctx.pages.pages, ctx.caller, opts.tocScanPages ?? DEFAULTS.tocScanPages);
  let winner: { mode: LlmMode; result: CheckedEntries } | undefined;
  if (toc && !ctx.caller.gaveUp) {
    const entries = await transformToc(toc, ctx.caller, ctx.warnings);
    if (entries.length > 0) {
      if (toc.hasPageNumbers && entries.some((e) => e.printedPage !== undefined)) {
        winner = await attempt("toc-with-pages", () => tocWithPages(entries, toc, ctx));
      }
      if (!winner && !ctx.caller.gaveUp) {
        winner = await attempt("toc-without-pages", () => tocWithoutPages(entries, toc, ctx));
      }
    }
  }
  if (!winner && !ctx.caller.gaveUp) winner = await attempt("no-toc", () => noToc(ctx));
  return finish(ctx, unread, winner, attempts);
}

/**
 * Re-indexes the pages of one large node with the no-TOC mode (for the recursive split of
 * nodes over the page and token budget). Page numbers stay physical; the result never reaches
 * outside `pages`. Never throws for model failures (partial result instead).
 * @throws The signal's reason when `opts.signal` aborts.
 */
export async function splitLargeNodeWithLlm(
  pages: PdfPage[],
  opts: LlmStructureOptions,
): Promise<LlmStructureResult> {
  if (pages.length === 0)
    return { drafts: [], warnings: ["no pages to structure"], complete: true, mode: "empty", placed: 0 };
  const { ctx, unread } = setup(pages, opts);
  const result = await noToc(ctx, opts.nodeTitle);
  const run = { mode: "no-toc" as const, result };
  const out = finish(ctx, unread, result.accepted ? run : undefined, [run]);
  const first = out.drafts[0];
  if (opts.nodeTitle && first && titleKey(first.title) === titleKey(opts.nodeTitle)) {
    // The node's own heading is not a subsection of itself.
    out.drafts.splice(0, 1, ...(first.children ?? []));
  }
  return out;
}
