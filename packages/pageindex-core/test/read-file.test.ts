import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { FileReadError, readRegularFile } from "../src/index.js";

const dir = mkdtempSync(join(tmpdir(), "read-file-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function file(name: string, bytes: Uint8Array): string {
  const path = join(dir, name);
  writeFileSync(path, bytes);
  return path;
}

const filled = (size: number) => Uint8Array.from({ length: size }, (_, i) => (i * 31 + 7) % 251);

describe("readRegularFile", () => {
  it("reads files of every size whole, the one past a 64 KiB buffer too", async () => {
    for (const size of [0, 1, 473, 65_535, 65_536, 65_537, 200_000]) {
      const bytes = filled(size);
      expect(await readRegularFile(file(`f${size}`, bytes))).toEqual(bytes);
    }
  });

  it("takes a file of exactly the limit and refuses one byte more", async () => {
    expect(await readRegularFile(file("at", filled(100)), { maxBytes: 100 })).toEqual(filled(100));
    const over = readRegularFile(file("over", filled(101)), { maxBytes: 100 });
    await expect(over).rejects.toBeInstanceOf(FileReadError);
    await expect(over).rejects.toMatchObject({ problem: "too-large", bytes: 101 });
  });

  it("says a missing file and a directory apart", async () => {
    await expect(readRegularFile(join(dir, "absent"))).rejects.toMatchObject({ problem: "not-found" });
    await expect(readRegularFile(dir)).rejects.toMatchObject({ problem: "not-regular" });
  });
});
