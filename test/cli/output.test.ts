// What a shell user and a script see: --version, JSON errors, read-only commands on a missing
// store, pluralised counts, progress lines, and no password from a Redis URL.
import { existsSync } from "node:fs";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cli } from "./run-cli.js";

/** The last stderr line parsed as the --json error object. */
const jsonError = (stderr: string) => JSON.parse(stderr.trim().split("\n").pop() as string).error;

describe.skipIf(!existsSync(BIN))("pageindex output", () => {
  let dir: string;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-output-"));
    await writeFile(join(dir, "one.md"), "# Only section\n\nJust one.\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("prints its version", async () => {
    const pkg = JSON.parse(
      await readFile(resolve(import.meta.dirname, "../../packages/pageindex-cli/package.json"), "utf8"),
    );
    const res = await cli(["--version"]);
    expect(res.code).toBe(0);
    expect(res.stdout.trim()).toBe(pkg.version);
  });

  it("read-only commands do not create a mistyped store folder", async () => {
    const typo = join(dir, "typo-store");
    for (const args of [["list"], ["tree", "x"], ["ask", "x"], ["rm", "x"]]) {
      const res = await cli(["--store", typo, ...args]);
      expect(res.code, args.join(" ")).toBe(3);
      expect(res.stderr).toContain(`No store folder at ${typo}`);
    }
    expect(existsSync(typo)).toBe(false);
  });

  it("with --json, errors are one JSON object on stderr and stdout stays empty", async () => {
    const store = join(dir, "store");
    expect((await cli(["--store", store, "index", join(dir, "one.md")])).code).toBe(0);
    const unknown = await cli(["--store", store, "--json", "tree", "nosuch"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stdout).toBe("");
    expect(jsonError(unknown.stderr)).toMatchObject({ exitCode: 2, type: "CliError" });
    expect(jsonError(unknown.stderr).message).toContain('No document "nosuch"');
    const textTree = await cli(["--store", store, "--json", "tree", "one.md", "--format", "text"]);
    expect(textTree.code).toBe(2);
    expect(textTree.stdout).toBe("");
    expect(jsonError(textTree.stderr).message).toContain("--format json or pageindex");
    const usage = await cli(["--store", store, "--json", "ask", "x", "-k", "zero"]);
    expect(usage.code).toBe(2);
    expect(jsonError(usage.stderr)).toMatchObject({ exitCode: 2, type: "UsageError" });
  });

  it("a damaged PDF is bad input (exit 2), and eval --json says why it did not run", async () => {
    const store = join(dir, "damaged");
    const pdf = join(dir, "damaged.pdf");
    await writeFile(pdf, "%PDF-1.4 not really a PDF");
    const indexed = await cli(["--store", store, "--json", "index", pdf, join(dir, "one.md")]);
    expect(indexed.code).toBe(2);
    expect(JSON.parse(indexed.stdout).documents[0]).toMatchObject({ status: "failed" });
    const questions = join(dir, "questions.jsonl");
    await writeFile(questions, `${JSON.stringify({ question: "Only?", evidence: [{ section: "Only" }] })}\n`);
    const out = join(dir, "eval-out");
    const res = await cli(["--store", store, "--json", "eval", questions, "--docs", pdf, "--out", out]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    const error = jsonError(res.stderr);
    expect(error).toMatchObject({ exitCode: 2 });
    expect(error.message).toMatch(
      /^Not evaluated: 1 document of 1 could not be indexed \(damaged\.pdf: damaged/,
    );
    expect(existsSync(out)).toBe(false);
  });

  it("counts in the singular for one", async () => {
    const store = join(dir, "plural");
    const res = await cli(["--store", store, "--no-progress", "index", join(dir, "one.md")]);
    expect(res.stderr).toContain("1 section, 3 lines, structure from headings, 0 LLM calls");
    expect((await cli(["--store", store, "list"])).stdout).toContain("(markdown, 3 lines, 1 section,");
  });

  it("never shows a Redis password", async () => {
    const res = await cli(["--redis", "redis://alice:s3cr%3Et@127.0.0.1:9/0", "list"]);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("Cannot open the Redis store at redis://alice:***@127.0.0.1:9/0");
    expect(res.stderr).not.toMatch(/s3cr/);
    const json = await cli(["--json", "list"], { PAGEINDEX_REDIS_URL: "redis://:hunter2@127.0.0.1:9" });
    expect(json.code).toBe(3);
    expect(json.stderr).not.toContain("hunter2");
    expect(jsonError(json.stderr).message).toContain("redis://:***@127.0.0.1:9");
  });
});
