/**
 * Every page of every library document, for the "plain BM25 over all pages" baseline: a PDF's
 * physical pages (text as the loader reads it), a Markdown file's 40-line windows. Cached as
 * JSON beside the trees.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readPdf } from "../../packages/pageindex-loader/src/pdf/read/read-pdf.js";
import { DEBIAN_CACHE, debianFileBytes } from "../debian-docs.js";
import type { LibraryFile } from "./library.js";

/** One page: pages `from`-`to` are equal for a PDF; lines `from`-`to` for Markdown. */
export interface LibraryPage {
  docId: string;
  from: number;
  to: number;
  text: string;
}

/** Lines per Markdown "page". */
export const MARKDOWN_PAGE_LINES = 40;

const PAGES = join(DEBIAN_CACHE, "library-pages");

/** The document's pages, read once and cached; undefined when its package or file is missing. */
export async function libraryPages(file: LibraryFile): Promise<LibraryPage[] | undefined> {
  const cached = join(PAGES, `${file.docId}.json`);
  if (existsSync(cached)) return JSON.parse(readFileSync(cached, "utf8")) as LibraryPage[];
  const bytes = debianFileBytes(file);
  if (!bytes) return undefined;
  let pages: LibraryPage[];
  if (file.kind === "pdf") {
    const pdf = await readPdf(bytes.slice(), { source: file.docName });
    pages = pdf.pages.map((p) => ({ docId: file.docId, from: p.pageNumber, to: p.pageNumber, text: p.text }));
  } else {
    const lines = new TextDecoder().decode(bytes).split("\n");
    pages = [];
    for (let i = 0; i < lines.length; i += MARKDOWN_PAGE_LINES) {
      const to = Math.min(lines.length, i + MARKDOWN_PAGE_LINES);
      pages.push({ docId: file.docId, from: i + 1, to, text: lines.slice(i, to).join("\n") });
    }
  }
  mkdirSync(PAGES, { recursive: true });
  writeFileSync(`${cached}.tmp`, JSON.stringify(pages));
  renameSync(`${cached}.tmp`, cached);
  return pages;
}
