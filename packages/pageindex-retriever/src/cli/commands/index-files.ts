import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { PageIndexLoader } from "pageindex-loader";
import { PageIndexError, type PageIndexStore, toDocId, UsageTracker } from "pageindex-store";
import { LexicalIndexes } from "../../lexical/index-cache.js";
import type { CliContext } from "../context.js";
import { docIdForFile, type FileDocId } from "../doc-ids.js";
import { expandInputs } from "../files.js";
import { CliError, EXIT, exitCodeOf, plural, printJson } from "../output.js";
import { createProgress } from "../progress.js";

/** Options of `pageindex index`. */
export interface IndexCommandOptions {
  structure?: "auto" | "outline" | "layout" | "llm";
  summaries?: "none" | "extractive" | "llm";
  description?: boolean;
  concurrency?: number;
  force?: boolean;
  password?: string;
}

/** What happened to one file. */
export interface IndexOutcome {
  file: string;
  docId: string;
  status: "indexed" | "unchanged" | "failed";
  kind?: string;
  nodes?: number;
  pages?: number;
  structure?: string;
  llmCalls?: number;
  warnings?: string[];
  error?: string;
  /** Why the id is not the file name: another source holds that id. */
  renamed?: string;
  /** The stored copy could not be read, so the file was indexed again although unchanged. */
  repaired?: string;
  /** Time to read, parse and store the file (ms), when indexed. */
  durationMs?: number;
}

/** A failed file's error, named by its file unless the message already names it. */
export function failureLine(outcome: Pick<IndexOutcome, "file" | "error">): string {
  const name = basename(outcome.file);
  const message = outcome.error ?? "failed";
  return message.includes(name) ? message : `${name}: ${message}`;
}

const STRUCTURES = ["auto", "outline", "layout", "llm"];

/**
 * Why an unchanged file must still be indexed: its stored copy cannot be read (a corrupt head,
 * skeleton or text chunk). Reading the whole tree verifies every checksum.
 */
async function unreadableReason(store: PageIndexStore, target: FileDocId): Promise<string | undefined> {
  if (target.state.status === "unreadable") return target.state.error.message;
  try {
    await store.getTree(target.docId);
    return undefined;
  } catch (error) {
    if (error instanceof PageIndexError) return error.message;
    throw error;
  }
}
const SUMMARIES = ["none", "extractive", "llm"];

/**
 * Builds the document's lexical index now and saves it beside the new version, so the first
 * `ask` reads one key instead of every section's text. An optimisation only: a failure leaves
 * the index to be built by the first query.
 */
export async function saveLexicalIndex(store: PageIndexStore, docId: string): Promise<void> {
  try {
    await new LexicalIndexes(store).get(await store.getSkeleton(docId));
  } catch {
    // The query path builds it again when needed.
  }
}

/**
 * Indexes files and folders into the store. An unchanged file (same content hash and options)
 * is skipped unless `force`, or unless its stored copy cannot be read. One file failing does
 * not stop the others; the exit code reports it. `output.outcomes` receives what happened to
 * each file (for callers such as `eval`).
 */
export async function indexFiles(
  ctx: CliContext,
  inputs: string[],
  options: IndexCommandOptions,
  output: { json: boolean; outcomes?: IndexOutcome[] } = { json: Boolean(ctx.options.json) },
): Promise<number> {
  if (options.structure && !STRUCTURES.includes(options.structure)) {
    throw new CliError(`--structure must be one of ${STRUCTURES.join(", ")} (got "${options.structure}")`);
  }
  if (options.summaries && !SUMMARIES.includes(options.summaries)) {
    throw new CliError(`--summaries must be one of ${SUMMARIES.join(", ")} (got "${options.summaries}")`);
  }
  const files = await expandInputs(inputs);
  if (files.length === 0) throw new CliError(`Nothing to index in ${inputs.join(", ")}`);
  const model = await ctx.model();
  if (!model && (options.structure === "llm" || options.summaries === "llm")) {
    throw new CliError(
      "--structure llm and --summaries llm need a model (--model or PAGEINDEX_MODEL)",
      EXIT.model,
    );
  }
  const store = await ctx.store();
  const summaries = options.summaries ?? (model ? "llm" : "extractive");
  const settings = JSON.stringify({
    structure: options.structure ?? "auto",
    summaries,
    model: ctx.modelLabel(),
  });
  const progress = createProgress(
    ctx.io,
    ctx.options.json ? "off" : ctx.options.progress === false ? "summary" : "live",
  );
  const outcomes: IndexOutcome[] = output.outcomes ?? [];
  let exitCode: number = EXIT.ok;

  for (const file of files) {
    const name = basename(file);
    let docId = toDocId(name);
    try {
      const target = await docIdForFile(store, file);
      docId = target.docId;
      const bytes = await readFile(file);
      // The hash covers the settings too, so re-indexing with another model or mode is not skipped.
      const contentHash = createHash("sha256").update(bytes).update(settings).digest("hex");
      const renamed = target.taken
        ? `the id "${target.taken.docId}" belongs to ${target.taken.source}; indexed as "${docId}"`
        : undefined;
      const stored = target.state.status === "stored" ? target.state.info : undefined;
      let repaired: string | undefined;
      if (!options.force && (stored?.contentHash === contentHash || target.state.status === "unreadable")) {
        repaired = await unreadableReason(store, target);
        if (!repaired) {
          outcomes.push({ file, docId, status: "unchanged" });
          if (!ctx.options.json) ctx.io.err(`${name}: unchanged, skipped (use --force to re-index)`);
          continue;
        }
        if (!ctx.options.json)
          ctx.io.err(`${name}: the stored copy cannot be read, re-indexing (${repaired})`);
      }
      if (renamed && !ctx.options.json) ctx.io.err(`${name}: ${renamed}`);
      const started = performance.now();
      progress.start(name);
      const usage = new UsageTracker();
      const common = {
        docId,
        docName: name,
        source: file,
        summaries,
        description: options.description ?? true,
        usage,
        ...(model ? { model } : {}),
        ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
      };
      // The loader picks PDF or Markdown by content (the %PDF- header) or a .pdf name.
      const tree = await new PageIndexLoader(new File([bytes], name), {
        markdown: common,
        pdf: {
          ...common,
          structure: options.structure ?? "auto",
          ...(options.password !== undefined ? { password: options.password } : {}),
          onProgress: (event) =>
            progress.update({
              phase: event.phase,
              done: event.step ?? event.pagesParsed,
              total: event.steps ?? event.pageCount,
              llmCalls: event.llmCalls,
            }),
        },
      }).loadTree();
      tree.contentHash = contentHash;
      await store.addTree(tree);
      await saveLexicalIndex(store, docId);
      const outcome: IndexOutcome = {
        file,
        docId,
        status: "indexed",
        kind: tree.kind,
        nodes: tree.nodes.length,
        structure: tree.build.structure,
        llmCalls: usage.total.calls,
        durationMs: Math.round(performance.now() - started),
        warnings: tree.build.warnings ?? [],
        ...(tree.pageCount !== undefined ? { pages: tree.pageCount } : {}),
      };
      if (renamed) outcome.renamed = renamed;
      if (repaired) outcome.repaired = repaired;
      outcomes.push(outcome);
      const size =
        tree.pageCount !== undefined ? plural(tree.pageCount, "page") : plural(tree.lineCount ?? 0, "line");
      progress.stop(
        `${name}: indexed as "${docId}" — ${plural(tree.nodes.length, "section")}, ${size}, structure from ${tree.build.structure}, ${plural(usage.total.calls, "LLM call")}`,
      );
      if (!ctx.options.json)
        for (const warning of outcome.warnings ?? []) ctx.io.err(`  warning: ${warning}`);
    } catch (error) {
      progress.stop(`${name}: failed`);
      const message = ctx.describeError(error);
      outcomes.push({ file, docId, status: "failed", error: message });
      if (!ctx.options.json) ctx.io.err(`error: ${failureLine({ file, error: message })}`);
      if (exitCode === EXIT.ok) exitCode = exitCodeOf(error);
    }
  }
  if (output.json) printJson(ctx.io, { documents: outcomes });
  return exitCode;
}
