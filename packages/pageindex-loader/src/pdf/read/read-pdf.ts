import { throwIfAborted } from "pageindex-store";
import { PdfCorruptError } from "../errors.js";
import type { OutlineEntry, ParsedPage } from "../types.js";
import { openPdf } from "./document.js";
import { readOutline } from "./outline.js";
import { FontBook, readPage } from "./pages.js";

/** A PDF read page by page: every page's lines and text, and the outline. */
export interface ParsedPdf {
  pageCount: number;
  pages: ParsedPage[];
  outline: OutlineEntry[];
  /** Printed page labels ("iii", "12", "A-1") by physical page, when the PDF defines them. */
  pageLabels: string[] | null;
  /** Document info title, when set. */
  infoTitle?: string;
  /** Pages that could not be read (their text is empty). */
  unreadablePages: number[];
}

/** Options for {@link readPdf}. */
export interface ReadPdfOptions {
  source: string;
  password?: string;
  signal?: AbortSignal;
  /** Called after each page. */
  onPage?: (pagesParsed: number, pageCount: number) => void;
}

/**
 * Reads a PDF one page at a time (each page's pdf.js resources are released before the next),
 * so memory holds the extracted text and line facts, never all pages' drawing data.
 */
export async function readPdf(data: Uint8Array, options: ReadPdfOptions): Promise<ParsedPdf> {
  const doc = await openPdf(data, options);
  try {
    const pageCount = doc.numPages;
    const outline = await readOutline(doc);
    let pageLabels: string[] | null = null;
    try {
      pageLabels = await doc.getPageLabels();
    } catch {
      pageLabels = null;
    }
    let infoTitle: string | undefined;
    try {
      const meta = await doc.getMetadata();
      const title = (meta.info as { Title?: unknown } | undefined)?.Title;
      if (typeof title === "string" && title.trim()) infoTitle = title.trim();
    } catch {
      infoTitle = undefined;
    }
    const fonts = new FontBook();
    const pages: ParsedPage[] = [];
    const unreadablePages: number[] = [];
    let firstError: unknown;
    for (let n = 1; n <= pageCount; n++) {
      throwIfAborted(options.signal);
      try {
        pages.push(await readPage(doc, n, fonts));
      } catch (error) {
        firstError ??= error;
        unreadablePages.push(n);
        pages.push({ pageNumber: n, text: "", tokenCount: 0, lines: [], top: 792, height: 792 });
      }
      options.onPage?.(n, pageCount);
    }
    if (unreadablePages.length === pageCount) {
      const detail = (firstError as Error | undefined)?.message ?? "no page could be read";
      throw new PdfCorruptError(options.source, detail, { cause: firstError });
    }
    return {
      pageCount,
      pages,
      outline,
      pageLabels,
      ...(infoTitle !== undefined ? { infoTitle } : {}),
      unreadablePages,
    };
  } finally {
    await doc.destroy();
  }
}
