import { Command, CommanderError, InvalidArgumentError, Option } from "commander";
import type { IndexCommandOptions } from "./commands/index-files.js";
import {
  type CliContext,
  createContext,
  DEFAULT_STORE_DIR,
  type GlobalOptions,
  type StoreAccess,
} from "./context.js";
import { assertInputsExist } from "./files.js";
import { EXIT, exitCodeOf, type Io, printError, processIo } from "./output.js";
import { packageVersion } from "./package-dir.js";

const positiveInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1) throw new InvalidArgumentError("expected a positive integer");
  return n;
};

const nonNegativeInt = (value: string): number => {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new InvalidArgumentError("expected a non-negative integer");
  return n;
};

/**
 * Builds the `pageindex` program. Each command's module (and with it the loader, pdf.js, the
 * retriever, the evaluation, the store backends) is imported when that command runs, so
 * `--version`, `--help` and usage errors start in a fraction of the time. Each action stores
 * its exit code in `result.code`; nothing calls `process.exit`, so tests can run commands
 * in-process.
 */
export function buildProgram(
  io: Io,
  env: NodeJS.ProcessEnv,
  result: { code: number; ctx?: CliContext },
  json = false,
): Command {
  const program = new Command("pageindex")
    .description("Index PDFs and Markdown as section trees and retrieve the sections that answer a question.")
    .option("--store <dir>", `store folder (env PAGEINDEX_STORE; default ${DEFAULT_STORE_DIR})`)
    .option("--redis <url>", "use a Redis store instead of a folder (env PAGEINDEX_REDIS_URL)")
    .option(
      "--postgres <url>",
      "use a PostgreSQL store (trees and library index in one database) instead of a folder (env PAGEINDEX_POSTGRES_URL)",
    )
    .option(
      "--model <provider:name>",
      "chat model, e.g. openai:gpt-4o-mini, ollama:llama3.1, compatible:NAME@URL (env PAGEINDEX_MODEL); none = offline",
    )
    .option("--json", 'machine-readable output on stdout; errors as one {"error": …} JSON line on stderr')
    .option("--no-progress", "no progress output")
    .version(packageVersion(), "-V, --version", "print the version")
    // Each command's help lists --store, --model… too (they go before or after the command).
    .configureHelp({ showGlobalOptions: true })
    .showHelpAfterError(!json)
    .configureOutput({
      writeOut: (s) => io.out(s),
      writeErr: (s) => io.err(s),
      // Usage errors follow the --json error format too (see printError).
      outputError: (s, write) =>
        json ? printError(io, s.replace(/^error: /, "").trim(), EXIT.usage, true, "UsageError") : write(s),
    })
    .exitOverride();

  const run =
    <A extends unknown[]>(
      action: (ctx: CliContext, ...args: A) => Promise<number>,
      access: StoreAccess | ((...args: A) => StoreAccess) = { create: false },
    ) =>
    async (...args: A) => {
      const how = typeof access === "function" ? access(...args) : access;
      const ctx = createContext(io, program.opts<GlobalOptions>(), env, how);
      result.ctx = ctx;
      result.code = await action(ctx, ...args);
    };
  const writes: StoreAccess = { create: true };
  const reads: StoreAccess = { create: false, readOnly: true };

  program
    .command("index")
    .description("index PDFs and Markdown files (or folders of them) into the store")
    .argument("<paths...>", "files or folders")
    .addOption(
      new Option("--structure <path>", "PDF structure path").choices(["auto", "outline", "layout", "llm"]),
    )
    .addOption(
      new Option("--summaries <mode>", "node summaries (default: llm with a model, else extractive)").choices(
        ["none", "extractive", "llm"],
      ),
    )
    .option("--no-description", "skip the one-sentence document description")
    .option("--concurrency <n>", "files indexed at once, and model calls in all (default 4)", positiveInt)
    .option("--password <password>", "password of encrypted PDFs")
    .option("--force", "re-index files even when unchanged")
    .option("--verify", "read the stored copy of unchanged files too, re-indexing unreadable ones")
    .option(
      "--deadline <seconds>",
      "stop after this long: files not stored yet are left for the next run (default: none)",
      positiveInt,
    )
    .option(
      "--champion-lists",
      "PostgreSQL store: give the library index champion lists (library-wide questions cost less at 100,000+ documents, every write more; kept from then on). A folder store's library index has them by default",
    )
    .action(
      run(
        async (ctx, paths: string[], opts) => {
          // A mistyped path is reported before the loader (pdf.js, LangChain) is imported.
          await assertInputsExist(paths);
          return (await import("./commands/index-files.js")).indexFiles(ctx, paths, opts);
        },
        (_paths: string[], opts: IndexCommandOptions) =>
          opts.championLists ? { ...writes, championLists: true } : writes,
      ),
    );

  program
    .command("list")
    .description("list indexed documents (all, or one page with --limit/--offset)")
    .option("--limit <n>", "documents per page (from the catalog, with the total)", positiveInt)
    .option("--offset <n>", "documents to skip (with --limit)", nonNegativeInt)
    .action(
      run(
        async (ctx, opts: { limit?: number; offset?: number }) =>
          (await import("./commands/documents.js")).listDocuments(ctx, opts),
        reads,
      ),
    );

  program
    .command("tree")
    .description("show a document's table of contents")
    .argument("<doc>", "document id, name or source path (exact)")
    .addOption(new Option("--format <format>", "output format").choices(["text", "json", "pageindex"]))
    .option("--depth <n>", "deepest level shown", positiveInt)
    .option("--summaries", "show node summaries")
    .action(
      run(
        async (ctx, doc: string, opts) => (await import("./commands/documents.js")).showTree(ctx, doc, opts),
        reads,
      ),
    );

  program
    .command("import")
    .description("import PageIndex (Python) *_structure.json trees")
    .argument("<files...>", "PageIndex JSON files")
    .option("--doc-id <id>", "document id (single file only)")
    .option("--force", "replace a stored document that came from another source")
    .action(
      run(
        async (ctx, files: string[], opts) =>
          (await import("./commands/documents.js")).importTrees(ctx, files, opts),
        writes,
      ),
    );

  program
    .command("rm")
    .description("delete documents from the store")
    .argument(
      "<docs...>",
      "document ids, names or source paths (exact; nothing is deleted if one is unknown)",
    )
    .action(
      run(async (ctx, docs: string[]) =>
        (await import("./commands/documents.js")).removeDocuments(ctx, docs),
      ),
    );

  program
    .command("vacuum")
    .description("remove leftovers of failed or superseded writes and compact the catalog")
    .option(
      "--grace <seconds>",
      "keep unfinished writes younger than this, another process may still be writing them (default 900)",
      nonNegativeInt,
    )
    .action(
      run(async (ctx, opts: { grace?: number }) =>
        (await import("./commands/vacuum.js")).vacuumStore(ctx, opts),
      ),
    );

  program
    .command("ask")
    .description("retrieve the sections that answer a question (and answer it, with a model)")
    .argument("<question>", "the question")
    .option("--doc <doc...>", "only these documents (exact ids, names or source paths)")
    .option("-k <n>", "sections to return", positiveInt, 3)
    .addOption(
      new Option("--strategy <strategy>", "search strategy").choices([
        "auto",
        "expand",
        "beam",
        "single-shot",
      ]),
    )
    .option("--max-steps <n>", "cap on LLM judgments", nonNegativeInt)
    .option("--expert <text>", "expert knowledge for the judge, e.g. 'for EBITDA prefer Item 7'")
    .option("--no-answer", "do not generate an answer even with a model")
    .option("--chars <n>", "characters of each section to print (0 = none)", nonNegativeInt)
    .option(
      "--timeout <seconds>",
      "longest wait for each model call, the answer included (default 60 s, answer 120 s)",
      positiveInt,
    )
    .option(
      "--deadline <seconds>",
      "longest time for the whole question, search and answer (default 600)",
      positiveInt,
    )
    .action(
      run(
        async (ctx, question: string, opts) => (await import("./commands/ask.js")).ask(ctx, question, opts),
        reads,
      ),
    );

  program
    .command("demo")
    .description("index the bundled sample documents and ask a question (offline without a model)")
    .option("--question <q>", "ask this instead of the demo question")
    .action(run(async (ctx, opts) => (await import("./commands/demo.js")).demo(ctx, opts), writes));

  program
    .command("eval")
    .description(
      "A/B test: the tree retriever vs BM25 and vector retrievers over chunks, on a questions file or on questions generated from the documents",
    )
    .argument(
      "[questions]",
      "JSONL: {question, doc_name?, evidence: [{page | section | node_id}]} per line; with --generate, where the generated set is written",
    )
    .option("--generate <n>", "write n questions from the documents first (needs a model)", positiveInt)
    .option("--seed <n>", "seed of the generated set's section sampling", nonNegativeInt, 1)
    .option(
      "--pairs <n>",
      "how many generated questions need two sections (compare, combine)",
      nonNegativeInt,
      0,
    )
    .option("--grade", "grade each retriever's answers with the model (default when a model is set)")
    .option("--no-grade", "do not grade answers")
    .option("--docs <paths...>", "index these files or folders first")
    .option("-k <n>", "cut-off for hit rate and MRR", positiveInt, 5)
    .option("--retrievers <list>", "comma-separated: pageindex,bm25,vector", "pageindex,bm25,vector")
    .addOption(
      new Option("--strategy <strategy>", "tree search strategy").choices([
        "auto",
        "expand",
        "beam",
        "single-shot",
      ]),
    )
    .option("--all-docs", "search every document, not only the one a question names")
    .option(
      "--content-tokens <n>",
      "cap the tree retriever's returned text, for an equal-budget comparison",
      positiveInt,
    )
    .option("--generator-model <provider:name>", "model that writes the questions (default: --model)")
    .option("--grader-model <provider:name>", "model that grades the answers (default: --model)")
    .addOption(
      new Option(
        "--difficulty <mode>",
        "generated questions word matching finds: rewrite them (default), only measure, or off",
      ).choices(["rewrite", "measure", "off"]),
    )
    .option("--concurrency <n>", "model calls in flight at once (default 4)", positiveInt)
    .option("--timeout <seconds>", "longest wait for each model call (default 60)", positiveInt)
    .option(
      "--deadline <seconds>",
      "longest time for all of the run's model calls (default 3600)",
      positiveInt,
    )
    .option(
      "--no-cache",
      "ask the model again instead of reusing answers kept in model-cache.jsonl next to the questions",
    )
    .option("--out <dir>", "where report.md, chart.svg and report.json go", ".pageindex-eval")
    .action(
      run(
        async (ctx, questions: string | undefined, opts) =>
          (await import("./commands/eval.js")).evaluate(ctx, questions, opts),
        writes,
      ),
    );

  return program;
}

/** Runs the CLI with `argv` (user arguments only) and returns the exit code. Never throws. */
export async function runCli(
  argv: string[],
  io: Io = processIo,
  env: NodeJS.ProcessEnv = process.env,
): Promise<number> {
  const result: { code: number; ctx?: CliContext } = { code: EXIT.ok };
  // Known before parsing so that usage errors, too, come out as JSON.
  const end = argv.indexOf("--");
  const json = (end < 0 ? argv : argv.slice(0, end)).includes("--json");
  const program = buildProgram(io, env, result, json);
  try {
    await program.parseAsync(argv, { from: "user" });
    return result.code;
  } catch (error) {
    if (error instanceof CommanderError) {
      // Help and version end with code 0; everything else is a usage error already printed.
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    const message = result.ctx
      ? result.ctx.describeError(error)
      : error instanceof Error
        ? error.message
        : String(error);
    const code = exitCodeOf(error);
    const type = error instanceof Error ? error.constructor.name : "Error";
    printError(io, message, code, json, type);
    return code;
  } finally {
    await result.ctx?.close();
  }
}
