import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readQuestions } from "pageindex-retriever/eval";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULT_QUESTIONS, main, parseCli } from "./ab-test.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "ab-test-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("examples/ab-test", () => {
  it("compares vector, PageIndex and BM25 on the bundled questions and writes chart and JSON", async () => {
    const lines: string[] = [];
    const questions = await readQuestions(DEFAULT_QUESTIONS);
    expect(questions.length).toBeGreaterThanOrEqual(16);
    const out = await main({ env: {}, log: (line) => lines.push(line), outDir: dir });
    const names = out.result.summaries.map((s) => s.name);
    expect(names).toEqual(["vector (hashing stand-in)", "PageIndex (BM25 judge)", "BM25 over chunks"]);
    for (const s of out.result.summaries) {
      expect(s.questions).toBe(questions.length);
      expect(s.errors).toBe(0);
      expect(s.meanLlmCalls).toBe(0); // offline
    }
    const pageIndex = out.result.summaries[1];
    expect(pageIndex?.hitRate).toBeGreaterThanOrEqual(0.75);
    // Trees and embeddings are built before the run: their index time is unknown, not ~0 ms.
    expect(pageIndex?.indexMs).toBeUndefined();
    expect(out.result.summaries[0]?.indexMs).toBeUndefined();
    expect(out.table).toMatch(/\| PageIndex \(BM25 judge\) \|.*\| n\/a \| 0 \|$/m);
    expect(out.table.split("\n")).toHaveLength(5);
    expect(lines.join("\n")).toContain("HashingEmbeddings (offline lexical stand-in");

    const svg = await readFile(out.files.svg, "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    for (const name of names) expect(svg).toContain(name);
    const json = JSON.parse(await readFile(out.files.json, "utf8"));
    expect(json.config.judge).toBe("lexical");
    expect(json.summaries).toEqual(out.result.summaries);
    expect(json.scores["BM25 over chunks"]).toHaveLength(questions.length);
    expect(json.config.documents.map((d: { docName: string }) => d.docName)).toContain(
      "tiller-operator-manual.md",
    );
  });

  it("searches each question's own document when the question names one", async () => {
    // Two documents with the same text: only scoping to the named document gives hits at k = 1.
    const body = (name: string) =>
      `# ${name}\n\n## Rotation\n\nRotate the keys with keyctl rotate every ninety days.\n\n## Billing\n\nInvoices are sent monthly.\n`;
    await writeFile(join(dir, "alpha.md"), body("Alpha"));
    await writeFile(join(dir, "beta.md"), body("Beta"));
    const questions = ["alpha.md", "beta.md"].map((doc, i) =>
      JSON.stringify({
        id: `q${i}`,
        doc_name: doc,
        question: "How often are keys rotated with keyctl?",
        evidence: [{ doc_name: doc, section: "Rotation" }],
      }),
    );
    await writeFile(join(dir, "questions.jsonl"), questions.join("\n"));
    const out = await main({
      env: {},
      log: () => {},
      outDir: dir,
      k: 1,
      questions: join(dir, "questions.jsonl"),
      docs: [join(dir, "alpha.md"), join(dir, "beta.md")],
    });
    for (const s of out.result.summaries) expect([s.name, s.hitRate]).toEqual([s.name, 1]);
  });

  it("says which documents the questions name but --docs did not load", async () => {
    await writeFile(join(dir, "gamma.md"), "# Gamma\n\n## Rotation\n\nRotate the keys every ninety days.\n");
    const questions = ["gamma.md", "delta.pdf", "delta.pdf"].map((doc, i) =>
      JSON.stringify({
        id: `q${i}`,
        doc_name: doc,
        question: "How often are keys rotated?",
        evidence: [{ section: "Rotation" }],
      }),
    );
    await writeFile(join(dir, "named.jsonl"), questions.join("\n"));
    const lines: string[] = [];
    await main({
      env: {},
      log: (line) => lines.push(line),
      outDir: dir,
      questions: join(dir, "named.jsonl"),
      docs: [join(dir, "gamma.md")],
    });
    const warnings = lines.filter((line) => line.startsWith("Warning:"));
    expect(warnings).toEqual([
      "Warning: not among the documents, questions about them search every document: delta.pdf",
    ]);
  });

  it("reads its command line", () => {
    expect(parseCli(["--questions", "q.jsonl", "--docs", "a.md", "--docs", "b", "--k", "5"], "/x")).toEqual({
      questions: "/x/q.jsonl",
      docs: ["/x/a.md", "/x/b"],
      k: 5,
    });
    expect(() => parseCli(["--k", "0"])).toThrow(/--k must be a whole number/);
    expect(() => parseCli(["--nope"])).toThrow();
  });
});
