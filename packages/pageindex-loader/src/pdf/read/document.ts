import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { NotAPdfError, PdfCorruptError, PdfEmptyError, PdfLoadError, PdfPasswordError } from "../errors.js";

type PdfJs = typeof import("pdfjs-dist/legacy/build/pdf.mjs");

let pdfjsPromise: Promise<PdfJs> | undefined;

/** Loads pdf.js on first use (its legacy build runs on Node 20; in Node it parses in-process). */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjsPromise ??= import("pdfjs-dist/legacy/build/pdf.mjs");
  return pdfjsPromise;
}

/** True when the bytes carry a PDF header; the spec lets junk precede it within 1024 bytes. */
export function hasPdfHeader(data: Uint8Array): boolean {
  const head = Buffer.from(data.buffer, data.byteOffset, Math.min(data.byteLength, 1024)).toString("latin1");
  return head.includes("%PDF-");
}

/** Options for {@link openPdf}. */
export interface OpenPdfOptions {
  /** Name used in error messages. */
  source: string;
  password?: string;
}

/** Maps pdf.js's exceptions to our typed errors naming the file. */
export function toPdfError(error: unknown, source: string, password: string | undefined): PdfLoadError {
  if (error instanceof PdfLoadError) return error;
  const e = error as { name?: string; message?: string; code?: number };
  const message = e?.message ?? String(error);
  if (e?.name === "PasswordException") {
    // pdf.js: code 1 = password needed, 2 = incorrect password.
    return new PdfPasswordError(source, e.code === 2 || password !== undefined, { cause: error });
  }
  return new PdfCorruptError(source, message, { cause: error });
}

/**
 * Opens a PDF with pdf.js. The bytes are copied, because pdf.js may take ownership of the
 * buffer it is given.
 * @throws {NotAPdfError} no PDF header.
 * @throws {PdfPasswordError} encrypted and no (or a wrong) password.
 * @throws {PdfCorruptError} pdf.js cannot read the file (truncated, damaged).
 * @throws {PdfEmptyError} zero pages.
 */
export async function openPdf(data: Uint8Array, options: OpenPdfOptions): Promise<PDFDocumentProxy> {
  if (!hasPdfHeader(data)) throw new NotAPdfError(options.source);
  const pdfjs = await loadPdfJs();
  const task = pdfjs.getDocument({
    data: new Uint8Array(data),
    ...(options.password !== undefined ? { password: options.password } : {}),
    verbosity: pdfjs.VerbosityLevel.ERRORS,
    isEvalSupported: false,
    disableFontFace: true,
    useSystemFonts: false,
    // Hands each font's program and code maps to this side, so glyphs a partial ToUnicode map
    // loses ("fi", em dash) can be named from the font itself (see pdf/text/ligatures.ts).
    fontExtraProperties: true,
    // Images are never read (only text and fonts are), so the operator lists that name fonts
    // skip decoding them: pdf.js drops every image above this many pixels from an operator list.
    maxImageSize: 0,
    stopAtErrors: false,
  });
  let doc: PDFDocumentProxy;
  try {
    doc = await task.promise;
  } catch (error) {
    await task.destroy().catch(() => undefined);
    throw toPdfError(error, options.source, options.password);
  }
  if (doc.numPages === 0) {
    await doc.destroy();
    throw new PdfEmptyError(options.source);
  }
  return doc;
}
