import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import {
  assertSafeId,
  type BuildInfo,
  createTree,
  meaningfulPageLabels,
  type NodeDraft,
  type StructureSource,
  type TreeDocument,
  throwIfAborted,
  toDocId,
  UsageTracker,
} from "pageindex-core";
import type { DocumentFacts } from "../common/describe.js";
import { enrichTree, type TreeLoaderOptions } from "../common/enrich.js";
import { InvalidInputError } from "../common/errors.js";
import { type LoadedSource, type ReadSourceOptions, type SourceInput, sha256Hex } from "../common/source.js";
import { checkSummaryOptions } from "../common/summarize.js";
import { readOptionsOf, sourceInfo, TreeLoader } from "../common/tree-loader.js";
import { pdfFacts } from "./describe-facts.js";
import { PdfNoTextError, PdfStructureError } from "./errors.js";
import { buildStructureWithLlm, type LlmStructureOptions, splitLargeNodeWithLlm } from "./llm/index.js";
import { type ParsedPdf, readPdf } from "./read/read-pdf.js";
import { describeConfidence, LOW_CONFIDENCE } from "./structure/confidence.js";
import { withEdgeBands } from "./structure/edge-bands.js";
import { pageRangeEntries } from "./structure/flat.js";
import { type LayoutContext, layoutContext, layoutStructure } from "./structure/layout.js";
import { outlineStructure } from "./structure/outline.js";
import {
  bodyFurniture,
  entriesToDrafts,
  locateEntries,
  orderPositions,
  TextSlicer,
} from "./structure/sections.js";
import { type SplitReport, splitLargeSections } from "./structure/split.js";
import { judgeLayout } from "./structure/sufficiency.js";
import { textFurniture } from "./text/running-heads.js";
import type { ParsedPage, PdfPage, PdfProgressEvent, SectionEntry } from "./types.js";

/**
 * Which structure path to use. `auto` tries, cheapest first: the embedded outline, the page
 * layout, the LLM pipeline (only when a model is given), and finally page ranges.
 */
export type PdfStructureMode = "auto" | "outline" | "layout" | "llm";

/** Options of {@link PdfTreeLoader} and {@link pdfToTree}. */
export interface PdfTreeLoaderOptions extends TreeLoaderOptions {
  /** Structure path. Default `"auto"`. */
  structure?: PdfStructureMode;
  /** Password of an encrypted PDF. */
  password?: string;
  /** First pages searched for a printed table of contents (layout and LLM paths). Default 20. */
  tocScanPages?: number;
  /**
   * Split sections whose own text is over BOTH budgets (default more than 10 pages and more
   * than 20,000 tokens): by layout headings, then the model, then page ranges. `false` turns it off.
   */
  split?: { maxPages?: number; maxTokens?: number } | false;
  /** Add a "Preface" node for text before the first section. Default true. */
  preface?: boolean;
  /** Progress: pages parsed, phase, model calls so far. */
  onProgress?: (event: PdfProgressEvent) => void;
}

/** What one structure attempt gave, recorded in `tree.metadata.pdf.attempts`. */
export interface StructureAttempt {
  path: "outline" | "layout" | "llm" | "flat";
  used: boolean;
  detail: string;
}

/** Structure steps reported: started, layout facts read, headings nested, sections located. */
const STRUCTURE_STEPS = 3;
const DEFAULT_SPLIT = { maxPages: 10, maxTokens: 20_000 };
const MODES: readonly PdfStructureMode[] = ["auto", "outline", "layout", "llm"];

function checkOptions(options: PdfTreeLoaderOptions): void {
  const where = options.docName ?? "(options)";
  if (options.structure !== undefined && !MODES.includes(options.structure)) {
    throw new InvalidInputError(
      where,
      `structure must be one of ${MODES.join(", ")}, got "${options.structure}"`,
    );
  }
  if (options.structure === "llm" && !options.model) {
    throw new InvalidInputError(where, 'structure: "llm" needs a chat model (the model option)');
  }
  checkSummaryOptions(
    {
      mode: options.summaries ?? "extractive",
      ...(options.model ? { model: options.model } : {}),
      ...(options.summaryThreshold !== undefined ? { threshold: options.summaryThreshold } : {}),
      ...(options.summaryChars !== undefined ? { maxChars: options.summaryChars } : {}),
      ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    },
    where,
  );
  const split = options.split;
  if (split) {
    for (const key of ["maxPages", "maxTokens"] as const) {
      const v = split[key];
      if (v !== undefined && !(Number.isFinite(v) && v >= 1)) {
        throw new InvalidInputError(where, `split.${key} must be a positive number, got ${v}`);
      }
    }
  }
  if (
    options.tocScanPages !== undefined &&
    !(Number.isInteger(options.tocScanPages) && options.tocScanPages >= 0)
  ) {
    throw new InvalidInputError(
      where,
      `tocScanPages must be a non-negative integer, got ${options.tocScanPages}`,
    );
  }
  if (options.docId !== undefined) assertSafeId(options.docId);
}

function ranges(pages: number[]): string {
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
 * LLM drafts (nested, with `startPage`) to entries; drafts with an invalid page are dropped
 * (children kept). Each is found on its page by its title (`locateEntries`, running heads
 * skipped); one the model says starts at the top of its page and that cannot be found starts
 * at the page's first line after its running head.
 */
function draftsToEntries(drafts: NodeDraft[], pages: readonly ParsedPage[]): SectionEntry[] {
  return drafts.flatMap((d): SectionEntry[] => {
    const children = draftsToEntries(d.children ?? [], pages);
    const page = d.startPage;
    const title = d.title?.trim();
    if (!title || page === undefined || !Number.isInteger(page) || page < 1 || page > pages.length)
      return children;
    return [{ title, page, children }];
  });
}

const plainPages = (pages: readonly ParsedPage[]): PdfPage[] =>
  pages.map((p) => ({ pageNumber: p.pageNumber, text: p.text, tokenCount: p.tokenCount }));

interface Chosen {
  entries: SectionEntry[];
  structure: StructureSource;
}

/** What {@link pdfToTree} needs to know about the input besides its bytes. */
export interface PdfSourceInfo {
  name?: string;
  path?: string;
  /** What to call the input in errors. */
  label?: string;
}

/**
 * Builds a tree from PDF bytes (the loader's work after reading the file).
 * @throws {NotAPdfError} | {PdfCorruptError} | {PdfPasswordError} | {PdfEmptyError} | {PdfNoTextError}
 *   for unusable input; {PdfStructureError} when a forced outline or layout path finds nothing
 *   (a forced LLM path whose model fails still yields a page-range tree, with warnings).
 */
/** The layout path's title page stands in when the metadata and the page's own look gave no title. */
function withTitlePage(facts: DocumentFacts, titlePage: string | undefined): DocumentFacts {
  return facts.title === undefined && titlePage ? { ...facts, title: titlePage } : facts;
}

export async function pdfToTree(
  bytes: Uint8Array,
  options: PdfTreeLoaderOptions = {},
  info: PdfSourceInfo = {},
): Promise<TreeDocument> {
  checkOptions(options);
  const contentHash = sha256Hex(bytes);
  const label = info.label ?? info.path ?? options.docName ?? info.name ?? "(in-memory PDF)";
  const usage = new UsageTracker();
  const warnings: string[] = [];
  let pageCount = 0;
  let pagesParsed = 0;
  const progress = (phase: PdfProgressEvent["phase"], step?: number, steps?: number) =>
    options.onProgress?.({
      phase,
      pagesParsed,
      pageCount,
      llmCalls: usage.total.calls,
      ...(step !== undefined && steps !== undefined ? { step, steps } : {}),
    });
  // The structure work is synchronous: between its steps the event loop gets a turn, so a
  // timer-drawn progress bar shows the new phase instead of freezing on the last parsed page.
  const stepDone = async (phase: PdfProgressEvent["phase"], step: number, steps: number) => {
    progress(phase, step, steps);
    await new Promise<void>((resolve) => setImmediate(resolve));
  };

  const pdf: ParsedPdf = await readPdf(bytes, {
    source: label,
    ...(options.password !== undefined ? { password: options.password } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    onPage: (n, total) => {
      pagesParsed = n;
      pageCount = total;
      progress("parse");
    },
  });
  pageCount = pdf.pageCount;
  const pages = pdf.pages;
  const empty = pages.filter((p) => p.text.trim() === "").map((p) => p.pageNumber);
  if (empty.length === pages.length) throw new PdfNoTextError(label, pages.length);
  if (pdf.unreadablePages.length > 0) {
    warnings.push(`page(s) ${ranges(pdf.unreadablePages)} could not be read; their text is missing`);
  }
  const textless = empty.filter((p) => !pdf.unreadablePages.includes(p));
  if (textless.length > 0) {
    warnings.push(
      `page(s) ${ranges(textless)} have no text layer (scanned images or blank); their content is not indexed`,
    );
  }

  const mode = options.structure ?? "auto";
  const attempts: StructureAttempt[] = [];
  let ctx: LayoutContext | undefined;
  const layout = () => {
    ctx ??= layoutContext(pages, { tocScanPages: options.tocScanPages ?? 20, pageLabels: pdf.pageLabels });
    return ctx;
  };
  // Model calls are reported under the phase that makes them (structure, or splitting large nodes).
  const llmOptions = (model: BaseChatModel, phase: "structure" | "split"): LlmStructureOptions => ({
    model,
    usage,
    tocScanPages: options.tocScanPages ?? 20,
    onProgress: () => progress(phase),
    ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.retries !== undefined ? { retries: options.retries } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });

  await stepDone("structure", 0, STRUCTURE_STEPS);
  /** The title on the layout's title page: the document's title, never a section. */
  let titlePage: string | undefined;
  let layoutConfidenceRecord: Record<string, unknown> | undefined;
  const choose = async (): Promise<Chosen> => {
    if (mode === "auto" || mode === "outline") {
      const outline = outlineStructure(pdf.outline);
      if (outline.usable) {
        attempts.push({
          path: "outline",
          used: true,
          detail: `${outline.total - outline.dropped} bookmarks`,
        });
        if (outline.dropped > 0)
          warnings.push(`${outline.dropped} bookmark(s) without a usable destination were dropped`);
        return { entries: outline.entries, structure: "outline" };
      }
      attempts.push({ path: "outline", used: false, detail: outline.reason ?? "not usable" });
      if (mode === "outline")
        throw new PdfStructureError(label, `outline structure not usable: ${outline.reason}`);
    }
    if (mode === "auto" || mode === "layout") {
      layout();
      await stepDone("structure", 1, STRUCTURE_STEPS);
      const result = layoutStructure(layout());
      titlePage = result.title;
      await stepDone("structure", 2, STRUCTURE_STEPS);
      const toc = result.toc
        ? `; printed TOC on page(s) ${ranges(result.toc.pages)}, ${result.toc.located}/${result.toc.entries} entries placed${result.toc.offset !== undefined ? `, page offset ${result.toc.offset}` : ""}`
        : "";
      // With a model at hand, sparse headings are not worth skipping it for; without one, any
      // two headings beat page ranges.
      const withModel = mode === "auto" && options.model !== undefined;
      const doubtful = result.confidence.score < LOW_CONFIDENCE;
      let verdict =
        withModel && result.headingCount >= 2
          ? judgeLayout(result.entries, pages.length)
          : { ok: result.headingCount >= 2 };
      // A low-confidence tree is handed to the model when there is one; otherwise it is kept, with a warning.
      if (verdict.ok && withModel && doubtful) {
        verdict = { ok: false, shortfall: `low confidence ${describeConfidence(result.confidence)}` };
      }
      layoutConfidenceRecord = {
        ...result.confidence,
        ...(doubtful ? { warning: describeConfidence(result.confidence) } : {}),
      };
      if (verdict.ok) {
        attempts.push({ path: "layout", used: true, detail: `${result.headingCount} headings${toc}` });
        if (doubtful) {
          warnings.push(
            `the layout tree has low confidence ${describeConfidence(result.confidence)}; check it, or index with a model`,
          );
        }
        return { entries: result.entries, structure: "layout" };
      }
      const reason = verdict.shortfall
        ? `found ${result.headingCount} heading(s), too sparse to skip the model: ${verdict.shortfall}${toc}`
        : `found ${result.headingCount} heading(s)${toc}`;
      attempts.push({ path: "layout", used: false, detail: reason });
      if (mode === "layout") throw new PdfStructureError(label, `layout structure not usable: ${reason}`);
    }
    if ((mode === "auto" || mode === "llm") && options.model) {
      const result = await buildStructureWithLlm(plainPages(pages), llmOptions(options.model, "structure"));
      warnings.push(...result.warnings.map((w) => `llm: ${w}`));
      const entries = draftsToEntries(result.drafts, pages);
      // When the model placed nothing, its drafts are page ranges only: not an LLM structure.
      if (result.placed > 0 && entries.length > 0) {
        const detail = `mode ${result.mode}, ${result.placed} sections placed${result.complete ? "" : ", page ranges for the rest"}`;
        attempts.push({ path: "llm", used: true, detail });
        return { entries, structure: "llm" };
      }
      // Never an exception here, even when "llm" was forced: the page-range tree below keeps the
      // document usable, and the warnings say why the model gave nothing.
      attempts.push({ path: "llm", used: false, detail: `mode ${result.mode}, the model placed no section` });
    }
    const budget = { ...DEFAULT_SPLIT, ...(options.split || {}) };
    const entries = pageRangeEntries(pages, 1, pages.length, {
      maxPages: Math.min(budget.maxPages, 5),
      maxTokens: Math.min(budget.maxTokens, 5_000),
    });
    attempts.push({ path: "flat", used: true, detail: `${entries.length} page-range nodes` });
    warnings.push("no document structure found; the tree is made of page ranges");
    return { entries, structure: "flat" };
  };
  const chosen = await choose();
  throwIfAborted(options.signal);

  const furniture = chosen.structure === "flat" ? new Map() : layout().furniture;
  // Running heads that name the current topic vary too fast for the layout's furniture: found
  // by where they stand, they are neither headings nor anyone's text.
  const skipped = chosen.structure === "flat" ? furniture : withEdgeBands(pages, furniture);
  locateEntries(chosen.entries, pages, skipped);
  const moved = orderPositions(chosen.entries);
  if (moved > 0) warnings.push(`${moved} section(s) pointed before the previous one and were moved to it`);
  await stepDone("structure", STRUCTURE_STEPS, STRUCTURE_STEPS);

  // Node text leaves out running heads (read-time detection plus the edge bands found above),
  // but never a section's own heading line.
  const slicer = new TextSlicer(pages, bodyFurniture(textFurniture(pages, skipped), chosen.entries));
  let split: SplitReport | undefined;
  if (options.split !== false && chosen.structure !== "flat") {
    await stepDone("split", 0, 1);
    const budget = { ...DEFAULT_SPLIT, ...(options.split || {}) };
    const model = options.model;
    split = await splitLargeSections(
      chosen.entries,
      layout(),
      slicer,
      budget,
      model
        ? async (range, sectionTitle) => {
            const r = await splitLargeNodeWithLlm(plainPages(range), {
              ...llmOptions(model, "split"),
              nodeTitle: sectionTitle,
            });
            warnings.push(...r.warnings.map((w) => `llm split: ${w}`));
            // Nothing placed: let the split fall back to plain page ranges (counted as such).
            return r.placed > 0 ? draftsToEntries(r.drafts, pages) : [];
          }
        : undefined,
      (done, total) => stepDone("split", done, total),
    );
  }

  const name = options.docName ?? info.name ?? pdf.infoTitle ?? `pdf-${contentHash.slice(0, 12)}`;
  const docId = options.docId ?? toDocId(name);
  const summaries = options.summaries ?? "extractive";
  const build: BuildInfo = {
    loader: "pdf",
    structure: chosen.structure,
    options: {
      structure: mode,
      split: options.split === false ? false : { ...DEFAULT_SPLIT, ...(options.split || {}) },
      preface: options.preface ?? true,
      summaries,
      description: options.description ?? false,
      tocScanPages: options.tocScanPages ?? 20,
    },
  };
  const pdfMeta: Record<string, unknown> = { attempts };
  if (ctx?.toc) {
    pdfMeta.printedToc = {
      pages: ctx.toc.pages,
      entries: ctx.toc.entries.length,
      placed: ctx.toc.headings.length,
      ...(ctx.toc.offset !== undefined ? { offset: ctx.toc.offset } : {}),
    };
  }
  if (split) pdfMeta.split = split;
  if (textless.length > 0) pdfMeta.pagesWithoutText = textless;
  if (pdf.infoTitle) pdfMeta.title = pdf.infoTitle;
  if (titlePage) pdfMeta.titlePage = titlePage;
  if (layoutConfidenceRecord) pdfMeta.layoutConfidence = layoutConfidenceRecord;

  const source = options.source ?? info.path;
  const tree = createTree(
    {
      docId,
      docName: name,
      kind: "pdf",
      build,
      pageCount: pages.length,
      contentHash,
      metadata: { pdf: pdfMeta },
      ...(source !== undefined ? { source } : {}),
    },
    entriesToDrafts(chosen.entries, slicer, { preface: options.preface ?? true }),
  );
  const pageLabels = meaningfulPageLabels(pdf.pageLabels);
  if (pageLabels?.length === tree.pageCount) tree.pageLabels = pageLabels;

  await enrichTree(tree, options, {
    mode: summaries,
    markup: "plain",
    usage,
    warnings,
    ...(titlePage || pdf.infoTitle ? { title: titlePage ?? pdf.infoTitle } : {}),
    facts: withTitlePage(pdfFacts({ info: pdf.info, pages, furniture, tree }), titlePage),
    onPhase: progress,
  });
  progress("done");
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
