import { createHash } from "node:crypto";
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { PageIndexLoader } from "pageindex-loader";
import { toDocId, UsageTracker } from "pageindex-store";
import type { CliContext } from "../context.js";
import { expandInputs } from "../files.js";
import { CliError, EXIT, exitCodeOf, printJson } from "../output.js";
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
}

const STRUCTURES = ["auto", "outline", "layout", "llm"];
const SUMMARIES = ["none", "extractive", "llm"];

/**
 * Indexes files and folders into the store. An unchanged file (same content hash and options)
 * is skipped unless `force`. One file failing does not stop the others; the exit code reports it.
 */
export async function indexFiles(
  ctx: CliContext,
  inputs: string[],
  options: IndexCommandOptions,
  output: { json: boolean } = { json: Boolean(ctx.options.json) },
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
  const progress = createProgress(ctx.io, ctx.options.progress !== false && !ctx.options.json);
  const outcomes: IndexOutcome[] = [];
  let exitCode: number = EXIT.ok;

  for (const file of files) {
    const name = basename(file);
    const docId = toDocId(name);
    try {
      const bytes = await readFile(file);
      // The hash covers the settings too, so re-indexing with another model or mode is not skipped.
      const contentHash = createHash("sha256").update(bytes).update(settings).digest("hex");
      const existing = await store.getDocumentInfo(docId);
      if (!options.force && existing?.contentHash === contentHash) {
        outcomes.push({ file, docId, status: "unchanged" });
        if (!ctx.options.json) ctx.io.err(`${name}: unchanged, skipped (use --force to re-index)`);
        continue;
      }
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
      progress.update({ phase: "parsing" });
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
              done: event.pagesParsed,
              total: event.pageCount,
              llmCalls: event.llmCalls,
            }),
        },
      }).loadTree();
      tree.contentHash = contentHash;
      await store.addTree(tree);
      const outcome: IndexOutcome = {
        file,
        docId,
        status: "indexed",
        kind: tree.kind,
        nodes: tree.nodes.length,
        structure: tree.build.structure,
        llmCalls: usage.total.calls,
        warnings: tree.build.warnings ?? [],
        ...(tree.pageCount !== undefined ? { pages: tree.pageCount } : {}),
      };
      outcomes.push(outcome);
      const size = tree.pageCount !== undefined ? `${tree.pageCount} pages` : `${tree.lineCount ?? 0} lines`;
      progress.stop(
        `${name}: indexed as "${docId}" — ${tree.nodes.length} sections, ${size}, structure from ${tree.build.structure}, ${usage.total.calls} LLM calls`,
      );
      if (!ctx.options.json)
        for (const warning of outcome.warnings ?? []) ctx.io.err(`  warning: ${warning}`);
    } catch (error) {
      progress.stop(`${name}: failed`);
      const message = error instanceof Error ? error.message : String(error);
      outcomes.push({ file, docId, status: "failed", error: message });
      if (!ctx.options.json) ctx.io.err(`error: ${message.includes(name) ? message : `${name}: ${message}`}`);
      if (exitCode === EXIT.ok) exitCode = exitCodeOf(error);
    }
  }
  if (output.json) printJson(ctx.io, { documents: outcomes });
  return exitCode;
}
