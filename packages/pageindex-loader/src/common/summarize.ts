import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import pLimit from "p-limit";
import {
  asData,
  branchOverview,
  chatModelProblem,
  childrenOf,
  clipModelText,
  countTokens,
  DATA_NOT_INSTRUCTIONS,
  invokeStructured,
  isReadableSummary,
  oneLine,
  pathLine,
  raceAbort,
  type TreeDocument,
  throwIfAborted,
  type UsageTracker,
} from "pageindex-core";
import { z } from "zod/v4";
import { InvalidInputError } from "./errors.js";
import { DEFAULT_SUMMARY_CHARS, extractiveSummary, type TextMarkup, toPlainText } from "./extractive.js";

/** `none`: no summaries; `extractive`: a deterministic lead (no LLM); `llm`: a chat model writes them. */
export type SummaryMode = "none" | "extractive" | "llm";

/** One piece of text to summarise, independent of where it came from (Markdown section, PDF pages). */
export interface SummaryTarget {
  /** The caller's key, e.g. a node id. */
  id: string;
  title: string;
  /** The node's own text. */
  text: string;
  /** Token count of `text`, when already known (counted otherwise). */
  tokenCount?: number;
  /** Titles from the root to this node, shown to the model as context. */
  path?: string[];
}

/** How a summary was made. */
export type SummaryMethod = "text" | "extractive" | "llm" | "fallback";

/** The summary of one {@link SummaryTarget}. */
export interface SummaryOutcome {
  id: string;
  /** Absent when the text has no content besides its title, or in mode `none`. */
  summary?: string;
  /** `text`: short text used as is; `fallback`: extractive because the LLM call failed. */
  method?: SummaryMethod;
}

/** Options of {@link summarizeNodes} and {@link summarizeTree}. */
export interface SummarizeOptions {
  /** Default `"extractive"`. `"llm"` requires `model`. */
  mode?: SummaryMode;
  /** Any LangChain chat model; required for mode `llm`. */
  model?: BaseChatModel;
  /** In mode `llm`, texts under this many tokens are their own summary (no call). Default 200. */
  threshold?: number;
  /** Concurrent model calls. Default 4. */
  concurrency?: number;
  /** Length of extractive summaries, in characters. Default 300. */
  maxChars?: number;
  /** Longest text sent to the model, in characters (the rest is cut). Default 24,000. */
  maxInputChars?: number;
  /** How to strip markup for extractive summaries. Default `"markdown"`. */
  markup?: TextMarkup;
  /** Records calls and tokens under step `"summary"`. */
  usage?: UsageTracker;
  callbacks?: Callbacks;
  signal?: AbortSignal;
  /** Retries per call on a bad answer or rate limit (see `invokeStructured`). Default 1. */
  retries?: number;
  /** Per-call timeout. Default 60 s. */
  timeoutMs?: number;
  /** Document name, given to the model as context. */
  docName?: string;
  /** Called after each target is done. */
  onProgress?: (done: number, total: number) => void;
}

/** Result of {@link summarizeNodes}: one outcome per target, in input order. */
export interface SummarizeResult {
  outcomes: SummaryOutcome[];
  /** One line per failed model call (its node then has an extractive summary). */
  warnings: string[];
}

/** PageIndex's size below which a node's text is its own summary. */
export const DEFAULT_SUMMARY_THRESHOLD = 200;

/** Longest summary kept from a model (1-3 sentences are asked for; a runaway answer is cut). */
export const MAX_MODEL_SUMMARY_CHARS = 1500;
/** Default number of concurrent summary calls. */
export const DEFAULT_SUMMARY_CONCURRENCY = 4;

const SummarySchema = z.object({
  summary: z.string().describe("1-3 sentences saying what the section covers"),
});

const SYSTEM_PROMPT = [
  "You write the summary shown under one section title in a table of contents. A retrieval system",
  "reads these summaries to decide which sections can answer a question, so say concretely what the",
  "section covers: its topics, rules, figures, names and terms. Use 1-3 sentences, at most 60 words,",
  'no preamble. Answer as JSON: {"summary": "..."}.',
  DATA_NOT_INSTRUCTIONS,
].join(" ");

function truncate(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars)}\n[… section continues, cut here]`;
}

/** A name for a model, for `build.model`: its configured model name, else its LangChain type. */
export function modelName(model: BaseChatModel): string {
  const m = model as unknown as { model?: unknown; modelName?: unknown };
  if (typeof m.model === "string" && m.model) return m.model;
  if (typeof m.modelName === "string" && m.modelName) return m.modelName;
  return model._llmType();
}

/**
 * Checks summary options early, so a misconfiguration fails before any work.
 * @throws {InvalidInputError} when mode `llm` has no model or a number is out of range.
 */
export function checkSummaryOptions(options: SummarizeOptions, source = "(options)"): void {
  if (options.mode === "llm" && !options.model) {
    throw new InvalidInputError(source, 'summaries: "llm" needs a chat model (the model option)');
  }
  const modelProblem = options.model ? chatModelProblem(options.model) : undefined;
  if (modelProblem) throw new InvalidInputError(source, `model: ${modelProblem}`);
  for (const key of ["threshold", "maxChars", "maxInputChars"] as const) {
    const value = options[key];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0)) {
      throw new InvalidInputError(source, `${key} must be a non-negative number, got ${value}`);
    }
  }
  const c = options.concurrency;
  if (c !== undefined && !(Number.isInteger(c) && c >= 1)) {
    throw new InvalidInputError(source, `concurrency must be a positive integer, got ${c}`);
  }
}

/**
 * Summarises texts: extractively, or with a chat model (short texts are their own summary,
 * calls run with bounded concurrency, and a failed or unusable answer falls back to the
 * extractive summary with a warning; it never throws for a model problem).
 * @throws {InvalidInputError} when mode `llm` is asked without a model.
 * @throws The abort error (see `abortError`) when `signal` fires, before or during the calls:
 * cancelling is the caller's request, not a model failure to paper over.
 */
export async function summarizeNodes(
  targets: SummaryTarget[],
  options: SummarizeOptions = {},
): Promise<SummarizeResult> {
  checkSummaryOptions(options);
  throwIfAborted(options.signal);
  const mode = options.mode ?? "extractive";
  const warnings: string[] = [];
  const total = targets.length;
  let done = 0;
  const progress = () => {
    done += 1;
    options.onProgress?.(done, total);
  };
  const extractive = (t: SummaryTarget) =>
    extractiveSummary(t.text, {
      maxChars: options.maxChars ?? DEFAULT_SUMMARY_CHARS,
      markup: options.markup ?? "markdown",
      title: t.title,
    });
  const outcome = (id: string, summary: string, method: SummaryMethod): SummaryOutcome =>
    summary ? { id, summary, method } : { id };

  if (mode === "none" || mode === "extractive" || !options.model) {
    const outcomes = targets.map((t) => {
      progress();
      return mode === "none" ? { id: t.id } : outcome(t.id, extractive(t), "extractive");
    });
    return { outcomes, warnings };
  }

  const model = options.model;
  const threshold = options.threshold ?? DEFAULT_SUMMARY_THRESHOLD;
  const limit = pLimit(options.concurrency ?? DEFAULT_SUMMARY_CONCURRENCY);
  const markup = options.markup ?? "markdown";

  const summarizeOne = async (t: SummaryTarget): Promise<SummaryOutcome> => {
    const plain = toPlainText(t.text, { markup, title: t.title });
    if (!plain) return { id: t.id };
    const tokens = t.tokenCount ?? countTokens(t.text);
    if (tokens < threshold) return outcome(t.id, plain, "text");
    throwIfAborted(options.signal);

    // Names and titles are document text too: delimited and escaped like the section itself.
    const context = [
      options.docName ? `Document: ${oneLine(options.docName)}` : "",
      `Section: ${pathLine(t.path ?? [t.title])}`,
    ]
      .filter(Boolean)
      .join("\n");
    const result = await invokeStructured(model, {
      schema: SummarySchema,
      step: "summary",
      messages: [
        new SystemMessage(SYSTEM_PROMPT),
        new HumanMessage(
          `${asData("document", context)}\n\n${asData("section", truncate(t.text, options.maxInputChars ?? 24_000))}\n\nSummarise this section.`,
        ),
      ],
      retries: options.retries ?? 1,
      ...(options.usage ? { usage: options.usage } : {}),
      ...(options.callbacks ? { callbacks: options.callbacks } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
    });
    // invokeStructured reports an aborted call as a failure; it must not become a fallback.
    throwIfAborted(options.signal);
    const summary = result.ok ? clipModelText(result.value.summary, MAX_MODEL_SUMMARY_CHARS) : "";
    if (summary) return outcome(t.id, summary, "llm");
    const reason = result.ok ? "the model returned an empty summary" : result.error.message;
    warnings.push(`summary of "${t.title}" (${t.id}) fell back to extractive: ${reason}`);
    return outcome(t.id, extractive(t), "fallback");
  };

  const outcomes = await raceAbort(
    Promise.all(
      targets.map((t) =>
        limit(async () => {
          try {
            return await summarizeOne(t);
          } finally {
            progress();
          }
        }),
      ),
    ),
    options.signal,
  );
  return { outcomes, warnings };
}

/**
 * Summarises every node of a tree in place: leaves get `summary`, internal nodes
 * `prefixSummary` (of their own intro text). Existing summaries are replaced; nodes with
 * nothing to summarise get none. Returns the warnings of failed model calls.
 */
export async function summarizeTree(
  tree: TreeDocument,
  options: SummarizeOptions = {},
): Promise<{ warnings: string[]; outcomes: SummaryOutcome[] }> {
  const byId = new Map(tree.nodes.map((n) => [n.nodeId, n]));
  const pathOf = (id: string): string[] => {
    const titles: string[] = [];
    for (let n = byId.get(id); n; n = n.parentId === null ? undefined : byId.get(n.parentId)) {
      titles.unshift(n.title);
    }
    return titles;
  };
  // Title paths go into model prompts only: extractive summaries of a large tree skip them.
  const withPaths = options.mode === "llm" && options.model !== undefined;
  const targets: SummaryTarget[] = tree.nodes.map((n) => ({
    id: n.nodeId,
    title: n.title,
    text: n.text,
    tokenCount: n.tokenCount,
    ...(withPaths ? { path: pathOf(n.nodeId) } : {}),
  }));
  const result = await summarizeNodes(targets, { docName: tree.docName, ...options });
  result.outcomes.forEach((o, i) => {
    const node = tree.nodes[i];
    if (!node) return;
    delete node.summary;
    delete node.prefixSummary;
    if (o.summary === undefined) return;
    if (node.childIds.length === 0) node.summary = o.summary;
    else node.prefixSummary = o.summary;
  });
  summarizeBranches(tree);
  return result;
}

/**
 * Gives every internal node whose own introduction has no readable summary (empty, a bare
 * heading, a variable name) a `branchSummary`: what its subsections cover, from their titles and
 * summaries (no model). A judge reading the table of contents then sees more than a title for
 * "7 R Miscellanea" and its 44 subsections. Replaces branch summaries made before.
 */
export function summarizeBranches(tree: TreeDocument): void {
  for (const node of tree.nodes) {
    delete node.branchSummary;
    if (node.childIds.length === 0 || isReadableSummary(node.prefixSummary, node.title)) continue;
    const overview = branchOverview(childrenOf(tree, node));
    if (overview) node.branchSummary = overview;
  }
}
