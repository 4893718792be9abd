import { mkdtemp, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { PageIndexError } from "pageindex-core";
import { describe, expect, it } from "vitest";
import {
  NotAPdfError,
  PdfCorruptError,
  PdfEmptyError,
  PdfNoTextError,
  PdfPasswordError,
  PdfTreeLoader,
  pdfToTree,
} from "../src/index.js";
import { body, buildPdf, type PageSpec } from "./fixtures/pdf-builder.js";

const load = (bytes: Uint8Array, options: Parameters<typeof pdfToTree>[1] = {}) =>
  pdfToTree(bytes, { summaries: "none", ...options }, { name: "bad.pdf" });

const simple: PageSpec[] = [
  { lines: [{ text: "Opening Section", size: 16, bold: true }, ...body(10, 1)] },
  { lines: [{ text: "Closing Section", size: 16, bold: true }, ...body(10, 2)] },
];

describe("bad PDF input", () => {
  it("not a PDF: a typed error naming the file", async () => {
    const dir = await mkdtemp(join(tmpdir(), "pdf-bad-"));
    const path = join(dir, "notes.pdf");
    await writeFile(path, "just some text, not a PDF");
    const error = await new PdfTreeLoader(path).loadTree().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotAPdfError);
    expect(error).toBeInstanceOf(PageIndexError);
    expect((error as NotAPdfError).message).toContain(path);
    expect((error as NotAPdfError).reason).toBe("not-pdf");
  });

  it("truncated file: PdfCorruptError", async () => {
    const bytes = await buildPdf({ pages: simple });
    for (const keep of [0.3, 0.7]) {
      const cut = bytes.slice(0, Math.floor(bytes.length * keep));
      await expect(load(cut)).rejects.toBeInstanceOf(PdfCorruptError);
    }
  });

  it("encrypted: needs the password, tells a wrong one apart, opens with the right one", async () => {
    const bytes = await buildPdf({ pages: simple, encrypt: { userPassword: "s3cret" } });
    const missing = await load(bytes).catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(PdfPasswordError);
    expect((missing as PdfPasswordError).reason).toBe("encrypted");
    const wrong = await load(bytes, { password: "nope" }).catch((e: unknown) => e);
    expect((wrong as PdfPasswordError).reason).toBe("wrong-password");
    const tree = await load(bytes, { password: "s3cret" });
    expect(tree.nodes.map((n) => n.title)).toEqual(["Opening Section", "Closing Section"]);
    expect(tree.nodes[0]?.text).toContain("Opening Section");
  });

  it("zero pages: PdfEmptyError", async () => {
    await expect(load(await buildPdf({ pages: [] }))).rejects.toBeInstanceOf(PdfEmptyError);
  });

  it("no text layer anywhere: PdfNoTextError; some pages without text: a warning, no invented structure", async () => {
    const scanned = await buildPdf({ pages: [{ rect: true }, { rect: true }] });
    const error = await load(scanned).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PdfNoTextError);
    expect((error as Error).message).toMatch(/OCR/);

    const mixed = await buildPdf({ pages: [simple[0] as PageSpec, { rect: true }, simple[1] as PageSpec] });
    const tree = await load(mixed);
    expect(tree.build.warnings?.join("\n")).toMatch(/page\(s\) 2 have no text layer/);
    expect(tree.nodes.map((n) => [n.title, n.startPage, n.endPage])).toEqual([
      ["Opening Section", 1, 2],
      ["Closing Section", 3, 3],
    ]);
    expect(tree.metadata?.pdf).toMatchObject({ pagesWithoutText: [2] });
  });

  it("a 500-page PDF is read page by page into a bounded tree", async () => {
    const pages: PageSpec[] = Array.from({ length: 500 }, (_, i) => ({
      lines:
        i % 25 === 0 ? [{ text: `Chapter ${i / 25 + 1}`, size: 18, bold: true }, ...body(6, i)] : body(8, i),
      footer: String(i + 1),
    }));
    const bytes = await buildPdf({ pages });
    let parsed = 0;
    const tree = await load(bytes, {
      onProgress: (e) => {
        parsed = Math.max(parsed, e.pagesParsed);
      },
    });
    expect(parsed).toBe(500);
    expect(tree.pageCount).toBe(500);
    const chapters = tree.nodes.filter((n) => n.level === 1);
    expect(chapters).toHaveLength(20);
    expect(chapters[19]).toMatchObject({ title: "Chapter 20", startPage: 476, endPage: 500 });
    // Footers (page numbers) are running furniture, not text or headings.
    expect(chapters[0]?.text).not.toMatch(/^\d+$/m);
  });
});
