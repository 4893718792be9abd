import type { Document } from "@langchain/core/documents";
import { createTree, type NodeDraft } from "pageindex-core";
import { MemoryTreeReader } from "pageindex-store";
import { describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { generateQuestions, questionsToJsonl } from "../src/eval/generate.js";
import { AnswerGrader } from "../src/eval/grade.js";
import { stableUuid, toLangSmithExamples, toLangSmithExperiment } from "../src/eval/langsmith.js";
import { documentHoldsEvidence, scoreRetrieval, summarise } from "../src/eval/metrics.js";
import { parseQuestions } from "../src/eval/questions.js";
import { isBackMatter, sampleSections } from "../src/eval/sample-sections.js";

const words = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${topic} detail ${i} explains how the ${topic} works.`).join(" ");

function manual(docId: string, topics: string[]) {
  const sections: NodeDraft[] = topics.map((topic, i) => ({
    title: `${i + 1} ${topic[0]?.toUpperCase()}${topic.slice(1)} settings`,
    text: words(topic, 12),
    startPage: 2 + i * 2,
    endPage: 3 + i * 2,
  }));
  const build = { loader: "test", structure: "outline" as const };
  return createTree({ docId, docName: `${docId}.pdf`, kind: "pdf", pageCount: 40, build }, [
    {
      title: "Guide",
      text: "Short intro.",
      startPage: 1,
      endPage: 30,
      children: [
        ...sections,
        { title: "Tiny note", text: "See above.", startPage: 29, endPage: 29 },
        { title: "Index", text: words("index", 20), startPage: 30, endPage: 30 },
      ],
    },
  ]);
}

const pump = manual("pump", ["pressure", "valve", "filter", "motor"]);
const kettle = manual("kettle", ["boiling", "descaling", "lid"]);

/** The section a prompt is about, read back from its `path` attribute. */
const pathOf = (prompt: string) => /path="([^"]+)"/.exec(prompt)?.[1] ?? "";

describe("section sampling", () => {
  it("skips back matter and near-empty sections, spreads over documents, repeats for a seed", () => {
    const skeletons = [pump, kettle];
    const first = sampleSections(skeletons, { seed: 7 });
    expect(first.map((s) => s.node.title)).not.toContain("Index");
    expect(first.map((s) => s.node.title)).not.toContain("Tiny note");
    expect(first.map((s) => s.node.title)).not.toContain("Guide");
    expect(new Set(first.slice(0, 2).map((s) => s.docId)).size).toBe(2);
    expect(first).toHaveLength(7);
    const again = sampleSections(skeletons, { seed: 7 });
    expect(again.map((s) => `${s.docId}:${s.node.nodeId}`)).toEqual(
      first.map((s) => `${s.docId}:${s.node.nodeId}`),
    );
    const other = sampleSections(skeletons, { seed: 8 });
    expect(other.map((s) => s.node.nodeId)).not.toEqual(first.map((s) => s.node.nodeId));
  });

  it("recognises back matter by its title or an ancestor's", () => {
    expect(isBackMatter(["Appendix", "Index"])).toBe(true);
    expect(isBackMatter(["List of Figures"])).toBe(true);
    expect(isBackMatter(["12 References", "Papers"])).toBe(true);
    expect(isBackMatter(["3 Indexing documents"])).toBe(false);
    expect(isBackMatter(["Contents of the box"])).toBe(false);
  });
});

describe("generateQuestions with a model that behaves like real ones, badly too", () => {
  it("drops and counts malformed answers, title copies and unanswerable questions, keeps the rest", async () => {
    const seen: string[] = [];
    let turn = 0;
    // Sequential calls: write, check, write, check … with a bad answer at fixed turns.
    const model = new ScriptedChatModel([], {
      fallback: (prompt) => {
        turn += 1;
        if (/You write evaluation questions/.test(prompt)) {
          const path = pathOf(prompt);
          seen.push(path);
          if (seen.length === 1) return '{"question": "What happens when"'; // malformed, cut off
          const title = path.split(" › ").at(-1) ?? "";
          if (seen.length === 2) return JSON.stringify({ question: `What are the ${title}?`, answer: "x" });
          return JSON.stringify({
            question: `How should I look after it (case ${seen.length})?`,
            answer: "Carefully.",
          });
        }
        if (/You check evaluation questions/.test(prompt)) {
          if (seen.length === 3)
            return JSON.stringify({ answerable: false, titleOnly: false, reason: "not said" });
          return JSON.stringify({ answerable: true, titleOnly: false, reason: "the section says so" });
        }
        return new Error(`unexpected prompt at turn ${turn}`);
      },
    });
    const set = await generateQuestions({
      reader: new MemoryTreeReader([pump, kettle]),
      docIds: ["pump", "kettle"],
      model,
      count: 3,
      seed: 3,
      retries: 0,
      difficulty: "measure", // a title copy is dropped, not reworded (rewording is tested below)
    });
    expect(set.questions).toHaveLength(3);
    expect(set.dropped).toEqual({
      "generation failed": 1,
      "copies the title": 1,
      "not answerable from the section": 1,
    });
    expect(set.tried).toBe(6);
    // A title copy costs no check call: 6 writes + 4 checks.
    expect(set.usage.calls).toBe(10);
    for (const q of set.questions) {
      const evidence = q.evidence[0];
      expect(evidence?.nodeId).toBeDefined();
      expect(evidence?.ancestors).toEqual(["0000"]);
      expect(q.kind).toBe("single");
    }
    // The same seed tries the same sections in the same order.
    const order = sampleSections([pump, kettle], { seed: 3 }).map((s) => s.path.join(" › "));
    expect(seen).toEqual(order.slice(0, 6));
  });

  it("writes a questions file pageindex eval reads back, with node evidence", async () => {
    const model = new ScriptedChatModel([], {
      fallback: (prompt) =>
        /You write evaluation/.test(prompt)
          ? JSON.stringify({ question: "How do I keep the thing working well?", answer: "Clean it." })
          : JSON.stringify({ answerable: true, titleOnly: false, reason: "ok" }),
    });
    const set = await generateQuestions({
      reader: new MemoryTreeReader([pump]),
      docIds: ["pump"],
      model,
      count: 2,
      seed: 1,
    });
    const parsed = parseQuestions(questionsToJsonl(set.questions, set.seed));
    expect(parsed).toHaveLength(2);
    expect(parsed[0]?.evidence[0]).toMatchObject({
      doc: "pump",
      nodeId: set.questions[0]?.evidence[0]?.nodeId,
    });
    expect(parsed[0]?.answer).toBe("Clean it.");
  });

  it("makes two-section questions on request and drops one that needs only one section", async () => {
    let pairs = 0;
    const model = new ScriptedChatModel([], {
      fallback: (prompt) => {
        if (/You write evaluation/.test(prompt)) {
          return JSON.stringify({
            question: "How do the two parts compare in upkeep?",
            answer: "Both need care.",
          });
        }
        pairs += 1;
        return JSON.stringify({ answerable: true, titleOnly: false, needsBoth: pairs !== 1, reason: "ok" });
      },
    });
    const set = await generateQuestions({
      reader: new MemoryTreeReader([pump]),
      docIds: ["pump"],
      model,
      count: 2,
      pairs: 1,
      seed: 1,
    });
    expect(set.dropped["needs only one of the two sections"]).toBe(1);
    const pair = set.questions.find((q) => q.kind === "pair");
    expect(pair?.evidence).toHaveLength(2);
    expect(set.questions).toHaveLength(2);
  });
});

describe("node evidence", () => {
  const question = parseQuestions(
    JSON.stringify({
      question: "q",
      evidence: [{ doc_name: "pump", node_id: "0003", ancestors: ["0000"], section: "x", page: 6 }],
    }),
  )[0];
  const doc = (metadata: Record<string, unknown>): Document => ({ pageContent: "text", metadata });

  it("credits the node, an ancestor returned whole, or a chunk of the node; not a neighbour on the same page", () => {
    const evidence = question?.evidence[0];
    if (!evidence) throw new Error("no evidence");
    expect(
      documentHoldsEvidence(doc({ docId: "pump", nodeId: "0003", startPage: 6, endPage: 7 }), evidence),
    ).toBe(true);
    expect(
      documentHoldsEvidence(doc({ docId: "pump", nodeId: "0000", includesDescendants: true }), evidence),
    ).toBe(true);
    expect(documentHoldsEvidence(doc({ docId: "pump", nodeId: "0000" }), evidence)).toBe(false);
    expect(
      documentHoldsEvidence(doc({ docId: "pump", nodeId: "0004", startPage: 6, endPage: 7 }), evidence),
    ).toBe(false);
    expect(documentHoldsEvidence(doc({ docId: "kettle", nodeId: "0003" }), evidence)).toBe(false);
    // A retriever without node ids is judged by the page.
    expect(documentHoldsEvidence(doc({ source: "pump.pdf", page: 6 }), evidence)).toBe(true);
  });
});

describe("answer grading", () => {
  const reader = new MemoryTreeReader([pump]);
  const valve = pump.nodes.find((n) => n.title.includes("Valve"));
  const question = {
    id: "q1",
    question: "How does the valve work?",
    answer: "As the valve details explain.",
    evidence: [{ doc: "pump", nodeId: valve?.nodeId ?? "" }],
  };
  const returned: Document[] = [
    { pageContent: valve?.text ?? "", metadata: { title: valve?.title, path: ["Guide"] } },
  ];

  it("answers from the returned context, grades against the gold section, reads sloppy grades", async () => {
    const model = new ScriptedChatModel([
      JSON.stringify({ answer: "It opens and closes." }),
      'Here you go: {"grade": "Correct", "reason": "matches the section"}',
    ]);
    const graded = await new AnswerGrader({ model, reader }).grade(question, returned);
    expect(graded).toMatchObject({ answer: "It opens and closes.", grade: "correct", calls: 2 });
    expect(model.prompts[0]).toContain("valve detail 3");
    // The grader saw the gold section (from the store) and the reference answer.
    expect(model.prompts[1]).toContain('role="reference"');
    expect(model.prompts[1]).toContain("As the valve details explain.");
  });

  it("says ungraded, with the reason, when the model's answers are unusable", async () => {
    const model = new ScriptedChatModel([], { fallback: "I cannot help with that." });
    const graded = await new AnswerGrader({ model, reader, retries: 0 }).grade(question, returned);
    expect(graded.grade).toBe("ungraded");
    expect(graded.reason).toMatch(/no answer/);
  });

  it("stops calling a model that refused a request: the rest is ungraded at no cost", async () => {
    const refused = Object.assign(new Error("401 Incorrect API key provided"), { status: 401 });
    const model = new ScriptedChatModel([], { fallback: refused });
    const grader = new AnswerGrader({ model, reader, retries: 0 });
    const first = await grader.grade(question, returned);
    expect(first.grade).toBe("ungraded");
    const calls = model.calls;
    const second = await grader.grade(question, returned);
    expect(second).toMatchObject({ grade: "ungraded", calls: 0 });
    expect(second.reason).toMatch(/calls were stopped .*HTTP 401.*Incorrect API key/);
    expect(model.calls).toBe(calls);
  });

  it("summaries and LangSmith experiments carry the grades", () => {
    const score = {
      id: "q1",
      ...scoreRetrieval(question, [{ pageContent: "t", metadata: { docId: "pump", nodeId: valve?.nodeId } }]),
      llmCalls: 2,
      promptTokens: 100,
      completionTokens: 10,
      latencyMs: 12,
      setupMs: 0,
      startedAt: "2026-01-01T00:00:00.000Z",
      answer: { answer: "It opens.", grade: "partial" as const, reason: "half", calls: 2, promptTokens: 50 },
    };
    const summary = summarise("pageindex", [score], 3);
    expect(summary.answers).toMatchObject({ graded: 1, partial: 1, correctRate: 0, score: 0.5 });
    const experiment = toLangSmithExperiment({
      name: "pageindex",
      datasetName: "d",
      questions: [question],
      scores: [score],
      summary,
      k: 3,
      settings: { k: 3 },
    });
    const row = experiment.results[0];
    expect(row?.row_id).toBe(stableUuid("d\nq1"));
    expect(row?.row_id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(row?.evaluation_scores).toEqual(
      expect.arrayContaining([
        { key: "hit@3", score: 1 },
        { key: "answer_grade", score: 0.5, value: "partial", comment: "half" },
      ]),
    );
    expect(Date.parse(row?.end_time ?? "") - Date.parse(row?.start_time ?? "")).toBe(12);
    expect(toLangSmithExamples([question])[0]).toMatchObject({
      inputs: { question: "How does the valve work?" },
      outputs: { answer: "As the valve details explain." },
      metadata: { question_id: "q1" },
    });
  });
});
