import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { PageIndexError } from "pageindex-core/errors";
import { redactUrl } from "./redact.js";

/** A `--model` value could not be turned into a chat model. */
export class ModelSpecError extends PageIndexError {}

/** Environment variables read by {@link chatModelFromSpec}. */
export interface ModelEnv {
  PAGEINDEX_MODEL?: string | undefined;
  OPENAI_API_KEY?: string | undefined;
  OPENAI_BASE_URL?: string | undefined;
  OLLAMA_BASE_URL?: string | undefined;
  [key: string]: string | undefined;
}

/** What a spec resolved to, for messages ("using openai:gpt-4o-mini via https://…"). */
export interface ResolvedModel {
  model: BaseChatModel;
  provider: "openai" | "ollama" | "openai-compatible";
  name: string;
  baseURL?: string;
}

/**
 * Builds a chat model from a `provider:name` spec:
 * - `openai:gpt-4o-mini` — OpenAI (or any OpenAI-compatible server when `OPENAI_BASE_URL` is set);
 *   needs `OPENAI_API_KEY`.
 * - `ollama:llama3.1` — a local Ollama through its OpenAI-compatible endpoint
 *   (`OLLAMA_BASE_URL`, default http://127.0.0.1:11434/v1); no key needed.
 * - `compatible:NAME@http://host:port/v1` — any OpenAI-compatible server (vLLM, LM Studio, …).
 *
 * With no spec and no `PAGEINDEX_MODEL`, returns `undefined`: callers run offline.
 * `@langchain/openai` is loaded lazily so offline use never imports it.
 * @throws {ModelSpecError} for an unknown provider or a missing key.
 */
export async function chatModelFromSpec(
  spec: string | undefined,
  env: ModelEnv = process.env,
): Promise<ResolvedModel | undefined> {
  const value = (spec ?? env.PAGEINDEX_MODEL ?? "").trim();
  if (!value || value === "none" || value === "offline") return undefined;
  const shown = redactUrl(value); // messages never echo a password in a URL
  const colon = value.indexOf(":");
  if (colon <= 0) {
    throw new ModelSpecError(
      `Model "${shown}" must look like provider:name, e.g. openai:gpt-4o-mini or ollama:llama3.1`,
    );
  }
  const provider = value.slice(0, colon).toLowerCase();
  let name = value.slice(colon + 1);
  // Before the key check: "openai:" with no key set asked for a key, then for a name.
  if (!name) throw new ModelSpecError(`Model "${shown}" has no model name after the colon`);
  let baseURL: string | undefined;
  let apiKey: string | undefined;
  let kind: ResolvedModel["provider"];
  if (provider === "openai") {
    kind = "openai";
    baseURL = env.OPENAI_BASE_URL || undefined;
    apiKey = env.OPENAI_API_KEY;
    if (!apiKey && !baseURL) {
      throw new ModelSpecError(
        `Model "${shown}" needs OPENAI_API_KEY (or OPENAI_BASE_URL for a compatible server)`,
      );
    }
  } else if (provider === "ollama") {
    kind = "ollama";
    baseURL = env.OLLAMA_BASE_URL || "http://127.0.0.1:11434/v1";
    apiKey = "ollama";
  } else if (provider === "compatible") {
    kind = "openai-compatible";
    // Split before the URL, not at its last "@": a URL may itself hold one (user:password@host).
    const urlAt = name.search(/@https?:\/\//i);
    const at = urlAt > 0 ? urlAt : name.lastIndexOf("@");
    if (at <= 0)
      throw new ModelSpecError(`Model "${shown}" must look like compatible:NAME@http://host:port/v1`);
    baseURL = name.slice(at + 1);
    name = name.slice(0, at);
    if (!/^https?:\/\/[^/\s]+/.test(baseURL)) {
      throw new ModelSpecError(
        `Model "${shown}": "${redactUrl(baseURL)}" is not an http(s) URL (e.g. compatible:NAME@http://127.0.0.1:8000/v1)`,
      );
    }
    apiKey = env.OPENAI_API_KEY || "not-needed";
  } else {
    throw new ModelSpecError(
      `Unknown model provider "${provider}" in "${shown}": use openai, ollama or compatible`,
    );
  }
  if (baseURL && /^https?:\/\/[^/@\s]*@/i.test(baseURL)) {
    // fetch refuses such URLs ("Request cannot be constructed from a URL that includes credentials").
    throw new ModelSpecError(
      `Model "${shown}": the URL ${redactUrl(baseURL)} holds a user or password, which cannot be sent that way; drop it from the URL and put the key in OPENAI_API_KEY`,
    );
  }
  if (!name) throw new ModelSpecError(`Model "${shown}" has no model name after the colon`);
  const { ChatOpenAI } = await import("@langchain/openai");
  const model = new ChatOpenAI({
    model: name,
    temperature: 0,
    maxRetries: 0, // our own retry loop handles rate limits, with backoff and a bound
    ...(apiKey ? { apiKey } : {}),
    ...(baseURL ? { configuration: { baseURL } } : {}),
  });
  return baseURL ? { model, provider: kind, name, baseURL } : { model, provider: kind, name };
}

/** A resolved model as messages and reports name it: `compatible:judge via http://127.0.0.1:8000/v1`. */
export function modelLabelOf(model: ResolvedModel): string {
  return `${model.provider}:${model.name}${model.baseURL ? ` via ${redactUrl(model.baseURL)}` : ""}`;
}
