import { execFile } from "node:child_process";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { PageIndexError } from "pageindex-core";
import { PageIndexStore } from "pageindex-store";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN } from "./run-cli.js";

const run = promisify(execFile);
let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pageindex-store-path-"));
  await writeFile(join(dir, "note.md"), "# Note\n\n## Kettle\n\nDescale the kettle monthly.\n");
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** `pageindex <args>` in `dir`, with PATH, HOME and `env` only. */
const pageindex = (args: string[], env: Record<string, string>) =>
  run(process.execPath, [BIN, ...args], {
    cwd: dir,
    env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
  }).then(
    ({ stdout, stderr }) => ({ code: 0, stdout, stderr }),
    (error: { code: number; stdout: string; stderr: string }) => error,
  );

describe("an empty path", () => {
  it("PAGEINDEX_STORE set but empty counts as unset: the store goes to .pageindex, not the current folder", async () => {
    const { code } = await pageindex(["index", "note.md"], { PAGEINDEX_STORE: "" });
    expect(code).toBe(0);
    const here = await readdir(dir);
    expect(here.filter((name) => name.startsWith("pageindex."))).toEqual([]);
    expect(here).toContain(".pageindex");
  });

  it("--store '' is a usage error naming the option", async () => {
    const { code, stderr } = await pageindex(["--store", "", "list"], {});
    expect(code).toBe(2);
    expect(stderr).toContain("--store is empty: give a folder, e.g. --store .pageindex");
  });

  it("index '' (an unset shell variable) is a usage error, not the whole current folder", async () => {
    const { code, stderr } = await pageindex(["index", ""], {});
    expect(code).toBe(2);
    expect(stderr).toContain("An empty path was given: name a file or folder");
  });

  it("PageIndexStore.fromPath('') is refused before it touches the current folder", async () => {
    const opened = PageIndexStore.fromPath("");
    await expect(opened).rejects.toThrow(PageIndexError);
    await expect(opened).rejects.toThrow("The store folder path is empty");
  });
});
