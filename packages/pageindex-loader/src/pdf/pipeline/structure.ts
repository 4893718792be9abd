import type { NodeDraft, StructureSource } from "pageindex-core";
import { PdfStructureError } from "../errors.js";
import { buildStructureWithLlm } from "../llm/index.js";
import { type PdfStructureMode, splitBudget } from "../options.js";
import { describeConfidence, LOW_CONFIDENCE } from "../structure/confidence.js";
import { pageRangeEntries } from "../structure/flat.js";
import { layoutStructure } from "../structure/layout.js";
import { outlineStructure } from "../structure/outline.js";
import { judgeLayout } from "../structure/sufficiency.js";
import type { ParsedPage, SectionEntry } from "../types.js";
import { pageRanges, plainPages, type ReadDocument } from "./read.js";
import { llmOptions, type PdfRun } from "./run.js";

/** What one structure attempt gave, recorded in `tree.metadata.pdf.attempts`. */
export interface StructureAttempt {
  path: "outline" | "layout" | "llm" | "flat";
  used: boolean;
  detail: string;
}

/** Structure steps reported: started, layout facts read, headings nested, sections located. */
export const STRUCTURE_STEPS = 3;

/** The document with its sections chosen (not yet placed on their lines). */
export interface Structured extends ReadDocument {
  entries: SectionEntry[];
  structure: StructureSource;
  /** Every path tried, in order, the used one last. */
  attempts: StructureAttempt[];
  /** The title on the layout's title page: the document's title, never a section. */
  titlePage: string | undefined;
  /** The layout path's confidence, when it ran. */
  layoutConfidence: Record<string, unknown> | undefined;
}

/** What the layout path learns about the document, whether its tree is used or not. */
type LayoutLearnt = Pick<Structured, "titlePage" | "layoutConfidence">;

/** One path's attempt and, when it is used, its sections. */
interface PathOutcome {
  attempt: StructureAttempt;
  entries?: SectionEntry[];
}

/**
 * Path 1, the embedded outline (bookmarks): zero model calls.
 * @throws {PdfStructureError} when the outline path is forced and not usable.
 */
function fromOutline(run: PdfRun, doc: ReadDocument, mode: PdfStructureMode): PathOutcome {
  const outline = outlineStructure(doc.pdf.outline);
  if (outline.usable) {
    if (outline.dropped > 0)
      run.warnings.push(`${outline.dropped} bookmark(s) without a usable destination were dropped`);
    return {
      attempt: { path: "outline", used: true, detail: `${outline.total - outline.dropped} bookmarks` },
      entries: outline.entries,
    };
  }
  if (mode === "outline")
    throw new PdfStructureError(run.label, `outline structure not usable: ${outline.reason}`);
  return { attempt: { path: "outline", used: false, detail: outline.reason ?? "not usable" } };
}

/** The layout path's outcome, with what it learnt about the document whether used or not. */
type LayoutOutcome = PathOutcome & LayoutLearnt;

/**
 * Path 2, the page layout (heading size and weight, numbering, a printed TOC): zero model calls.
 * With a model at hand, sparse or low-confidence headings are not worth skipping it for; without
 * one, any two headings beat page ranges (a low-confidence tree is kept, with a warning).
 * @throws {PdfStructureError} when the layout path is forced and finds fewer than two headings.
 */
async function fromLayout(run: PdfRun, doc: ReadDocument, mode: PdfStructureMode): Promise<LayoutOutcome> {
  doc.layout.get();
  await run.progress.stepDone("structure", 1, STRUCTURE_STEPS);
  const result = layoutStructure(doc.layout.get());
  await run.progress.stepDone("structure", 2, STRUCTURE_STEPS);
  const toc = result.toc
    ? `; printed TOC on page(s) ${pageRanges(result.toc.pages)}, ${result.toc.located}/${result.toc.entries} entries placed${result.toc.offset !== undefined ? `, page offset ${result.toc.offset}` : ""}`
    : "";
  const withModel = mode === "auto" && run.options.model !== undefined;
  const doubtful = result.confidence.score < LOW_CONFIDENCE;
  let verdict =
    withModel && result.headingCount >= 2
      ? judgeLayout(result.entries, doc.pages.length)
      : { ok: result.headingCount >= 2 };
  if (verdict.ok && withModel && doubtful) {
    verdict = { ok: false, shortfall: `low confidence ${describeConfidence(result.confidence)}` };
  }
  const learnt = {
    titlePage: result.title,
    layoutConfidence: {
      ...result.confidence,
      ...(doubtful ? { warning: describeConfidence(result.confidence) } : {}),
    },
  };
  if (verdict.ok) {
    if (doubtful) {
      run.warnings.push(
        `the layout tree has low confidence ${describeConfidence(result.confidence)}; check it, or index with a model`,
      );
    }
    return {
      ...learnt,
      attempt: { path: "layout", used: true, detail: `${result.headingCount} headings${toc}` },
      entries: result.entries,
    };
  }
  const reason = verdict.shortfall
    ? `found ${result.headingCount} heading(s), too sparse to skip the model: ${verdict.shortfall}${toc}`
    : `found ${result.headingCount} heading(s)${toc}`;
  if (mode === "layout") throw new PdfStructureError(run.label, `layout structure not usable: ${reason}`);
  return { ...learnt, attempt: { path: "layout", used: false, detail: reason } };
}

/**
 * LLM drafts (nested, with `startPage`) to entries; drafts with an invalid page are dropped
 * (children kept). Each is found on its page by its title later (`locateEntries`, running heads
 * skipped); one the model says starts at the top of its page and that cannot be found starts
 * at the page's first line after its running head.
 */
export function draftsToEntries(drafts: NodeDraft[], pages: readonly ParsedPage[]): SectionEntry[] {
  return drafts.flatMap((d): SectionEntry[] => {
    const children = draftsToEntries(d.children ?? [], pages);
    const page = d.startPage;
    const title = d.title?.trim();
    if (!title || page === undefined || !Number.isInteger(page) || page < 1 || page > pages.length)
      return children;
    return [{ title, page, children }];
  });
}

/**
 * Path 3, the LLM pipeline (PageIndex's method). Never an exception, even when "llm" is forced:
 * when the model places nothing, the page-range tree keeps the document usable, and the warnings
 * say why the model gave nothing.
 */
async function fromModel(run: PdfRun, doc: ReadDocument): Promise<PathOutcome | undefined> {
  const model = run.options.model;
  if (!model) return undefined;
  const result = await buildStructureWithLlm(plainPages(doc.pages), llmOptions(run, model, "structure"));
  run.warnings.push(...result.warnings.map((w) => `llm: ${w}`));
  const entries = draftsToEntries(result.drafts, doc.pages);
  // When the model placed nothing, its drafts are page ranges only: not an LLM structure.
  if (result.placed > 0 && entries.length > 0) {
    const detail = `mode ${result.mode}, ${result.placed} sections placed${result.complete ? "" : ", page ranges for the rest"}`;
    return { attempt: { path: "llm", used: true, detail }, entries };
  }
  return {
    attempt: { path: "llm", used: false, detail: `mode ${result.mode}, the model placed no section` },
  };
}

/** The last resort: page ranges of at most 5 pages and 5,000 tokens (less when the split budget is smaller). */
function fromPageRanges(run: PdfRun, doc: ReadDocument): PathOutcome & { entries: SectionEntry[] } {
  const budget = splitBudget(run.options);
  const entries = pageRangeEntries(doc.pages, 1, doc.pages.length, {
    maxPages: Math.min(budget.maxPages, 5),
    maxTokens: Math.min(budget.maxTokens, 5_000),
  });
  run.warnings.push("no document structure found; the tree is made of page ranges");
  return { attempt: { path: "flat", used: true, detail: `${entries.length} page-range nodes` }, entries };
}

/**
 * Step 2: the document's sections, from the cheapest path that gives a usable structure: the
 * outline, the layout, the model (when one is given), else page ranges. A forced mode tries only
 * its own path (and page ranges after a model that placed nothing).
 * @throws {PdfStructureError} when a forced outline or layout path finds nothing.
 */
export async function chooseStructure(run: PdfRun, doc: ReadDocument): Promise<Structured> {
  const mode = run.options.structure ?? "auto";
  const attempts: StructureAttempt[] = [];
  let learnt: LayoutLearnt = { titlePage: undefined, layoutConfidence: undefined };
  const chosen = (entries: SectionEntry[], structure: StructureSource, facts: LayoutLearnt): Structured => ({
    ...doc,
    ...facts,
    entries,
    structure,
    attempts,
  });
  await run.progress.stepDone("structure", 0, STRUCTURE_STEPS);
  if (mode === "auto" || mode === "outline") {
    const outcome = fromOutline(run, doc, mode);
    attempts.push(outcome.attempt);
    if (outcome.entries) return chosen(outcome.entries, "outline", learnt);
  }
  if (mode === "auto" || mode === "layout") {
    const { attempt, entries, ...facts } = await fromLayout(run, doc, mode);
    learnt = facts;
    attempts.push(attempt);
    if (entries) return chosen(entries, "layout", learnt);
  }
  if (mode === "auto" || mode === "llm") {
    const outcome = await fromModel(run, doc);
    if (outcome) attempts.push(outcome.attempt);
    if (outcome?.entries) return chosen(outcome.entries, "llm", learnt);
  }
  const flat = fromPageRanges(run, doc);
  attempts.push(flat.attempt);
  return chosen(flat.entries, "flat", learnt);
}
