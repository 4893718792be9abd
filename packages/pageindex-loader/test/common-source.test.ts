import { execFileSync } from "node:child_process";
import { mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { gzipSync } from "node:zlib";
import { PageIndexError } from "pageindex-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { decodeText, readSource, sha256Hex } from "../src/common/source.js";
import {
  InvalidInputError,
  MarkdownTreeLoader,
  SourceNotFoundError,
  SourceReadError,
  SourceTooLargeError,
  UnsupportedContentError,
} from "../src/index.js";

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "pageindex-source-"));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe("readSource", () => {
  it("reads a path and a file: URL, naming the file after its base name", async () => {
    const path = join(dir, "guide.md");
    await writeFile(path, "# Hi\n");
    for (const input of [path, pathToFileURL(path)]) {
      const loaded = await readSource(input);
      expect(new TextDecoder().decode(loaded.bytes)).toBe("# Hi\n");
      expect(loaded).toMatchObject({ name: "guide.md", path, label: path });
    }
  });

  it("reads Blobs, Files, bytes and { text }", async () => {
    const file = new File(["# F"], "from-file.md");
    expect(await readSource(file)).toMatchObject({ name: "from-file.md", label: "from-file.md" });
    const blob = await readSource(new Blob(["# B"]), { name: "given.md" });
    expect(blob).toMatchObject({ name: "given.md" });
    expect(new TextDecoder().decode(blob.bytes)).toBe("# B");
    const bytes = await readSource(new TextEncoder().encode("# U"));
    expect(bytes.label).toBe("(in-memory input)");
    expect(bytes.name).toBeUndefined();
    const buffer = await readSource(new TextEncoder().encode("# A").buffer);
    expect(new TextDecoder().decode(buffer.bytes)).toBe("# A");
    const text = await readSource({ text: "# T", name: "t.md" });
    expect(text).toMatchObject({ text: "# T", name: "t.md" });
    expect(sha256Hex(text.bytes)).toBe(sha256Hex(new TextEncoder().encode("# T")));
  });

  it("throws SourceNotFoundError naming a missing path", async () => {
    const missing = join(dir, "nope", "missing.md");
    const error = await readSource(missing).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SourceNotFoundError);
    expect(error).toBeInstanceOf(PageIndexError);
    expect((error as SourceNotFoundError).source).toBe(missing);
    expect((error as Error).message).toContain(missing);
  });

  it("rejects a directory, an empty path, a non-file URL and unknown input types", async () => {
    await expect(readSource(dir)).rejects.toThrow(SourceReadError);
    await expect(readSource(dir)).rejects.toThrow(/is a directory/);
    await expect(readSource("  ")).rejects.toThrow(InvalidInputError);
    await expect(readSource(new URL("https://example.com/a.md"))).rejects.toThrow(InvalidInputError);
    await expect(readSource(42 as unknown as string)).rejects.toThrow(/Unsupported input type number/);
  });

  it("refuses a FIFO and a symlink to a device at once instead of hanging or reading forever", async () => {
    const fifo = join(dir, "pipe.md");
    execFileSync("mkfifo", [fifo]);
    const link = join(dir, "zero.md");
    await symlink("/dev/zero", link);
    // Opening a FIFO for reading blocks until a writer comes, and /dev/zero never ends: both
    // must be refused from the open handle, before any read.
    await expect(readSource(fifo)).rejects.toThrow(/pipe\.md is a named pipe \(FIFO\), not a regular file/);
    await expect(readSource(link, { maxBytes: 1_000 })).rejects.toThrow(
      /zero\.md is a device, not a regular file/,
    );
    await expect(new MarkdownTreeLoader(fifo).loadTree()).rejects.toBeInstanceOf(SourceReadError);
  });

  it("enforces maxBytes for paths, Blobs and bytes", async () => {
    const path = join(dir, "big.md");
    await writeFile(path, "x".repeat(100));
    await expect(readSource(path, { maxBytes: 10 })).rejects.toThrow(SourceTooLargeError);
    await expect(readSource(new Blob(["x".repeat(11)]), { maxBytes: 10 })).rejects.toThrow(
      /over the 10-byte/,
    );
    await expect(readSource(new Uint8Array(11), { maxBytes: 10 })).rejects.toThrow(SourceTooLargeError);
    await expect(readSource(path, { maxBytes: 100 })).resolves.toBeDefined();
  });
});

describe("decodeText", () => {
  const bytes = (...values: number[]) => new Uint8Array(values);

  it("decodes UTF-8 (dropping a BOM) and UTF-16 with a BOM", () => {
    expect(decodeText(new TextEncoder().encode("é ✓"), "a")).toBe("é ✓");
    expect(decodeText(bytes(0xef, 0xbb, 0xbf, 0x23, 0x20, 0x41), "a")).toBe("# A");
    expect(decodeText(bytes(0xff, 0xfe, 0x23, 0, 0x41, 0), "a")).toBe("#A");
    expect(decodeText(bytes(0xfe, 0xff, 0, 0x23, 0, 0x41), "a")).toBe("#A");
  });

  it("names known binary formats", () => {
    const pdf = new TextEncoder().encode("%PDF-1.7\n...");
    expect(() => decodeText(pdf, "report.md")).toThrow(UnsupportedContentError);
    expect(() => decodeText(pdf, "report.md")).toThrow("report.md looks like a PDF file, not text");
    expect(() => decodeText(bytes(0x89, 0x50, 0x4e, 0x47, 1, 2), "x.md")).toThrow(/PNG image/);
  });

  it("rejects NUL bytes early in the input and invalid UTF-8 with the offset", () => {
    expect(() => decodeText(bytes(0x41, 0x42, 0, 0x43), "bin.md")).toThrow(
      "bin.md looks binary (NUL byte at offset 2), not text",
    );
    const latin1 = bytes(0x23, 0x20, 0x43, 0x61, 0x66, 0xe9, 0x0a);
    expect(() => decodeText(latin1, "latin1.md")).toThrow(
      "latin1.md is not valid UTF-8 text (invalid byte 0xe9 at offset 5)",
    );
  });

  describe("NUL bytes past the first 8 KiB", () => {
    const text = (size: number) => new TextEncoder().encode(`# Log\n${"line of text\n".repeat(size / 12)}`);
    const withNuls = (size: number, offsets: number[]) => {
      const b = text(size);
      for (const at of offsets) b[at] = 0;
      return b;
    };

    it("are binary when there are more than one per 4 KiB, naming the first offset", () => {
      // A text header followed by a binary blob: 20 KiB with 10 NULs from offset 12,000.
      const blob = withNuls(
        20_400,
        [12_000, 12_003, 12_010, 12_020, 12_021, 12_022, 12_100, 12_200, 12_300, 12_400],
      );
      expect(() => decodeText(blob, "mixed.md")).toThrow(
        "mixed.md looks binary (10 NUL bytes, the first at offset 12000), not text",
      );
    });

    it("are stray bytes in text when few: dropped, reported, the lines intact", () => {
      const warnings: string[] = [];
      const log = withNuls(24_000, [9_000, 20_004]);
      const decoded = decodeText(log, "log.md", warnings);
      const original = new TextDecoder().decode(text(24_000));
      expect(decoded).toBe(original.slice(0, 9_000) + original.slice(9_001, 20_004) + original.slice(20_005));
      expect(warnings).toEqual(["2 stray NUL byte(s) dropped from the text"]);
    });

    it("reach the tree's warnings through the Markdown loader", async () => {
      const tree = await new MarkdownTreeLoader(withNuls(24_000, [9_000]), { summaries: "none" }).loadTree();
      expect(tree.build.warnings).toEqual(["1 stray NUL byte(s) dropped from the text"]);
      expect(tree.nodes.map((n) => [n.title, n.text.includes("\uFFFD")])).toEqual([["Log", false]]);
    });
  });
});

describe("readSource: gzip-compressed input", () => {
  it("decompresses a .gz path, Blob or bytes by their content, and drops the .gz from the name", async () => {
    const path = join(dir, "guide.md.gz");
    await writeFile(path, gzipSync("# Guide\n"));
    const fromPath = await readSource(path);
    expect(new TextDecoder().decode(fromPath.bytes)).toBe("# Guide\n");
    expect(fromPath).toMatchObject({ name: "guide.md", path, label: path });
    const fromFile = await readSource(new File([gzipSync("# F\n")], "notes.MD.GZ"));
    expect(fromFile).toMatchObject({ name: "notes.MD" });
    expect(new TextDecoder().decode(fromFile.bytes)).toBe("# F\n");
    // Named by its content, not its name: gzip bytes under a plain name are decompressed too.
    const misnamed = await readSource(new Uint8Array(gzipSync("# M\n")), { name: "plain.md" });
    expect(new TextDecoder().decode(misnamed.bytes)).toBe("# M\n");
    const kept = await readSource(path, { decompress: false });
    expect(kept.name).toBe("guide.md.gz");
    expect(kept.bytes.subarray(0, 2)).toEqual(new Uint8Array([0x1f, 0x8b]));
  });

  it("loads a compressed Markdown file into the same tree as the plain one", async () => {
    const text = "# Install\n\nRun the script.\n\n## Options\n\nFlags.\n";
    const plain = await new MarkdownTreeLoader({ text, name: "install.md" }).loadTree();
    const path = join(dir, "install.md.gz");
    await writeFile(path, gzipSync(text));
    const compressed = await new MarkdownTreeLoader(path).loadTree();
    expect(compressed.docName).toBe("install.md");
    expect(compressed.nodes).toEqual(plain.nodes);
    expect(compressed.contentHash).toBe(plain.contentHash);
  });

  it("holds the decompressed size to maxBytes, so a decompression bomb fails fast", async () => {
    const bomb = gzipSync(Buffer.alloc(5_000_000, 0x61)); // ~5 kB that inflates to 5 MB
    expect(bomb.byteLength).toBeLessThan(10_000);
    const error = await readSource(new Uint8Array(bomb), { name: "bomb.md.gz", maxBytes: 1_000_000 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SourceTooLargeError);
    expect((error as SourceTooLargeError).maxBytes).toBe(1_000_000);
    expect((error as Error).message).toBe(
      "bomb.md.gz decompresses to more than 1000000 bytes, over the limit (maxBytes option)",
    );
    // Exactly at the limit is within it.
    const exact = await readSource(new Uint8Array(gzipSync(Buffer.alloc(1000, 0x61))), { maxBytes: 1000 });
    expect(exact.bytes.byteLength).toBe(1000);
  });

  it("names the file when its gzip stream is damaged or truncated", async () => {
    const path = join(dir, "cut.md.gz");
    await writeFile(path, gzipSync("# Cut short\n\nsome text that will not arrive\n").subarray(0, 15));
    const error = await readSource(path).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UnsupportedContentError);
    expect((error as UnsupportedContentError).source).toBe(path);
    expect((error as Error).message).toContain(`${path} is a damaged gzip file`);
  });
});
