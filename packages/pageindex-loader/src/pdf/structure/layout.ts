import { type Furniture, findFurniture, findRunningHeads, headingLabels } from "../text/running-heads.js";
import type { ParsedPage, SectionEntry } from "../types.js";
import { findHeadings, type Heading } from "./candidates.js";
import { type LayoutConfidence, layoutConfidence } from "./confidence.js";
import {
  dropPagedRunningHeads,
  foldChapterLabels,
  leadingTitle,
  markRepeatedLabels,
  takeTitlePage,
} from "./document-shape.js";
import { type HeadingContext, type HeadingModel, keepLikelyHeadings } from "./heading-evidence.js";
import { nestHeadings } from "./hierarchy.js";
import { dropIndexGroupHeads } from "./index-groups.js";
import { dropAdmonitions, dropLabels } from "./labels.js";
import { levelRelation } from "./level-evidence.js";
import { LEVEL_MODEL } from "./level-evidence-weights.js";
import { keepNumberedParents } from "./numbered-parents.js";
import { dropInitials } from "./numbering.js";
import { findContentsCopies, findPrintedToc, type PrintedToc } from "./printed-toc.js";
import { headLevels, headTitle } from "./running-titles.js";
import { ALL_RULES_ON, type RulesOff, type ShapeRule } from "./shape-rules.js";
import { type BodyStyle, bodyStyle, SIZE_STEP } from "./style.js";
import { dropTitleAgain } from "./title-again.js";
import { compactTitle, normalizeTitle, titleSimilarity } from "./titles.js";
import { findTopicLines, topicLineTree } from "./topic-lines.js";
import { findTopicPages, topicTree } from "./topic-pages.js";
import { type TreeFeatures, treeFeatures, weighEvidence } from "./tree-evidence.js";
import { undoWrappers } from "./tree-shape.js";

/** Facts about a document's layout, computed once and shared by the layout path and node splitting. */
export interface LayoutContext {
  pages: readonly ParsedPage[];
  body: BodyStyle;
  furniture: Map<number, Set<number>>;
  /** The furniture less the headings' labels set large in it ({@link headingLabels}): what heading candidates skip. */
  headingFurniture: Furniture;
  /**
   * Running heads and feet by page-number arithmetic and recurrence ({@link findRunningHeads}):
   * never headings, and what node text leaves out. Read once here for both.
   */
  runningHeads: Furniture;
  toc: PrintedToc | undefined;
  /** Pages holding a second copy of the contents further on (none of their lines are sections). */
  contentsCopies?: number[];
}

/** Options for the layout path. */
export interface LayoutOptions {
  /** How many first pages may hold a printed table of contents. Default 20. */
  tocScanPages?: number;
  /** The PDF's page labels (`/PageLabels`: "i", "ii", "1"…), one per physical page, when it has them. */
  pageLabels?: readonly string[] | null;
}

/** Result of the layout path. */
export interface LayoutResult {
  entries: SectionEntry[];
  headingCount: number;
  toc?: { pages: number[]; entries: number; located: number; offset?: number };
  /** How far the tree can be trusted (see {@link LayoutConfidence}). */
  confidence: LayoutConfidence;
  /** The evidence the confidence weighed (see {@link TreeFeatures}). */
  evidence: TreeFeatures;
  /**
   * The document's title: its title page's (those lines are not sections), or the lone top heading
   * that held every other one (tree-shape.ts).
   */
  title?: string;
}

export function layoutContext(pages: readonly ParsedPage[], options: LayoutOptions = {}): LayoutContext {
  const body = bodyStyle(pages);
  const furniture = findFurniture(pages as ParsedPage[]);
  const toc = findPrintedToc(pages, {
    scanPages: options.tocScanPages ?? 20,
    furniture,
    ...(options.pageLabels ? { pageLabels: options.pageLabels } : {}),
  });
  const after = toc ? (toc.pages[toc.pages.length - 1] as number) : 0;
  return {
    pages,
    body,
    furniture,
    headingFurniture: withoutLines(furniture, headingLabels(pages, furniture, body.size)),
    runningHeads: findRunningHeads(pages),
    toc,
    contentsCopies: findContentsCopies(pages, after, furniture),
  };
}

/** Per page, the lines of `all` less those of `minus`. */
function withoutLines(all: Furniture, minus: Furniture): Furniture {
  if (minus.size === 0) return all;
  const out = new Map<number, Set<number>>();
  for (const [page, lines] of all) {
    const drop = minus.get(page);
    const left = drop ? [...lines].filter((i) => !drop.has(i)) : [...lines];
    if (left.length > 0) out.set(page, new Set(left));
  }
  return out;
}

/**
 * The printed TOC's lines are not headings (a section may start on its last page after it), nor
 * are those of the lists of tables and figures after it, or of a copy of the contents further on.
 */
function tocSkip(ctx: LayoutContext): {
  skipPages: Set<number>;
  skipBefore?: { page: number; line: number };
} {
  const toc = ctx.toc;
  const copies = ctx.contentsCopies ?? [];
  if (!toc) return { skipPages: new Set(copies) };
  // Every page of the contents and of the lists after it, but the one where they end.
  const pages = [...toc.pages, ...(toc.listPages ?? [])].filter((p) => p !== toc.end.page);
  return {
    skipPages: new Set([...(toc.shortPages ?? []), ...pages, ...copies]),
    skipBefore: toc.end,
  };
}

/** A body heading that is most of a TOC title on its page: a piece of that title's display. */
function partOf(body: string, toc: string): boolean {
  const b = compactTitle(body);
  const t = compactTitle(toc);
  return b.length >= 8 && b.length >= t.length * 0.4 && t.includes(b);
}

/** The title of a contents page itself, as a TOC entry. */
const CONTENTS_ENTRY = /^(?:short contents|contents|table of contents|summary contents)$/i;

/**
 * A line opening with a shell prompt or a sigil ("$ gcc -g …", "&optional error", "#include") is
 * code set in a heading's look, never a section's title.
 */
const PROMPT_OR_SIGIL = /^[$&%#>@]/;

const byPosition = (a: Heading, b: Heading): number => a.page - b.page || a.line - b.line;

/**
 * A head or foot carrying the page's number ("8 Chapter 1. Introduction") changes its words per
 * chapter, so the layout's furniture misses it; the page arithmetic of {@link findRunningHeads}
 * does not. Chapters of a page each ("11 Graphical User Interface" atop page 120, "12 …" atop
 * 121) number themselves in step with the pages too: one set above the body size, or numbered by
 * a keyword ("PART I", "PART II"), is a heading, as heads and feet are set at the body's size or
 * smaller and carry the page's number beside their words.
 */
const pageNumbered = (ctx: LayoutContext, h: Heading): boolean =>
  h.numbering?.kind !== "keyword" &&
  h.style.size < ctx.body.size + SIZE_STEP &&
  ctx.runningHeads.get(h.page)?.has(h.line) === true;

/** The layout path's heading candidates in document order, before the heading model weighs them. */
export interface LayoutCandidates {
  headings: Heading[];
  /** Every strong candidate, before any rule set one aside (what a manual of topic pages reads). */
  strong: Heading[];
  /** The title on the document's title page, when it has one. */
  title?: string;
}

/**
 * Heading candidates from page content (size, weight, numbering), anchored on the printed table
 * of contents when one was found and placed, with labels, admonitions and running heads set aside.
 * `off` switches shape rules off (shape-rules.ts) for their measurement.
 */
export function layoutCandidates(ctx: LayoutContext, off: RulesOff = ALL_RULES_ON): LayoutCandidates {
  const on = (rule: ShapeRule) => !off.has(rule);
  // A contents page's own title ("Short Contents" over Texinfo's chapters), whether the contents
  // reader took it as an entry or missed its page, is no section: kept, it would hold the document.
  const contentsEntry = (h: Heading) => on("contentsEntry") && CONTENTS_ENTRY.test(normalizeTitle(h.title));
  const strong = findHeadings(ctx.pages, {
    body: ctx.body,
    furniture: ctx.headingFurniture,
    ...tocSkip(ctx),
  }).filter((h) => h.strength === "strong");
  const kept = strong.filter(
    (h) =>
      !(on("promptLines") && PROMPT_OR_SIGIL.test(h.title.trim())) &&
      !(on("pagedRunningHeads") && pageNumbered(ctx, h)) &&
      !contentsEntry(h),
  );
  const found = on("initials") ? dropInitials(kept) : kept;
  const tocHeadings =
    ctx.toc && ctx.toc.headings.length >= 2 ? ctx.toc.headings.filter((h) => !contentsEntry(h)) : [];
  let all: Heading[] = found;
  if (tocHeadings.length > 0) {
    // A body heading the TOC already placed (same page, same title or its wrapped second line) is dropped.
    const taken = new Map<number, Heading[]>();
    for (const t of tocHeadings) {
      const list = taken.get(t.page) ?? [];
      list.push(t);
      taken.set(t.page, list);
    }
    const rest = found.filter(
      (h) =>
        !(taken.get(h.page) ?? []).some(
          (t) =>
            h.line === t.line ||
            (h.line > t.line &&
              h.line <= t.line + 2 &&
              compactTitle(t.title).includes(compactTitle(h.title))) ||
            // A chapter title broken over two body lines above where the TOC placed it.
            partOf(h.title, t.title) ||
            titleSimilarity(t.title, h.title) >= 0.8,
        ),
    );
    all = [...tocHeadings, ...rest].sort(byPosition);
  }
  const step = (rule: ShapeRule, list: Heading[], apply: (l: Heading[]) => Heading[]): Heading[] =>
    on(rule) ? apply(list) : list;
  let shaped = step("labels", all, (l) => dropLabels(l, ctx));
  shaped = step("admonitions", shaped, dropAdmonitions);
  shaped = step("indexGroups", shaped, (l) => dropIndexGroupHeads(l, ctx.pages));
  shaped = step("pagedRunningHeads", shaped, dropPagedRunningHeads);
  shaped = step("chapterLabels", shaped, foldChapterLabels);
  const titlePage: { title?: string; headings: Heading[] } = on("titlePage")
    ? takeTitlePage(ctx.pages, shaped, ctx.furniture, ctx.body.size)
    : { headings: shaped };
  const untitled = step("titleAgain", titlePage.headings, (l) => dropTitleAgain(l, titlePage.title));
  const out: LayoutCandidates = {
    headings: step("repeatedLabels", untitled, markRepeatedLabels),
    strong,
  };
  if (titlePage.title) out.title = titlePage.title;
  return out;
}

/** The headings, each a running head settles carrying its level ({@link headLevels}). */
function withHeadLevels(headings: Heading[], ctx: LayoutContext): Heading[] {
  const levels = headLevels(ctx.pages, headings, ctx.body.size);
  if (levels.size === 0) return headings;
  return headings.map((h) => {
    const headLevel = levels.get(h);
    return headLevel ? { ...h, headLevel } : h;
  });
}

/** What the heading model needs to know about a document. */
export function headingContext(ctx: LayoutContext): HeadingContext {
  return { pages: ctx.pages, body: ctx.body, hasToc: (ctx.toc?.headings.length ?? 0) >= 2 };
}

/** Options for {@link layoutStructure}. */
export interface LayoutStructureOptions {
  /**
   * The per-heading model's weights and cut (default: the fitted HEADING_MODEL). The evaluation
   * scripts pass one fitted without the scored document's package (grouped cross-validation).
   */
  headingModel?: HeadingModel;
  /** Shape rules switched off (shape-rules.ts), for their measurement; none by default. */
  rulesOff?: RulesOff;
}

/**
 * The layout path: heading candidates ({@link layoutCandidates}), those the per-heading model
 * takes for headings ({@link keepLikelyHeadings}), nested into a hierarchy by the rules of
 * hierarchy.ts, or by the level model (level-evidence.ts) where its fit chose to overrule them.
 */
export function layoutStructure(ctx: LayoutContext, options: LayoutStructureOptions = {}): LayoutResult {
  const candidates = layoutCandidates(ctx, options.rulesOff);
  const hctx = headingContext(ctx);
  const kept = keepNumberedParents(
    candidates.headings,
    keepLikelyHeadings(candidates.headings, hctx, options.headingModel),
  );
  const topics = !(options.rulesOff ?? ALL_RULES_ON).has("topicPages")
    ? findTopicPages(ctx.pages, ctx.body.size)
    : [];
  // A manual of topic pages: its heads open the topics and their repeated section heads nest under them.
  // Else a manual of topics opening mid-page: lines its dictionary-style heads quote open them.
  const lines =
    topics.length === 0 && !(options.rulesOff ?? ALL_RULES_ON).has("topicLines")
      ? findTopicLines(ctx.pages, ctx.body.size, candidates.strong)
      : [];
  const topical =
    topics.length > 0
      ? topicTree(ctx.pages, topics, candidates.strong, kept)
      : lines.length > 0
        ? topicLineTree(ctx.pages, lines, candidates.strong, kept)
        : undefined;
  const named = topical
    ? undefined
    : (headTitle(ctx.pages, kept, ctx.body.size) ?? leadingTitle(kept, ctx.pages.length));
  const all = topical?.headings ?? (named ? kept.slice(1) : kept);
  const levelled = topical ? all : withHeadLevels(all, ctx);
  const shaped = undoWrappers(
    topical?.entries ??
      nestHeadings(levelled, LEVEL_MODEL.overrule < 1 ? { relation: levelRelation(levelled, hctx) } : {}),
    ctx.pages.length,
    options.rulesOff,
  );
  const entries = shaped.entries;
  const parts = layoutConfidence(entries, all, ctx.pages, ctx.body.size);
  const toc = ctx.toc
    ? {
        entries: ctx.toc.entries.length,
        located: ctx.toc.headings.length,
        titles: ctx.toc.headings.map((h) => h.title),
      }
    : undefined;
  const evidence = treeFeatures(entries, parts, toc, {
    pages: ctx.pages.length,
    // A topic tree also holds heads the candidates' rules set aside.
    candidates: Math.max(candidates.headings.length, all.length),
    kept: all.length,
  });
  const { score: likely, doubts } = weighEvidence(evidence);
  const result: LayoutResult = {
    entries,
    headingCount: all.length,
    confidence: {
      ...parts,
      score: Math.min(parts.score, likely),
      evidence: likely,
      ...(doubts.length > 0 ? { doubts } : {}),
    },
    evidence,
  };
  const title = candidates.title ?? named?.title ?? shaped.title;
  if (title) result.title = title;
  if (ctx.toc) {
    result.toc = {
      pages: ctx.toc.pages,
      entries: ctx.toc.entries.length,
      located: ctx.toc.headings.length,
      ...(ctx.toc.offset !== undefined ? { offset: ctx.toc.offset } : {}),
    };
  }
  return result;
}

/**
 * Headings inside a page range, for splitting one large section: strong and weak
 * candidates after the section's own heading, nested among themselves.
 */
export function layoutWithin(
  ctx: LayoutContext,
  from: { page: number; line: number },
  to: { page: number; line: number },
): SectionEntry[] {
  const inside = dropInitials(
    findHeadings(ctx.pages, {
      body: ctx.body,
      furniture: ctx.headingFurniture,
      ...tocSkip(ctx),
      fromPage: from.page,
      toPage: to.page,
    }).filter(
      (h) =>
        (h.page > from.page || (h.page === from.page && h.line > from.line)) &&
        (h.page < to.page || (h.page === to.page && h.line < to.line)),
    ),
  );
  const strong = inside.filter((h) => h.strength === "strong");
  return nestHeadings(dropLabels(strong.length >= 2 ? strong : inside, ctx));
}
