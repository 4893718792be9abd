import type { TreeDocument } from "pageindex-core";
import type { LoadedSource, SourceInput } from "./common/source.js";
import { sourceInfo, TreeLoader } from "./common/tree-loader.js";
import { type MarkdownTreeLoaderOptions, markdownFromSource } from "./markdown/loader.js";
import { type PdfTreeLoaderOptions, pdfToTree } from "./pdf/loader.js";
import { hasPdfHeader } from "./pdf/read/document.js";

/** Options of {@link PageIndexLoader}: each format's options, plus what they share. */
export interface PageIndexLoaderOptions {
  /** Options used when the input is a PDF. */
  pdf?: PdfTreeLoaderOptions;
  /** Options used when the input is Markdown or text. */
  markdown?: MarkdownTreeLoaderOptions;
}

/** Which loader handles an input: `%PDF-` magic (or a `.pdf` name) means PDF, anything else Markdown/text. */
export function detectFormat(bytes: Uint8Array, name?: string): "pdf" | "markdown" {
  return hasPdfHeader(bytes) || (name !== undefined && /\.pdf$/i.test(name)) ? "pdf" : "markdown";
}

/**
 * Loads any supported document into a PageIndex tree, choosing the PDF or the Markdown
 * loader by content (the `%PDF-` header), so a mislabelled file still goes to the right
 * loader. A file named `.pdf` without a PDF header is handed to the PDF loader, which
 * reports it as not a PDF rather than indexing binary noise as text.
 */
export class PageIndexLoader extends TreeLoader {
  readonly options: PageIndexLoaderOptions;

  constructor(input: SourceInput, options: PageIndexLoaderOptions = {}) {
    super(input);
    this.options = options;
  }

  /** Builds the tree with the loader that matches the content. */
  protected treeFrom(loaded: LoadedSource): Promise<TreeDocument> {
    return detectFormat(loaded.bytes, loaded.name) === "pdf"
      ? pdfToTree(loaded.bytes, this.options.pdf ?? {}, sourceInfo(loaded))
      : markdownFromSource(loaded, this.options.markdown ?? {});
  }
}
