import { ContextOverflowError } from "@langchain/core/errors";
import {
  classifyModelError,
  errorStatus,
  invokeStructured,
  isContextOverflow,
  ModelCallError,
  UsageTracker,
} from "pageindex-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { rateLimitError, ScriptedChatModel } from "../../../test/support/scripted-model.js";

const schema = z.object({ ids: z.array(z.string()) });
const good = '{"ids": ["0001"]}';
const fast = { backoffMs: 1, timeoutMs: 300, retries: 2 };

const httpError = (status: number, message: string) => Object.assign(new Error(message), { status });
/** What fetch throws for a server that is not listening (Ollama not started). */
const fetchFailed = () =>
  new TypeError("fetch failed", {
    cause: Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:11434"), { code: "ECONNREFUSED" }),
  });
/** LangChain's wrapper for a prompt over the context window: the HTTP 400 is its cause. */
const overflow = () =>
  ContextOverflowError.fromError(
    httpError(400, "This model's maximum context length is 8192 tokens, you requested 9100 tokens"),
  );

describe("isContextOverflow", () => {
  it("recognises a prompt over the window however it is wrapped, and nothing else", () => {
    expect(isContextOverflow(overflow())).toBe(true);
    expect(
      isContextOverflow(Object.assign(new Error("bad"), { status: 400, code: "context_length_exceeded" })),
    ).toBe(true);
    expect(isContextOverflow(httpError(400, "prompt is too long: 210000 tokens > 200000 maximum"))).toBe(
      true,
    );
    expect(isContextOverflow(new Error("wrapped", { cause: httpError(413, "Payload Too Large") }))).toBe(
      true,
    );
    expect(isContextOverflow(httpError(401, "Incorrect API key provided"))).toBe(false);
    expect(isContextOverflow(httpError(400, "Invalid schema for function"))).toBe(false);
    expect(isContextOverflow(rateLimitError())).toBe(false);
  });
});

describe("classifyModelError", () => {
  it.each([
    [httpError(429, "Too Many Requests"), "transient"],
    [httpError(503, "Service Unavailable"), "transient"],
    [Object.assign(new Error("read ECONNRESET"), { code: "ECONNRESET" }), "transient"],
    [Object.assign(new Error("model call timed out after 10 ms"), { name: "TimeoutError" }), "transient"],
    [httpError(401, "Incorrect API key provided: sk-xxx"), "fatal"],
    [httpError(403, "Forbidden"), "fatal"],
    [httpError(404, "The model `gpt-9` does not exist or you do not have access to it."), "fatal"],
    [httpError(400, "Invalid value for 'temperature'"), "fatal"],
    [new Error('model "llama9" not found, try pulling it first'), "fatal"],
    [Object.assign(new Error("no key"), { lc_error_code: "MODEL_AUTHENTICATION" }), "fatal"],
    [new Error("ScriptedChatModel: script exhausted"), "unknown"],
    [fetchFailed(), "transient"],
    // OpenAI's APIConnectionError: no status, the fetch error as cause.
    [new Error("Connection error.", { cause: fetchFailed() }), "transient"],
    [Object.assign(new Error("This operation was aborted"), { name: "AbortError" }), "unknown"],
    [overflow(), "fatal"],
    [
      Object.assign(httpError(429, "You exceeded your current quota, please check your plan"), {
        code: "insufficient_quota",
      }),
      "fatal",
    ],
  ] as const)("%s → %s", (error, kind) => {
    expect(classifyModelError(error)).toBe(kind);
  });
});

describe("errorStatus", () => {
  it("finds the status of the provider error a LangChain error wraps", () => {
    expect(errorStatus(overflow())).toBe(400);
    expect(new ModelCallError("refused", overflow()).status).toBe(400);
  });
});

describe("invokeStructured with failing calls", () => {
  it("does not retry a refused request, and says why", async () => {
    const model = new ScriptedChatModel([httpError(401, "Incorrect API key provided"), good, good]);
    const usage = new UsageTracker();
    const result = await invokeStructured(model, { schema, messages: "pick", step: "judge", usage, ...fast });
    expect(result.ok).toBe(false);
    expect(result.attempts).toBe(1);
    expect(model.calls).toBe(1);
    expect(usage.total.calls).toBe(1);
    if (result.ok) return;
    expect(result.error).toBeInstanceOf(ModelCallError);
    expect(result.error.message).toMatch(
      /judge: the model refused the request \(HTTP 401\): Incorrect API key/,
    );
    expect((result.error as ModelCallError).lc_error_code).toBe("MODEL_AUTHENTICATION");
  });

  it("does not retry an unknown model (Ollama wording, no status)", async () => {
    const model = new ScriptedChatModel([new Error('model "llama9" not found, try pulling it first'), good]);
    const result = await invokeStructured(model, { schema, messages: "pick", step: "judge", ...fast });
    expect(result).toMatchObject({ ok: false, attempts: 1 });
    expect(model.calls).toBe(1);
  });

  it("retries rate limits and timeouts, counting every attempt as a call", async () => {
    const model = new ScriptedChatModel([rateLimitError(), { hang: true }, good]);
    const usage = new UsageTracker();
    const result = await invokeStructured(model, { schema, messages: "pick", step: "judge", usage, ...fast });
    expect(result).toMatchObject({ ok: true, attempts: 3, value: { ids: ["0001"] } });
    expect(usage.total.calls).toBe(3);
  });

  it("does not resend a prompt over the context window, nor wait on exhausted credit", async () => {
    for (const error of [
      overflow(),
      Object.assign(httpError(429, "quota"), { code: "insufficient_quota" }),
    ]) {
      const model = new ScriptedChatModel([error, good, good]);
      const result = await invokeStructured(model, {
        schema,
        messages: "pick",
        step: "judge",
        ...fast,
        mode: "json",
      });
      expect(result).toMatchObject({ ok: false, attempts: 1 });
      if (!result.ok) expect(result.error).toBeInstanceOf(ModelCallError);
    }
  });

  it("reports the attempts actually made when retries run out", async () => {
    const model = new ScriptedChatModel([rateLimitError(), rateLimitError(), rateLimitError()]);
    const result = await invokeStructured(model, { schema, messages: "pick", step: "judge", ...fast });
    expect(result).toMatchObject({ ok: false, attempts: 3 });
    if (!result.ok) expect(result.error).not.toBeInstanceOf(ModelCallError);
  });
});

/** A model that offers tool calling (its scripted turns answer either way). */
class ToolsModel extends ScriptedChatModel {
  override bindTools(): this {
    return this;
  }
}

/** A model that offers tool calling, yet whose server rejects requests with tools (HTTP 400). */
class NoToolsServer extends ScriptedChatModel {
  override bindTools(): never {
    throw httpError(400, "this model does not support tools");
  }
}

describe("a bad request in tool mode", () => {
  it("switches to JSON text once (the model may only lack tool calling)", async () => {
    const model = new NoToolsServer([good]);
    const result = await invokeStructured(model, { schema, messages: "pick", step: "judge", ...fast });
    expect(result).toMatchObject({ ok: true, attempts: 2, value: { ids: ["0001"] } });
  });

  it("does not resend a prompt over the context window as JSON text", async () => {
    const model = new ToolsModel([overflow(), good]);
    const result = await invokeStructured(model, { schema, messages: "pick", step: "judge", ...fast });
    expect(result).toMatchObject({ ok: false, attempts: 1 });
    expect(model.calls).toBe(1);
  });

  it("stops when JSON text is refused as well", async () => {
    const model = new NoToolsServer([httpError(400, "Invalid value for 'temperature'"), good]);
    const result = await invokeStructured(model, { schema, messages: "pick", step: "judge", ...fast });
    expect(result).toMatchObject({ ok: false, attempts: 2 });
    expect(model.calls).toBe(1);
    if (!result.ok) expect(result.error).toBeInstanceOf(ModelCallError);
  });
});
