import { assertSafeId } from "pageindex-core";
import { checkLoaderSummaryOptions, type TreeLoaderOptions } from "../common/enrich.js";
import { InvalidInputError } from "../common/errors.js";
import type { PdfProgressEvent } from "./types.js";

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

/** What {@link pdfToTree} needs to know about the input besides its bytes. */
export interface PdfSourceInfo {
  name?: string;
  path?: string;
  /** What to call the input in errors. */
  label?: string;
}

const MODES: readonly PdfStructureMode[] = ["auto", "outline", "layout", "llm"];
const DEFAULT_SPLIT = { maxPages: 10, maxTokens: 20_000 };
const DEFAULT_TOC_SCAN_PAGES = 20;

/** The split budget with its defaults filled in (also when splitting is off: the page-range path uses it). */
export function splitBudget(options: PdfTreeLoaderOptions): { maxPages: number; maxTokens: number } {
  return { ...DEFAULT_SPLIT, ...(options.split || {}) };
}

/** How many first pages may hold a printed table of contents. */
export const tocScanPages = (options: PdfTreeLoaderOptions): number =>
  options.tocScanPages ?? DEFAULT_TOC_SCAN_PAGES;

/** @throws {InvalidInputError} for inconsistent options, before any work. */
export function checkOptions(options: PdfTreeLoaderOptions): void {
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
  checkLoaderSummaryOptions(options, where);
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
