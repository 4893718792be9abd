import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cli } from "./run-cli.js";

let dir = "";

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pageindex-help-"));
});

afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("pageindex help and eval progress", () => {
  it("lists the global options in every command's help", async () => {
    for (const command of ["index", "ask", "eval"]) {
      const help = await cli([command, "--help"]);
      expect(help.code).toBe(0);
      expect(help.stdout).toMatch(/Global Options:/);
      for (const option of ["--store <dir>", "--model <provider:name>", "--json", "--no-progress"])
        expect(help.stdout, `${command} --help`).toContain(option);
    }
  });

  it("eval reports progress once per retriever and a summary, not a line per question", async () => {
    const store = join(dir, "store");
    const doc = join(dir, "kettle.md");
    await writeFile(
      doc,
      "# Kettle\n\n## Filling\n\nFill to the line with cold water.\n\n## Descaling\n\nDescale monthly in hard water with vinegar.\n",
    );
    const questions = join(dir, "questions.jsonl");
    await writeFile(
      questions,
      [
        {
          question: "How often should I descale?",
          doc_name: "kettle.md",
          evidence: [{ section: "Descaling" }],
        },
        { question: "How much water goes in?", doc_name: "kettle.md", evidence: [{ section: "Filling" }] },
        { question: "What water do I fill with?", doc_name: "kettle.md", evidence: [{ section: "Filling" }] },
      ]
        .map((q) => JSON.stringify(q))
        .join("\n"),
    );
    expect((await cli(["--store", store, "index", doc])).code).toBe(0);
    const run = await cli(["--store", store, "eval", questions, "--out", join(dir, "eval"), "-k", "2"]);
    expect(run.code).toBe(0);
    const lines = run.stderr.split("\n");
    // Not a terminal here: one line per retriever (a bar on a TTY), then the summary.
    expect(lines.filter((l) => l.startsWith("evaluating: "))).toEqual([
      expect.stringMatching(/^evaluating: pageindex/),
      "evaluating: bm25 chunks",
      "evaluating: vector chunks",
    ]);
    expect(run.stderr).toContain("Evaluated 9 queries (3 questions × 3 retrievers); 0 LLM calls");
    expect(run.stderr).not.toMatch(/· q\d|hit@\d/);
  });
});
