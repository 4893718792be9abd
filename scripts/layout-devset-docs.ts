/**
 * The split dev set's PDFs as the layout evaluations read them (issue 26): each PDF with a usable
 * outline, its reference entries (layout-devset-score.ts, moved to the pages that print their
 * titles: reference-pages.ts) and its layout context, in SPLIT_DEVSET order, optionally one half
 * or the PDFs whose label holds a string. Shared by eval-devset-layout.ts,
 * diagnose-devset-layout.ts and fit-level-evidence.ts.
 */
import { basename } from "node:path";
import type { ParsedPdf } from "../packages/pageindex-loader/src/pdf/read/read-pdf.js";
import { type LayoutContext, layoutContext } from "../packages/pageindex-loader/src/pdf/structure/layout.js";
import { outlineStructure } from "../packages/pageindex-loader/src/pdf/structure/outline.js";
import type { SectionEntry } from "../packages/pageindex-loader/src/pdf/types.js";
import { SPLIT_DEVSET, type SplitDoc, TRAIN_EXTRA } from "./devset-split.js";
import { referenceEntries } from "./layout-devset-score.js";
import { parsedPdf } from "./parsed-pdf-cache.js";
import { noReference, onPrintedPages, printedFurniture } from "./reference-pages.js";
import type { Entry } from "./structure-match.js";

/** One dev-set PDF ready for the layout path. */
export interface LayoutDevDoc {
  doc: SplitDoc;
  /** `package/file.pdf`, as the reports print it. */
  label: string;
  pdf: ParsedPdf;
  /** The outline's tree (the whole of it, every level). */
  outline: SectionEntry[];
  /** The outline's top two levels, each on the page that prints its title. */
  reference: Entry[];
  /** Reference entries moved off their bookmark's page (0 with `outlinePages`). */
  moved: number;
  ctx: LayoutContext;
  /** One of TRAIN_EXTRA: a fitting row, not in the train half's mean. */
  extra: boolean;
}

/** Which PDFs to read. */
export interface LayoutDevsetOptions {
  cache: string;
  half?: string | undefined;
  only?: string | undefined;
  /** Keep the bookmarks' own pages (the reference before reference-pages.ts). */
  outlinePages?: boolean | undefined;
  /** Also the extra train-package PDFs (TRAIN_EXTRA), after the split set, with `extra` set. */
  extra?: boolean | undefined;
  /**
   * Read no printed contents (the layout context's contents scan set to 0 pages): the layout as a
   * document without a contents page, or one whose contents the reader misses, gets it.
   */
  noContents?: boolean | undefined;
}

/**
 * The dev set's PDFs with a usable outline (a PDF whose package is not fetched is skipped, and
 * one whose bookmark titles are mostly printed nowhere: `onSkip` hears why).
 */
export async function* layoutDevsetDocs(
  options: LayoutDevsetOptions,
  onSkip: (label: string, why: string) => void = () => {},
): AsyncGenerator<LayoutDevDoc> {
  const extra = new Set<SplitDoc>(options.extra ? TRAIN_EXTRA : []);
  for (const doc of [...SPLIT_DEVSET, ...extra]) {
    if (options.half && doc.half !== options.half) continue;
    const label = `${doc.pkg}/${basename(doc.path).replace(/\.gz$/, "")}`;
    if (options.only && !label.includes(options.only)) continue;
    const pdf = await parsedPdf(doc, options.cache);
    if (!pdf) continue;
    const outline = outlineStructure(pdf.outline);
    if (!outline.usable) continue;
    const ctx = layoutContext(pdf.pages, {
      pageLabels: pdf.pageLabels,
      ...(options.noContents ? { tocScanPages: 0 } : {}),
    });
    const bookmarked = referenceEntries(outline.entries);
    const printed = options.outlinePages
      ? { entries: bookmarked, moved: 0, unprinted: 0 }
      : onPrintedPages(bookmarked, pdf.pages, printedFurniture(pdf.pages, ctx.runningHeads, ctx.furniture));
    if (noReference(printed)) {
      onSkip(label, `${printed.unprinted} of ${bookmarked.length} bookmark titles printed nowhere`);
      continue;
    }
    yield {
      doc,
      label,
      pdf,
      outline: outline.entries,
      reference: printed.entries,
      moved: printed.moved,
      ctx,
      extra: extra.has(doc),
    };
  }
}

/** Every node of a tree with its depth (1 = top), in document order. */
export function allLevels(list: readonly SectionEntry[], level = 1, out: Entry[] = []): Entry[] {
  for (const e of list) {
    out.push({ title: e.title, page: e.page, level });
    allLevels(e.children, level + 1, out);
  }
  return out;
}
