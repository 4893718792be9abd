import { FakeListChatModel } from "@langchain/core/utils/testing";
import { ModelCallError } from "pageindex-core";
import { PageIndexRetriever, type PageIndexRetrieverInput } from "pageindex-retriever";
import { MemoryTreeReader } from "pageindex-store";
import { describe, expect, it } from "vitest";
import {
  rateLimitError,
  ScriptedChatModel,
  type ScriptedTurn,
} from "../../../test/support/scripted-model.js";
import { annualReport, ID, judgeByTitle, offeredNodes, TAX_PATH } from "./support/fixtures.js";

// These tests pin how `expand` (the default before `auto`) searches.
const fast = { backoffMs: 1, timeoutMs: 2000, strategy: "expand" as const };
const good = judgeByTitle(TAX_PATH);

/** A judge that answers well, except at the level where the notes are offered. */
function badAtNotes(bad: (prompt: string) => string | Error | Promise<string>): ScriptedTurn {
  return (prompt: string) =>
    offeredNodes(prompt).some((n) => n.id === ID.note12) ? bad(prompt) : good(prompt);
}

async function run(model: ScriptedChatModel | FakeListChatModel, extra: Record<string, unknown> = {}) {
  const retriever = new PageIndexRetriever({ trees: [annualReport()], model, ...fast, ...extra });
  const docs = await retriever.invoke("What was the effective tax rate in 2023?");
  return { docs, run: retriever.lastRun };
}

describe("bad model answers never break a query", () => {
  it("repairs malformed JSON", async () => {
    const model = new ScriptedChatModel([], {
      fallback: badAtNotes(
        () => `{'relevant': [{'id': '${ID.note12}', 'score': 0.8, 'reason': 'tax note',},]`,
      ),
    });
    const { docs, run: r } = await run(model);
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12]);
    expect(docs[0]?.metadata).toMatchObject({ judge: "llm", score: 0.8, reason: "tax note" });
    expect(r?.stats.fallbacks).toBe(0);
  });

  it("reads JSON wrapped in prose and code fences", async () => {
    const model = new ScriptedChatModel([], {
      fallback: (prompt: string) =>
        `Let me think about the sections.\n\`\`\`json\n${good(prompt)}\n\`\`\`\nThese fit best.`,
    });
    const { docs, run: r } = await run(model);
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12]);
    expect(r?.stats.calls).toBe(4);
  });

  it("drops ids that were not offered and keeps the valid ones", async () => {
    const model = new ScriptedChatModel([], {
      fallback: badAtNotes(() =>
        JSON.stringify({
          relevant: [
            { id: "0999", score: 1 },
            { id: "13", score: 0.7, reason: "unpadded id" },
          ],
        }),
      ),
    });
    const { docs, run: r } = await run(model);
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12]);
    expect(docs[0]?.metadata.judge).toBe("llm");
    expect(r?.warnings.join("\n")).toMatch(/dropped ids not offered \(0999\)/);
  });

  it("judges lexically when the model names only unknown ids", async () => {
    const model = new ScriptedChatModel([], {
      fallback: badAtNotes(() => JSON.stringify({ relevant: [{ id: "0042" }, { id: "Item 9" }] })),
    });
    const { docs, run: r } = await run(model);
    expect(docs[0]?.metadata).toMatchObject({ nodeId: ID.note12, judge: "lexical-fallback" });
    expect(r?.stats.fallbacks).toBe(1);
    // One failed judgment: no retries for a well-formed but useless answer.
    expect(r?.stats.calls).toBe(4);
  });

  it.each([
    ["an empty answer", () => ""],
    ["a refusal", () => "I'm sorry, but I can't help with that request."],
    ["a wrong shape", () => JSON.stringify({ answer: "Note 12" })],
  ])("falls back to the lexical judge after %s (bounded retries)", async (_label, bad) => {
    const model = new ScriptedChatModel([], { fallback: badAtNotes(bad) });
    const { docs, run: r } = await run(model);
    expect(docs[0]?.metadata).toMatchObject({ nodeId: ID.note12, judge: "lexical-fallback" });
    expect(docs[0]?.pageContent).toContain("21.4%");
    // 3 good calls + 1 + 2 retries at the notes level.
    expect(model.calls).toBe(6);
    expect(r?.stats).toMatchObject({ calls: 6, steps: 4, fallbacks: 1 });
    expect(r?.warnings.some((w) => w.includes("judged lexically"))).toBe(true);
  });

  it("waits after a 429 and succeeds", async () => {
    const model = new ScriptedChatModel([rateLimitError()], { fallback: good });
    const { docs, run: r } = await run(model);
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12]);
    expect(docs[0]?.metadata.judge).toBe("llm");
    expect(r?.stats).toMatchObject({ calls: 5, steps: 4, fallbacks: 0 });
  });

  it("gives up on a hanging call after the timeout and still answers", async () => {
    let hung = 0;
    const model = new ScriptedChatModel([], {
      fallback: badAtNotes(() => {
        hung += 1;
        return new Promise<string>(() => {}); // never resolves
      }),
    });
    const started = Date.now();
    const { docs, run: r } = await run(model, { timeoutMs: 50, retries: 1 });
    // Never answered: only the 50 ms timeouts end it (a hang bound, room for a loaded machine).
    expect(Date.now() - started).toBeLessThan(60_000);
    expect(hung).toBe(2);
    expect(docs[0]?.metadata).toMatchObject({ nodeId: ID.note12, judge: "lexical-fallback" });
    expect(r?.warnings.join("\n")).toMatch(/timed out/);
  });

  it("works with FakeListChatModel answers", async () => {
    const model = new FakeListChatModel({
      responses: [
        JSON.stringify({ relevant: [{ id: ID.partII, score: 0.9, reason: "financial part" }] }),
        JSON.stringify({ relevant: [{ id: ID.item8, score: 0.9, reason: "statements" }] }),
        JSON.stringify({ relevant: [{ id: ID.notes, score: 0.9, reason: "notes" }] }),
        JSON.stringify({ relevant: [{ id: ID.note12, score: 0.85, reason: "income taxes" }] }),
      ],
    });
    const { docs } = await run(model);
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12]);
    expect(docs[0]?.metadata.reason).toBe("income taxes");
  });
});

describe("round trips and refused requests", () => {
  const refused = () => Object.assign(new Error("Incorrect API key provided: sk-xx"), { status: 401 });

  it("counts a retry as a round trip on its chain, and every attempt as a call", async () => {
    const clean = await run(new ScriptedChatModel([], { fallback: good }));
    // Part II > Item 8 > Notes > Note 12: four judgments, each waiting for its parent's.
    expect(clean.run?.stats).toMatchObject({ calls: 4, roundTrips: 4 });
    const model = new ScriptedChatModel([], {
      fallback: (() => {
        let limited = false;
        return badAtNotes((prompt) => {
          if (limited) return good(prompt);
          limited = true;
          return rateLimitError();
        });
      })(),
    });
    const { docs, run: r } = await run(model);
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12]);
    expect(r?.stats).toMatchObject({ calls: 5, steps: 4, roundTrips: 5, fallbacks: 0 });
  });

  it("does not retry a refused request and throws when every call was refused", async () => {
    const model = new ScriptedChatModel([], { fallback: () => refused() });
    const retriever = new PageIndexRetriever({ trees: [annualReport()], model, ...fast });
    const error = await retriever.invoke("What was the effective tax rate in 2023?").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelCallError);
    expect((error as ModelCallError).message).toMatch(/refused .*HTTP 401.*Incorrect API key/);
    expect((error as ModelCallError).status).toBe(401);
    // The roots were judged (refused, fallback), then each opened branch once: no prompt was
    // sent twice. (A query that throws records no run, so its stats cannot be compared.)
    expect(retriever.lastRun).toBeUndefined();
    expect(model.calls).toBeGreaterThan(1);
    expect(new Set(model.prompts).size).toBe(model.calls);
  });

  it("refuses with the same error in single-shot, beam and model document choice", async () => {
    const variants: Array<Partial<PageIndexRetrieverInput>> = [
      { strategy: "single-shot" },
      { strategy: "beam" },
      { documentSelection: "llm", trees: [annualReport(), annualReport("b-10k", "Beta 10-K")] },
    ];
    for (const extra of variants) {
      const model = new ScriptedChatModel([], { fallback: () => refused() });
      const retriever = new PageIndexRetriever({ trees: [annualReport()], model, ...fast, ...extra });
      await expect(retriever.invoke("effective tax rate")).rejects.toBeInstanceOf(ModelCallError);
      expect(model.prompts.every((p, i) => model.prompts.indexOf(p) === i)).toBe(true); // none repeated
    }
  });

  it("answers when only some calls were refused (e.g. one prompt rejected), judging those lexically", async () => {
    const model = new ScriptedChatModel([], { fallback: badAtNotes(() => refused()) });
    const { docs, run: r } = await run(model);
    expect(docs[0]?.metadata).toMatchObject({ nodeId: ID.note12, judge: "lexical-fallback" });
    expect(r?.stats).toMatchObject({ calls: 4, fallbacks: 1 });
    expect(r?.warnings.join("\n")).toMatch(/not retried/);
  });
});

/** A reader whose node texts cannot be read (a store going down mid-query). */
class FailingTexts extends MemoryTreeReader {
  override async getNodeTexts(): Promise<Map<string, string>> {
    await new Promise((resolve) => setTimeout(resolve, 5));
    throw new Error("store down");
  }
}

describe("a failing read", () => {
  it("rejects the query, leaving no unhandled rejection from the searches still running", async () => {
    const unhandled: unknown[] = [];
    const record = (reason: unknown) => void unhandled.push(reason);
    process.on("unhandledRejection", record);
    try {
      // Two documents: both roots' lexical judgments read texts, and both reads fail.
      const reader = new FailingTexts([annualReport(), annualReport("beta-10k", "BETA 2023 Form 10-K")]);
      const retriever = new PageIndexRetriever({ reader, lexicalText: "full" });
      await expect(retriever.invoke("effective tax rate")).rejects.toThrow(/store down/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).toEqual([]);
    } finally {
      process.off("unhandledRejection", record);
    }
  });
});
