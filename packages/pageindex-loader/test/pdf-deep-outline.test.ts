import { type PDFDict, PDFDocument, PDFName, type PDFRef, PDFString, StandardFonts } from "pdf-lib";
import { describe, expect, it } from "vitest";
import { PdfTreeLoader } from "../src/index.js";

/**
 * A PDF whose outline is one chain `depth` bookmarks deep, written object by object (the
 * fixture builder recurses and would overflow itself).
 */
async function deepOutlinePdf(depth: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < 2; p += 1) {
    doc
      .addPage([612, 792])
      .drawText(`Page ${p + 1} has some body text about pumps.`, { x: 72, y: 700, size: 12, font });
  }
  const ctx = doc.context;
  const pageRef = doc.getPage(0).ref;
  const rootRef = ctx.nextRef();
  const refs: PDFRef[] = Array.from({ length: depth }, () => ctx.nextRef());
  refs.forEach((ref, i) => {
    const item = ctx.obj({
      Title: PDFString.of(`Level ${i + 1}`),
      Parent: i === 0 ? rootRef : (refs[i - 1] as PDFRef),
      Dest: [pageRef, PDFName.of("Fit")],
    }) as PDFDict;
    const child = refs[i + 1];
    if (child) {
      item.set(PDFName.of("First"), child);
      item.set(PDFName.of("Last"), child);
      item.set(PDFName.of("Count"), ctx.obj(depth - i - 1));
    }
    ctx.assign(ref, item);
  });
  ctx.assign(rootRef, ctx.obj({ Type: "Outlines", First: refs[0], Last: refs[0], Count: depth }));
  doc.catalog.set(PDFName.of("Outlines"), rootRef);
  return doc.save({ useObjectStreams: false });
}

describe("a PDF whose outline is thousands of levels deep", () => {
  it("settles with a page-range tree instead of hanging on pdf.js's overflow (no unhandled rejection)", async () => {
    const rejections: unknown[] = [];
    const onRejection = (reason: unknown) => rejections.push(reason);
    process.on("unhandledRejection", onRejection);
    try {
      const tree = await new PdfTreeLoader(await deepOutlinePdf(2500), { docName: "deep.pdf" }).loadTree();
      expect(tree.build.structure).toBe("flat");
      expect(tree.nodes.length).toBeGreaterThan(0);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(rejections).toEqual([]);
    } finally {
      process.off("unhandledRejection", onRejection);
    }
  });
});
