import { createHash } from "node:crypto";
import { basename } from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import pLimit from "p-limit";
import { type TreeDocument, toDocId, UsageTracker } from "pageindex-core";
import { PageIndexError } from "pageindex-core/errors";
import type { PageIndexStore } from "pageindex-store";
import type { CliContext } from "../context.js";
import { docIdForFile, type FileDocId, pathDerivedId } from "../doc-ids.js";
import { expandInputs, INDEXABLE_EXTENSIONS } from "../files.js";
import { CliError, EXIT, exitCodeOf, plural, printable, printJson } from "../output.js";
import { createRunProgress, filesPerSecond, progressModeOf, type RunProgress } from "../progress.js";

/** Options of `pageindex index`. */
export interface IndexCommandOptions {
  structure?: "auto" | "outline" | "layout" | "llm";
  summaries?: "none" | "extractive" | "llm";
  description?: boolean;
  /**
   * Work in flight: up to this many files at once, and this many model calls in all (shared
   * among the files in flight; a single file gets them all). Default 4.
   */
  concurrency?: number;
  force?: boolean;
  /** Also read the stored copy of every unchanged file (all its keys) and re-index it when unreadable. */
  verify?: boolean;
  password?: string;
  /**
   * Overall bound of the run (seconds): when it passes, new files are not started and the loads
   * in flight are cancelled (writes finish whole); what was not stored is left for the next run.
   * Default: none (a run's length grows with the folder; each model call has its own timeout).
   */
  deadline?: number;
  /** Champion lists for a folder store's library index (applied when the store is opened, see `StoreAccess.championLists`). */
  championLists?: boolean;
}

/** What happened to one file. */
export interface IndexOutcome {
  file: string;
  docId: string;
  /** `interrupted`: Ctrl-C came before the file was stored; a re-run indexes it. */
  status: "indexed" | "unchanged" | "failed" | "interrupted";
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

/**
 * Largest file `index` reads (512 MiB): the read is bounded so a symlink to a huge file or a
 * device cannot exhaust memory; FIFOs, devices and directories are refused before any read.
 */
export const MAX_INPUT_BYTES = 512 * 1024 * 1024;
/** Default of `--concurrency`: files in flight (and model calls in all). */
export const DEFAULT_INDEX_CONCURRENCY = 4;
/** Exit code after Ctrl-C, as shells report a process ended by SIGINT. */
const EXIT_INTERRUPTED = 130;
/** The exit code each failed file's error maps to. */
const failureCodes = new WeakMap<IndexOutcome, number>();

/**
 * A failed file's error on one line, named by its file unless the message already names it
 * (line breaks in the name or message shown escaped: they are data).
 */
export function failureLine(outcome: Pick<IndexOutcome, "file" | "error">): string {
  const name = basename(outcome.file);
  const message = outcome.error ?? "failed";
  return printable(message.includes(name) ? message : `${name}: ${message}`);
}

const STRUCTURES = ["auto", "outline", "layout", "llm"];
const SUMMARIES = ["none", "extractive", "llm"];

/**
 * Why an unchanged file must still be indexed: its head cannot be read, or (with `verify`) its
 * stored copy cannot — reading the whole tree checks every checksum.
 */
async function unreadableReason(
  store: PageIndexStore,
  target: FileDocId,
  verify: boolean,
): Promise<string | undefined> {
  if (target.state.status === "unreadable") return target.state.error.message;
  if (!verify) return undefined;
  try {
    await store.getTree(target.docId);
    return undefined;
  } catch (error) {
    if (error instanceof PageIndexError) return error.message;
    throw error;
  }
}

/**
 * Builds the document's lexical index now and saves it beside the new version, so the first
 * `ask` reads one key instead of every section's text. An optimisation only: a failure leaves
 * the index to be built by the first query.
 */
export async function saveLexicalIndex(store: PageIndexStore, docId: string): Promise<void> {
  try {
    const { LexicalIndexes } = await import("pageindex-retriever");
    await new LexicalIndexes(store).get(await store.getSkeleton(docId));
  } catch {
    // The query path builds it again when needed.
  }
}

/**
 * Stores the tree under its id; an id that differs only in letter case from a stored
 * document's (`Report.pdf` beside `report.pdf`, which would share files on macOS and Windows)
 * is stored under the file's path-derived id instead. Returns the id used and, then, why.
 */
async function storeTree(
  store: PageIndexStore,
  tree: TreeDocument,
  file: string,
): Promise<{ docId: string; renamed?: string }> {
  try {
    await store.addTree(tree);
    return { docId: tree.docId };
  } catch (error) {
    const { DocumentIdConflictError } = await import("pageindex-store");
    if (!(error instanceof DocumentIdConflictError)) throw error;
    const twin = await store.getDocumentInfo(error.existingDocId).catch(() => undefined);
    tree.docId = pathDerivedId(tree.docId, file);
    await store.addTree(tree);
    const holder = twin?.source ?? twin?.docName ?? error.existingDocId;
    return {
      docId: tree.docId,
      renamed: `the id "${error.existingDocId}" belongs to ${holder}; indexed as "${tree.docId}"`,
    };
  }
}

/** What every file of one run shares. */
interface Run {
  ctx: CliContext;
  store: PageIndexStore;
  options: IndexCommandOptions;
  model: BaseChatModel | undefined;
  summaries: "none" | "extractive" | "llm";
  /** Folded into each content hash, so re-indexing with another model or mode is not skipped. */
  settings: string;
  /** Model calls per file, when bounded. */
  modelCalls: number | undefined;
  progress: RunProgress;
  signal: AbortSignal;
}

/**
 * Loads one file into a tree with the run's settings (PDF or Markdown by content). `name` is the
 * content's name: a compressed file's without its `.gz` (`readSource` decompressed the bytes).
 */
function loadTree(
  run: Run,
  file: string,
  name: string,
  docId: string,
  bytes: Uint8Array,
  usage: UsageTracker,
) {
  const { options, model } = run;
  const progress = run.progress.document(printable(name));
  progress.start(printable(name));
  const common = {
    docId,
    docName: name,
    source: file,
    summaries: run.summaries,
    description: options.description ?? true,
    usage,
    signal: run.signal,
    ...(model ? { model } : {}),
    ...(run.modelCalls !== undefined ? { concurrency: run.modelCalls } : {}),
  };
  // The loader (and pdf.js behind it) is imported by the first file that needs it, not at start-up.
  const tree = import("pageindex-loader").then(({ PageIndexLoader }) =>
    new PageIndexLoader(new File([bytes], name), {
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
    }).loadTree(),
  );
  return { tree, progress };
}

/**
 * Indexes one file: skipped when its stored head says it is unchanged (same content hash and
 * settings), else loaded and stored all-or-nothing. Never throws for the file's own problems.
 */
async function indexOne(run: Run, file: string): Promise<IndexOutcome> {
  const { ctx, store, options, progress } = run;
  // The name as progress lines show it: a line break in a file name is data, shown escaped.
  const name = printable(basename(file));
  let docId = toDocId(name);
  let stop: ((summary: string) => void) | undefined;
  try {
    const target = await docIdForFile(store, file);
    docId = target.docId;
    // One bounded read (the loader's guard): these bytes are hashed and parsed, never read twice.
    const { readSource } = await import("pageindex-loader");
    const source = await readSource(file, { maxBytes: MAX_INPUT_BYTES });
    const { bytes } = source;
    const contentHash = createHash("sha256").update(bytes).update(run.settings).digest("hex");
    let renamed = target.taken
      ? `the id "${target.taken.docId}" belongs to ${target.taken.source}; indexed as "${docId}"`
      : undefined;
    const stored = target.state.status === "stored" ? target.state.info : undefined;
    let repaired: string | undefined;
    if (!options.force && (stored?.contentHash === contentHash || target.state.status === "unreadable")) {
      repaired = await unreadableReason(store, target, options.verify ?? false);
      if (!repaired) {
        progress.log(`${name}: unchanged, skipped (use --force to re-index)`, { quiet: true });
        return { file, docId, status: "unchanged" };
      }
      progress.log(`${name}: the stored copy cannot be read, re-indexing (${printable(repaired)})`);
    }
    if (run.signal.aborted) return { file, docId, status: "interrupted" };
    if (renamed) progress.log(`${name}: ${printable(renamed)}`);
    const started = performance.now();
    const usage = new UsageTracker();
    const loading = loadTree(run, file, source.name ?? basename(file), docId, bytes, usage);
    stop = loading.progress.stop;
    const tree = await loading.tree;
    tree.contentHash = contentHash;
    // Written even when Ctrl-C came during the load: the write is all-or-nothing and the work is done.
    const written = await storeTree(store, tree, file);
    if (written.renamed) {
      renamed = written.renamed;
      progress.log(`${name}: ${printable(renamed)}`);
    }
    docId = written.docId;
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
    const size =
      tree.pageCount !== undefined ? plural(tree.pageCount, "page") : plural(tree.lineCount ?? 0, "line");
    loading.progress.stop(
      `${name}: indexed as "${docId}" — ${plural(tree.nodes.length, "section")}, ${size}, structure from ${tree.build.structure}, ${plural(usage.total.calls, "LLM call")}`,
    );
    for (const warning of outcome.warnings ?? []) progress.log(`  warning: ${printable(warning)}`);
    return outcome;
  } catch (error) {
    if (run.signal.aborted) {
      stop?.(`${name}: interrupted, not stored`);
      return { file, docId, status: "interrupted" };
    }
    stop?.(`${name}: failed`);
    const message = cliWording(ctx.describeError(error), error);
    progress.log(`error: ${failureLine({ file, error: message })}`);
    const failed: IndexOutcome = { file, docId, status: "failed", error: message };
    failureCodes.set(failed, exitCodeOf(error));
    return failed;
  }
}

/** A loader's message as a shell user needs it: the loader's `password` option is `--password` here. */
function cliWording(message: string, error: unknown): string {
  const { name, reason } = (error ?? {}) as { name?: unknown; reason?: unknown };
  if (name !== "PdfPasswordError" || reason !== "encrypted") return message;
  return message.replace("with the `password` option", "with --password");
}

/**
 * Ctrl-C while indexing: the first stops new files and cancels the loads in flight (whatever is
 * being written is finished: each write is all-or-nothing); a second quits at once. Either way
 * no document is half stored, and running the command again skips what was stored.
 */
function watchInterrupt(onFirst: () => void): { signal: AbortSignal; dispose(): void } {
  const controller = new AbortController();
  const handler = () => {
    if (controller.signal.aborted) process.exit(EXIT_INTERRUPTED);
    onFirst();
    controller.abort(new Error("interrupted (Ctrl-C)"));
  };
  process.on("SIGINT", handler);
  return { signal: controller.signal, dispose: () => process.off("SIGINT", handler) };
}

/**
 * Files grouped by the id their name gives (letter case folded), in input order: files that
 * would claim the same id are indexed one after another, so each sees the other's document
 * and takes its path-derived id, as on separate runs.
 */
function byNameId(files: readonly string[]): Array<Array<{ file: string; index: number }>> {
  const groups = new Map<string, Array<{ file: string; index: number }>>();
  files.forEach((file, index) => {
    const key = toDocId(basename(file)).toLowerCase();
    const group = groups.get(key);
    if (group) group.push({ file, index });
    else groups.set(key, [{ file, index }]);
  });
  return [...groups.values()];
}

/** "; 2 files skipped (not PDF or Markdown): a.png, b.docx" for the files a folder held that `index` does not read. */
function skippedNote(skipped: readonly string[]): string {
  if (skipped.length === 0) return "";
  const shown = skipped.slice(0, 5).map((file) => basename(file));
  const more = skipped.length > shown.length ? ` and ${skipped.length - shown.length} more` : "";
  return `; ${plural(skipped.length, "file")} skipped (not ${INDEXABLE_EXTENSIONS.join(", ")} or one of those .gz): ${shown.join(", ")}${more}`;
}

/**
 * Indexes files and folders into the store, up to `concurrency` files at once. An unchanged
 * file (same content hash and options, read from its one head key) is skipped unless `force`,
 * or unless its head (with `verify`, its stored copy) cannot be read. One file failing does not
 * stop the others; the exit code reports it. Ctrl-C stops the run cleanly (exit 130). A
 * progress bar counts files on a terminal. `output.outcomes` receives what happened to each
 * file, in input order (for callers such as `eval`).
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
  const concurrency = options.concurrency ?? DEFAULT_INDEX_CONCURRENCY;
  if (!(Number.isInteger(concurrency) && concurrency >= 1)) {
    throw new CliError(`--concurrency must be a positive integer (got ${concurrency})`);
  }
  const skipped: string[] = [];
  const files = await expandInputs(inputs, skipped);
  if (files.length === 0) {
    throw new CliError(`Nothing to index in ${inputs.join(", ")}${skippedNote(skipped)}`);
  }
  const model = await ctx.model();
  if (!model && (options.structure === "llm" || options.summaries === "llm")) {
    throw new CliError(
      "--structure llm and --summaries llm need a model (--model or PAGEINDEX_MODEL)",
      EXIT.model,
    );
  }
  const store = await ctx.store();
  const summaries = options.summaries ?? (model ? "llm" : "extractive");
  const groups = byNameId(files);
  const inFlight = Math.min(concurrency, groups.length);
  const progress = createRunProgress(ctx.io, progressModeOf(ctx.options), files.length);
  const interrupt = watchInterrupt(() =>
    progress.log("Interrupted: finishing the documents being written (Ctrl-C again to quit now)…"),
  );
  const deadline = options.deadline === undefined ? undefined : AbortSignal.timeout(options.deadline * 1000);
  const signal = deadline ? AbortSignal.any([interrupt.signal, deadline]) : interrupt.signal;
  const run: Run = {
    ctx,
    store,
    options,
    model,
    summaries,
    settings: JSON.stringify({ structure: options.structure ?? "auto", summaries, model: ctx.modelLabel() }),
    // One file alone keeps the loaders' own defaults unless a bound was asked for.
    modelCalls:
      options.concurrency === undefined && inFlight === 1
        ? undefined
        : Math.max(1, Math.floor(concurrency / inFlight)),
    progress,
    signal,
  };

  const started = performance.now();
  const results: Array<IndexOutcome | undefined> = new Array(files.length);
  const limit = pLimit(inFlight);
  try {
    await Promise.all(
      groups.map((group) =>
        limit(async () => {
          for (const { file, index } of group) {
            results[index] = signal.aborted
              ? { file, docId: toDocId(basename(file)), status: "interrupted" }
              : await indexOne(run, file);
            progress.fileDone();
          }
        }),
      ),
    );
  } finally {
    interrupt.dispose();
  }

  const outcomes: IndexOutcome[] = output.outcomes ?? [];
  for (const outcome of results) if (outcome) outcomes.push(outcome);
  const count = (status: IndexOutcome["status"]) => outcomes.filter((o) => o.status === status).length;
  const ms = performance.now() - started;
  const interrupted = count("interrupted");
  const summary = `${plural(files.length, "file")} in ${(ms / 1000).toFixed(1)} s (${filesPerSecond(files.length, ms)} files/s): ${count("indexed")} indexed, ${count("unchanged")} unchanged, ${count("failed")} failed${interrupted ? `, ${interrupted} interrupted — run the same command again to index them` : ""}${skippedNote(skipped)}`;
  // One file's own line says it all; a run over several (or one beside skipped files) ends with the count.
  progress.finish(files.length > 1 || interrupted > 0 || skipped.length > 0 ? summary : "");
  if (output.json) printJson(ctx.io, { documents: outcomes });
  if (interrupted > 0 && deadline?.aborted && !interrupt.signal.aborted) {
    throw new CliError(
      `indexing passed its deadline of ${options.deadline} s (--deadline): ${plural(interrupted, "file")} not stored — run the same command again to index them`,
      EXIT.model,
    );
  }
  if (interrupted > 0) return EXIT_INTERRUPTED;
  const failed = outcomes.find((o) => o.status === "failed");
  return failed ? (failureCodes.get(failed) ?? EXIT.failure) : EXIT.ok;
}
