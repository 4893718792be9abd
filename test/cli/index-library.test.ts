// `pageindex index` over a library, in process over a counting byte store: an unchanged file is
// recognised from its head alone (stored keys read per file do not grow with the library),
// files are indexed concurrently, and same-name files still get their own ids. Then, through the
// built binary: Ctrl-C stops a run cleanly and the next run picks up where it stopped.
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { indexFiles } from "../../packages/pageindex-cli/src/cli/commands/index-files.js";
import { body, buildPdf, headingLine } from "../../packages/pageindex-loader/test/fixtures/pdf-builder.js";
import { PageIndexStore } from "../../packages/pageindex-store/src/index.js";
import { openConnection } from "../../packages/pageindex-store/src/library/sqlite/open.js";
import { topicTree } from "../../packages/pageindex-store/test/helpers/trees.js";
import { captureIo, countingStore, libraryContext, writeLibrary } from "../support/index-library.js";
import { BIN, cli, cliInProcess } from "./run-cli.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pageindex-library-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

/** Indexes `files` into `store`, returning the outcomes' statuses. */
async function index(ctx: ReturnType<typeof libraryContext>, files: string[], concurrency?: number) {
  const io = ctx.io as ReturnType<typeof captureIo>;
  io.stdout.length = 0;
  const code = await indexFiles(ctx, files, concurrency === undefined ? {} : { concurrency });
  const documents = JSON.parse(io.stdout.join("")).documents as Array<{ status: string; docId: string }>;
  return { code, documents };
}

describe("pageindex index over a library", () => {
  it("reads the same few keys per unchanged file at 10 and at 60 files, and lists nothing", async () => {
    const perFile: number[] = [];
    for (const count of [10, 60]) {
      const files = await writeLibrary(join(dir, `lib-${count}`), count);
      const { bytes, store } = countingStore();
      const ctx = libraryContext(store, captureIo());
      expect((await index(ctx, files)).documents.every((d) => d.status === "indexed")).toBe(true);
      bytes.reset();
      const again = await index(ctx, files);
      expect(again.code).toBe(0);
      expect(again.documents.map((d) => d.status)).toEqual(files.map(() => "unchanged"));
      expect(bytes.keysListed).toBe(0);
      expect(bytes.writes).toBe(0);
      perFile.push(bytes.keysRead / count);
    }
    expect(perFile[0]).toBe(1); // the head under the file's own id
    expect(perFile[1]).toBe(perFile[0]);
  });

  it("indexes several files at once (--concurrency), one at a time with --concurrency 1", async () => {
    const files = await writeLibrary(join(dir, "concurrent"), 8);
    const parallel = countingStore(undefined, 20);
    await index(libraryContext(parallel.store, captureIo()), files, 4);
    expect(parallel.bytes.maxConcurrentWrites).toBeGreaterThan(1);
    const serial = countingStore(undefined, 20);
    await index(libraryContext(serial.store, captureIo()), files, 1);
    expect(serial.bytes.maxConcurrentWrites).toBe(1);
  });

  it("gives same-name files their own ids even when indexed concurrently, and skips both next time", async () => {
    const files: string[] = [];
    for (const folder of ["a", "b", "c"]) {
      await mkdir(join(dir, "twins", folder), { recursive: true });
      const file = join(dir, "twins", folder, "notes.md");
      await writeFile(file, `# Notes ${folder}\n\nWritten in folder ${folder}.\n`);
      files.push(file);
    }
    const { store } = countingStore();
    const ctx = libraryContext(store, captureIo());
    const first = await index(ctx, files, 4);
    const ids = first.documents.map((d) => d.docId);
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toBe("notes.md");
    expect((await store.listDocuments()).map((d) => d.source).sort()).toEqual([...files].sort());
    expect((await index(ctx, files, 4)).documents.map((d) => d.status)).toEqual([
      "unchanged",
      "unchanged",
      "unchanged",
    ]);
  });

  it("draws a files/s bar on a terminal and ends with a count", async () => {
    const files = await writeLibrary(join(dir, "bar"), 3);
    const io = captureIo(true);
    const { store } = countingStore();
    await indexFiles(libraryContext(store, io, {}), files, {});
    expect(io.stderr.at(-1)).toMatch(
      /^3 files in [\d.]+ s \([\d.]+ files\/s\): 3 indexed, 0 unchanged, 0 failed$/,
    );
  });

  it("counts and names the files of other types a folder held, in the summary", async () => {
    const folder = join(dir, "mixed");
    await writeLibrary(folder, 1);
    await writeFile(join(folder, "photo.png"), "not a document");
    await writeFile(join(folder, "notes.docx"), "not read either");
    const io = captureIo();
    const { store } = countingStore();
    expect(await indexFiles(libraryContext(store, io, {}), [folder], {})).toBe(0);
    expect(io.stderr.at(-1)).toMatch(
      /^1 file in [\d.]+ s .*: 1 indexed, 0 unchanged, 0 failed; 2 files skipped \(not \.pdf, .*\): notes\.docx, photo\.png$/,
    );
    const only = join(dir, "pictures");
    await mkdir(only);
    await writeFile(join(only, "photo.png"), "not a document");
    await expect(indexFiles(libraryContext(store, captureIo(), {}), [only], {})).rejects.toThrow(
      /Nothing to index in .*pictures; 1 file skipped \(not .*\): photo\.png/,
    );
  });
});

describe("pageindex index: gzip-compressed documents", () => {
  it("indexes a folder's .md.gz and .pdf.gz (as Debian ships its manuals) under their file names", async () => {
    const folder = join(dir, "compressed");
    await mkdir(folder);
    const guide =
      "# Prekill hooks\n\nA hook runs before the killer ends a process.\n\n## Setup\n\nList the hooks in the config.\n";
    await writeFile(join(folder, "hooks.md.gz"), gzipSync(guide));
    await writeFile(join(folder, "hooks.md"), "# Plain copy\n\nThe same name, not compressed.\n");
    const pdf = await buildPdf({
      pages: [{ lines: [headingLine("Backups", 20), ...body(12, 3)] }, { lines: body(14, 4) }],
    });
    await writeFile(join(folder, "manual.pdf.gz"), gzipSync(pdf));
    await writeFile(join(folder, "archive.tar.gz"), gzipSync("not a document"));
    const io = captureIo();
    const { store } = countingStore();
    expect(await indexFiles(libraryContext(store, io), [folder], {})).toBe(0);
    const { documents } = JSON.parse(io.stdout.join("")) as {
      documents: Array<{ status: string; docId: string }>;
    };
    expect(documents.map((d) => [d.docId, d.status]).sort()).toEqual([
      ["hooks.md", "indexed"],
      ["hooks.md.gz", "indexed"],
      ["manual.pdf.gz", "indexed"],
    ]);
    // The content's name (no .gz) titles the tree; the source stays the file on disk.
    const markdown = await store.getTree("hooks.md.gz");
    expect(markdown).toMatchObject({
      kind: "markdown",
      docName: "hooks.md",
      source: join(folder, "hooks.md.gz"),
    });
    expect(markdown.nodes.map((n) => n.title)).toEqual(["Prekill hooks", "Setup"]);
    const manual = await store.getTree("manual.pdf.gz");
    expect(manual).toMatchObject({ kind: "pdf", docName: "manual.pdf", pageCount: 2 });
    // Indexing again skips all three: the content hash is the same.
    io.stdout.length = 0;
    await indexFiles(libraryContext(store, io), [folder], {});
    const again = JSON.parse(io.stdout.join("")) as { documents: Array<{ status: string }> };
    expect(again.documents.map((d) => d.status)).toEqual(["unchanged", "unchanged", "unchanged"]);
    // Another folder's file of the same name keeps the .md.gz last in its path-derived id.
    const other = join(dir, "compressed-too");
    await mkdir(other);
    await writeFile(join(other, "hooks.md.gz"), gzipSync("# Other hooks\n\nElsewhere.\n"));
    io.stdout.length = 0;
    await indexFiles(libraryContext(store, io), [other], {});
    const [twin] = (JSON.parse(io.stdout.join("")) as { documents: Array<{ docId: string }> }).documents;
    expect(twin?.docId).toMatch(/^hooks-[0-9a-f]{8}\.md\.gz$/);
  });

  it("reports a damaged .gz as that file's failure and indexes the rest", async () => {
    const folder = join(dir, "damaged-gz");
    await mkdir(folder);
    await writeFile(join(folder, "good.md"), "# Good\n\nText.\n");
    await writeFile(join(folder, "broken.md.gz"), gzipSync("# Broken\n\nText.\n").subarray(0, 12));
    const io = captureIo();
    const { store } = countingStore();
    expect(await indexFiles(libraryContext(store, io), [folder], {})).not.toBe(0);
    const { documents } = JSON.parse(io.stdout.join("")) as {
      documents: Array<{ status: string; docId: string; error?: string }>;
    };
    const broken = documents.find((d) => d.docId === "broken.md.gz");
    expect(broken?.status).toBe("failed");
    expect(broken?.error).toMatch(/broken\.md\.gz is a damaged gzip file/);
    expect(documents.find((d) => d.docId === "good.md")?.status).toBe("indexed");
  });

  it("gives a folder store's library index champion lists by default, built with a progress line for an index without them", async () => {
    /**
     * The sections a store's library index keeps champion-list lengths for (undefined: the index
     * has no lists). A term gets a list once in more than 100 sections: none does here.
     */
    async function listedSections(store: string): Promise<number | undefined> {
      const db = await openConnection(join(store, ".library", "library.sqlite"), true);
      try {
        const has = db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'champion_terms'").raw(true).get();
        if (!has) return undefined;
        return Number((db.prepare("SELECT count(*) FROM section_lengths").raw(true).get() as unknown[])[0]);
      } finally {
        db.close();
      }
    }
    const folder = join(dir, "champions");
    await mkdir(folder);
    await writeFile(
      join(folder, "pumps.md"),
      "# Pumps\n\nA pump moves coolant.\n\n## Priming\n\nFill the casing first.\n",
    );
    // A new store: lists from the start (nothing to build, so no progress line).
    const fresh = join(dir, "champions-fresh");
    const first = await cliInProcess(["--store", fresh, "index", folder]);
    expect(first.code).toBe(0);
    expect(first.stderr).not.toMatch(/Champion lists/);
    const listed = (await listedSections(fresh)) ?? 0;
    expect(listed).toBeGreaterThan(0);
    // A later run keeps them in step with what it writes.
    await writeFile(join(folder, "valves.md"), "# Valves\n\nA valve stops the flow.\n");
    expect((await cliInProcess(["--store", fresh, "--json", "index", folder])).code).toBe(0);
    expect(await listedSections(fresh)).toBeGreaterThan(listed);

    // An index written without lists (an earlier release, or `championRows: 0`): the first
    // writable open builds them and says so, phase by phase, then how long it took.
    const old = join(dir, "champions-old");
    const before = await PageIndexStore.fromPath(old, { championRows: 0 });
    await before.addTrees([topicTree("gears", ["gears", "teeth"]), topicTree("belts", ["belts", "pulleys"])]);
    await before.close();
    expect(await listedSections(old)).toBeUndefined();
    // Reading never builds them.
    expect((await cliInProcess(["--store", old, "list"])).stderr).not.toMatch(/Champion lists/);
    expect(await listedSections(old)).toBeUndefined();
    const upgraded = await cliInProcess(["--store", old, "index", folder]);
    expect(upgraded.code).toBe(0);
    expect(upgraded.stderr).toMatch(/Champion lists: reading section lengths \(4 sections\)/);
    expect(upgraded.stderr).toMatch(/Champion lists: built in \d+ s/);
    expect(await listedSections(old)).toBeGreaterThan(4);
  });
});

describe.skipIf(!existsSync(BIN))("pageindex index: Ctrl-C", () => {
  it("stops cleanly (exit 130, no half-indexed document) and the next run indexes only the rest", async () => {
    const files = await writeLibrary(join(dir, "interrupted"), 400);
    const store = join(dir, "interrupted-store");
    // Without --json, so that each file's own line shows the run is under way (the Ctrl-C
    // handler is in place before the first file starts): no sleep, no race with start-up.
    const child = spawn(
      process.execPath,
      [BIN, "--store", store, "--no-progress", "index", join(dir, "interrupted")],
      {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "" },
      },
    );
    let stderr = "";
    const underWay = new Promise<void>((done) => {
      child.stderr.on("data", (chunk) => {
        stderr += String(chunk);
        if (/: indexed as /.test(stderr)) done();
      });
    });
    const closed = new Promise<number | null>((done) => child.on("close", done));
    await Promise.race([underWay, closed]);
    child.kill("SIGINT");
    const code = await closed;
    const summary = /(\d+) indexed, (\d+) unchanged, (\d+) failed(?:, (\d+) interrupted)?/.exec(stderr);
    expect(summary, stderr).not.toBeNull();
    const [indexed = 0, unchanged, failed, interrupted = 0] = [1, 2, 3, 4].map((i) =>
      Number(summary?.[i] ?? 0),
    );
    if (code === 130) expect(interrupted).toBeGreaterThan(0);
    else expect(code).toBe(0); // finished before the signal: nothing to resume
    expect([unchanged, failed]).toEqual([0, 0]);
    expect(indexed + interrupted).toBe(files.length);

    const listed = JSON.parse((await cli(["--store", store, "--json", "list"])).stdout).documents;
    expect(listed).toHaveLength(indexed);
    const again = await cli(["--store", store, "--json", "index", join(dir, "interrupted")]);
    expect(again.code).toBe(0);
    const statuses = JSON.parse(again.stdout).documents.map((d: { status: string }) => d.status);
    expect(statuses.filter((s: string) => s === "unchanged")).toHaveLength(indexed);
    expect(statuses.filter((s: string) => s === "indexed")).toHaveLength(files.length - indexed);
  });
});
