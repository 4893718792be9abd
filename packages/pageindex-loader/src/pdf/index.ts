/**
 * PDF → tree: reading (pdf.js), structure paths (outline, layout, LLM, page ranges) and the loader.
 * @packageDocumentation
 */
export * from "./errors.js";
export * from "./loader.js";
export type { ParsedPdf, PdfInfo, ReadPdfOptions } from "./read/read-pdf.js";
export { readPdf } from "./read/read-pdf.js";
export { layoutContext, layoutStructure } from "./structure/layout.js";
export { outlineStructure } from "./structure/outline.js";
export {
  cleanTitle,
  compactTitle,
  normalizeTitle,
  stripNumbering,
  titleSimilarity,
} from "./structure/titles.js";
export * from "./types.js";
