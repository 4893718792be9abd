import { PageIndexError } from "pageindex-core";

/** What went wrong with a PDF. */
export type PdfErrorReason =
  | "not-pdf"
  | "corrupt"
  | "encrypted"
  | "wrong-password"
  | "no-pages"
  | "no-text"
  | "structure";

/** Base class of the PDF loader's errors; `source` names the file, `reason` the problem. */
export class PdfLoadError extends PageIndexError {
  readonly source: string;
  readonly reason: PdfErrorReason;

  constructor(source: string, reason: PdfErrorReason, detail: string, options?: { cause?: unknown }) {
    super(`${source}: ${detail}`, options);
    this.source = source;
    this.reason = reason;
  }
}

/** The input does not start with a PDF header (`%PDF-`). */
export class NotAPdfError extends PdfLoadError {
  constructor(source: string) {
    super(source, "not-pdf", "not a PDF file (no %PDF- header in the first 1024 bytes)");
  }
}

/** The file is a PDF but cannot be read: truncated, damaged cross-reference table, bad objects. */
export class PdfCorruptError extends PdfLoadError {
  constructor(source: string, detail: string, options?: { cause?: unknown }) {
    super(source, "corrupt", `damaged or truncated PDF (${detail})`, options);
  }
}

/** The PDF is encrypted and no password, or a wrong one, was given. */
export class PdfPasswordError extends PdfLoadError {
  constructor(source: string, wrongPassword: boolean, options?: { cause?: unknown }) {
    super(
      source,
      wrongPassword ? "wrong-password" : "encrypted",
      wrongPassword
        ? "the password given does not open this encrypted PDF"
        : "the PDF is encrypted; pass its password with the `password` option",
      options,
    );
  }
}

/** The PDF has no pages. */
export class PdfEmptyError extends PdfLoadError {
  constructor(source: string) {
    super(source, "no-pages", "the PDF has no pages");
  }
}

/** No page has a text layer (e.g. a scanned document); run OCR first. */
export class PdfNoTextError extends PdfLoadError {
  readonly pageCount: number;
  constructor(source: string, pageCount: number) {
    super(
      source,
      "no-text",
      `none of its ${pageCount} page(s) has extractable text (scanned images?); run OCR first`,
    );
    this.pageCount = pageCount;
  }
}

/** A forced structure path (`structure: "outline"` / `"layout"` / `"llm"`) found no usable structure. */
export class PdfStructureError extends PdfLoadError {
  constructor(source: string, detail: string) {
    super(source, "structure", detail);
  }
}
