import { Document } from "@langchain/core/documents";
import { BaseRetriever } from "@langchain/core/retrievers";
import { describe, expect, it } from "vitest";
import { overlapArea } from "../src/eval/label-layout.js";
import type { QuestionScore, RetrieverSummary } from "../src/eval/metrics.js";
import { parseQuestions } from "../src/eval/questions.js";
import { chartLayout, colourFor, evaluationChart, evaluationTable } from "../src/eval/report.js";
import { type EvaluationResult, evaluateRetrievers, renameRetriever } from "../src/eval/run.js";

const questions = parseQuestions(
  [
    { id: "q1", doc_name: "ACME", question: "cash flow?", evidence: [{ page: 7 }] },
    { id: "q2", doc_name: "ACME", question: "revenue?", evidence: [{ page: 3 }] },
  ]
    .map((q) => JSON.stringify(q))
    .join("\n"),
);

const section = (startPage: number, endPage = startPage, nodeId = "0001") =>
  new Document({
    pageContent: "Some section text.",
    metadata: { docId: "ACME", nodeId, startPage, endPage },
  });

/** Returns fixed sections and keeps a run record the way PageIndexRetriever does. */
class RecordingRetriever extends BaseRetriever {
  override lc_namespace = ["test"];
  lastRun: { stats: { steps: number; fallbacks: number } } | undefined;
  override async _getRelevantDocuments(): Promise<Document[]> {
    this.lastRun = { stats: { steps: 4, fallbacks: 3 } };
    return [section(1, 2, "0000"), section(6, 8)];
  }
}

const sleep = (ms: number) => new Promise((done) => setTimeout(done, ms));

describe("evaluateRetrievers: timing, sections, fallbacks", () => {
  it("times building a retriever apart from its queries", async () => {
    let built: BaseRetriever | undefined;
    const result = await evaluateRetrievers({
      questions,
      k: 3,
      retrievers: {
        // Builds its "index" once, slowly, on the first question (like a chunk baseline).
        slow: async () => {
          if (!built) {
            // Long beside a query's own latency, even on a loaded machine.
            await sleep(1500);
            built = new RecordingRetriever();
          }
          return built;
        },
      },
    });
    const [first, second] = result.scores.slow as QuestionScore[];
    // The build's sleep counts as setup, once, never as a question's latency.
    expect(first?.setupMs).toBeGreaterThanOrEqual(1490);
    expect(first?.latencyMs).toBeLessThan(1490);
    expect(second?.setupMs).toBeLessThan(1490);
    expect(result.summaries[0]?.indexMs).toBeGreaterThanOrEqual(1490);
    expect(result.summaries[0]?.meanLatencyMs).toBeLessThan(1490);
  });

  it("lists every returned section with its place and hit, and sums fallbacks", async () => {
    const result = await evaluateRetrievers({
      questions,
      k: 3,
      retrievers: { tree: new RecordingRetriever() },
    });
    const q1 = result.scores.tree?.[0] as QuestionScore;
    expect(q1.sections).toEqual([
      { docId: "ACME", nodeId: "0000", startPage: 1, endPage: 2, tokens: expect.any(Number), hit: false },
      { docId: "ACME", nodeId: "0001", startPage: 6, endPage: 8, tokens: expect.any(Number), hit: true },
    ]);
    expect(q1).toMatchObject({ firstHitRank: 2, judgments: 4, fallbacks: 3 });
    expect(result.summaries[0]).toMatchObject({ judgments: 8, fallbacks: 6, meanCompletionTokens: 0 });
    const table = evaluationTable(result);
    expect(table).toContain("| completion tokens / q | judge fallbacks |");
    expect(table).toContain("| 6/8 |");
    const renamed = renameRetriever(result, "tree", "tree (lexical fallback)");
    expect(renamed.summaries[0]?.name).toBe("tree (lexical fallback)");
    expect(Object.keys(renamed.scores)).toEqual(["tree (lexical fallback)"]);
  });
});

const summary = (name: string, hitRate: number, meanReturnedTokens: number): RetrieverSummary => ({
  name,
  questions: 20,
  hitRate,
  mrr: hitRate / 2,
  meanReturnedTokens,
  meanLlmCalls: 0,
  meanPromptTokens: 0,
  meanCompletionTokens: 0,
  meanLatencyMs: 10,
  indexMs: 5,
  judgments: 0,
  fallbacks: 0,
  errors: 0,
});

const resultOf = (summaries: RetrieverSummary[]): EvaluationResult => ({ k: 3, summaries, scores: {} });

describe("evaluationChart", () => {
  it("keeps labels of nearby points apart and 100 % points off the frame", () => {
    const result = resultOf([
      summary("pageindex (offline BM25 judge)", 1, 1000),
      summary("bm25 chunks", 1, 1040),
      summary("vector chunks", 0.95, 1010),
      summary("hybrid", 0, 0),
    ]);
    const layout = chartLayout(result);
    const { frame, points } = layout;
    for (const [i, a] of points.entries()) {
      // Inside the frame, with room for the whole circle.
      expect(a.cy - a.r).toBeGreaterThan(frame.y);
      expect(a.cy + a.r).toBeLessThan(frame.y + frame.height);
      expect(a.cx - a.r).toBeGreaterThan(frame.x);
      expect(a.label.y).toBeGreaterThanOrEqual(frame.y);
      expect(a.label.x + a.label.width).toBeLessThanOrEqual(frame.x + frame.width);
      for (const b of points.slice(i + 1)) {
        expect(overlapArea(a.label, b.label), `${a.name} / ${b.name}`).toBe(0);
      }
      for (const b of points) {
        const dot = { x: b.cx - b.r, y: b.cy - b.r, width: 2 * b.r, height: 2 * b.r };
        expect(overlapArea(a.label, dot), `${a.name} label on ${b.name}`).toBe(0);
      }
    }
    const svg = evaluationChart(result);
    expect(svg.match(/<circle /g)).toHaveLength(4);
    expect(svg).toContain(">bm25 chunks</text>");
  });

  it("gives a retriever the same colour whatever else is in the run", () => {
    const alone = chartLayout(resultOf([summary("vector chunks", 0.2, 600)]));
    const crowd = chartLayout(
      resultOf([
        summary("custom", 0.5, 100),
        summary("bm25 chunks", 0.4, 900),
        summary("vector chunks", 0.2, 600),
      ]),
    );
    expect(crowd.points[2]?.colour).toBe(alone.points[0]?.colour);
    expect(colourFor("pageindex (openai:gpt-4o-mini)")).toBe(colourFor("pageindex (offline BM25 judge)"));
    expect(colourFor("pageindex (x)")).not.toBe(colourFor("bm25 chunks"));
    const known = new Set(["pageindex", "bm25 chunks", "vector chunks"].map(colourFor));
    for (const other of ["hybrid", "custom", "ensemble", "colbert", "splade", "rerank"])
      expect(known.has(colourFor(other)), other).toBe(false);
  });
});
