import { throwIfAborted } from "pageindex-core";
import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { PdfCorruptError } from "../errors.js";
import type { OutlineEntry, ParsedPage } from "../types.js";
import { openPdf } from "./document.js";
import { coverFonts } from "./font-cover.js";
import { readOutline } from "./outline.js";
import { assemblePage, FontBook, type PageText, readPageText } from "./pages.js";

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
 * Pages read together: their fonts are learnt from as few of their operator lists as cover them
 * all ({@link coverFonts}); more pages cover better and hold more text items in memory at once
 * (on the dev-set manuals 32 pages came within a few percent of the whole document).
 */
const FONT_WINDOW = 32;

/**
 * Reads a PDF one page at a time (each page's pdf.js resources are released before the next),
 * so memory holds the extracted text and line facts of the pages, and the text items of at most
 * {@link FONT_WINDOW} pages, never all pages' drawing data.
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
    const info = await readInfo(doc);
    const infoTitle = info.title;
    const fonts = new FontBook();
    const pages: ParsedPage[] = [];
    const unreadablePages: number[] = [];
    let firstError: unknown;
    const unreadable = (n: number, error: unknown): ParsedPage => {
      firstError ??= error;
      unreadablePages.push(n);
      return { pageNumber: n, text: "", tokenCount: 0, lines: [], top: 792, height: 792 };
    };
    for (let from = 1; from <= pageCount; from += FONT_WINDOW) {
      const to = Math.min(pageCount, from + FONT_WINDOW - 1);
      const texts = new Map<number, PageText>();
      for (let n = from; n <= to; n++) {
        throwIfAborted(options.signal);
        try {
          texts.set(n, await readPageText(doc, n));
        } catch (error) {
          unreadable(n, error);
        }
        options.onPage?.(n, pageCount);
      }
      const window = [...texts.values()];
      const wanted = new Set(window.flatMap((t) => t.fontIds.filter((id) => !fonts.knows([id]))));
      const byPage = new Map<number, ParsedPage>();
      for (const n of coverFonts(
        window.map((t) => ({ pageNumber: t.pageNumber, fontIds: t.fontIds, cost: t.items.length })),
        wanted,
      )) {
        throwIfAborted(options.signal);
        const text = texts.get(n) as PageText;
        try {
          const page = await doc.getPage(n);
          try {
            await fonts.learn(page, text.fontIds);
            // Its operator list is at hand: a repair on this page reads it again for free.
            byPage.set(n, await assemblePage(doc, text, fonts, page));
          } finally {
            page.cleanup();
          }
        } catch (error) {
          byPage.set(n, unreadable(n, error));
        }
      }
      for (let n = from; n <= to; n++) {
        const text = texts.get(n);
        let page = byPage.get(n);
        if (!page && text) {
          try {
            page = await assemblePage(doc, text, fonts);
          } catch (error) {
            page = unreadable(n, error);
          }
        }
        pages.push(page ?? { pageNumber: n, text: "", tokenCount: 0, lines: [], top: 792, height: 792 });
      }
    }
    unreadablePages.sort((a, b) => a - b);
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
      info,
      unreadablePages,
    };
  } finally {
    await doc.destroy();
  }
}
