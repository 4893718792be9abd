// Fault suite, store side of the CLI: two processes (the built binary) indexing same-name files
// at once keep both; in-process, read-only commands never write to the store folder, and
// `vacuum` removes what a failed write left.
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, readdir, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileByteStore, PageIndexStore } from "pageindex-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { WrappedStore } from "../../packages/pageindex-store/test/helpers/stores.js";
import { makeTree } from "../../packages/pageindex-store/test/helpers/trees.js";
import { BIN, cli, cliInProcess } from "./run-cli.js";

describe.skipIf(!existsSync(BIN))("pageindex: store faults", () => {
  let dir: string;
  const run = (store: string, args: string[]) => cliInProcess(["--store", store, ...args]);
  const spawned = (store: string, args: string[]) => cli(["--store", store, ...args]);
  const sources = async (store: string) =>
    JSON.parse((await run(store, ["--json", "list"])).stdout)
      .documents.map((d: { source: string }) => d.source)
      .sort();

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-faults-"));
    for (const folder of ["a", "b"]) {
      await mkdir(join(dir, folder));
      await writeFile(
        join(dir, folder, "notes.md"),
        `# Notes ${folder}\n\nThe ${folder} team meets weekly.\n`,
      );
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it("two processes indexing different files that share a name at once keep both (3 runs)", async () => {
    const files = [join(dir, "a", "notes.md"), join(dir, "b", "notes.md")];
    for (let round = 0; round < 3; round += 1) {
      const store = join(dir, `race-${round}`);
      const runs = await Promise.all(files.map((file) => spawned(store, ["--json", "index", file])));
      // The losers' stderr, so a rare failure under load says which store step refused.
      expect(
        runs.map((r) => r.code),
        runs.map((r) => r.stderr).join("\n"),
      ).toEqual([0, 0]);
      expect(await sources(store)).toEqual(files);
      const ids = runs.map((r) => JSON.parse(r.stdout).documents[0].docId as string).sort();
      expect(ids[0]).toMatch(/^notes-[0-9a-f]{8}\.md$/); // the loser of the name takes its path-derived id
      expect(ids[1]).toBe("notes.md");
    }
  });

  it("read-only commands leave the folder as it is: no .tmp/ created, the user's .tmp/ files kept", async () => {
    const store = join(dir, "checked-in");
    expect((await run(store, ["index", join(dir, "a", "notes.md")])).code).toBe(0);
    await rm(join(store, ".tmp"), { recursive: true });
    const before = (await readdir(store)).sort();
    for (const args of [["list"], ["tree", "notes.md"], ["ask", "when does the team meet?"]]) {
      const result = await run(store, args);
      expect(result.code, result.stderr).toBe(0);
    }
    expect((await readdir(store)).sort()).toEqual(before);

    const empty = join(dir, "empty-store");
    await mkdir(empty);
    expect((await run(empty, ["list", "--limit", "5"])).code).toBe(0);
    const asked = await run(empty, ["ask", "anything"]);
    expect([asked.code, asked.stderr]).toEqual([2, expect.stringMatching(/The store is empty/)]);
    expect(await readdir(empty)).toEqual([]);

    await mkdir(join(store, ".tmp"));
    const old = new Date(Date.now() - 3 * 60 * 60 * 1000);
    for (const name of ["my-notes.txt", "notes.md.4242.0123456789ab"]) {
      await writeFile(join(store, ".tmp", name), "x");
      await utimes(join(store, ".tmp", name), old, old);
    }
    expect((await run(store, ["list"])).code).toBe(0);
    expect((await readdir(join(store, ".tmp"))).sort()).toEqual([
      "my-notes.txt",
      "notes.md.4242.0123456789ab",
    ]);
    expect((await run(store, ["index", join(dir, "b", "notes.md")])).code).toBe(0); // a writer cleans its own only
    expect(await readdir(join(store, ".tmp"))).toEqual(["my-notes.txt"]);
  });

  it("vacuum removes a crashed write's leftovers (exit 0, JSON counts)", async () => {
    const store = join(dir, "vacuum");
    expect((await run(store, ["index", join(dir, "a", "notes.md")])).code).toBe(0);
    const failing = new WrappedStore(await FileByteStore.fromPath(store));
    failing.failOnMset = 2; // the pending marker, then the writer dies
    await expect(
      new PageIndexStore(failing, { writeBatchSize: 2 }).addTree(makeTree("crashed", { nodes: 8 })),
    ).rejects.toThrow(/simulated crash/);
    const kept = await run(store, ["--json", "vacuum"]);
    expect(kept.code).toBe(0);
    expect(JSON.parse(kept.stdout)).toMatchObject({ removedVersions: 0, youngVersions: 0 });
    expect((await readdir(store)).some((f) => f.startsWith("pageindex.pending.crashed."))).toBe(true);
    const removed = await run(store, ["--json", "vacuum", "--grace", "0"]);
    expect(removed.code).toBe(0);
    expect((await readdir(store)).filter((f) => f.includes("crashed"))).toEqual([]);
    expect((await run(store, ["vacuum"])).stdout).toMatch(/^Removed 0 unused versions/);
    expect(await sources(store)).toEqual([join(dir, "a", "notes.md")]);
  });
});
