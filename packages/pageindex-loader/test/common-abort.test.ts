import type { BaseMessage } from "@langchain/core/messages";
import { FakeListChatModel } from "@langchain/core/utils/testing";
import { describe, expect, it } from "vitest";
import { summarizeNodes } from "../src/common/summarize.js";
import { MarkdownTreeLoader, PdfTreeLoader } from "../src/index.js";
import { body, buildPdf, type LineSpec } from "./fixtures/pdf-builder.js";

/** A model that counts its calls and can abort the load from inside its first call. */
class CountingModel extends FakeListChatModel {
  calls = 0;
  onCall?: () => void;
  override async _generate(
    messages: BaseMessage[],
    options: this["ParsedCallOptions"],
  ): ReturnType<FakeListChatModel["_generate"]> {
    this.calls += 1;
    this.onCall?.();
    await new Promise((r) => setTimeout(r, 5));
    return super._generate(messages, options);
  }
}

/** A model that never answers and ignores the abort signal (as some HTTP clients do). */
class StuckModel extends FakeListChatModel {
  calls = 0;
  onCall?: () => void;
  override async _generate(): ReturnType<FakeListChatModel["_generate"]> {
    this.calls += 1;
    this.onCall?.();
    return new Promise(() => undefined);
  }
}

const answer = '{"summary": "A summary."}';
const paragraph = (topic: string) =>
  Array.from({ length: 40 }, (_, i) => `The ${topic} rule ${i} applies to every module.`).join(" ");
/** Four sections, each well over the 200-token threshold. */
const MARKDOWN = ["Alpha", "Beta", "Gamma", "Delta"].map((t) => `# ${t}\n\n${paragraph(t)}\n`).join("\n");

const markdown = (options: ConstructorParameters<typeof MarkdownTreeLoader>[1]) =>
  MarkdownTreeLoader.fromText(MARKDOWN, { name: "doc.md", ...options }).loadTree();

async function rejection(work: Promise<unknown>): Promise<Error> {
  const error = await work.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(error instanceof Error)) throw new Error(`expected a rejection with an Error, got ${String(error)}`);
  return error;
}

describe("an aborted Markdown load", () => {
  it("rejects with an AbortError before any work when the signal has already fired, in every mode", async () => {
    for (const summaries of ["none", "extractive", "llm"] as const) {
      const model = new CountingModel({ responses: [answer] });
      const error = await rejection(markdown({ summaries, model, signal: AbortSignal.abort() }));
      expect([error instanceof DOMException, error.name]).toEqual([true, "AbortError"]);
      expect(model.calls).toBe(0);
    }
  });

  it("rejects with the signal's reason, wrapping a non-Error reason in an AbortError", async () => {
    const stop = new Error("stop now");
    expect(await rejection(markdown({ signal: AbortSignal.abort(stop) }))).toBe(stop);
    const wrapped = await rejection(markdown({ signal: AbortSignal.abort("user left") }));
    expect([wrapped.name, wrapped.message, wrapped.cause]).toEqual(["AbortError", "user left", "user left"]);
  });

  it("stops LLM summaries midway: no fallback tree, no further calls", async () => {
    const controller = new AbortController();
    const model = new CountingModel({ responses: [answer] });
    model.onCall = () => controller.abort();
    const error = await rejection(
      markdown({ summaries: "llm", model, concurrency: 1, retries: 0, signal: controller.signal }),
    );
    expect(error.name).toBe("AbortError");
    expect(model.calls).toBe(1);
  });

  it("rejects while a model that ignores the signal is still answering", async () => {
    const controller = new AbortController();
    const stuck = new CountingModel({ responses: [answer], sleep: 60_000 });
    setTimeout(() => controller.abort(), 20);
    const started = Date.now();
    const targets = [{ id: "a", title: "Alpha", text: paragraph("Alpha") }];
    const error = await rejection(
      summarizeNodes(targets, { mode: "llm", model: stuck, retries: 0, signal: controller.signal }),
    );
    expect(error.name).toBe("AbortError");
    // The model's 60 s answer was not waited for (a margin for a loaded machine).
    expect(Date.now() - started).toBeLessThan(50_000);
  });

  it("rejects during the document description", async () => {
    const controller = new AbortController();
    const model = new CountingModel({ responses: ['{"description": "A document."}'] });
    model.onCall = () => controller.abort();
    const error = await rejection(
      markdown({ summaries: "none", description: true, model, retries: 0, signal: controller.signal }),
    );
    expect([error.name, model.calls]).toEqual(["AbortError", 1]);
  });
});

describe("an aborted PDF load (the same summary path)", () => {
  const h = (text: string): LineSpec => ({ text, size: 16, bold: true, gap: 12 });
  const pdf = () =>
    buildPdf({
      pages: [{ lines: [h("Introduction"), ...body(30, 1)] }, { lines: [h("Results"), ...body(30, 2)] }],
      outline: [
        { title: "Introduction", page: 1 },
        { title: "Results", page: 2 },
      ],
    });

  it("rejects with an AbortError when the signal has already fired", async () => {
    const model = new CountingModel({ responses: [answer] });
    const loader = new PdfTreeLoader(await pdf(), {
      summaries: "llm",
      model,
      structure: "outline",
      signal: AbortSignal.abort(),
    });
    expect((await rejection(loader.loadTree())).name).toBe("AbortError");
    expect(model.calls).toBe(0);
  });

  it("wraps a reason that is not an Error before reading the PDF, as the Markdown path does", async () => {
    const error = await rejection(
      new PdfTreeLoader(await pdf(), { signal: AbortSignal.abort("user left") }).loadTree(),
    );
    expect(error.name).toBe("AbortError");
    expect((error as Error & { cause?: unknown }).cause).toBe("user left");
  });

  it("rejects when aborted during LLM summaries instead of returning fallbacks", async () => {
    const controller = new AbortController();
    const model = new CountingModel({ responses: [answer] });
    model.onCall = () => controller.abort();
    const loader = new PdfTreeLoader(await pdf(), {
      summaries: "llm",
      model,
      structure: "outline",
      split: false,
      concurrency: 1,
      retries: 0,
      signal: controller.signal,
    });
    expect((await rejection(loader.loadTree())).name).toBe("AbortError");
    expect(model.calls).toBe(1);
  });

  it("aborts the LLM structure path's call in flight, even when the model ignores the signal", async () => {
    const controller = new AbortController();
    const stuck = new StuckModel({ responses: ['{"toc": false}'] });
    let started = 0;
    // Aborted while the first call is in flight, whatever the machine's speed.
    stuck.onCall = () => {
      started = Date.now();
      setTimeout(() => controller.abort(), 20);
    };
    const loader = new PdfTreeLoader(await pdf(), {
      model: stuck,
      structure: "llm",
      summaries: "none",
      retries: 0,
      timeoutMs: 60_000,
      signal: controller.signal,
    });
    expect((await rejection(loader.loadTree())).name).toBe("AbortError");
    // The call's own 60 s timeout did not have to expire (a margin for a loaded machine).
    expect(Date.now() - started).toBeLessThan(50_000);
    expect(stuck.calls).toBe(1);
  });
});
