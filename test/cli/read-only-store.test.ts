// Fault suite: a store on a read-only file system (EROFS; as root, chmod cannot make one, so the
// file system calls under the store folder are refused here) makes writing commands exit 3, the
// store's code, while reading commands still work.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { FileByteStore, PageIndexStore, StoreReadOnlyError } from "pageindex-store";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { runCli } from "../../packages/pageindex-cli/src/cli/main.js";
import { captureIo } from "../support/index-library.js";

const readOnly = vi.hoisted(() => ({ roots: [] as string[] }));

vi.mock("node:fs/promises", async (importOriginal) => {
  const actual = await importOriginal<typeof import("node:fs/promises")>();
  const refused = (path: unknown) => readOnly.roots.some((root) => String(path).startsWith(root));
  const guard =
    <A extends unknown[], R>(name: string, fn: (...args: A) => Promise<R>, writes: (...args: A) => boolean) =>
    async (...args: A): Promise<R> => {
      if (writes(...args) && refused(args[0])) {
        throw Object.assign(new Error(`EROFS: read-only file system, ${name} '${String(args[0])}'`), {
          code: "EROFS",
        });
      }
      return fn(...args);
    };
  const always = () => true;
  const mocked = {
    ...actual,
    // Numeric flags without O_WRONLY / O_RDWR (the bounded read's O_RDONLY | O_NONBLOCK) only read.
    open: guard(
      "open",
      actual.open,
      (_path, flags) =>
        flags !== undefined && flags !== "r" && !(typeof flags === "number" && (flags & 3) === 0),
    ),
    // An existing folder "is created" without a write, as `mkdir -p` on a read-only disk.
    mkdir: async (...args: Parameters<typeof actual.mkdir>) => {
      const exists = await actual.stat(args[0]).then(
        () => true,
        () => false,
      );
      return exists ? undefined : guard("mkdir", actual.mkdir, always)(...args);
    },
    rename: guard("rename", actual.rename, always),
    link: guard("link", actual.link, always),
    unlink: guard("unlink", actual.unlink, always),
    writeFile: guard("writeFile", actual.writeFile, always),
  };
  return { ...mocked, default: mocked };
});

describe("a store on a read-only file system", () => {
  let dir: string;
  let store: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "pageindex-rofs-"));
    store = join(dir, "store");
    await writeFile(join(dir, "notes.md"), "# Notes\n\nThe team meets on Mondays.\n");
    expect(await runCli(["--store", store, "index", join(dir, "notes.md")], captureIo())).toBe(0);
    await writeFile(join(dir, "more.md"), "# More\n\nAnother file.\n");
    readOnly.roots.push(store);
  });
  afterAll(async () => {
    readOnly.roots.length = 0;
    await rm(dir, { recursive: true, force: true });
  });

  it("writing commands exit 3 with a message saying the store is read-only", async () => {
    for (const args of [["index", join(dir, "more.md")], ["rm", "notes.md"], ["vacuum"]]) {
      const io = captureIo();
      expect(await runCli(["--store", store, ...args], io), args[0]).toBe(3);
      expect(io.stderr.join("\n")).toMatch(/read-only/);
    }
  });

  it("reading commands still work", async () => {
    for (const args of [["list"], ["tree", "notes.md"], ["ask", "when does the team meet?"]]) {
      const io = captureIo();
      expect(await runCli(["--store", store, ...args], io), io.stderr.join("\n")).toBe(0);
    }
  });

  it("the library raises StoreReadOnlyError on writes, and opens the folder read-only", async () => {
    await expect(FileByteStore.fromPath(join(store, "new"))).rejects.toBeInstanceOf(StoreReadOnlyError);
    const reader = await PageIndexStore.fromPath(store, { readOnly: true });
    expect((await reader.listDocuments()).map((d) => d.docId)).toEqual(["notes.md"]);
    const bytes = await FileByteStore.fromPath(store, { readOnly: true });
    const writable = new FileByteStore(store); // as if opened before the disk became read-only
    await expect(writable.mset([["k", new Uint8Array([1])]])).rejects.toBeInstanceOf(StoreReadOnlyError);
    await expect(bytes.mset([["k", new Uint8Array([1])]])).rejects.toThrow(/opened read-only/);
  });
});
