import { mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { LocalFileStore } from "langchain/storage/file_system";
import { expect, it } from "vitest";
import { PageIndexStore } from "../src/index.js";
import { makeTree } from "./helpers/trees.js";
import { describeStoreBehaviour } from "./store.behaviour.js";

// LangChain's own LocalFileStore, passed in unchanged.
describeStoreBehaviour("LangChain LocalFileStore", async () => {
  const dir = await mkdtemp(join(tmpdir(), "pageindex-lc-"));
  return {
    byteStore: await LocalFileStore.fromPath(dir),
    reopen: () => LocalFileStore.fromPath(dir),
    cleanup: () => rm(dir, { recursive: true, force: true }),
  };
});

it("writes only keys LocalFileStore accepts, as plain files in its folder", async () => {
  const dir = await mkdtemp(join(tmpdir(), "pageindex-lc-"));
  try {
    const store = new PageIndexStore(await LocalFileStore.fromPath(dir));
    await store.addTree(makeTree("report.2024", { nodes: 30 }));
    const files = await readdir(dir);
    expect(files.every((f) => /^[A-Za-z0-9_.-]+\.txt$/.test(f))).toBe(true);
    expect(files).toContain("pageindex.head.report.2024.txt");
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
});
