import { PageIndexRetriever, type PageIndexRetrieverInput, PromptTooLargeError } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { annualReport, ID, judgeByTitle, manual, offeredNodes } from "./support/fixtures.js";

const fast = { backoffMs: 1, timeoutMs: 2000 };

describe("beam strategy", () => {
  it("expands only the best beamWidth branches per level", async () => {
    // Everything on the way looks relevant; scores rank Item 8 over Item 7, Notes over statements.
    const judge = judgeByTitle(/./, [
      [/^Part II$/, 0.9],
      [/^Part I$/, 0.5],
      [/^Item 8/, 0.9],
      [/^Item 7/, 0.6],
      [/^Notes to/, 0.9],
      [/^Note 12/, 0.95],
    ]);
    const full = new ScriptedChatModel([], { fallback: judge });
    const expand = new PageIndexRetriever({
      trees: [annualReport()],
      model: full,
      k: 20,
      strategy: "expand",
      ...fast,
    });
    await expand.invoke("tax");
    const beamModel = new ScriptedChatModel([], { fallback: judge });
    const beam = new PageIndexRetriever({
      trees: [annualReport()],
      model: beamModel,
      strategy: "beam",
      beamWidth: 1,
      k: 10,
      ...fast,
    });
    const docs = await beam.invoke("tax");
    // roots → Part II → Item 8 → Notes: one expansion per level.
    expect(beamModel.calls).toBe(4);
    expect(full.calls).toBeGreaterThan(beamModel.calls);
    expect(beam.lastRun?.stats.roundTrips).toBe(4);
    expect(docs[0]?.metadata).toMatchObject({ nodeId: ID.note12, strategy: "beam" });
    // Leaves met on the way (e.g. the statements under Item 8) are kept as well, ranked lower.
    const ids = docs.map((d) => d.metadata.nodeId);
    expect(ids).toContain(ID.income);
    // Pruned branches were never opened: nothing under Item 7 or Part I.
    expect(ids).not.toContain(ID.results);
    expect(ids).not.toContain(ID.item1);
  });
});

describe("single-shot strategy", () => {
  const tocJudge = (pick: string) => (prompt: string) => {
    const doc = /<toc doc="(\d+)" name="ACME 2023 Form 10-K"/.exec(prompt)?.[1] ?? "1";
    return JSON.stringify({
      relevant: [{ doc, id: pick, score: 0.9, reason: "the tax note" }, { id: "0077" }],
    });
  };

  it("asks once with the whole table of contents and validates the ids", async () => {
    const model = new ScriptedChatModel([tocJudge(ID.note12)]);
    const retriever = new PageIndexRetriever({
      trees: [annualReport(), manual()],
      model,
      strategy: "single-shot",
      ...fast,
    });
    const docs = await retriever.invoke("effective tax rate");
    expect(model.calls).toBe(1);
    expect(model.prompts[0]).toContain("<toc doc=");
    expect(model.prompts[0]).toContain("[0013] Note 12. Income Taxes (pp. 46-50)");
    expect(model.prompts[0]).toContain("Rocket Skates User Manual");
    expect(docs.map((d) => d.id)).toEqual([`acme-10k:${ID.note12}`]);
    expect(docs[0]?.metadata).toMatchObject({
      strategy: "single-shot",
      judge: "llm",
      reason: "the tax note",
    });
    expect(docs[0]?.metadata.visited).toEqual([ID.partII, ID.item8, ID.notes, ID.note12]);
    expect(retriever.lastRun?.stats).toMatchObject({ calls: 1, roundTrips: 1 });
    expect(retriever.lastRun?.warnings.join(" ")).toMatch(/0077/);
  });

  /** A judge that follows the tax path whatever it is offered, for the expansion fallbacks. */
  const taxJudge = () => judgeByTitle(/^(Part II|Item 8\.|Notes to|Note 12\.)/);
  const singleShot = (model: ScriptedChatModel, extra: Partial<PageIndexRetrieverInput> = {}) =>
    new PageIndexRetriever({ trees: [annualReport()], model, strategy: "single-shot", ...fast, ...extra });

  it("falls back to expansion when the table of contents would not fit", async () => {
    const model = new ScriptedChatModel([], { fallback: taxJudge() });
    const retriever = singleShot(model, { maxPromptTokens: 905 }); // the expansion prompts fit, the table of contents does not
    const docs = await retriever.invoke("effective tax rate");
    expect(docs[0]?.metadata.nodeId).toBe(ID.note12);
    expect(model.calls).toBe(4);
    expect(offeredNodes(model.prompts[0] as string).length).toBe(2);
    expect(retriever.lastRun?.warnings.join(" ")).toMatch(/maxPromptTokens=905; expanded instead/);
  });

  it("splits expansion prompts over maxPromptTokens across calls of the same round trip", async () => {
    const model = new ScriptedChatModel([], { fallback: taxJudge() });
    const retriever = singleShot(model, { maxPromptTokens: 200 });
    const docs = await retriever.invoke("effective tax rate");
    expect(docs[0]?.metadata.nodeId).toBe(ID.note12);
    // Even one candidate is over 200 tokens: each level is judged one candidate a call, none dropped.
    expect(model.prompts.every((p) => offeredNodes(p).length === 1)).toBe(true);
    expect(model.calls).toBe(2 + 2 + 3 + 4);
    expect(retriever.lastRun?.stats.roundTrips).toBe(4);
  });

  it("takes its default budget from the model's declared input window", async () => {
    class SmallWindowModel extends ScriptedChatModel {
      override get profile() {
        return { maxInputTokens: 260 };
      }
    }
    const model = new SmallWindowModel([], { fallback: taxJudge() });
    const retriever = singleShot(model);
    const docs = await retriever.invoke("effective tax rate");
    expect(docs[0]?.metadata.nodeId).toBe(ID.note12);
    expect(retriever.lastRun?.warnings.join(" ")).toMatch(/maxPromptTokens=195; expanded instead/);
    // A model without a declared window keeps the 6k default: one single-shot call.
    const plain = new ScriptedChatModel([], { fallback: judgeByTitle(/^Note 12\./) });
    await singleShot(plain).invoke("effective tax rate");
    expect(plain.calls).toBe(1);
  });

  it("expands when the model rejects the prompt as over its context window", async () => {
    // OpenAI's answer for a prompt over the window: HTTP 400, code context_length_exceeded.
    const overflow = Object.assign(
      new Error(
        "400 This model's maximum context length is 8192 tokens. Please reduce the length of the messages.",
      ),
      { status: 400, code: "context_length_exceeded" },
    );
    const model = new ScriptedChatModel([overflow], { fallback: taxJudge() });
    const retriever = singleShot(model);
    const docs = await retriever.invoke("effective tax rate");
    expect(docs[0]?.metadata.nodeId).toBe(ID.note12);
    expect(docs[0]?.metadata.judge).toBe("llm");
    expect(retriever.lastRun?.warnings.join(" ")).toMatch(
      /over the model's context window; expanded instead/,
    );
    // The single-shot call was not resent: one call, then one per expanded level.
    expect(model.prompts[1]).not.toBe(model.prompts[0]);
    expect(offeredNodes(model.prompts[1] as string).length).toBe(2);
  });

  it("refuses when asked to", async () => {
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model: new ScriptedChatModel([]),
      strategy: "single-shot",
      maxPromptTokens: 200,
      onPromptTooLarge: "error",
    });
    await expect(retriever.invoke("tax")).rejects.toBeInstanceOf(PromptTooLargeError);
  });

  it("ranks lexically when the single answer is unusable", async () => {
    const model = new ScriptedChatModel(["no idea", "still no idea", "nope"]);
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model,
      strategy: "single-shot",
      k: 1,
      ...fast,
    });
    const docs = await retriever.invoke("effective tax rate");
    expect(docs[0]?.metadata).toMatchObject({ nodeId: ID.note12, judge: "lexical-fallback" });
    expect(retriever.lastRun?.stats.fallbacks).toBe(1);
  });
});
