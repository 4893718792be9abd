import { InMemoryStore } from "@langchain/core/stores";
import { LruJudgmentCache, PageIndexRetriever } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { annualReport, ID, judgeByTitle, TAX_PATH } from "./support/fixtures.js";

// These tests pin how `expand` (the default before `auto`) searches.
const fast = { backoffMs: 1, timeoutMs: 2000, strategy: "expand" as const };

describe("judgment cache", () => {
  it("answers a repeated query from the cache (case and spacing ignored)", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    const retriever = new PageIndexRetriever({ trees: [annualReport()], model, ...fast });
    const first = await retriever.invoke("Effective tax rate?");
    const second = await retriever.invoke("  effective   TAX rate? ");
    expect(model.calls).toBe(4);
    expect(second.map((d) => d.id)).toEqual(first.map((d) => d.id));
    expect(retriever.lastRun?.stats).toMatchObject({ calls: 0, cacheHits: 4, roundTrips: 0 });
  });

  it("reuses overlapping judgments: a query limited to fewer documents costs nothing new", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    const cache = new LruJudgmentCache(100);
    const both = new PageIndexRetriever({
      trees: [annualReport(), annualReport("beta-10k")],
      model,
      cache,
      ...fast,
    });
    await both.invoke("tax rate");
    expect(model.calls).toBe(8);
    const one = new PageIndexRetriever({
      trees: [annualReport(), annualReport("beta-10k")],
      model,
      cache,
      docIds: ["beta-10k"],
      ...fast,
    });
    const docs = await one.invoke("tax rate");
    expect(model.calls).toBe(8);
    expect(docs.map((d) => d.id)).toEqual([`beta-10k:${ID.note12}`]);
  });

  it("evicts the least recently used entries", async () => {
    const cache = new LruJudgmentCache(2);
    const j = { verdicts: [], judge: "llm" as const };
    await cache.set("a", j);
    await cache.set("b", j);
    await cache.get("a");
    await cache.set("c", j);
    expect(await cache.get("b")).toBeUndefined();
    expect(await cache.get("a")).toEqual(j);
    expect(cache.size).toBe(2);
  });

  it("can live in any LangChain byte store, and can be disabled", async () => {
    const store = new InMemoryStore<Uint8Array>();
    const m1 = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    await new PageIndexRetriever({ trees: [annualReport()], model: m1, cache: store, ...fast }).invoke("tax");
    const keys: string[] = [];
    for await (const key of store.yieldKeys()) keys.push(key);
    expect(keys).toHaveLength(4);
    expect(keys.every((k) => /^judgment-[0-9a-f]{64}$/.test(k))).toBe(true);
    // A new retriever over the same store: no model call.
    const m2 = new ScriptedChatModel([]);
    const docs = await new PageIndexRetriever({
      trees: [annualReport()],
      model: m2,
      cache: store,
      ...fast,
    }).invoke("tax");
    expect(m2.calls).toBe(0);
    expect(docs[0]?.metadata.nodeId).toBe(ID.note12);

    const m3 = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    const off = new PageIndexRetriever({ trees: [annualReport()], model: m3, cache: false, ...fast });
    await off.invoke("tax");
    await off.invoke("tax");
    expect(m3.calls).toBe(8);
  });

  it("does not share judgments across different expert knowledge", async () => {
    const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    const cache = new LruJudgmentCache();
    await new PageIndexRetriever({ trees: [annualReport()], model, cache, ...fast }).invoke("tax");
    await new PageIndexRetriever({
      trees: [annualReport()],
      model,
      cache,
      expertKnowledge: "prefer notes",
      ...fast,
    }).invoke("tax");
    expect(model.calls).toBe(8);
  });
});
