// `pageindex eval` (and `ask`) against models that fail the way real endpoints do: one that takes requests
// and never answers, one that refuses the key, one that rate-limits every call, one that
// rambles. Every run ends on its own, with the cause (status, provider message, URL) shown.
import { mkdtemp, readFile, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startFakeOpenAi } from "./fake-openai.js";
import { cliInProcess } from "./run-cli.js";

const GUIDE = `# Kettle guide\n\n${["descaling", "filling", "boiling", "cleaning", "storing"]
  .map(
    (t, i) =>
      `## Part ${i + 1}\n\n${`The ${t} step needs care with water and heat number ${i}. `.repeat(12)}\n`,
  )
  .join("\n")}`;

describe("pageindex eval with a failing model", () => {
  let dir: string;
  let store: string;
  // In-process: the model's failures are what is tested, not the bin (cli.test.ts runs that).
  const run = (args: string[]) => cliInProcess(["--store", store, ...args]);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-eval-faults-"));
    store = join(dir, "store");
    await writeFile(join(dir, "kettle-guide.md"), GUIDE);
    expect((await run(["index", join(dir, "kettle-guide.md")])).code).toBe(0);
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("--generate against a server that never answers stops at the first timeout, with the URL", async () => {
    const hanging = await startFakeOpenAi(undefined, { hangAll: true });
    try {
      const result = await run([
        "--model",
        `compatible:tiny@${hanging.baseURL}`,
        "eval",
        "--generate",
        "15",
        "--timeout",
        "1",
        "--concurrency",
        "2",
        "--out",
        join(dir, "hang"),
      ]);
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toMatch(/Question generation stopped/);
      expect(result.stderr).toMatch(/did not answer within 1 s/);
      expect(result.stderr).toMatch(/never answered: check the server, or raise --timeout/);
      expect(result.stderr).toContain(hanging.baseURL);
      // Stopped at the first timeout: only the calls already in flight were sent, none retried.
      expect(hanging.requests.length).toBeLessThanOrEqual(2);
    } finally {
      await hanging.close();
    }
  });

  it("ask against a server that never answers ends at its --deadline, whatever the per-call timeout", async () => {
    const hanging = await startFakeOpenAi(undefined, { hangAll: true });
    try {
      const result = await run([
        "--model",
        `compatible:tiny@${hanging.baseURL}`,
        "ask",
        "How do I descale?",
        "--timeout",
        "600",
        "--deadline",
        "2",
      ]);
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toMatch(/passed its deadline of 2 s \(--deadline\)/);
    } finally {
      await hanging.close();
    }
  });

  it("index against a server that never answers ends at its --deadline, nothing half stored", async () => {
    const hanging = await startFakeOpenAi(undefined, { hangAll: true });
    try {
      await writeFile(join(dir, "kettle-notes.md"), GUIDE.replace("Kettle guide", "Kettle notes"));
      const result = await run([
        "--model",
        `compatible:tiny@${hanging.baseURL}`,
        "index",
        join(dir, "kettle-notes.md"),
        "--deadline",
        "2",
      ]);
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toMatch(/passed its deadline of 2 s \(--deadline\): 1 file not stored/);
      const listed = await run(["list", "--json"]);
      expect(listed.stdout).not.toContain("kettle-notes");
      expect(listed.stdout).toContain("kettle-guide");
    } finally {
      await hanging.close();
    }
  });

  it("--generate against a server that refuses the key shows HTTP 401, the provider's message and the URL", async () => {
    const refusing = await startFakeOpenAi(401);
    try {
      const result = await run([
        "--model",
        `compatible:tiny@${refusing.baseURL}`,
        "eval",
        "--generate",
        "5",
        "--out",
        join(dir, "refused"),
      ]);
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toMatch(/HTTP 401/);
      expect(result.stderr).toContain("refused with 401");
      expect(result.stderr).toContain(refusing.baseURL);
      expect(result.stderr).not.toMatch(/^error: .*generation failed$/m);
    } finally {
      await refusing.close();
    }
  });

  it("--generate against a server that rate-limits every call shows HTTP 429 and its message", async () => {
    const limited = await startFakeOpenAi(429);
    try {
      const result = await run([
        "--model",
        `compatible:tiny@${limited.baseURL}`,
        "eval",
        "--generate",
        "5",
        "--out",
        join(dir, "limited"),
      ]);
      expect(result.code, result.stderr).toBe(4);
      expect(result.stderr).toMatch(/HTTP 429/);
      expect(result.stderr).toContain("refused with 429");
      expect(result.stderr).toMatch(/rate limited/);
    } finally {
      await limited.close();
    }
  });

  it("a model that rambles: generated answers, graded answers and reasons are capped", async () => {
    const rambling = await startFakeOpenAi(undefined, { hugeAnswers: 2_000_000 });
    try {
      const out = join(dir, "huge");
      const result = await run([
        "--model",
        `compatible:tiny@${rambling.baseURL}`,
        "eval",
        "--generate",
        "2",
        "--retrievers",
        "bm25",
        "--out",
        out,
      ]);
      expect(result.code, result.stderr).toBe(0);
      const questions = (await readFile(join(out, "questions.jsonl"), "utf8")).trim().split("\n");
      expect(questions).toHaveLength(2);
      for (const line of questions) expect(line.length).toBeLessThan(5_000);
      // Two 2 MB answers would make a report of megabytes; capped, it stays small.
      expect((await stat(join(out, "report.json"))).size).toBeLessThan(100_000);
      const report = JSON.parse(await readFile(join(out, "report.json"), "utf8"));
      const answer = report.scores["bm25 chunks"][0].answer;
      expect(answer.answer.length).toBeLessThan(3_000);
      expect(answer.answer).toMatch(/…$/);
    } finally {
      await rambling.close();
    }
  }, 180_000); // generation, retrieval, answers and grades through the built CLI: slow on a loaded machine
});
