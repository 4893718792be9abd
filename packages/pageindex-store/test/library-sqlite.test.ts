import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe } from "vitest";
import { SqliteLibraryIndex } from "../src/library/sqlite/sqlite-library-index.js";
import { libraryBehaviour } from "./library.behaviour.js";

const dirs: string[] = [];
afterAll(async () => {
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

describe("SqliteLibraryIndex: the library index contract", () => {
  libraryBehaviour(async () => {
    const dir = await mkdtemp(join(tmpdir(), "library-sqlite-"));
    dirs.push(dir);
    return SqliteLibraryIndex.open(dir);
  });
});
