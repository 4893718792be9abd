import { type TreeDocument, throwIfAborted } from "pageindex-core";
import type { LoadedSource, ReadSourceOptions, SourceInput } from "../common/source.js";
import { readOptionsOf, sourceInfo, TreeLoader } from "../common/tree-loader.js";
import { checkOptions, type PdfSourceInfo, type PdfTreeLoaderOptions } from "./options.js";
import { readDocument } from "./pipeline/read.js";
import { startRun } from "./pipeline/run.js";
import { cutTexts, placeSections, splitSections } from "./pipeline/sections.js";
import { chooseStructure } from "./pipeline/structure.js";
import { assembleTree, summarizeAndDescribe } from "./pipeline/tree.js";

export type { PdfSourceInfo, PdfStructureMode, PdfTreeLoaderOptions } from "./options.js";
export type { StructureAttempt } from "./pipeline/structure.js";

/**
 * Builds a tree from PDF bytes (the loader's work after reading the file), in named steps that
 * each take the document as the step before left it:
 *
 * 1. {@link readDocument}: parse the pages; warn about unreadable and textless ones;
 * 2. {@link chooseStructure}: sections from the outline, else the layout, else the model, else
 *    page ranges;
 * 3. {@link placeSections}: each section's heading line on its page, running heads skipped;
 * 4. {@link cutTexts}: each section's own text, without running heads;
 * 5. {@link splitSections}: sections over the split budget split;
 * 6. {@link assembleTree}: the tree (ids, page ranges, texts, token counts, preface);
 * 7. {@link summarizeAndDescribe}: summaries and description.
 *
 * @throws {NotAPdfError} | {PdfCorruptError} | {PdfPasswordError} | {PdfEmptyError} | {PdfNoTextError}
 *   for unusable input; {PdfStructureError} when a forced outline or layout path finds nothing
 *   (a forced LLM path whose model fails still yields a page-range tree, with warnings).
 */
export async function pdfToTree(
  bytes: Uint8Array,
  options: PdfTreeLoaderOptions = {},
  info: PdfSourceInfo = {},
): Promise<TreeDocument> {
  checkOptions(options);
  const run = startRun(bytes, options, info);
  const read = await readDocument(run, bytes);
  const structured = await chooseStructure(run, read);
  throwIfAborted(options.signal);
  const placed = await placeSections(run, structured);
  const sliced = await splitSections(run, cutTexts(placed));
  const tree = assembleTree(run, sliced);
  await summarizeAndDescribe(run, sliced, tree);
  run.progress.report("done");
  return tree;
}

/**
 * A LangChain document loader that turns a PDF into a PageIndex tree. Structure comes from,
 * cheapest first, the PDF's outline (bookmarks), the page layout (heading size and weight,
 * numbering, a printed table of contents), the LLM pipeline when a model is given, or page
 * ranges. Nodes carry page ranges (union semantics), their own text cut at the heading line,
 * token counts and summaries.
 *
 * `load()` returns one `Document` per node; `loadTree()` returns the tree, ready for a tree store.
 *
 * @example
 * ```ts
 * const tree = await new PdfTreeLoader("reports/10-K.pdf").loadTree();
 * console.log(tree.build.structure); // "outline" | "layout" | "llm" | "flat"
 * ```
 */
export class PdfTreeLoader extends TreeLoader {
  readonly options: PdfTreeLoaderOptions;

  /**
   * @param input a file path (a bare string is always a path), `file:` URL, `Blob`/`File`, or bytes.
   * @throws {InvalidInputError} at once for inconsistent options.
   */
  constructor(input: SourceInput, options: PdfTreeLoaderOptions = {}) {
    super(input);
    checkOptions(options);
    this.options = options;
  }

  protected override readOptions(): ReadSourceOptions {
    return readOptionsOf(this.options);
  }

  /** See {@link pdfToTree} for the errors. */
  protected treeFrom(loaded: LoadedSource): Promise<TreeDocument> {
    return pdfToTree(loaded.bytes, this.options, sourceInfo(loaded));
  }
}
