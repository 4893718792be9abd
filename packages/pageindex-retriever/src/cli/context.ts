import { resolve } from "node:path";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { PageIndexStore } from "pageindex-store";
import { chatModelFromSpec, ModelSpecError, type ResolvedModel } from "./model-spec.js";
import { CliError, EXIT, type Io } from "./output.js";

/** Options every command accepts. */
export interface GlobalOptions {
  store?: string;
  redis?: string;
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
  close(): Promise<void>;
}

/** Default store folder, relative to the working directory. */
export const DEFAULT_STORE_DIR = ".pageindex";

export function createContext(
  io: Io,
  options: GlobalOptions,
  env: NodeJS.ProcessEnv = process.env,
): CliContext {
  let store: Promise<PageIndexStore> | undefined;
  let resolved: Promise<ResolvedModel | undefined> | undefined;
  let label = "offline";
  return {
    io,
    options,
    env,
    store() {
      store ??= (async () => {
        const redis = options.redis ?? env.PAGEINDEX_REDIS_URL;
        const onProblem = (problem: Error) => io.err(`warning: ${problem.message}`);
        if (redis) {
          try {
            return await PageIndexStore.fromRedis(redis, { onProblem });
          } catch (error) {
            throw new CliError(
              `Cannot open the Redis store at ${redis}: ${(error as Error).message}`,
              EXIT.store,
              {
                cause: error,
              },
            );
          }
        }
        const dir = resolve(options.store ?? env.PAGEINDEX_STORE ?? DEFAULT_STORE_DIR);
        try {
          return await PageIndexStore.fromPath(dir, { onProblem });
        } catch (error) {
          throw new CliError(`Cannot open the store folder ${dir}: ${(error as Error).message}`, EXIT.store, {
            cause: error,
          });
        }
      })();
      return store;
    },
    async model() {
      resolved ??= (async () => {
        try {
          const model = await chatModelFromSpec(options.model, env);
          if (model) {
            label = `${model.provider}:${model.name}${model.baseURL ? ` via ${model.baseURL}` : ""}`;
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
    async close() {
      if (store) await (await store.catch(() => undefined))?.close();
    },
  };
}
