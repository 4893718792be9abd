import { errorStatus, oneLine } from "pageindex-core/errors";
import { redactUrl } from "./redact.js";

/** The model a failure came from, as the CLI resolved it. */
export interface ModelIdentity {
  provider: string;
  name: string;
  baseURL?: string;
}

/** What an OpenAI-client or fetch error carries that tells the cause apart. */
interface ErrorFields {
  name?: string;
  code?: string;
  lc_error_code?: string;
  cause?: unknown;
  errors?: unknown[];
}

// Error classes of the `openai` client (used by @langchain/openai for every provider we build).
const CLIENT_ERRORS =
  /^(ModelCallError|APIError|APIConnectionError|APIConnectionTimeoutError|APIUserAbortError|AuthenticationError|BadRequestError|ConflictError|InternalServerError|NotFoundError|PermissionDeniedError|RateLimitError|UnprocessableEntityError)$/;

/** The first system error code (ECONNREFUSED, ENOTFOUND…) along the cause chain. */
function systemCode(error: unknown, depth = 0): string | undefined {
  if (!error || typeof error !== "object" || depth > 5) return undefined;
  const e = error as ErrorFields;
  if (typeof e.code === "string" && /^E[A-Z]+$/.test(e.code)) return e.code;
  for (const inner of [e.cause, ...(e.errors ?? [])]) {
    const code = systemCode(inner, depth + 1);
    if (code) return code;
  }
  return undefined;
}

/** Whether an error came from calling the model (network, HTTP status, client), not from our code. */
export function isModelCallError(error: unknown): boolean {
  if (!error || typeof error !== "object") return false;
  const e = error as ErrorFields;
  return (
    CLIENT_ERRORS.test(error.constructor?.name ?? "") ||
    (typeof e.lc_error_code === "string" && e.lc_error_code.startsWith("MODEL_")) ||
    e.name === "ModelAnswerError"
  );
}

/** What to try next, by the kind of failure. */
function hintFor(error: unknown, model: ModelIdentity, where: string): string {
  const status = errorStatus(error);
  const code = systemCode(error);
  if (code === "ENOTFOUND" || code === "EAI_AGAIN") return `the host of ${where} is not known: check the URL`;
  if (status === undefined && /Connection|Timeout/.test((error as Error).constructor?.name ?? "")) {
    const start =
      model.provider === "ollama"
        ? "start Ollama (ollama serve) or set OLLAMA_BASE_URL"
        : "start the server or fix the URL";
    return `nothing answered at ${where}${code ? ` (${code})` : ""}: ${start}`;
  }
  if (status === undefined && /did not answer within/.test((error as Error).message ?? ""))
    return `${where} took the requests and never answered: check the server, or raise --timeout`;
  if (status === 401 || status === 403) return "the server refused the key: check OPENAI_API_KEY";
  if (status === 404) {
    return model.provider === "ollama"
      ? `the server does not know model "${model.name}": ollama pull ${model.name}, or check the name`
      : `the server does not know model "${model.name}" (or the URL lacks /v1): check both`;
  }
  if (status === 429) return "rate limited or out of quota: wait, or check the account's limits";
  if (status !== undefined && status >= 500) return "the server failed: try again later";
  // The call went through: the name, URL and key are fine, the answer was not what was asked for.
  if ((error as ErrorFields).name === "ModelAnswerError")
    return "the model answered, but not in the JSON asked for: try a model that follows instructions or calls tools";
  return "check the model name, the URL and the key";
}

/**
 * A one-line message for a failed model call: provider, model, URL (password hidden), the
 * client's message and a hint, e.g. `model ollama:llama3.1 at http://127.0.0.1:11434/v1 failed:
 * Connection error. — nothing answered at … (ECONNREFUSED): start Ollama (ollama serve) …`.
 */
export function describeModelError(error: unknown, model: ModelIdentity | undefined): string {
  // One line: LangChain appends "\n\nTroubleshooting URL: …" to the client's message.
  const message = oneLine(error instanceof Error ? error.message : String(error));
  if (!model) return `model call failed: ${message}`;
  const where = model.baseURL ? redactUrl(model.baseURL) : "the OpenAI API";
  const status = errorStatus(error);
  return `model ${model.provider}:${model.name} at ${where} failed${status ? ` (HTTP ${status})` : ""}: ${message} — ${hintFor(error, model, where)}`;
}
