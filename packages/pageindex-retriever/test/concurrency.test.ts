import { PageIndexRetriever, type SearchStrategy } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { annualReport, judgeByTitle } from "./support/fixtures.js";

/** A judge that finds every section relevant and takes a while, recording calls in flight. */
function slowJudge() {
  const state = { inFlight: 0, max: 0 };
  const judge = judgeByTitle(/./);
  const model = new ScriptedChatModel([], {
    fallback: async (prompt: string) => {
      state.inFlight += 1;
      state.max = Math.max(state.max, state.inFlight);
      await new Promise((resolve) => setTimeout(resolve, 15));
      state.inFlight -= 1;
      return judge(prompt);
    },
  });
  return { model, state };
}

describe("concurrency bounds the model calls in flight", () => {
  it.each([
    ["expand", 1],
    ["expand", 2],
    ["expand", 3],
    ["beam", 2],
  ] as Array<[SearchStrategy, number]>)("%s with concurrency %i", async (strategy, concurrency) => {
    const { model, state } = slowJudge();
    const trees = [annualReport(), annualReport("beta-10k", "BETA 2023 Form 10-K")];
    const retriever = new PageIndexRetriever({
      trees,
      model,
      strategy,
      concurrency,
      beamWidth: 4,
      collapseBelowTokens: 0,
      timeoutMs: 5000,
    });
    await retriever.invoke("anything at all");
    // Two documents, every branch relevant: far more independent calls than the bound.
    expect(model.calls).toBeGreaterThan(concurrency * 2);
    expect(state.max).toBe(concurrency);
    expect(state.inFlight).toBe(0);
  });
});
