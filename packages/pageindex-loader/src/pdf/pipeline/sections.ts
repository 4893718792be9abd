import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { splitLargeNodeWithLlm } from "../llm/index.js";
import { splitBudget } from "../options.js";
import { bodyFurniture, locateEntries, orderPositions, TextSlicer } from "../structure/sections.js";
import { type LlmSplitter, type SplitReport, splitLargeSections } from "../structure/split.js";
import { type Furniture, findRunningHeads, textFurniture, withEdgeBands } from "../text/running-heads.js";
import type { ParsedPage } from "../types.js";
import { plainPages } from "./read.js";
import { llmOptions, type PdfRun } from "./run.js";
import { draftsToEntries, STRUCTURE_STEPS, type Structured } from "./structure.js";

/** The sections placed on their lines. */
export interface Placed extends Structured {
  /** The layout's running heads and page numbers (none for a page-range tree). */
  furniture: Furniture;
  /** Those plus the edge bands: lines never taken for a section's heading. */
  edgeFurniture: Furniture;
  /** Running heads by page arithmetic and recurrence (the layout context's, read once). */
  runningHeads: Furniture;
}

/**
 * Step 3: finds each section's heading line on its page, running heads skipped, and moves a
 * section pointing before the previous one to it.
 */
export async function placeSections(run: PdfRun, doc: Structured): Promise<Placed> {
  const flat = doc.structure === "flat";
  const layout = flat ? undefined : doc.layout.get();
  const furniture: Furniture = layout?.furniture ?? new Map();
  const runningHeads = layout?.runningHeads ?? findRunningHeads(doc.pages);
  // Running heads that name the current topic vary too fast for the layout's furniture: found
  // by where they stand, they are neither headings nor anyone's text.
  const edgeFurniture = flat ? furniture : withEdgeBands(doc.pages, furniture);
  locateEntries(doc.entries, doc.pages, edgeFurniture);
  const moved = orderPositions(doc.entries);
  if (moved > 0)
    run.warnings.push(`${moved} section(s) pointed before the previous one and were moved to it`);
  await run.progress.stepDone("structure", STRUCTURE_STEPS, STRUCTURE_STEPS);
  return { ...doc, furniture, edgeFurniture, runningHeads };
}

/** The sections with their texts cut, and how large ones were split. */
export interface Sliced extends Placed {
  slicer: TextSlicer;
  split: SplitReport | undefined;
}

/**
 * Step 4: cuts the page text into section texts. Node text leaves out running heads (read-time
 * detection plus the edge bands), but never a section's own heading line.
 */
export function cutTexts(doc: Placed): Sliced {
  const slicer = new TextSlicer(
    doc.pages,
    bodyFurniture(textFurniture(doc.pages, doc.runningHeads, doc.edgeFurniture), doc.entries),
  );
  return { ...doc, slicer, split: undefined };
}

/** Splits a large section with the model; nothing placed lets the split fall back to page ranges (counted as such). */
function modelSplitter(run: PdfRun, model: BaseChatModel, pages: readonly ParsedPage[]): LlmSplitter {
  return async (range, sectionTitle) => {
    const r = await splitLargeNodeWithLlm(plainPages(range), {
      ...llmOptions(run, model, "split"),
      nodeTitle: sectionTitle,
    });
    run.warnings.push(...r.warnings.map((w) => `llm split: ${w}`));
    return r.placed > 0 ? draftsToEntries(r.drafts, pages) : [];
  };
}

/**
 * Step 5: splits sections over the split budget (by layout headings, then the model, then page
 * ranges), unless splitting is off or the tree is page ranges already.
 */
export async function splitSections(run: PdfRun, doc: Sliced): Promise<Sliced> {
  if (run.options.split === false || doc.structure === "flat") return doc;
  await run.progress.stepDone("split", 0, 1);
  const model = run.options.model;
  const split = await splitLargeSections(
    doc.entries,
    doc.layout.get(),
    doc.slicer,
    splitBudget(run.options),
    model ? modelSplitter(run, model, doc.pages) : undefined,
    (done, total) => run.progress.stepDone("split", done, total),
  );
  return { ...doc, split };
}
