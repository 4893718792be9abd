import { execFile } from "node:child_process";
import { mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";

const exec = promisify(execFile);
const root = resolve(import.meta.dirname, "../..");
const dirs: string[] = [];

afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("the repository's `pnpm pageindex` script", () => {
  it("resolves relative paths against the folder it was typed in, not the repository", async () => {
    const here = await mkdtemp(join(tmpdir(), "pageindex-cwd-"));
    dirs.push(here);
    await writeFile(join(here, "notes.md"), "# Notes\n\n## Backups\n\nCopy the store folder nightly.\n");
    // `pnpm --dir` runs the root script from elsewhere, as `pnpm pageindex` does from a subfolder.
    const { stderr } = await exec(
      "pnpm",
      ["--silent", "--dir", root, "pageindex", "--store", "my-store", "--no-progress", "index", "notes.md"],
      { cwd: here, timeout: 150_000 },
    );
    expect(stderr).toMatch(/notes\.md: indexed/);
    expect((await stat(join(here, "my-store"))).isDirectory()).toBe(true);
  });
});
