// Fault suite, round two (issue 28), through the built binary: hostile inputs (a FIFO, a link
// to /dev/zero) are refused by `index` without blocking or reading without end; the store's own
// files in those shapes end `list`, `ask` and `tree` with a typed store error or a warning; a
// newline in a file name cannot forge a line; catalog damage never reads as "empty"; a full
// disk exits 3 with the store's error type.
import { execFileSync } from "node:child_process";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { BIN, cli, cliInProcess } from "./run-cli.js";

const available =
  existsSync(BIN) &&
  (() => {
    try {
      execFileSync("mkfifo", ["--version"], { stdio: "ignore" });
      return true;
    } catch {
      return false;
    }
  })();

/** Each case runs the binary several times on a shared, loaded machine. */
const SLOW = 300_000;

describe.skipIf(!available)("pageindex: faults, round two", () => {
  let dir: string;
  // In-process, but for the FIFO and /dev/zero inputs: a regression there would block on the
  // open, which a child process (killed at its timeout) contains and the test worker would not.
  const run = (store: string, args: string[]) => cliInProcess(["--store", store, ...args]);
  const spawned = (store: string, args: string[]) => cli(["--store", store, ...args]);

  /** A store of three documents about granite, indexed by the CLI. */
  async function indexedStore(name: string): Promise<string> {
    const docs = join(dir, `${name}-docs`);
    execFileSync("mkdir", ["-p", docs]);
    for (const i of [1, 2, 3]) {
      writeFileSync(join(docs, `d${i}.md`), `# Doc ${i}\n\n## Granite ${i}\n\nGranite quarry number ${i}.\n`);
    }
    const store = join(dir, name);
    const indexed = await run(store, ["index", docs]);
    expect(indexed.code, indexed.stderr).toBe(0);
    return store;
  }

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), "pageindex-faults2-"));
  });
  afterAll(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it(
    "index refuses a FIFO and a link to /dev/zero at once (exit 2, file named), indexing the rest",
    async () => {
      const inputs = join(dir, "inputs");
      execFileSync("mkdir", ["-p", inputs]);
      execFileSync("mkfifo", [join(inputs, "pipe.md")]);
      symlinkSync("/dev/zero", join(inputs, "zero.md"));
      writeFileSync(join(inputs, "fine.md"), "# Fine\n\nA regular file.\n");
      const store = join(dir, "inputs-store");
      const result = await spawned(store, [
        "index",
        join(inputs, "pipe.md"),
        join(inputs, "zero.md"),
        join(inputs, "fine.md"),
      ]);
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr).toMatch(/pipe\.md is a named pipe \(FIFO\), not a regular file/);
      expect(result.stderr).toMatch(/zero\.md is a device, not a regular file/);
      expect(result.stderr).toMatch(/1 indexed, 0 unchanged, 2 failed/);
    },
    SLOW,
  );

  it(
    "a newline in a file name is shown escaped in index progress and the tree header",
    async () => {
      const inputs = join(dir, "names");
      execFileSync("mkdir", ["-p", inputs]);
      const name = "new\nerror: forged line.md";
      writeFileSync(join(inputs, name), "# Title\n\nSome text.\n");
      const store = join(dir, "names-store");
      const indexed = await run(store, ["--no-progress", "index", join(inputs, name)]);
      expect(indexed.code, indexed.stderr).toBe(0);
      const lines = indexed.stderr.split("\n");
      expect(lines.some((line) => line.startsWith("error: forged"))).toBe(false);
      expect(indexed.stderr).toContain("new\\nerror: forged line.md: indexed as");
      const docId = JSON.parse((await run(store, ["--json", "list"])).stdout).documents[0].docId as string;
      const tree = await run(store, ["tree", docId]);
      expect(tree.code, tree.stderr).toBe(0);
      expect(tree.stdout.split("\n")[0]).toBe(
        `new\\nerror: forged line.md (${docId}; structure from headings)`,
      );
      // JSON keeps the exact name.
      const json = JSON.parse((await run(store, ["--json", "tree", docId])).stdout);
      expect(json.docName).toBe(name);
    },
    SLOW,
  );

  for (const how of ["fifo", "zero"] as const) {
    it(
      `a store head that is a ${how}: list warns, tree exits 3, ask answers from the rest`,
      async () => {
        const store = await indexedStore(`head-${how}`);
        const head = join(store, "pageindex.head.d2.md");
        unlinkSync(head);
        if (how === "fifo") execFileSync("mkfifo", [head]);
        else symlinkSync("/dev/zero", head);
        const list = await run(store, ["list"]);
        expect(list.code, list.stderr).toBe(0);
        expect(list.stderr).toMatch(/pageindex\.head\.d2\.md.*not a regular file/);
        const tree = await run(store, ["--json", "tree", "d2.md"]);
        expect(tree.code).toBe(3);
        expect(JSON.parse(tree.stderr).error.type).toBe("StoreCorruptionError");
        const ask = await run(store, ["ask", "granite quarry"]);
        expect(ask.code, ask.stderr).toBe(0);
        expect(ask.stdout).toMatch(/d1\.md|d3\.md/);
      },
      SLOW,
    );

    it(
      `a library index file that is a ${how}: list, ask and tree exit 3 naming it`,
      async () => {
        const store = await indexedStore(`library-${how}`);
        const file = join(store, ".library", "library.sqlite");
        unlinkSync(file);
        if (how === "fifo") execFileSync("mkfifo", [file]);
        else symlinkSync("/dev/zero", file);
        for (const args of [["list"], ["ask", "granite"], ["tree", "d1.md"]]) {
          const result = await run(store, args);
          expect(result.code, result.stderr).toBe(3);
          expect(result.stderr).toMatch(/library\.sqlite.*not a regular file/);
        }
      },
      SLOW,
    );
  }

  it(
    "catalog segments that are a FIFO, /dev/zero or gone while trees exist: never 'empty', vacuum named and repairing",
    async () => {
      const store = await indexedStore("catalog");
      // Without a library index the catalog answers (a folder checked in without .library/).
      rmSync(join(store, ".library"), { recursive: true });
      const segments = readdirSync(store).filter((name) => name.includes(".catalog.seg."));
      expect(segments.length).toBeGreaterThan(1);
      const [first, second] = segments as [string, string];
      unlinkSync(join(store, first));
      execFileSync("mkfifo", [join(store, first)]);
      unlinkSync(join(store, second));
      symlinkSync("/dev/zero", join(store, second));
      const list = await run(store, ["list", "--limit", "10"]);
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(/Documents 1-3 of 3/);
      expect(list.stderr).toMatch(/pageindex vacuum/);
      const ask = await run(store, ["ask", "granite quarry number 1"]);
      expect(ask.code, ask.stderr).toBe(0);
      expect(ask.stdout).toContain("d1.md");

      const vacuum = await run(store, ["vacuum"]);
      expect(vacuum.code, vacuum.stderr).toBe(0);
      expect(readdirSync(store)).not.toContain(first);
      expect(readdirSync(store)).not.toContain(second);
      const after = await run(store, ["list", "--limit", "10"]);
      expect(after.stderr).not.toMatch(/catalog/i);

      // Every segment deleted (and no library index): still not "empty".
      rmSync(join(store, ".library"), { recursive: true, force: true });
      for (const name of readdirSync(store).filter((n) => n.includes(".catalog.seg.")))
        unlinkSync(join(store, name));
      const gone = await run(store, ["ask", "granite"]);
      expect(gone.code, gone.stderr).toBe(0);
      expect(gone.stderr).not.toMatch(/store is empty/);
      expect(gone.stderr).toMatch(/lists no document.*pageindex vacuum/);
    },
    SLOW,
  );

  it(
    "a full disk exits 3 with the store's error type (tmpfs; root only)",
    async () => {
      const mount = mkdtempSync(join(tmpdir(), "pageindex-full-"));
      try {
        execFileSync("mount", ["-t", "tmpfs", "-o", "size=256k", "tmpfs", mount], { stdio: "ignore" });
      } catch {
        rmSync(mount, { recursive: true, force: true });
        console.warn("[faults] tmpfs not mountable here (needs root): the full-disk case is skipped");
        return;
      }
      try {
        const big = join(dir, "big.md");
        const sections = Array.from({ length: 40 }, (_, i) => `## Part ${i}\n\n${"granite ".repeat(2000)}\n`);
        writeFileSync(big, `# Big\n\n${sections.join("\n")}`);
        const result = await run(join(mount, "store"), ["--json", "index", big]);
        expect(result.code, result.stderr).toBe(3);
        const outcome = JSON.parse(result.stdout).documents[0];
        expect(outcome.status).toBe("failed");
        expect(outcome.error).toMatch(/disk is full/);
      } finally {
        execFileSync("umount", ["-l", mount], { stdio: "ignore" });
        rmSync(mount, { recursive: true, force: true });
      }
    },
    SLOW,
  );
});
