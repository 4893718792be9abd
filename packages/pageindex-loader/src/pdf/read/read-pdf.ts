import { throwIfAborted } from "pageindex-core";
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { PdfCorruptError } from "../errors.js";
import type { OutlineEntry, ParsedPage } from "../types.js";
import { openPdf } from "./document.js";
import { readOutline } from "./outline.js";
import { FontBook, finishPage, learnFonts, type PageText, readPageText } from "./pages.js";

/** What a PDF's document information dictionary (or XMP metadata) says, trimmed; empty fields left out. */
export interface PdfInfo {
  title?: string;
  subject?: string;
  keywords?: string;
  author?: string;
}

/** A PDF read page by page: every page's lines and text, and the outline. */
export interface ParsedPdf {
  pageCount: number;
  pages: ParsedPage[];
  outline: OutlineEntry[];
  /** Printed page labels ("iii", "12", "A-1") by physical page, when the PDF defines them. */
  pageLabels: string[] | null;
  /** Document info title, when set. */
  infoTitle?: string;
  /** Document info (title, subject, keywords, author), falling back to XMP `dc:` fields. */
  info: PdfInfo;
  /** Pages that could not be read (their text is empty). */
  unreadablePages: number[];
}

/** Options for {@link readPdf}. */
export interface ReadPdfOptions {
  source: string;
  password?: string;
  signal?: AbortSignal;
  /**
   * Whether to read the outline (default true). A build whose structure is forced to the
   * layout or the model never looks at it, and resolving every bookmark's destination costs a
   * few per cent of reading a long manual.
   */
  outline?: boolean;
  /** Called after each page. */
  onPage?: (pagesParsed: number, pageCount: number) => void;
}

/** A metadata value as one line: XMP lists (several creators) are joined. */
const text = (value: unknown): string | undefined => {
  const joined = Array.isArray(value) ? value.filter((v) => typeof v === "string").join(", ") : value;
  const trimmed = typeof joined === "string" ? joined.replace(/\s+/g, " ").trim() : "";
  return trimmed || undefined;
};

/** The info dictionary's fields, else XMP's Dublin Core ones; a damaged dictionary gives none. */
async function readInfo(doc: PDFDocumentProxy): Promise<PdfInfo> {
  try {
    const meta = await doc.getMetadata();
    const dict = (meta.info ?? {}) as Record<string, unknown>;
    const xmp = meta.metadata as { get(name: string): unknown } | null;
    const fields: Array<[keyof PdfInfo, string, string]> = [
      ["title", "Title", "dc:title"],
      ["subject", "Subject", "dc:description"],
      ["keywords", "Keywords", "pdf:keywords"],
      ["author", "Author", "dc:creator"],
    ];
    const info: PdfInfo = {};
    for (const [field, key, xmpKey] of fields) {
      const value = text(dict[key]) ?? text(xmp?.get(xmpKey));
      if (value !== undefined) info[field] = value;
    }
    return info;
  } catch {
    return {};
  }
}

/**
 * Reads a PDF one page at a time (each page's pdf.js resources are released before the next),
 * so memory holds the extracted text and line facts, never all pages' drawing data. Two passes:
 * every page's text first, then, once a few light pages' operator lists have named the fonts
 * (see {@link learnFonts}), each page's styled lines.
 */
export async function readPdf(data: Uint8Array, options: ReadPdfOptions): Promise<ParsedPdf> {
  const doc = await openPdf(data, options);
  try {
    const pageCount = doc.numPages;
    const outline = options.outline === false ? [] : await readOutline(doc);
    let pageLabels: string[] | null = null;
    try {
      pageLabels = await doc.getPageLabels();
    } catch {
      pageLabels = null;
    }
    const info = await readInfo(doc);
    const infoTitle = info.title;
    const texts: Array<PageText | undefined> = [];
    const unreadablePages: number[] = [];
    let firstError: unknown;
    for (let n = 1; n <= pageCount; n++) {
      throwIfAborted(options.signal);
      try {
        texts.push(await readPageText(doc, n));
      } catch (error) {
        firstError ??= error;
        unreadablePages.push(n);
        texts.push(undefined);
      }
      options.onPage?.(n, pageCount);
    }
    if (unreadablePages.length === pageCount) {
      const detail = (firstError as Error | undefined)?.message ?? "no page could be read";
      throw new PdfCorruptError(options.source, detail, { cause: firstError });
    }
    const fonts = new FontBook();
    const repaired = await learnFonts(doc, texts, fonts, options.signal);
    const pages: ParsedPage[] = [];
    for (const [i, text] of texts.entries()) {
      throwIfAborted(options.signal);
      pages.push(
        text
          ? await finishPage(doc, text, fonts, repaired.get(i))
          : { pageNumber: i + 1, text: "", tokenCount: 0, lines: [], top: 792, height: 792 },
      );
      // Free each page's items as it is done: lines are all the later steps read.
      texts[i] = undefined;
    }
    return {
      pageCount,
      pages,
      outline,
      pageLabels,
      ...(infoTitle !== undefined ? { infoTitle } : {}),
      info,
      unreadablePages,
    };
  } finally {
    await doc.destroy();
  }
}
