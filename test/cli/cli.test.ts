// Runs the BUILT `pageindex` binary (pnpm test builds first), the way a shell user would.
import { existsSync } from "node:fs";
import { chmod, mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cli, writePageIndexTree } from "./run-cli.js";

// Sections long enough (> 300 tokens each) that the retriever returns them one by one rather
// than collapsing the whole small manual into one result.
const filler = (topic: string) =>
  Array.from(
    { length: 12 },
    (_, i) => `Paragraph ${i + 1} about ${topic} covers safe handling, parts and care of the appliance.`,
  ).join(" ");
const MANUAL = `# Kettle Manual

Intro to the kettle. ${filler("the kettle")}

## Filling

Fill the kettle with fresh water up to the MAX line. ${filler("filling")}

## Descaling

Descale the kettle monthly with citric acid: dissolve two spoons in water, boil, rinse. ${filler("limescale")}

### Descaling in hard-water areas

In hard-water areas descale every two weeks. ${filler("hard water")}
`;

describe.skipIf(!existsSync(BIN))("pageindex CLI (built binary)", () => {
  let dir: string;
  let store: string;
  const run = (args: string[], env: Record<string, string> = {}) => cli(["--store", store, ...args], env);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-cli-"));
    store = join(dir, "store");
    await writeFile(join(dir, "kettle.md"), MANUAL);
    await writeFile(join(dir, "notes.docx"), "not supported");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("indexes, then skips an unchanged file", async () => {
    const first = await run(["--json", "index", join(dir, "kettle.md")]);
    expect(first.code).toBe(0);
    const out = JSON.parse(first.stdout);
    expect(out.documents).toEqual([
      expect.objectContaining({
        docId: "kettle.md",
        status: "indexed",
        kind: "markdown",
        nodes: 4,
        llmCalls: 0,
      }),
    ]);
    expect(first.stderr).toContain("running offline");
    const again = await run(["--json", "index", join(dir, "kettle.md")]);
    expect(JSON.parse(again.stdout).documents[0].status).toBe("unchanged");
  });

  it("lists documents and shows the tree in every format", async () => {
    const list = JSON.parse((await run(["--json", "list"])).stdout);
    expect(list.documents.map((d: { docId: string }) => d.docId)).toEqual(["kettle.md"]);
    const text = await run(["tree", "kettle.md"]);
    expect(text.code).toBe(0);
    expect(text.stdout).toContain("[0002] Descaling (lines 9-15)");
    expect(text.stdout).toContain("    [0003] Descaling in hard-water areas");
    const pageindex = JSON.parse((await run(["tree", "kettle.md", "--format", "pageindex"])).stdout);
    expect(pageindex.structure[0].nodes.map((n: { title: string }) => n.title)).toEqual([
      "Filling",
      "Descaling",
    ]);
    const json = JSON.parse((await run(["--json", "tree", "kettle.md"])).stdout);
    expect(json.nodes).toHaveLength(4);
    expect(json.nodes[0].text).toBeUndefined();
  });

  it("answers a question offline with cited sections", async () => {
    const res = await run(["--json", "ask", "How often should I descale in hard water?"]);
    expect(res.code).toBe(0);
    const out = JSON.parse(res.stdout);
    expect(out.model).toBe("offline");
    expect(out.sections[0]).toMatchObject({
      docId: "kettle.md",
      title: "Descaling in hard-water areas",
      judge: "lexical",
    });
    expect(out.sections[0].text).toContain("every two weeks");
    expect(out.stats.calls).toBe(0);
    // `index` saved the lexical index: a fresh process reads no section text to build one.
    expect(out.stats.indexTextsRead).toBe(0);
    const human = await run(["ask", "How often should I descale in hard water?"]);
    expect(human.stdout).toContain(
      "[1] kettle.md › Kettle Manual › Descaling › Descaling in hard-water areas (lines 13-15)",
    );
  });

  it("imports a PageIndex tree and removes documents", async () => {
    const file = join(dir, "paper_structure.json");
    await writePageIndexTree(file, "paper.pdf", "Intro", 2);
    const imported = await run(["--json", "import", file]);
    expect(JSON.parse(imported.stdout).imported[0]).toMatchObject({ docId: "paper.pdf", nodes: 1 });
    // Imported trees get their lexical index saved too: the first ask builds none from texts.
    const asked = JSON.parse((await run(["--json", "ask", "Intro", "--doc", "paper.pdf"])).stdout);
    expect(asked.stats.indexTextsRead).toBe(0);
    const removed = await run(["--json", "rm", "paper.pdf"]);
    expect(JSON.parse(removed.stdout)).toEqual({ removed: ["paper.pdf"] });
    expect((await run(["tree", "paper.pdf"])).code).toBe(2);
  });

  it("gives actionable errors and exit codes for bad input", async () => {
    const missing = await run(["index", join(dir, "nope.md")]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/No such file or folder: .*nope\.md/);
    const unsupported = await run(["index", join(dir, "notes.docx")]);
    expect(unsupported.code).toBe(2);
    expect(unsupported.stderr).toMatch(/Unsupported file type: .*notes\.docx/);
    const unknown = await run(["tree", "no-such-doc"]);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No document "no-such-doc"');
    const badOption = await run(["ask", "x", "-k", "zero"]);
    expect(badOption.code).toBe(2);
    const badModel = await run(["--model", "nonsense", "ask", "x"]);
    expect(badModel.code).toBe(4);
    expect(badModel.stderr).toContain("provider:name");
    const noKey = await run(["--model", "openai:gpt-4o-mini", "ask", "x"]);
    expect(noKey.code).toBe(4);
    expect(noKey.stderr).toContain("OPENAI_API_KEY");
  });

  it("reports an unreadable store", async () => {
    const blocker = join(dir, "a-file");
    await writeFile(blocker, "x");
    const res = await cli(["--store", join(blocker, "store"), "list"]);
    expect(res.code).toBe(3);
    expect(res.stderr).toContain("Cannot open the store folder");
    if (process.getuid?.() !== 0) {
      const locked = join(dir, "locked");
      await mkdir(locked);
      await chmod(locked, 0o000);
      expect((await cli(["--store", locked, "list"])).code).toBe(3);
      await chmod(locked, 0o700);
    }
  });

  it("runs the demo offline and prints the sections for the demo question", async () => {
    const res = await run(["demo"]);
    expect(res.code).toBe(0);
    // Two questions, one offline notice, on stderr only.
    expect(res.stderr.match(/No model configured/g)).toHaveLength(1);
    expect(res.stdout).not.toMatch(/offline/i);
    expect(res.stdout).toContain(
      "tiller-operator-manual.md › Tiller Message Queue — Operator Manual › 4. Security",
    );
    expect(res.stdout).toContain(
      "acme-annual-report-2025.pdf › Item 7. Management's Discussion and Analysis",
    );
    const json = JSON.parse((await run(["--json", "demo"])).stdout);
    const [tls, cash] = json.results;
    expect(tls.sections[0].path).toContain("4.2 TLS certificates");
    expect(tls.sections[0].text).toContain("tillerctl tls reload");
    expect(cash.sections.map((s: { title: string }) => s.title)).toContain("Liquidity and Capital Resources");
    expect(
      cash.sections.find((s: { title: string }) => s.title === "Liquidity and Capital Resources"),
    ).toMatchObject({
      docId: "acme-annual-report-2025.pdf",
      startPage: 7,
      endPage: 7,
    });
  });

  it("runs the A/B evaluation and writes a table, a chart and JSON", async () => {
    const questions = join(dir, "questions.jsonl");
    await writeFile(
      questions,
      [
        {
          question: "How often should I descale in hard water?",
          doc_name: "kettle.md",
          evidence: [{ section: "hard-water" }],
        },
        { question: "How much water goes in?", doc_name: "kettle.md", evidence: [{ section: "Filling" }] },
      ]
        .map((q) => JSON.stringify(q))
        .join("\n"),
    );
    const out = join(dir, "eval");
    const res = await run(["--json", "eval", questions, "--out", out, "-k", "2"]);
    expect(res.code).toBe(0);
    const report = JSON.parse(res.stdout);
    expect(report.summaries.map((s: { name: string }) => s.name)).toEqual([
      "pageindex (offline BM25 judge)",
      "bm25 chunks",
      "vector chunks",
    ]);
    expect(report.summaries[0]).toMatchObject({ questions: 2, hitRate: 1, meanLlmCalls: 0 });
    expect(await readFile(join(out, "report.md"), "utf8")).toContain(
      "| pageindex (offline BM25 judge) | 2 | 100 % |",
    );
    expect(await readFile(join(out, "chart.svg"), "utf8")).toMatch(/^<svg/);
    const saved = JSON.parse(await readFile(join(out, "report.json"), "utf8"));
    expect(saved.config).toMatchObject({ k: 2, retrievers: ["pageindex", "bm25", "vector"], questions: 2 });
    expect(saved.config.model).toBe("offline");
    // Per question: every returned section with its document, node, lines and whether it holds evidence.
    const first = saved.scores["pageindex (offline BM25 judge)"][0];
    expect(first.sections[0]).toMatchObject({ docId: "kettle.md", nodeId: expect.any(String), hit: true });
    expect(first.sections[0].startLine).toBeGreaterThan(0);
    expect(report.summaries[1]).toMatchObject({ meanCompletionTokens: 0, fallbacks: 0 });
    expect(report.summaries[1].indexMs).toBeGreaterThan(0);
    // The trees were indexed in an earlier run: their indexing time is not known here.
    expect(report.summaries[0].indexMs).toBeUndefined();
    const capped = JSON.parse(
      (
        await run([
          "--json",
          "eval",
          questions,
          "--out",
          out,
          "--retrievers",
          "pageindex",
          "--content-tokens",
          "60",
        ])
      ).stdout,
    );
    expect(capped.summaries[0].meanReturnedTokens).toBeLessThanOrEqual(60);
    expect(capped.summaries[0].meanReturnedTokens).toBeLessThan(report.summaries[0].meanReturnedTokens);
    const bad = await run(["eval", questions, "--retrievers", "pageindex,magic"]);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain("Unknown retriever(s) magic");
  });

  it("prints help", async () => {
    const help = await cli(["--help"]);
    expect(help.code).toBe(0);
    for (const cmd of ["index", "list", "tree", "import", "rm", "ask", "demo", "eval"])
      expect(help.stdout).toContain(cmd);
  });
});

it("has a built binary to test (pnpm test builds first)", () => {
  expect(existsSync(BIN), `missing ${BIN}: run pnpm build`).toBe(true);
  return readFile(BIN, "utf8").then((text) => expect(text.startsWith("#!/usr/bin/env node")).toBe(true));
});
