import { Document } from "@langchain/core/documents";
import { BaseRetriever } from "@langchain/core/retrievers";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { documentHoldsEvidence, normaliseDocName } from "../src/eval/metrics.js";
import { parseQuestions, QuestionsFileError } from "../src/eval/questions.js";
import { evaluationChart, evaluationTable } from "../src/eval/report.js";
import { evaluateRetrievers } from "../src/eval/run.js";

const jsonl = [
  JSON.stringify({
    id: "q1",
    doc_name: "ACME_2025_10K",
    question: "What was operating cash flow?",
    evidence: [{ doc_name: "ACME_2025_10K", page: 7, evidence_text: "..." }],
  }),
  "",
  JSON.stringify({
    question: "Where are the TLS rules?",
    doc: "manual.md",
    evidence: [{ section: "TLS certificates" }],
  }),
].join("\n");

const node = (meta: Record<string, unknown>, text = "some text") =>
  new Document({ pageContent: text, metadata: meta });

describe("questions", () => {
  it("parses FinanceBench-style JSONL and section evidence", () => {
    const qs = parseQuestions(jsonl);
    expect(qs).toEqual([
      {
        id: "q1",
        question: "What was operating cash flow?",
        doc: "ACME_2025_10K",
        evidence: [{ doc: "ACME_2025_10K", page: 7 }],
      },
      {
        id: "q2",
        question: "Where are the TLS rules?",
        doc: "manual.md",
        evidence: [{ doc: "manual.md", section: "TLS certificates" }],
      },
    ]);
  });
  it("names the line of a bad entry", () => {
    expect(() => parseQuestions('{"question": "x", "evidence": []}', "qs.jsonl")).toThrow(QuestionsFileError);
    expect(() => parseQuestions('{"question": "x", "evidence": []}', "qs.jsonl")).toThrow(
      /^qs\.jsonl:1: evidence/,
    );
    expect(() => parseQuestions("ok\n{", "qs.jsonl")).toThrow(/qs\.jsonl:1: not valid JSON/);
  });
});

describe("metrics", () => {
  it("matches documents loosely by name and pages by range", () => {
    expect(normaliseDocName("ADOBE_2022_10K.pdf")).toBe(normaliseDocName("adobe-2022-10k"));
    const evidence = { doc: "ACME_2025_10K", page: 7 };
    expect(
      documentHoldsEvidence(node({ docId: "ACME_2025_10K.pdf", startPage: 6, endPage: 8 }), evidence),
    ).toBe(true);
    expect(
      documentHoldsEvidence(node({ docId: "ACME_2025_10K.pdf", startPage: 8, endPage: 9 }), evidence),
    ).toBe(false);
    expect(documentHoldsEvidence(node({ docId: "OTHER.pdf", startPage: 6, endPage: 8 }), evidence)).toBe(
      false,
    );
    expect(documentHoldsEvidence(node({ source: "/x/ACME_2025_10K.pdf", page: 7 }), evidence)).toBe(true);
    // A section returned without its subsections holds only its own pages (6 here, not 7-8).
    const intro = { docId: "ACME_2025_10K.pdf", startPage: 6, endPage: 8, ownEndPage: 6 };
    expect(documentHoldsEvidence(node(intro), evidence)).toBe(false);
    expect(documentHoldsEvidence(node({ ...intro, includesDescendants: true }), evidence)).toBe(true);
    expect(
      documentHoldsEvidence(
        node({ docName: "manual.md", path: ["Security", "TLS certificates", "Rotation"] }),
        {
          doc: "manual.md",
          section: "tls certificates",
        },
      ),
    ).toBe(true);
    const collapsed = node(
      { docName: "manual.md", path: ["Security"], includesDescendants: true },
      "## Security\n\n### TLS certificates\n\nRotate them.",
    );
    expect(documentHoldsEvidence(collapsed, { doc: "manual.md", section: "TLS certificates" })).toBe(true);
    expect(
      documentHoldsEvidence(
        { ...collapsed, metadata: { ...collapsed.metadata, includesDescendants: false } },
        { doc: "manual.md", section: "TLS certificates" },
      ),
    ).toBe(false);
  });
});

class ListRetriever extends BaseRetriever {
  override lc_namespace = ["test"];
  constructor(private readonly answer: (q: string) => Document[]) {
    super();
  }
  override async _getRelevantDocuments(query: string): Promise<Document[]> {
    return this.answer(query);
  }
}

class ModelBackedRetriever extends BaseRetriever {
  override lc_namespace = ["test"];
  model = new ScriptedChatModel([], { fallback: "ok" });
  override async _getRelevantDocuments(
    query: string,
    runManager?: { getChild(): unknown },
  ): Promise<Document[]> {
    await this.model.invoke(query, { callbacks: runManager?.getChild() as never });
    return [node({ docId: "ACME_2025_10K", startPage: 7, endPage: 7 })];
  }
}

describe("evaluateRetrievers", () => {
  it("scores hit rate, MRR, tokens and model calls per retriever, and survives a throwing retriever", async () => {
    const questions = parseQuestions(jsonl);
    const result = await evaluateRetrievers({
      questions,
      k: 2,
      retrievers: {
        second: new ListRetriever(() => [
          node({ docId: "ACME_2025_10K", startPage: 1, endPage: 2 }),
          node({ docId: "ACME_2025_10K", startPage: 7, endPage: 9 }),
        ]),
        llm: new ModelBackedRetriever(),
        broken: new ListRetriever(() => {
          throw new Error("index missing");
        }),
      },
    });
    const byName = Object.fromEntries(result.summaries.map((s) => [s.name, s]));
    expect(byName.second).toMatchObject({
      questions: 2,
      hitRate: 0.5,
      mrr: 0.25,
      meanLlmCalls: 0,
      errors: 0,
    });
    expect(byName.llm).toMatchObject({ hitRate: 0.5, mrr: 0.5, meanLlmCalls: 1 });
    expect(byName.llm?.meanPromptTokens).toBeGreaterThan(0);
    expect(byName.broken).toMatchObject({ hitRate: 0, errors: 2 });
    expect(result.scores.broken?.[0]?.error).toBe("index missing");

    const table = evaluationTable(result);
    expect(table.split("\n")).toHaveLength(5);
    expect(table).toContain("| second | 2 | 50 % | 0.25 |");
    const svg = evaluationChart(result);
    expect(svg.startsWith("<svg")).toBe(true);
    expect(svg.match(/<circle /g)).toHaveLength(3);
    expect(svg).toContain(">llm</text>");
  });
});
