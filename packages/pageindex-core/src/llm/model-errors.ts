import { PageIndexError } from "../errors.js";

/**
 * Why a model call failed, for deciding what to do next:
 * - `transient`: rate limit, timeout, overloaded or unreachable server — wait and try again;
 * - `fatal`: the request itself is refused (authentication, permission, unknown model, bad
 *   request, a prompt over the context window, exhausted credit) — trying again cannot help,
 *   and a caller should make it visible;
 * - `unknown`: anything else (a client bug, unsupported tool calling…) — retried as before.
 */
export type ModelErrorKind = "transient" | "fatal" | "unknown";

interface ErrorFields {
  status?: number;
  statusCode?: number;
  code?: string;
  name?: string;
  message?: string;
  lc_error_code?: string;
  error?: { type?: string; code?: string };
  cause?: unknown;
}

/**
 * The error and the errors it wraps, outermost first: LangChain wraps a provider's error
 * (`ContextOverflowError`, its `cause` holding the HTTP 400) and fetch reports a refused
 * connection as "fetch failed" with the socket error (`ECONNREFUSED`) as `cause`.
 */
function causeChain(error: unknown): ErrorFields[] {
  const out: ErrorFields[] = [];
  for (let e = error; e !== null && typeof e === "object" && out.length < 5; e = (e as ErrorFields).cause) {
    if (out.includes(e as ErrorFields)) break;
    out.push(e as ErrorFields);
  }
  return out;
}

const TRANSIENT_TEXT =
  /rate.?limit|too many requests|\b429\b|timed? ?out|timeout|ECONNRESET|ECONNREFUSED|ETIMEDOUT|EAI_AGAIN|ENOTFOUND|EPIPE|UND_ERR_|overloaded|socket hang up|fetch failed|connection error|\b50[0234]\b/i;

// A 429 that is not a rate limit: OpenAI's exhausted credit. Waiting cannot fix it.
const QUOTA_TEXT = /insufficient_quota|exceeded your current quota/i;

// Provider wording for a refused request: OpenAI (invalid_api_key, model_not_found), Anthropic
// (authentication_error, permission_error, not_found_error), Ollama ('model "x" not found').
const FATAL_TEXT =
  /invalid[_ ]api[_ ]key|incorrect api key|api key not valid|unauthori[sz]ed|authentication|permission|forbidden|model_not_found|not_found_error|model\b[^\n]{0,80}\b(?:not found|does not exist|not exist)|(?:invalid|unknown|no such) model|MODEL_AUTHENTICATION|MODEL_NOT_FOUND/i;

/** Statuses that mean "this request will never succeed as sent". */
const FATAL_STATUS = new Set([400, 401, 403, 404, 405, 413, 422]);

/** The HTTP status an error carries, or the first error it wraps carries, if any. */
export function errorStatus(error: unknown): number | undefined {
  for (const e of causeChain(error)) {
    const status = e.status ?? e.statusCode;
    if (typeof status === "number") return status;
  }
  return undefined;
}

/**
 * Classifies a thrown model error (see {@link ModelErrorKind}). A wrapper is classified like
 * the errors it wraps (its `cause` chain): their statuses, codes and messages count.
 */
export function classifyModelError(error: unknown): ModelErrorKind {
  const chain = causeChain(error);
  const text = chain
    .map(
      (e) =>
        `${e.name ?? ""} ${e.code ?? ""} ${e.lc_error_code ?? ""} ${e.error?.type ?? ""} ${e.error?.code ?? ""} ${e.message ?? ""}`,
    )
    .join(" ");
  if (QUOTA_TEXT.test(text)) return "fatal";
  const status = errorStatus(error);
  if (status === 408 || status === 409 || status === 429 || (status !== undefined && status >= 500))
    return "transient";
  if (status !== undefined && FATAL_STATUS.has(status)) return "fatal";
  if (chain.some((e) => e.name === "TimeoutError") || TRANSIENT_TEXT.test(text)) return "transient";
  if (FATAL_TEXT.test(text)) return "fatal";
  return "unknown";
}

/** Rate limits, timeouts, overloaded or unreachable servers: worth waiting and trying again. */
export function isTransientError(error: unknown): boolean {
  return classifyModelError(error) === "transient";
}

const OVERFLOW_TEXT =
  /context[_ ]length|context window|maximum context|prompt is too long|too many (?:input )?tokens|reduce the length of the messages/i;

/**
 * The prompt was longer than the model's window (LangChain's `ContextOverflowError`, OpenAI's
 * `context_length_exceeded`, Anthropic's "prompt is too long", an HTTP 413): a smaller prompt
 * may succeed where resending cannot. Checked through wrapped causes, like the classification.
 */
export function isContextOverflow(error: unknown): boolean {
  return causeChain(error).some((e) => {
    if (e.name === "ContextOverflowError" || e.status === 413 || e.statusCode === 413) return true;
    const text = `${e.code ?? ""} ${e.error?.code ?? ""} ${e.message ?? ""}`;
    return OVERFLOW_TEXT.test(text);
  });
}

/**
 * A model call was refused for a reason retrying cannot fix (a wrong key, a model name the
 * server does not know, a bad request). Carries the provider's error as `cause`, its HTTP
 * `status`, and LangChain's `lc_error_code` (`MODEL_AUTHENTICATION`, `MODEL_NOT_FOUND`) when
 * one applies, so callers and tools that know LangChain's codes recognise it.
 */
export class ModelCallError extends PageIndexError {
  /** The HTTP status of the provider error (or of an error it wraps), when it has one. */
  readonly status: number | undefined;
  /** LangChain's error code: the provider error's own, else one derived from a 401/403/404. */
  readonly lc_error_code: string | undefined;

  constructor(message: string, cause: unknown) {
    super(message, { cause });
    const status = errorStatus(cause);
    this.status = status;
    const code = (cause as ErrorFields | undefined)?.lc_error_code;
    this.lc_error_code =
      code ??
      (status === 401 || status === 403
        ? "MODEL_AUTHENTICATION"
        : status === 404
          ? "MODEL_NOT_FOUND"
          : undefined);
  }

  /** Wraps a provider error, naming the step and the cause. */
  static from(step: string, error: unknown): ModelCallError {
    if (error instanceof ModelCallError) return error;
    const status = errorStatus(error);
    const message = error instanceof Error ? error.message : String(error);
    return new ModelCallError(
      `${step}: the model refused the request${status ? ` (HTTP ${status})` : ""}: ${message} — not retried; check the model name, key and endpoint`,
      error,
    );
  }
}
