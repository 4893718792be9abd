import { type BuildInfo, createTree, meaningfulPageLabels, type TreeDocument, toDocId } from "pageindex-core";
import type { DocumentFacts } from "../../common/describe.js";
import { enrichTree } from "../../common/enrich.js";
import { pdfFacts } from "../describe-facts.js";
import { splitBudget, tocScanPages } from "../options.js";
import { entriesToDrafts } from "../structure/sections.js";
import type { PdfRun } from "./run.js";
import type { Sliced } from "./sections.js";

/** How the tree was built: the options that shaped it (with their defaults) and the path used. */
function buildInfo(run: PdfRun, doc: Sliced): BuildInfo {
  const { options } = run;
  return {
    loader: "pdf",
    structure: doc.structure,
    options: {
      structure: options.structure ?? "auto",
      split: options.split === false ? false : splitBudget(options),
      preface: options.preface ?? true,
      summaries: options.summaries ?? "extractive",
      description: options.description ?? false,
      tocScanPages: tocScanPages(options),
    },
  };
}

/** `tree.metadata.pdf`: the paths tried, the printed TOC, splits, pages without text, titles, layout confidence. */
function pdfMetadata(doc: Sliced): Record<string, unknown> {
  const meta: Record<string, unknown> = { attempts: doc.attempts };
  const toc = doc.layout.ifRead?.toc;
  if (toc) {
    meta.printedToc = {
      pages: toc.pages,
      entries: toc.entries.length,
      placed: toc.headings.length,
      ...(toc.offset !== undefined ? { offset: toc.offset } : {}),
    };
  }
  if (doc.split) meta.split = doc.split;
  if (doc.textless.length > 0) meta.pagesWithoutText = doc.textless;
  if (doc.pdf.infoTitle) meta.title = doc.pdf.infoTitle;
  if (doc.titlePage) meta.titlePage = doc.titlePage;
  if (doc.layoutConfidence) meta.layoutConfidence = doc.layoutConfidence;
  return meta;
}

/**
 * Step 6: the tree: node ids, page ranges (union semantics), texts and token counts, a "Preface"
 * node for text before the first section (unless turned off), and the PDF's page labels when
 * they say more than the page numbers.
 */
export function assembleTree(run: PdfRun, doc: Sliced): TreeDocument {
  const { options, info } = run;
  const name = options.docName ?? info.name ?? doc.pdf.infoTitle ?? `pdf-${run.contentHash.slice(0, 12)}`;
  const source = options.source ?? info.path;
  const tree = createTree(
    {
      docId: options.docId ?? toDocId(name),
      docName: name,
      kind: "pdf",
      build: buildInfo(run, doc),
      pageCount: doc.pages.length,
      contentHash: run.contentHash,
      metadata: { pdf: pdfMetadata(doc) },
      ...(source !== undefined ? { source } : {}),
    },
    entriesToDrafts(doc.entries, doc.slicer, { preface: options.preface ?? true }),
  );
  const pageLabels = meaningfulPageLabels(doc.pdf.pageLabels);
  if (pageLabels?.length === tree.pageCount) tree.pageLabels = pageLabels;
  return tree;
}

/** The layout path's title page stands in when the metadata and the page's own look gave no title. */
function withTitlePage(facts: DocumentFacts, titlePage: string | undefined): DocumentFacts {
  return facts.title === undefined && titlePage ? { ...facts, title: titlePage } : facts;
}

/**
 * Step 7: summaries (extractive, or by the model) and the document's description, on the tree
 * in place; the run's warnings end up on the tree here.
 */
export async function summarizeAndDescribe(run: PdfRun, doc: Sliced, tree: TreeDocument): Promise<void> {
  const { pdf, titlePage } = doc;
  await enrichTree(tree, run.options, {
    mode: run.options.summaries ?? "extractive",
    markup: "plain",
    usage: run.usage,
    warnings: run.warnings,
    ...(titlePage || pdf.infoTitle ? { title: titlePage ?? pdf.infoTitle } : {}),
    facts: withTitlePage(
      pdfFacts({ info: pdf.info, pages: doc.pages, furniture: doc.furniture, tree }),
      titlePage,
    ),
    onPhase: (phase) => run.progress.report(phase),
  });
}
