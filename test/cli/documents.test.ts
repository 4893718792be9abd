// Document ids, references and repair, through the CLI's commands run in-process (the ids are
// what is tested, not the bin: cli.test.ts runs that): same-name files, `import` over another
// source, `rm` by exact reference only, and a corrupt stored copy.
import { mkdir, mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cliInProcess, writePageIndexTree } from "./run-cli.js";

describe("pageindex documents: ids and references", () => {
  let dir: string;
  const storeOf = (name: string) => join(dir, name);
  const run = (store: string, args: string[]) => cliInProcess(["--store", store, ...args]);
  const ids = async (store: string) =>
    JSON.parse((await run(store, ["--json", "list"])).stdout).documents.map(
      (d: { docId: string }) => d.docId,
    );

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-docs-"));
    for (const [folder, text] of [
      ["a", "# Alpha notes\n\nThe alpha team meets on Mondays.\n"],
      ["b", "# Beta notes\n\nThe beta team meets on Fridays.\n"],
    ]) {
      await mkdir(join(dir, folder as string));
      await writeFile(join(dir, folder as string, "notes.md"), text as string);
    }
    await writeFile(join(dir, "report.md"), "# Report\n\nQuarterly figures.\n");
    await writeFile(join(dir, "report-summary.md"), "# Summary\n\nShort version.\n");
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("keeps two files with the same name apart and skips both when unchanged", async () => {
    const store = storeOf("same-name");
    const a = join(dir, "a", "notes.md");
    const b = join(dir, "b", "notes.md");
    const first = await run(store, ["index", a, b]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(
      /the id "notes\.md" belongs to .*a\/notes\.md; indexed as "notes-[0-9a-f]{8}\.md"/,
    );
    const stored = await ids(store);
    expect(stored).toHaveLength(2);
    expect(stored).toContain("notes.md");
    const again = JSON.parse((await run(store, ["--json", "index", a, b])).stdout);
    expect(again.documents.map((d: { status: string }) => d.status)).toEqual(["unchanged", "unchanged"]);
    expect(again.documents.map((d: { docId: string }) => d.docId).sort()).toEqual([...stored].sort());
    const byPath = JSON.parse((await run(store, ["--json", "tree", b])).stdout);
    expect(byPath.docId).toMatch(/^notes-[0-9a-f]{8}\.md$/);
  });

  it("keeps a file's path-derived id when the name id is freed, so it is not stored twice", async () => {
    const store = storeOf("freed-name");
    const a = join(dir, "a", "notes.md");
    const b = join(dir, "b", "notes.md");
    expect((await run(store, ["index", a, b])).code).toBe(0);
    const bId = (await ids(store)).find((id: string) => id !== "notes.md");
    expect((await run(store, ["rm", "notes.md"])).code).toBe(0);
    const again = JSON.parse((await run(store, ["--json", "index", b])).stdout);
    expect(again.documents[0]).toMatchObject({ docId: bId, status: "unchanged" });
    expect(await ids(store)).toEqual([bId]);
  });

  it("ask tells same-name documents apart in its citations", async () => {
    const store = storeOf("ask-twins");
    expect((await run(store, ["index", join(dir, "a", "notes.md"), join(dir, "b", "notes.md")])).code).toBe(
      0,
    );
    const res = await run(store, ["ask", "When does the team meet?", "-k", "2"]);
    expect(res.code).toBe(0);
    expect(res.stdout).toMatch(/\] notes\.md › Alpha notes/);
    expect(res.stdout).toMatch(/\] notes\.md \(notes-[0-9a-f]{8}\.md\) › Beta notes/);
  });

  it("eval scopes a question's doc_name to the document with that id, not a same-name twin", async () => {
    const store = storeOf("eval-twins");
    expect((await run(store, ["index", join(dir, "a", "notes.md"), join(dir, "b", "notes.md")])).code).toBe(
      0,
    );
    const questions = join(dir, "twins.jsonl");
    const question = {
      question: "When does the team meet?",
      doc_name: "notes.md",
      evidence: [{ section: "Alpha notes" }],
    };
    await writeFile(questions, `${JSON.stringify(question)}\n`);
    const args = [
      "--json",
      "eval",
      questions,
      "--retrievers",
      "pageindex",
      "-k",
      "1",
      "--out",
      join(dir, "twins"),
    ];
    const report = JSON.parse((await run(store, args)).stdout);
    const [score] = Object.values(report.scores)[0] as Array<{ sections: Array<{ docId: string }> }>;
    expect(score?.sections.map((s) => s.docId)).toEqual(["notes.md"]);
    expect(report.summaries[0].hitRate).toBe(1);
  });

  it("gives a file whose name differs only in case from a stored one its own id", async () => {
    const store = storeOf("case-twins");
    await mkdir(join(dir, "upper"));
    const upper = join(dir, "upper", "Notes.md");
    await writeFile(upper, "# Upper notes\n\nWritten in capitals.\n");
    const first = await run(store, ["index", join(dir, "a", "notes.md"), upper]);
    expect(first.code).toBe(0);
    expect(first.stderr).toMatch(
      /the id "notes\.md" belongs to .*a\/notes\.md; indexed as "Notes-[0-9a-f]{8}\.md"/,
    );
    const stored = await ids(store);
    expect(stored).toHaveLength(2);
    const again = JSON.parse((await run(store, ["--json", "index", upper])).stdout);
    expect(again.documents[0].status).toBe("unchanged");
  });

  it("import refuses to replace a document from another source unless --force", async () => {
    const store = storeOf("import");
    await run(store, ["index", join(dir, "report.md")]);
    const file = join(dir, "report_structure.json");
    await writePageIndexTree(file, "report.md", "Other");
    const refused = await run(store, ["import", file]);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /Document "report\.md" is already in the store from .*report\.md.*--force/,
    );
    expect(JSON.parse((await run(store, ["--json", "tree", "report.md"])).stdout).kind).toBe("markdown");
    const forced = await run(store, ["import", file, "--force"]);
    expect(forced.code).toBe(0);
    // Importing the same file again replaces its own document without --force.
    expect((await run(store, ["import", file])).code).toBe(0);
  });

  it("import writes nothing when one of its files is invalid", async () => {
    const store = storeOf("import-batch");
    const good = join(dir, "good_structure.json");
    await writePageIndexTree(good, "good.pdf", "Good");
    const bad = join(dir, "bad_structure.json");
    await writeFile(bad, "{not json");
    const res = await run(store, ["--json", "import", good, bad]);
    expect(res.code).toBe(2);
    expect(res.stdout).toBe("");
    expect(await ids(store)).toEqual([]);
  });

  it("rm deletes by exact id, name or path only, and all or nothing", async () => {
    const store = storeOf("rm");
    await run(store, ["index", join(dir, "report.md"), join(dir, "report-summary.md")]);
    const substring = await run(store, ["rm", "report"]);
    expect(substring.code).toBe(2);
    expect(substring.stderr).toContain('No document "report"');
    expect(substring.stderr).toContain("did you mean");
    // A substring naming exactly one document must not delete it either.
    const single = await run(store, ["rm", "summary"]);
    expect(single.code).toBe(2);
    expect(await ids(store)).toEqual(["report-summary.md", "report.md"]);
    const partly = await run(store, ["rm", "report.md", "nosuch"]);
    expect(partly.code).toBe(2);
    expect(partly.stderr).toContain('No document "nosuch"');
    expect(await ids(store)).toEqual(["report-summary.md", "report.md"]);
    const removed = await run(store, ["--json", "rm", join(dir, "report-summary.md"), "report.md"]);
    expect(removed.code).toBe(0);
    expect(JSON.parse(removed.stdout)).toEqual({ removed: ["report-summary.md", "report.md"] });
    expect(await ids(store)).toEqual([]);
  });

  it("a name shared by two documents, and no id, is ambiguous and lists both", async () => {
    const store = storeOf("ambiguous");
    for (const n of [1, 2]) {
      await writePageIndexTree(join(dir, `paper${n}.json`), "paper.pdf", `Part ${n}`);
      expect((await run(store, ["import", join(dir, `paper${n}.json`), "--doc-id", `paper-${n}`])).code).toBe(
        0,
      );
    }
    const res = await run(store, ["--json", "tree", "paper.pdf"]);
    expect(res.code).toBe(2);
    const error = JSON.parse(res.stderr.trim().split("\n").pop() as string).error;
    expect(error.message).toContain('"paper.pdf" names several documents: paper-1');
    expect(error.message).toContain("paper-2");
    expect((await run(store, ["ask", "part", "--doc", "paper.pdf"])).code).toBe(2);
    expect((await run(store, ["rm", "paper.pdf"])).code).toBe(2);
    expect(await ids(store)).toEqual(["paper-1", "paper-2"]);
  });

  it("re-indexes an unchanged file whose stored copy cannot be read, and says so", async () => {
    const store = storeOf("corrupt");
    const file = join(dir, "report.md");
    expect((await run(store, ["index", file])).code).toBe(0);
    const textKey = (await readdir(store)).find((name) => /\.text\.\d+$/.test(name));
    expect(textKey).toBeDefined();
    await writeFile(join(store, textKey as string), "not what the store wrote");
    // The unchanged check reads the head only; --verify reads the stored copy too.
    const trusted = await run(store, ["--json", "index", file]);
    expect(JSON.parse(trusted.stdout).documents[0].status).toBe("unchanged");
    const repaired = await run(store, ["--json", "index", file, "--verify"]);
    expect(repaired.code).toBe(0);
    const outcome = JSON.parse(repaired.stdout).documents[0];
    expect(outcome).toMatchObject({ status: "indexed", docId: "report.md" });
    expect(outcome.repaired).toMatch(/Corrupt store value/);
    const human = await run(store, ["index", file]);
    expect(human.stderr).toContain("unchanged, skipped");
    expect((await run(store, ["tree", "report.md"])).stdout).toContain("Report");
  });
});
