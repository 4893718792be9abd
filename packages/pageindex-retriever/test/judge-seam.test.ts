/**
 * The seams of issue 23: a judge written here and plugged in through `judge:`, a strategy added
 * as one entry of the strategies table, the stock judges composed by hand, and options grouped
 * and validated once, at construction.
 */

import { getNode } from "pageindex-core";
import {
  CachedJudge,
  type DocumentChoice,
  type DocumentChoiceRequest,
  FallbackJudge,
  type Judge,
  type JudgeOutcome,
  type JudgeRequest,
  type JudgeRun,
  LexicalJudge,
  type LibraryChoice,
  type LibraryChoiceRequest,
  LlmJudge,
  LruJudgmentCache,
  type NodeVerdict,
  type OutlineRequest,
  PageIndexRetriever,
  RetrieverConfigError,
  type SearchStrategy,
  type TableOfContentsRequest,
} from "pageindex-retriever";
import { afterEach, describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import type { SearchLedger } from "../src/search/ledger.js";
import { openNode } from "../src/search/open-node.js";
import { type Scheduler, STRATEGIES } from "../src/search/strategies.js";
import { newSearchState, type WorkItem } from "../src/search/work.js";
import { CatalogOnlyReader } from "./support/catalog-reader.js";
import { annualReport, ID, judgeByTitle, manual, TAX_PATH } from "./support/fixtures.js";

const fast = { calls: { backoffMs: 1, timeoutMs: 2000 } };

/**
 * A judge that reads titles only: a section is relevant when its title (or a title below it)
 * holds a word of the question. It spends one step of the budget per judgment, as a model would.
 */
class TitleWordJudge implements Judge {
  readonly usesModel: boolean = false;
  readonly asked: string[] = [];

  private words(query: string): string[] {
    return query
      .toLowerCase()
      .split(/\W+/)
      .filter((w) => w.length > 3);
  }

  private matches(query: string, title: string): boolean {
    const lower = title.toLowerCase();
    return this.words(query).some((w) => lower.includes(w));
  }

  async judgeSiblings(request: JudgeRequest, run: JudgeRun): Promise<JudgeOutcome | undefined> {
    if (!run.takeStep()) return undefined;
    this.asked.push(`siblings:${request.parent?.nodeId ?? "roots"}`);
    const below = (nodeId: string): boolean => {
      const node = getNode(request.skeleton, nodeId);
      if (!node) return false;
      return this.matches(run.query, node.title) || node.childIds.some(below);
    };
    const verdicts = request.candidates.map(
      (c): NodeVerdict => ({
        nodeId: c.nodeId,
        relevant: below(c.nodeId),
        score: this.matches(run.query, c.title) ? 1 : 0.6,
        reason: "title word",
      }),
    );
    return { judgment: { verdicts, judge: "llm" }, roundTrips: 1 };
  }

  async judgeOutline(
    request: OutlineRequest | TableOfContentsRequest,
    run: JudgeRun,
  ): Promise<JudgeOutcome | undefined> {
    if (request.kind === "outline") throw new Error("a judge without prompts is offered no outline");
    this.asked.push("table-of-contents");
    const verdicts = request.documents.flatMap(({ skeleton }) =>
      skeleton.nodes
        .filter((n) => n.childIds.length === 0 && this.matches(run.query, n.title))
        .map((n) => ({
          nodeId: n.nodeId,
          docId: skeleton.docId,
          relevant: true,
          score: 1,
          reason: "title word",
        })),
    );
    return { judgment: { verdicts, judge: "llm" }, roundTrips: 1 };
  }

  async chooseDocuments(request: DocumentChoiceRequest, run: JudgeRun): Promise<DocumentChoice> {
    this.asked.push("documents");
    const docIds = request.documents.filter((d) => this.matches(run.query, d.docName)).map((d) => d.docId);
    return { docIds: docIds.slice(0, request.max), judge: "llm", roundTrips: 1 };
  }
}

/**
 * The title-word judge standing in for a model (`usesModel`), so a library reader asks it to
 * pick among the library's candidates: the documents whose name holds a word of the question.
 */
class LibraryTitleWordJudge extends TitleWordJudge {
  override readonly usesModel = true;

  async chooseInLibrary(request: LibraryChoiceRequest, run: JudgeRun): Promise<LibraryChoice> {
    this.asked.push("library");
    const named = (name: string) =>
      run.query
        .toLowerCase()
        .split(/\W+/)
        .some((w) => w.length > 3 && name.toLowerCase().includes(w));
    const picks = request.documents
      .filter((d) => named(d.card.docName))
      .slice(0, request.max)
      .map((d) => ({ docId: d.docId, score: 1, reason: "name word" }));
    return { picks, judge: "llm", roundTrips: 1, offered: 0 };
  }
}

describe("a judge plugged in through `judge:`", () => {
  it("navigates the tree with the judge's verdicts", async () => {
    const judge = new TitleWordJudge();
    const retriever = new PageIndexRetriever({ trees: [annualReport()], judge, k: 3 });
    const docs = await retriever.invoke("Where are income taxes explained?");
    expect(docs[0]?.metadata).toMatchObject({ nodeId: ID.note12, judge: "llm" });
    expect(docs[0]?.metadata.visited).toEqual([ID.partII, ID.item8, ID.notes, ID.note12]);
    // Roots, then one opening per level on the way down to the note.
    expect(judge.asked).toEqual(["siblings:roots", "siblings:0003", "siblings:0007", "siblings:0010"]);
    expect(retriever.lastRun?.stats.steps).toBe(4);
    expect(retriever.lastRun?.stats.lexicalJudgments).toBe(0);
  });

  it("answers the single-shot strategy and the document choice (catalog)", async () => {
    const judge = new TitleWordJudge();
    const retriever = new PageIndexRetriever({
      reader: new CatalogOnlyReader([annualReport(), manual()]),
      judge,
      strategy: "single-shot",
      documents: { selection: "llm", margin: Number.POSITIVE_INFINITY },
    });
    const docs = await retriever.invoke("ACME income taxes");
    expect(judge.asked).toEqual(["documents", "table-of-contents"]);
    expect(retriever.lastRun?.docIds).toEqual(["acme-10k"]);
    // Equal scores: the deeper section first.
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12, ID.income]);
  });

  it("answers the single-shot strategy and the library choice (library)", async () => {
    const judge = new LibraryTitleWordJudge();
    const retriever = new PageIndexRetriever({
      trees: [annualReport(), manual()],
      judge,
      strategy: "single-shot",
      documents: { selection: "llm", margin: Number.POSITIVE_INFINITY },
    });
    // "acme" is in both documents' text (the manual's skates are ACME's): the library offers both.
    const docs = await retriever.invoke("ACME income taxes");
    expect(judge.asked).toEqual(["library", "table-of-contents"]);
    expect(retriever.lastRun?.stats.documentsConsidered).toBe(2);
    expect(retriever.lastRun?.docIds).toEqual(["acme-10k"]);
    expect(docs.map((d) => d.metadata.nodeId)).toEqual([ID.note12, ID.income]);
  });

  it("composes the stock judges: a model's unusable answer falls back lexically, a usable one is cached", async () => {
    const garbage = new ScriptedChatModel([], { fallback: () => "no JSON here" });
    const fallback = new FallbackJudge(
      new LlmJudge({ model: garbage }),
      new LexicalJudge({ threshold: 0.2 }),
    );
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model: garbage,
      judge: fallback,
      calls: { retries: 0, backoffMs: 1, timeoutMs: 2000 },
    });
    const docs = await retriever.invoke("income taxes");
    expect(docs[0]?.metadata.judge).toBe("lexical-fallback");
    expect(retriever.lastRun?.stats.fallbacks).toBeGreaterThan(0);
    expect(retriever.lastRun?.warnings.some((w) => w.startsWith("judge failed under acme-10k/"))).toBe(true);

    const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
    const cache = new LruJudgmentCache();
    const cached = new CachedJudge(new LlmJudge({ model }), cache);
    const tree = annualReport();
    const first = new PageIndexRetriever({
      trees: [tree],
      model,
      judge: cached,
      strategy: "expand",
      ...fast,
    });
    await first.invoke("income taxes");
    const calls = model.calls;
    expect(calls).toBeGreaterThan(0);
    const again = new PageIndexRetriever({
      trees: [tree],
      model,
      judge: cached,
      strategy: "expand",
      ...fast,
    });
    const docs2 = await again.invoke("Income  TAXES");
    expect(model.calls).toBe(calls);
    expect(again.lastRun?.stats.cacheHits).toBe(calls);
    expect(docs2[0]?.metadata.nodeId).toBe(ID.note12);
  });
});

describe("a strategy added as one table entry", () => {
  /** Greedy descent: open only the best item of each level (a beam of one, written from scratch). */
  const greedy: Scheduler = async (ctx: SearchLedger, plan) => {
    const state = newSearchState();
    let level: WorkItem[] = plan.starts;
    while (level.length > 0) {
      const next: WorkItem[] = [];
      for (const item of level) next.push(...(await openNode.siblings(ctx, item, state)));
      next.sort((a, b) => b.priority - a.priority);
      level = next.slice(0, 1);
    }
    return state.candidates;
  };
  const table = STRATEGIES as Record<string, Scheduler>;
  afterEach(() => {
    delete table.greedy;
  });

  it("is accepted by name and schedules the search", async () => {
    expect(
      () => new PageIndexRetriever({ trees: [annualReport()], strategy: "greedy" as SearchStrategy }),
    ).toThrow(RetrieverConfigError);
    table.greedy = greedy;
    const model = new ScriptedChatModel([], {
      fallback: judgeByTitle(/^(Part II|Item 7|Item 8|Notes to|Note 12)/, [
        [/^Item 8/, 0.9],
        [/^Item 7/, 0.5],
      ]),
    });
    const retriever = new PageIndexRetriever({
      trees: [annualReport()],
      model,
      strategy: "greedy" as SearchStrategy,
      ...fast,
    });
    const docs = await retriever.invoke("income taxes");
    // Item 7 and Item 8 both look relevant; greedy opens only the better one, level by level.
    expect(model.calls).toBe(4);
    expect(retriever.lastRun?.strategy).toBe("greedy");
    expect(docs[0]?.metadata.nodeId).toBe(ID.note12);
    expect(retriever.lastRun?.visited.map((v) => v.nodeId)).not.toContain(ID.results);
  });
});

describe("options grouped and validated at construction", () => {
  const trees = [annualReport()];

  it("rejects options that cannot work before any query", () => {
    const bad: Array<ConstructorParameters<typeof PageIndexRetriever>[0]> = [
      { trees, documents: { maxDocuments: 0 } },
      { trees, documents: { margin: 0.5 } },
      { trees, documents: { scoring: "avg" as "sum" } },
      { trees, documents: { selection: "some" as "all" } },
      { trees, budget: { maxContentTokens: -1 } },
      { trees, maxContentTokens: Number.NaN },
      { trees, documentCandidates: 0 },
      { trees, budget: { fanOut: 1 } },
      { trees, calls: { retries: -1 } },
      { trees, lexical: { threshold: 2 } },
      { trees, deadEnds: { maxTokens: -5 } },
      { trees, cache: { size: 0 } },
    ];
    for (const fields of bad)
      expect(() => new PageIndexRetriever(fields), JSON.stringify(fields)).toThrow(RetrieverConfigError);
    expect(
      () => new PageIndexRetriever({ trees, documents: { margin: Number.POSITIVE_INFINITY } }),
    ).not.toThrow();
  });

  it("takes the flat names as aliases, the grouped ones winning", async () => {
    const ask = async (fields: Partial<ConstructorParameters<typeof PageIndexRetriever>[0]>) => {
      const model = new ScriptedChatModel([], { fallback: judgeByTitle(TAX_PATH) });
      const retriever = new PageIndexRetriever({ trees, model, strategy: "expand", ...fast, ...fields });
      await retriever.invoke("income taxes");
      return model.calls;
    };
    // Flat alone: no step allowed, no call.
    expect(await ask({ maxSteps: 0 })).toBe(0);
    // Grouped alone: the same.
    expect(await ask({ budget: { maxSteps: 0 } })).toBe(0);
    // Both: the grouped one wins.
    expect(await ask({ maxSteps: 0, budget: { maxSteps: 25 } })).toBeGreaterThan(0);
    expect(await ask({ maxSteps: 25, budget: { maxSteps: 0 } })).toBe(0);
  });

  it("applies the grouped content budget", async () => {
    const retriever = new PageIndexRetriever({ trees, budget: { maxContentTokens: 20 }, k: 5 });
    const docs = await retriever.invoke("income taxes");
    expect(docs).toHaveLength(1);
    expect(docs[0]?.metadata.truncated).toBe(true);
  });
});
