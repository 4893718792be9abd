// The CLI with a model: a local OpenAI-compatible server that answers, and closed ports that
// do not. Exit codes, messages and the lexical fallback must tell a working model from a dead one.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chatModelFromSpec } from "../../packages/pageindex-cli/src/cli/model-spec.js";
import { type FakeOpenAi, startFakeOpenAi } from "./fake-openai.js";
import { BIN, cli, cliInProcess } from "./run-cli.js";

const MANUAL = `# Kettle Manual

Intro to the kettle.

## Filling

Fill the kettle with fresh water up to the MAX line.

## Descaling

Descale the kettle monthly with citric acid. In hard-water areas descale every two weeks.
`;

/** A port nothing listens on: bound, then released. */
async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
  const { port } = server.address() as { port: number };
  await new Promise<void>((done) => server.close(() => done()));
  return port;
}

describe.skipIf(!existsSync(BIN))("pageindex with a model", () => {
  let dir: string;
  let store: string;
  let server: FakeOpenAi;
  let deadUrl: string;
  // In-process: what these cases test is the CLI's handling of models, not the bin; one case
  // (ask with a working model) runs the built bin over HTTP end to end.
  const run = (args: string[], env: Record<string, string> = {}) =>
    cliInProcess(["--store", store, ...args], env);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-model-"));
    store = join(dir, "store");
    await writeFile(join(dir, "kettle.md"), MANUAL);
    expect((await run(["index", join(dir, "kettle.md")])).code).toBe(0);
    server = await startFakeOpenAi();
    deadUrl = `http://127.0.0.1:${await closedPort()}/v1`;
  });
  afterAll(async () => {
    await server?.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("chatModelFromSpec builds a compatible model that reaches the server", async () => {
    const resolved = await chatModelFromSpec(`compatible:tiny@${server.baseURL}`, {});
    expect(resolved).toMatchObject({ provider: "openai-compatible", name: "tiny", baseURL: server.baseURL });
    const reply = await resolved?.model.invoke("You answer questions about documents. Hi");
    expect(reply?.content).toContain("[1]");
    expect(server.requests.at(-1)?.model).toBe("tiny");
    await expect(chatModelFromSpec("compatible:tiny@not-a-url", {})).rejects.toThrow(/not an http\(s\) URL/);
  });

  it("a spec with no model name says so first, not that a key is missing", async () => {
    for (const spec of ["openai:", "ollama:", "compatible:"]) {
      await expect(chatModelFromSpec(spec, {})).rejects.toThrow(
        `Model "${spec}" has no model name after the colon`,
      );
    }
  });

  it("a model URL with a password is refused as such, hidden, not mistaken for a bad URL", async () => {
    // fetch cannot send such a URL: it must fail here, saying why, rather than at the first call.
    const spec = chatModelFromSpec("compatible:tiny@http://bob:s3cret@127.0.0.1:8000/v1", {});
    await expect(spec).rejects.toThrow(
      /URL http:\/\/bob:\*\*\*@127\.0\.0\.1:8000\/v1 holds a user or password/,
    );
    await expect(spec).rejects.not.toThrow(/s3cret|not an http/);
    await expect(
      chatModelFromSpec("ollama:llama3.1", { OLLAMA_BASE_URL: "http://bob:s3cret@127.0.0.1:11434/v1" }),
    ).rejects.toThrow(/holds a user or password/);
  });

  it("ask judges with the model and answers citing the sections", async () => {
    const before = server.requests.length;
    const res = await cli([
      "--store",
      store,
      "--model",
      `compatible:tiny@${server.baseURL}`,
      "--json",
      "ask",
      "How often descale?",
    ]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.model).toBe(`openai-compatible:tiny via ${server.baseURL}`);
    expect(out.sections[0].judge).toBe("llm");
    expect(out.answer).toContain("[1]");
    expect(out.stats.fallbacks).toBe(0);
    expect(out.warnings).toEqual([]);
    // At least one judgment and the answer went to the server.
    expect(server.requests.length - before).toBeGreaterThanOrEqual(2);
  });

  it("an unreachable model is exit 4 with the provider, the URL and a hint", async () => {
    // Independent reads of one store, at once: each waits out its retries' backoff.
    const [res, ollama] = await Promise.all([
      run(["--model", `compatible:tiny@${deadUrl}`, "ask", "How often descale?"]),
      run(["--model", "ollama:llama3.1", "--json", "ask", "How often descale?"], {
        OLLAMA_BASE_URL: deadUrl,
      }),
    ]);
    expect(res.code).toBe(4);
    expect(res.stderr).toContain(`error: model openai-compatible:tiny at ${deadUrl} failed`);
    expect(res.stderr).toContain("nothing answered at");
    expect(ollama.code).toBe(4);
    const error = JSON.parse(ollama.stderr.trim().split("\n").pop() as string).error;
    expect(error).toMatchObject({ exitCode: 4 });
    expect(error.message).toContain("ollama serve");
  });

  it("a model that refuses: ask's error is one line with the hint; eval warns that questions failed", async () => {
    const refusing = await startFakeOpenAi(404);
    try {
      const model = `compatible:tiny@${refusing.baseURL}`;
      const asked = await run(["--model", model, "ask", "How often descale?"]);
      expect(asked.code).toBe(4);
      const errors = asked.stderr.split("\n").filter((line) => line.startsWith("error:"));
      expect(errors).toHaveLength(1);
      // LangChain's "Troubleshooting URL" paragraph stays on the same line as the hint.
      expect(errors[0]).toMatch(/\(HTTP 404\).*Troubleshooting URL.*the server does not know model "tiny"/);
      const questions = join(dir, "refused.jsonl");
      await writeFile(
        questions,
        `${JSON.stringify({ question: "How often descale?", doc_name: "kettle.md", evidence: [{ section: "Descaling" }] })}\n`,
      );
      const args = ["eval", questions, "--retrievers", "pageindex", "--out", join(dir, "refused")];
      for (const json of [[], ["--json"]]) {
        const res = await run(["--model", model, ...json, ...args]);
        expect(res.code).toBe(0);
        expect(res.stderr).toMatch(
          /warning: pageindex \(openai-compatible:tiny via .*\): 1 of 1 question failed and count as misses \(q1: .*HTTP 404.*Troubleshooting URL/,
        );
      }
    } finally {
      await refusing.close();
    }
  });

  it("ask --no-answer says when every judgment fell back to the lexical judge", async () => {
    const res = await run([
      "--model",
      `compatible:tiny@${deadUrl}`,
      "ask",
      "--no-answer",
      "How often descale?",
    ]);
    expect(res.code).toBe(0);
    expect(res.stdout).toContain("(lexical-fallback)");
    expect(res.stderr).toMatch(
      /warning: the model \(openai-compatible:tiny via .*\) failed every judgment: the lexical judge answered instead \(\d+ fallbacks?\)/,
    );
  });

  it("eval reports fallbacks per retriever and does not credit the model", async () => {
    const questions = join(dir, "questions.jsonl");
    await writeFile(
      questions,
      `${JSON.stringify({ question: "How often descale?", doc_name: "kettle.md", evidence: [{ section: "Descaling" }] })}\n`,
    );
    const out = join(dir, "eval");
    const res = await run([
      "--model",
      `compatible:tiny@${deadUrl}`,
      "--json",
      "eval",
      questions,
      "--retrievers",
      "pageindex,bm25",
      "--out",
      out,
    ]);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    const tree = report.summaries[0];
    expect(tree.name).toBe(
      `pageindex (lexical fallback: openai-compatible:tiny via ${deadUrl} failed every judgment)`,
    );
    expect(tree.fallbacks).toBeGreaterThan(0);
    expect(tree.fallbacks).toBe(tree.judgments);
    expect(report.summaries[1]).toMatchObject({ name: "bm25 chunks", fallbacks: 0 });
    const table = await readFile(join(out, "report.md"), "utf8");
    expect(table).toMatch(/\| pageindex \(lexical fallback: .*\| \d+\/\d+ \(all\) \|/);

    const working = JSON.parse(
      (
        await run([
          "--model",
          `compatible:tiny@${server.baseURL}`,
          "--json",
          "eval",
          questions,
          "--retrievers",
          "pageindex",
          "--out",
          out,
        ])
      ).stdout,
    );
    expect(working.summaries[0]).toMatchObject({
      name: `pageindex (openai-compatible:tiny via ${server.baseURL})`,
      fallbacks: 0,
    });
    expect(working.summaries[0].meanCompletionTokens).toBeGreaterThan(0);
  });

  it("eval --generate writes a question set, grades answers and writes LangSmith files in one command", async () => {
    const docs = join(dir, "docs");
    await mkdir(docs, { recursive: true });
    const topics = ["descaling", "filling", "boiling", "cleaning", "storing"];
    await writeFile(
      join(docs, "kettle-guide.md"),
      `# Kettle guide\n\n${topics
        .map(
          (t, i) =>
            `## Part ${i + 1}\n\n${`The ${t} step needs care with water and heat number ${i}. `.repeat(12)}\n`,
        )
        .join("\n")}`,
    );
    const generate = (out: string, extra: string[] = []) =>
      run([
        "--model",
        `compatible:tiny@${server.baseURL}`,
        "eval",
        "--generate",
        "3",
        "--docs",
        docs,
        "--retrievers",
        "pageindex,bm25",
        "--out",
        out,
        ...extra,
      ]);
    const first = await generate(join(dir, "gen1"));
    expect(first.code, first.stderr).toBe(0);
    expect(first.stderr).toMatch(
      /Generated 3 of 3 questions from 3 sections tried \(none dropped\); 6 model calls/,
    );
    const lines = (await readFile(join(dir, "gen1", "questions.jsonl"), "utf8")).trim().split("\n");
    expect(lines).toHaveLength(3);
    const sections = (file: string) =>
      readFile(file, "utf8").then((text) =>
        text
          .trim()
          .split("\n")
          .map((line) => JSON.parse(line).evidence[0].node_id),
      );
    const report = await readFile(join(dir, "gen1", "report.md"), "utf8");
    expect(report).toContain("answers (correct · partial · wrong)");
    expect(report).toMatch(/\| bm25 chunks \| 3 \| .* \| \d ✓ · \d ½ · \d ✗/);
    expect(report).toContain("## Per question");
    const experiment = JSON.parse(
      await readFile(join(dir, "gen1", "langsmith", "experiment-bm25-chunks.json"), "utf8"),
    );
    expect(experiment.results).toHaveLength(3);
    expect(experiment.results[0].evaluation_scores.map((s: { key: string }) => s.key)).toContain(
      "answer_grade",
    );
    const dataset = (await readFile(join(dir, "gen1", "langsmith", "dataset.jsonl"), "utf8"))
      .trim()
      .split("\n");
    expect(JSON.parse(dataset[0] as string).inputs.question).toMatch(/^What should I know about this/);

    const again = await generate(join(dir, "gen2"));
    expect(again.code).toBe(0);
    expect(await sections(join(dir, "gen2", "questions.jsonl"))).toEqual(
      await sections(join(dir, "gen1", "questions.jsonl")),
    );
    const other = await generate(join(dir, "gen3"), ["--seed", "5"]);
    expect(await sections(join(dir, "gen3", "questions.jsonl"))).not.toEqual(
      await sections(join(dir, "gen1", "questions.jsonl")),
    );
    expect(other.code).toBe(0);
  });

  it("eval --generate and --grade without a model stop at once, saying a model is needed", async () => {
    const noModel = await run(["eval", "--generate", "5", "--out", join(dir, "none")]);
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toMatch(/--generate needs a model: pass --model/);
    expect(existsSync(join(dir, "none"))).toBe(false);
    const questions = join(dir, "q-grade.jsonl");
    await writeFile(
      questions,
      `${JSON.stringify({ question: "descale?", evidence: [{ section: "Descaling" }] })}\n`,
    );
    const grade = await run(["eval", questions, "--grade"]);
    expect(grade.code).toBe(2);
    expect(grade.stderr).toMatch(/Answer grading \(--grade\) needs a model/);
    const missing = await run(["eval"]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/Give a questions file, or --generate N/);
  });

  it("ask against a server that never answers prints the sections, the timeout and exits 4", async () => {
    const hanging = await startFakeOpenAi(undefined, { hangAnswers: true });
    try {
      const asked = await run([
        "--model",
        `compatible:tiny@${hanging.baseURL}`,
        "ask",
        "How often descale?",
        "--timeout",
        "2",
      ]);
      expect(asked.code, asked.stderr).toBe(4);
      expect(asked.stdout).toMatch(/\[1\] kettle/);
      expect(asked.stdout).toMatch(/none, the model failed/);
      expect(asked.stderr).toMatch(
        /error: .*(timeout|timed out|aborted).*\(no answer; the sections were found and printed\)/i,
      );
      const json = await run([
        "--model",
        `compatible:tiny@${hanging.baseURL}`,
        "--json",
        "ask",
        "How often descale?",
        "--timeout",
        "2",
      ]);
      expect(json.code).toBe(4);
      const result = JSON.parse(json.stdout);
      expect(result.sections.length).toBeGreaterThan(0);
      expect(result.answerError).toMatch(/timeout|timed out|aborted/i);
    } finally {
      await hanging.close();
    }
  });
});
