import { classifyModelError, invokeStructured, ModelCallError, UsageTracker } from "pageindex-store";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { rateLimitError, ScriptedChatModel } from "../../../test/support/scripted-model.js";

const schema = z.object({ ids: z.array(z.string()) });
const good = '{"ids": ["0001"]}';
const fast = { backoffMs: 1, timeoutMs: 300, retries: 2 };

const httpError = (status: number, message: string) => Object.assign(new Error(message), { status });

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
  ] as const)("%s → %s", (error, kind) => {
    expect(classifyModelError(error)).toBe(kind);
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

  it("reports the attempts actually made when retries run out", async () => {
    const model = new ScriptedChatModel([rateLimitError(), rateLimitError(), rateLimitError()]);
    const result = await invokeStructured(model, { schema, messages: "pick", step: "judge", ...fast });
    expect(result).toMatchObject({ ok: false, attempts: 3 });
    if (!result.ok) expect(result.error).not.toBeInstanceOf(ModelCallError);
  });
});

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

  it("stops when JSON text is refused as well", async () => {
    const model = new NoToolsServer([httpError(400, "Invalid value for 'temperature'"), good]);
    const result = await invokeStructured(model, { schema, messages: "pick", step: "judge", ...fast });
    expect(result).toMatchObject({ ok: false, attempts: 2 });
    expect(model.calls).toBe(1);
    if (!result.ok) expect(result.error).toBeInstanceOf(ModelCallError);
  });
});
