import { stat } from "node:fs/promises";
import { resolve } from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import type { PageIndexStore } from "pageindex-store";
import { describeModelError, isModelCallError, type ModelIdentity } from "./model-errors.js";
import { chatModelFromSpec, ModelSpecError, modelLabelOf, type ResolvedModel } from "./model-spec.js";
import { CliError, EXIT, type Io } from "./output.js";
import { redactSecrets, redactUrl } from "./redact.js";

/** Options every command accepts. */
export interface GlobalOptions {
  store?: string;
  redis?: string;
  postgres?: string;
  model?: string;
  json?: boolean;
  progress?: boolean;
}

/** What a command runs with: the store, the model (if any), and where to write. */
export interface CliContext {
  io: Io;
  options: GlobalOptions;
  env: NodeJS.ProcessEnv;
  /** Opens the store once, on first use. */
  store(): Promise<PageIndexStore>;
  /** Resolves the model once; `undefined` means offline (announced once on stderr). */
  model(): Promise<BaseChatModel | undefined>;
  /** Describes the model in use, e.g. "openai:gpt-4o-mini" or "offline (BM25 judge)". */
  modelLabel(): string;
  /** The resolved model's provider, name and URL, once {@link CliContext.model} found one. */
  modelIdentity(): ModelIdentity | undefined;
  /** Hides the passwords of the Redis, PostgreSQL and model URLs in a message meant for the user. */
  redact(text: string): string;
  /** An error as one line for the user: model failures with provider, URL and a hint; no passwords. */
  describeError(error: unknown): string;
  close(): Promise<void>;
}

/** Default store folder, relative to the working directory. */
export const DEFAULT_STORE_DIR = ".pageindex";

/** How a command uses the store. */
export interface StoreAccess {
  /**
   * Create the store folder when it does not exist (commands that write). Read-only commands
   * fail instead, so a mistyped `--store` is reported rather than silently created.
   */
  create: boolean;
  /**
   * Open a folder store read-only (commands that only read): no `.tmp/` is created and no temp
   * file removed, so a store checked into git or on a read-only disk can be listed and searched.
   */
  readOnly?: boolean;
  /**
   * Give a PostgreSQL store's library index champion lists of the store's measured size
   * (`CHAMPIONS.perTerm` rows a term; `index --champion-lists`): built on this open when the
   * index has none, kept by every writer after. A folder store's index has them by default
   * (built, with a progress line, on the first writable open of an index written without them).
   */
  championLists?: boolean;
}

/** A folder store that does not exist yet, for a command that only reads. */
async function assertFolderExists(dir: string): Promise<void> {
  try {
    await stat(dir);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") return; // let fromPath report it
    throw new CliError(
      `No store folder at ${dir}: nothing is indexed there (check --store / PAGEINDEX_STORE, or run pageindex index <files>)`,
      EXIT.store,
    );
  }
}

/** Where the store is: a folder, a Redis server or a PostgreSQL database. */
type StoreLocation =
  | { kind: "folder"; dir: string }
  | { kind: "redis"; url: string }
  | { kind: "postgres"; url: string };

/**
 * Picks the store from the options, then the environment: an option beats any variable, and two
 * options (or, without options, two URL variables) naming different backends are refused.
 */
function storeLocation(options: GlobalOptions, env: NodeJS.ProcessEnv): StoreLocation {
  const given = [
    options.store !== undefined ? "--store" : "",
    options.redis !== undefined ? "--redis" : "",
    options.postgres !== undefined ? "--postgres" : "",
  ].filter(Boolean);
  if (given.length > 1) {
    throw new CliError(`${given.join(" and ")} name different stores: give one of them`, EXIT.usage);
  }
  if (options.postgres !== undefined) return { kind: "postgres", url: options.postgres };
  if (options.redis !== undefined) return { kind: "redis", url: options.redis };
  if (options.store !== undefined) {
    if (options.store.trim() === "") {
      throw new CliError("--store is empty: give a folder, e.g. --store .pageindex", EXIT.usage);
    }
    return { kind: "folder", dir: resolve(options.store) };
  }
  if (env.PAGEINDEX_POSTGRES_URL && env.PAGEINDEX_REDIS_URL) {
    throw new CliError(
      "PAGEINDEX_POSTGRES_URL and PAGEINDEX_REDIS_URL are both set: unset one, or choose with --postgres, --redis or --store",
      EXIT.usage,
    );
  }
  if (env.PAGEINDEX_POSTGRES_URL) return { kind: "postgres", url: env.PAGEINDEX_POSTGRES_URL };
  if (env.PAGEINDEX_REDIS_URL) return { kind: "redis", url: env.PAGEINDEX_REDIS_URL };
  // An empty variable counts as unset, as the URL variables above: resolve("") is the current folder.
  return { kind: "folder", dir: resolve(env.PAGEINDEX_STORE?.trim() || DEFAULT_STORE_DIR) };
}

export function createContext(
  io: Io,
  options: GlobalOptions,
  env: NodeJS.ProcessEnv = process.env,
  access: StoreAccess = { create: true },
): CliContext {
  let store: Promise<PageIndexStore> | undefined;
  let resolved: Promise<ResolvedModel | undefined> | undefined;
  let identity: ModelIdentity | undefined;
  let label = "offline";
  const redisUrl = options.redis ?? env.PAGEINDEX_REDIS_URL;
  const postgresUrl = options.postgres ?? env.PAGEINDEX_POSTGRES_URL;
  const redact = (text: string) =>
    redactSecrets(redactSecrets(redactSecrets(text, redisUrl), postgresUrl), identity?.baseURL);
  return {
    io,
    options,
    env,
    store() {
      store ??= (async () => {
        const onProblem = (problem: Error) => io.err(`warning: ${redact(problem.message)}`);
        // Loaded here, not at start-up: `--version` and usage errors need no store code.
        const { CHAMPIONS, openPostgresStore, PageIndexStore } = await import("pageindex-store");
        const location = storeLocation(options, env);
        if (access.championLists && location.kind === "redis")
          io.err("warning: --champion-lists applies to a folder or PostgreSQL store only; ignored");
        // Building lists for a library indexed without them reads its whole index (440 s at
        // 100,000 documents on PostgreSQL): say so rather than sit silent.
        const lists = access.championLists && location.kind === "postgres";
        if (lists)
          io.err("Champion lists: built now if the library index has none (minutes for a large library)");
        if (location.kind === "redis" || location.kind === "postgres") {
          const name = location.kind === "redis" ? "Redis" : "PostgreSQL";
          try {
            return location.kind === "redis"
              ? await PageIndexStore.fromRedis(location.url, { onProblem })
              : await openPostgresStore(location.url, {
                  onProblem,
                  // The build is one transaction: no command timeout may cut it.
                  ...(lists ? { championRows: CHAMPIONS.perTerm, commandTimeoutMs: 0 } : {}),
                });
          } catch (error) {
            const reason = redact((error as Error).message);
            throw new CliError(
              `Cannot open the ${name} store at ${redactUrl(location.url)}: ${reason}`,
              EXIT.store,
              {
                cause: error,
              },
            );
          }
        }
        const dir = location.dir;
        if (!access.create) await assertFolderExists(dir);
        // A folder index written without champion lists gets them on this writable open (685 s
        // at 100,000 documents): a bar, or a line per phase, says what it is doing.
        // Loaded here, as the store is: cli-progress is not needed by `--version` or usage errors.
        const { createListBuildProgress, progressModeOf } = await import("./progress.js");
        const building = createListBuildProgress(io, progressModeOf(options));
        try {
          return await PageIndexStore.fromPath(dir, {
            onProblem,
            readOnly: access.readOnly ?? false,
            onChampionBuild: (step) => building.step(step),
          });
        } catch (error) {
          throw new CliError(`Cannot open the store folder ${dir}: ${(error as Error).message}`, EXIT.store, {
            cause: error,
          });
        } finally {
          building.finish();
        }
      })();
      return store;
    },
    async model() {
      resolved ??= (async () => {
        try {
          const model = await chatModelFromSpec(options.model, env);
          if (model) {
            identity = {
              provider: model.provider,
              name: model.name,
              ...(model.baseURL ? { baseURL: model.baseURL } : {}),
            };
            label = modelLabelOf(model);
          } else {
            label = "offline";
            io.err(
              "No model configured (--model, PAGEINDEX_MODEL): running offline with the BM25 judge and extractive summaries.",
            );
          }
          return model;
        } catch (error) {
          if (error instanceof ModelSpecError)
            throw new CliError(error.message, EXIT.model, { cause: error });
          throw error;
        }
      })();
      return (await resolved)?.model;
    },
    modelLabel() {
      return label;
    },
    modelIdentity() {
      return identity;
    },
    redact,
    describeError(error) {
      const text = isModelCallError(error)
        ? describeModelError(error, identity)
        : error instanceof Error
          ? error.message
          : String(error);
      return redact(text);
    },
    async close() {
      if (store) await (await store.catch(() => undefined))?.close();
    },
  };
}
