// Runs examples the way the README says (a script with its arguments, in a child process),
// so the entry check and argument parsing are exercised, not only main().
import { execFile } from "node:child_process";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

const HERE = import.meta.dirname;

/** `node --import tsx <script> <args>` in examples/, as `pnpm --filter pageindex-examples <name>` runs it. */
function runExample(
  script: string,
  args: string[],
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      ["--import", "tsx", script, ...args],
      {
        cwd: HERE,
        // No key: the examples must run offline.
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
        timeout: 120_000,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

let out: string;
beforeAll(async () => {
  out = await mkdtemp(join(tmpdir(), "examples-entry-"));
});
afterAll(async () => {
  await rm(out, { recursive: true, force: true });
});

describe("examples run from their entry", () => {
  it("rag: prints the three chains' sources and answers", async () => {
    const res = await runExample("rag-chain-swap.ts", []);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain("=== vector (MemoryVectorStore) ===");
    expect(res.stdout).toContain("=== PageIndexRetriever ===");
    expect(res.stdout).toContain("=== EnsembleRetriever (vector + PageIndex) ===");
  });

  it("ab-test: honours --k and --out (after pnpm's --), and rejects a bad --k", async () => {
    const res = await runExample("ab-test.ts", ["--", "--k", "2", "--out", out]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout).toContain("| hit@2 |");
    const json = JSON.parse(await readFile(join(out, "ab-test.json"), "utf8"));
    expect(json.k).toBe(2);
    const bad = await runExample("ab-test.ts", ["--k", "zero"]);
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('--k must be a whole number >= 1 (got "zero")');
  });
});
