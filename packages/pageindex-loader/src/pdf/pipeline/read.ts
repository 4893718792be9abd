import { PdfNoTextError } from "../errors.js";
import { tocScanPages } from "../options.js";
import { type ParsedPdf, readPdf } from "../read/read-pdf.js";
import { type LayoutContext, layoutContext } from "../structure/layout.js";
import type { ParsedPage, PdfPage } from "../types.js";
import type { PdfRun } from "./run.js";

/** The layout facts of the pages, read on first use (an outline tree needs them only for its running heads). */
export class LayoutFacts {
  private context: LayoutContext | undefined;

  constructor(
    private readonly pdf: ParsedPdf,
    private readonly scanPages: number,
  ) {}

  get(): LayoutContext {
    this.context ??= layoutContext(this.pdf.pages, {
      tocScanPages: this.scanPages,
      pageLabels: this.pdf.pageLabels,
    });
    return this.context;
  }

  /** The facts when some step has read them. */
  get ifRead(): LayoutContext | undefined {
    return this.context;
  }
}

/** The document as read: its pages, the pages without text, and its layout facts on demand. */
export interface ReadDocument {
  pdf: ParsedPdf;
  pages: readonly ParsedPage[];
  /** Pages that were read but carry no text (scans, blank pages). */
  textless: number[];
  layout: LayoutFacts;
}

/** Pages as the LLM path reads them: number, text and token count. */
export const plainPages = (pages: readonly ParsedPage[]): PdfPage[] =>
  pages.map((p) => ({ pageNumber: p.pageNumber, text: p.text, tokenCount: p.tokenCount }));

/** Page numbers as short ranges: "1-3, 7". */
export function pageRanges(pages: number[]): string {
  const out: string[] = [];
  for (let i = 0; i < pages.length; i++) {
    const start = pages[i] as number;
    let end = start;
    while (pages[i + 1] === end + 1) end = pages[++i] as number;
    out.push(start === end ? `${start}` : `${start}-${end}`);
  }
  return out.join(", ");
}

/**
 * Step 1: parses the PDF's pages, reporting each; warns about pages that could not be read or
 * carry no text.
 * @throws {PdfNoTextError} when no page has text; and the reader's errors for unusable files.
 */
export async function readDocument(run: PdfRun, bytes: Uint8Array): Promise<ReadDocument> {
  const { options, progress, warnings } = run;
  const pdf = await readPdf(bytes, {
    source: run.label,
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    // Only the outline path (tried in "auto" or forced) reads bookmarks.
    outline: options.structure !== "layout" && options.structure !== "llm",
    onPage: (n, total) => {
      progress.pagesParsed = n;
      progress.pageCount = total;
      progress.report("parse");
    },
  });
  progress.pageCount = pdf.pageCount;
  const pages = pdf.pages;
  const empty = pages.filter((p) => p.text.trim() === "").map((p) => p.pageNumber);
  if (empty.length === pages.length) throw new PdfNoTextError(run.label, pages.length);
  if (pdf.unreadablePages.length > 0) {
    warnings.push(`page(s) ${pageRanges(pdf.unreadablePages)} could not be read; their text is missing`);
  }
  const textless = empty.filter((p) => !pdf.unreadablePages.includes(p));
  if (textless.length > 0) {
    warnings.push(
      `page(s) ${pageRanges(textless)} have no text layer (scanned images or blank); their content is not indexed`,
    );
  }
  return { pdf, pages, textless, layout: new LayoutFacts(pdf, tocScanPages(options)) };
}
