/**
 * pageindex-loader: PDF and Markdown documents to PageIndex section trees, as LangChain
 * document loaders.
 * @packageDocumentation
 */

export { PageIndexLoader, type PageIndexLoaderOptions } from "./auto-loader.js";
export { type DescribeOptions, type DescriptionResult, describeDocument } from "./common/describe.js";
export type { TreeLoaderOptions } from "./common/enrich.js";
export * from "./common/errors.js";
export {
  type LoadedSource,
  type ReadSourceOptions,
  readSource,
  type SourceInput,
  type TextInput,
} from "./common/source.js";
export type { SummaryMode } from "./common/summarize.js";
export { type SourceInfo, TreeLoader } from "./common/tree-loader.js";
export {
  type MarkdownSourceInfo,
  MarkdownTreeLoader,
  type MarkdownTreeLoaderOptions,
  markdownToTree,
} from "./markdown/loader.js";
export * from "./pdf/errors.js";
export {
  type PdfSourceInfo,
  type PdfStructureMode,
  PdfTreeLoader,
  type PdfTreeLoaderOptions,
  pdfToTree,
  type StructureAttempt,
} from "./pdf/loader.js";
export type { PdfProgressEvent } from "./pdf/types.js";
