import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createTree, ModelCallError, type NodeDraft } from "pageindex-core";
import { MemoryTreeReader } from "pageindex-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ScriptedChatModel } from "../../../test/support/scripted-model.js";
import { ModelAnswerCache } from "../src/eval/answer-cache.js";
import { Bm25ChunkRetriever, chunkTrees } from "../src/eval/baselines.js";
import { isBoilerplate } from "../src/eval/boilerplate.js";
import { LexicalDifficulty } from "../src/eval/difficulty.js";
import { generateQuestions } from "../src/eval/generate.js";
import { AnswerGrader } from "../src/eval/grade.js";
import { EvalModel } from "../src/eval/model-runner.js";
import { evaluateRetrievers } from "../src/eval/run.js";

/** A manual whose sections each use words of their own (a rare word per section) and shared ones. */
function manual(docId: string, topics: string[], extra: NodeDraft[] = []) {
  const sections: NodeDraft[] = topics.map((topic, i) => ({
    title: `${i + 1} ${topic} settings`,
    text: Array.from(
      { length: 12 },
      (_, j) => `The ${topic} option ${j} changes how the device behaves when it runs for a long time.`,
    ).join(" "),
    startPage: 2 + i,
    endPage: 2 + i,
  }));
  const build = { loader: "test", structure: "outline" as const };
  return createTree({ docId, docName: `${docId}.pdf`, kind: "pdf", pageCount: 30, build }, [
    { title: "Guide", text: "Short intro.", startPage: 1, endPage: 30, children: [...extra, ...sections] },
  ]);
}

const pump = manual("pump", ["pressure", "valve", "filter", "motor", "gasket", "impeller"]);
const kettle = manual("kettle", ["boiling", "descaling", "lid", "thermostat"]);
const reader = new MemoryTreeReader([pump, kettle]);

/** Resolves when `release()` is called: calls stay in flight until the test lets them go. */
function gate() {
  let open: () => void = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, release: () => open() };
}

describe("EvalModel: bounded, cached, stopping with the cause", () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "eval-calls-"));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("never has more calls in flight than its bound, and reaches the bound", async () => {
    let inFlight = 0;
    let most = 0;
    const waiting: Array<() => void> = [];
    const model = new ScriptedChatModel([], {
      fallback: async () => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        const g = gate();
        waiting.push(g.release);
        await g.opened;
        inFlight -= 1;
        return JSON.stringify({ answer: "ok" });
      },
    });
    const { z } = await import("zod/v4");
    const runner = new EvalModel({ model, concurrency: 3 });
    const calls = Array.from({ length: 10 }, (_, i) =>
      runner.call({ schema: z.object({ answer: z.string() }), step: "answer", system: "s", human: `q${i}` }),
    );
    // Release calls one by one as they arrive: the model sees them only as the bound allows.
    let released = 0;
    while (released < 10) {
      await new Promise((resolve) => setImmediate(resolve));
      const next = waiting.shift();
      if (next) {
        next();
        released += 1;
      }
    }
    const results = await Promise.all(calls);
    expect(results.every((r) => r.ok)).toBe(true);
    expect(most).toBe(3);
    expect(runner.maxInFlight).toBe(3);
  });

  it("a refused request stops every call at once and keeps the cause (status, message)", async () => {
    const refusal = Object.assign(new Error("401 Incorrect API key provided: sk-…"), { status: 401 });
    const model = new ScriptedChatModel([refusal], { fallback: JSON.stringify({ answer: "late" }) });
    const { z } = await import("zod/v4");
    const runner = new EvalModel({ model, concurrency: 1 });
    const schema = z.object({ answer: z.string() });
    const [first, second] = await Promise.all([
      runner.call({ schema, step: "answer", system: "s", human: "a" }),
      runner.call({ schema, step: "answer", system: "s", human: "b" }),
    ]);
    expect(first.ok).toBe(false);
    expect(second.ok).toBe(false);
    expect(runner.stopped).toBeInstanceOf(ModelCallError);
    expect(runner.stopped?.message).toMatch(/HTTP 401.*Incorrect API key/);
    expect(model.calls).toBe(1);
  });

  it("a model that never answers is stopped at its first timeout, not after every retry", async () => {
    const model = new ScriptedChatModel([], { fallback: { hang: true } });
    const { z } = await import("zod/v4");
    const runner = new EvalModel({ model, concurrency: 2, timeoutMs: 50, retries: 2 });
    const schema = z.object({ answer: z.string() });
    const results = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        runner.call({ schema, step: "answer", system: "s", human: `${i}` }),
      ),
    );
    expect(results.every((r) => !r.ok)).toBe(true);
    expect(runner.stopped?.message).toMatch(/did not answer within 0\.1 s|did not answer within/);
    // Two calls were in flight when the first timed out; no retry and no later call was sent.
    expect(model.calls).toBe(2);
  });

  it("a second generation with the same seed takes unchanged answers from the cache", async () => {
    const file = join(dir, "model-cache.jsonl");
    const writer = () =>
      new ScriptedChatModel([], {
        fallback: (prompt) =>
          /You write evaluation questions/.test(prompt)
            ? JSON.stringify({ question: "Why does my machine get loud after an hour?", answer: "Wear." })
            : JSON.stringify({ answerable: true, titleOnly: false, reason: "ok" }),
      });
    const first = writer();
    const one = await generateQuestions({
      reader,
      docIds: ["pump"],
      model: first,
      count: 3,
      seed: 4,
      cache: await ModelAnswerCache.open(file),
    });
    expect(one.calls).toEqual({ made: 6, cached: 0 });
    const second = writer();
    const two = await generateQuestions({
      reader,
      docIds: ["pump"],
      model: second,
      count: 3,
      seed: 4,
      cache: await ModelAnswerCache.open(file),
    });
    expect(second.calls).toBe(0);
    expect(two.calls).toEqual({ made: 0, cached: 6 });
    expect(two.questions).toEqual(one.questions);
    // Another seed asks about other sections: those prompts are new.
    const third = writer();
    await generateQuestions({
      reader,
      docIds: ["pump"],
      model: third,
      count: 3,
      seed: 9,
      cache: await ModelAnswerCache.open(file),
    });
    expect(third.calls).toBeGreaterThan(0);
    // A line cut by a killed run is skipped, not fatal.
    await writeFile(file, `${await readFile(file, "utf8")}{"key": "cut`);
    expect((await ModelAnswerCache.open(file)).size).toBe(6 + third.calls);
  });

  it("answers and grades are made concurrently, within the bound", async () => {
    let inFlight = 0;
    let most = 0;
    const model = new ScriptedChatModel([], {
      fallback: async (prompt) => {
        inFlight += 1;
        most = Math.max(most, inFlight);
        // Several turns of the event loop: other calls get the chance to start meanwhile.
        for (let i = 0; i < 20; i += 1) await new Promise((resolve) => setImmediate(resolve));
        inFlight -= 1;
        return /You grade answers/.test(prompt)
          ? JSON.stringify({ grade: "correct", reason: "same" })
          : JSON.stringify({ answer: "Check the gasket." });
      },
    });
    const questions = Array.from({ length: 8 }, (_, i) => ({
      id: `q${i}`,
      question: `gasket option ${i}`,
      doc: "pump",
      answer: "Check the gasket.",
      evidence: [{ doc: "pump", page: 6 }],
    }));
    const runner = new EvalModel({ model, concurrency: 3 });
    const result = await evaluateRetrievers({
      questions,
      retrievers: { bm25: new Bm25ChunkRetriever({ documents: chunkTrees([pump]), k: 3 }) },
      grader: new AnswerGrader({ runner, reader }),
    });
    expect(result.scores.bm25?.map((s) => s.id)).toEqual(questions.map((q) => q.id));
    expect(result.scores.bm25?.every((s) => s.answer?.grade === "correct")).toBe(true);
    expect(most).toBeGreaterThan(1);
    expect(most).toBeLessThanOrEqual(3);
  });
});

describe("question difficulty", () => {
  it("ranks a question that repeats the section's words as easy, a user's paraphrase as hard", async () => {
    const difficulty = await LexicalDifficulty.fromReader(reader, ["pump", "kettle"]);
    const gasket = pump.nodes.find((n) => n.title.includes("gasket"));
    const gold = [{ docId: "pump", nodeId: gasket?.nodeId as string }];
    const easy = difficulty.measure("Which gasket settings change the device?", gold);
    expect(easy).toMatchObject({ difficulty: "easy", lexicalRank: 1 });
    expect(easy.distinctiveWords).toContain("gasket");
    const hard = difficulty.measure("What seals the pump body so water stays in?", gold);
    expect(hard.difficulty).toBe("hard");
  });

  it("rewords a question word matching finds, and drops one still found after rewording", async () => {
    const rewrites: string[] = [];
    const model = new ScriptedChatModel([], {
      fallback: (prompt) => {
        if (/You write evaluation questions/.test(prompt)) {
          const topic = /path="Guide › \d+ (\w+) settings"/.exec(prompt)?.[1] ?? "x";
          return JSON.stringify({
            question: `What does the ${topic} option change?`,
            answer: "How it behaves.",
          });
        }
        if (/You reword evaluation questions/.test(prompt)) {
          rewrites.push(prompt);
          // The first rewording keeps the distinctive word (still found); the rest avoid it.
          return JSON.stringify({
            question:
              rewrites.length === 1
                ? `${/Question: What does the (\w+)/.exec(prompt)?.[1]} again: what does it change?`
                : "Why does my machine act differently after running a while?",
          });
        }
        return JSON.stringify({ answerable: true, titleOnly: false, reason: "ok" });
      },
    });
    const set = await generateQuestions({ reader, docIds: ["pump", "kettle"], model, count: 3, seed: 2 });
    expect(rewrites[0]).toMatch(
      /Words to avoid: .*\b(pressure|valve|filter|motor|gasket|impeller|boiling|descaling|lid|thermostat)\b/,
    );
    expect(set.dropped["found by word matching"]).toBe(1);
    expect(set.questions).toHaveLength(3);
    for (const q of set.questions) {
      expect(q.rewrittenFrom).toMatch(/^What does the \w+ option change\?$/);
      expect(q.difficulty).not.toBe("easy");
    }
    expect(set.rewritten).toBe(4);
  });
});

describe("boilerplate sections", () => {
  it("are told by title and text together, not by a list of titles", () => {
    const licence =
      "Copyright 2004 the authors. Permission is granted to copy, distribute and modify this document under the terms of the GNU Free Documentation License. This manual is published without any warranty.";
    expect(isBoilerplate(["Preface", "Licence"], licence)).toBe(true);
    expect(
      isBoilerplate(
        ["Preface"],
        `This edition of the manual covers version 3. Thanks to all contributors. ${licence}`,
      ),
    ).toBe(true);
    expect(
      isBoilerplate(["Acknowledgements"], "We thank Ann and Bob for their help. Thanks to the translators."),
    ).toBe(true);
    // A preface about the subject is content; a licence-like text under a content title too.
    expect(
      isBoilerplate(
        ["Preface"],
        "Git tracks content, not files. A commit records a snapshot of the tree. Branches are cheap pointers to commits.",
      ),
    ).toBe(false);
    expect(isBoilerplate(["3 Configuring the server"], licence)).toBe(false);
    // A licence appendix is found by its words, wherever they stand in the title.
    expect(isBoilerplate(["6 GNU Free Documentation License", "Modifications"], licence)).toBe(true);
    // Contributing to the manual itself: the items name the document.
    const contribute =
      "▶ apt-get source packaging-tutorial\n▶ debcheckout packaging-tutorial\n▶ reportbug packaging-tutorial\n▶ What should we add?";
    expect(
      isBoilerplate(["Conclusion", "Contributing to this tutorial"], contribute, {
        docName: "debian/packaging-tutorial.pdf",
      }),
    ).toBe(true);
    expect(isBoilerplate(["Conclusion", "Contributing to this tutorial"], contribute)).toBe(false);
    // A cover page: the document's own title over its copyright and licence.
    const cover =
      "OS_Mon 2.8. Copyright 1997-2026 Ericsson AB. All Rights Reserved. Licensed under the Apache License, Version 2.0.";
    expect(isBoilerplate(["OS_Mon"], cover, { opening: true })).toBe(true);
    expect(isBoilerplate(["OS_Mon"], cover)).toBe(false);
    expect(
      isBoilerplate(["Kettle guide"], "Fill the kettle to the line. Switch it on. Wait for the click.", {
        opening: true,
      }),
    ).toBe(false);
    // A contents page is a list of page numbers whatever its title.
    expect(
      isBoilerplate(["Front"], "Intro ........ 1\nSetup ........ 4\nUsage ........ 9\nIndex ........ 40"),
    ).toBe(true);
  });

  it("are passed over by generation without a model call", async () => {
    const withFront = manual(
      "manualx",
      ["pressure", "valve"],
      [
        {
          title: "Notices",
          text: Array.from(
            { length: 8 },
            () =>
              "This manual is copyright the authors and published under the GNU Free Documentation License.",
          ).join(" "),
          startPage: 1,
          endPage: 1,
        },
      ],
    );
    const prompts: string[] = [];
    const model = new ScriptedChatModel([], {
      fallback: (prompt) => {
        prompts.push(prompt);
        return /You write evaluation questions/.test(prompt)
          ? JSON.stringify({ question: "Why does my machine act up after a while?", answer: "It does." })
          : JSON.stringify({ answerable: true, titleOnly: false, reason: "ok" });
      },
    });
    const set = await generateQuestions({
      reader: new MemoryTreeReader([withFront]),
      docIds: ["manualx"],
      model,
      count: 5,
      difficulty: "off",
    });
    expect(set.skipped.boilerplate).toBe(1);
    expect(set.questions).toHaveLength(2);
    expect(prompts.some((p) => p.includes("Notices"))).toBe(false);
  });
});

describe("report by difficulty", () => {
  it("shows the set's difficulty distribution and each retriever's hits per class", async () => {
    const { evaluationReport } = await import("../src/eval/report.js");
    const questions = [
      { id: "a", question: "q a", difficulty: "easy" as const, lexicalRank: 1, evidence: [{ page: 2 }] },
      { id: "b", question: "q b", difficulty: "hard" as const, lexicalRank: null, evidence: [{ page: 3 }] },
      { id: "c", question: "q c", difficulty: "hard" as const, lexicalRank: 40, evidence: [{ page: 4 }] },
    ];
    const result = await evaluateRetrievers({
      questions,
      retrievers: { bm25: new Bm25ChunkRetriever({ documents: chunkTrees([pump]), k: 1 }) },
      k: 1,
    });
    const hits = (ids: string[]) =>
      ids.filter((id) => result.scores.bm25?.find((s) => s.id === id)?.firstHitRank !== null).length;
    const report = evaluationReport(result, questions, {});
    expect(report).toContain("## By difficulty");
    expect(report).toContain("| hits@1 by difficulty | easy (1) | medium (0) | hard (2) |");
    expect(report).toContain(`| bm25 | ${hits(["a"])}/1`);
    expect(report).toMatch(new RegExp(`\\| ${hits(["b", "c"])}/2 \\(\\d+ %\\) \\|$`, "m"));
    expect(report).toContain("| a | q a | easy (#1) |");
    // A set with no measured difficulty gets neither the section nor the column.
    const plain = evaluationReport(
      result,
      questions.map(({ difficulty, lexicalRank, ...q }) => q),
      {},
    );
    expect(plain).not.toContain("By difficulty");
    expect(plain).not.toContain("difficulty (BM25 rank)");
  });
});
