import { BaseDocumentLoader } from "@langchain/core/document_loaders/base";
import type { Document } from "@langchain/core/documents";
import { type NodeDocumentMetadata, type TreeDocument, treeToDocuments } from "pageindex-store";
import { decodeText, readSource, type SourceInput, sha256Hex } from "./common/source.js";
import { type MarkdownTreeLoaderOptions, markdownToTree } from "./markdown/loader.js";
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
export class PageIndexLoader extends BaseDocumentLoader {
  readonly input: SourceInput;
  readonly options: PageIndexLoaderOptions;

  constructor(input: SourceInput, options: PageIndexLoaderOptions = {}) {
    super();
    this.input = input;
    this.options = options;
  }

  /** Reads the input and builds its tree with the matching loader. */
  async loadTree(): Promise<TreeDocument> {
    const loaded = await readSource(this.input);
    const name = loaded.name;
    if (detectFormat(loaded.bytes, name) === "pdf") {
      return pdfToTree(loaded.bytes, this.options.pdf ?? {}, {
        label: loaded.label,
        ...(name !== undefined ? { name } : {}),
        ...(loaded.path !== undefined ? { path: loaded.path } : {}),
      });
    }
    const text = loaded.text ?? decodeText(loaded.bytes, loaded.label);
    return markdownToTree(text, this.options.markdown ?? {}, {
      label: loaded.label,
      contentHash: sha256Hex(loaded.bytes),
      ...(name !== undefined ? { name } : {}),
      ...(loaded.path !== undefined ? { path: loaded.path } : {}),
    });
  }

  /** One Document per node, in document order. */
  async load(): Promise<Document<NodeDocumentMetadata>[]> {
    return treeToDocuments(await this.loadTree());
  }
}
