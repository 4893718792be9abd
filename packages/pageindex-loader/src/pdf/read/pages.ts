import { throwIfAborted } from "pageindex-core";
import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { countDocumentTokens } from "../../common/token-count.js";
import { fontRepairs, glyphTokens, type PdfJsFontFacts, repairStrings } from "../text/ligatures.js";
import type { ParsedPage } from "../types.js";
import { loadPdfJs } from "./document.js";
import { fontPages } from "./font-pages.js";
import { type FontStyle, fontStyleFromName } from "./fonts.js";
import { assembleLines, type RawTextItem } from "./lines.js";

/**
 * Operator lists without annotations: text content has none either, so their fonts and glyphs
 * are never needed (and a form's appearance streams are not drawn for nothing).
 */
const PAGE_DRAWING = { annotationMode: 0 } as const; // pdf.js AnnotationMode.DISABLE

/**
 * Font names (and so weights) per pdf.js font id. pdf.js's text content only names fonts by
 * an internal id; the PostScript name reaches the main thread when a page's operator list is
 * built. Fonts are shared by the whole document, so a few pages' operator lists name them all
 * (see {@link fontPages} for which).
 */
export class FontBook {
  private readonly styles = new Map<string, FontStyle>();
  readonly names = new Map<string, string>();
  /** Per font id, the character codes whose text pdf.js gets wrong and what they read (see {@link fontRepairs}). */
  readonly repairs = new Map<string, Map<number, string>>();

  async learn(page: PDFPageProxy, fontIds: string[]): Promise<void> {
    const unknown = fontIds.filter((id) => !this.styles.has(id));
    if (unknown.length === 0) return;
    try {
      await page.getOperatorList(PAGE_DRAWING);
    } catch {
      // A page whose drawing operators cannot be read still has its text; weights stay unknown.
    }
    for (const id of unknown) {
      let name: string | undefined;
      try {
        if (page.commonObjs.has(id)) {
          const font = page.commonObjs.get(id) as (PdfJsFontFacts & { name?: string }) | null;
          name = font?.name;
          const repairs = fontRepairs(font);
          if (repairs) this.repairs.set(id, repairs);
        }
      } catch {
        name = undefined;
      }
      this.names.set(id, name ?? "");
      this.styles.set(id, fontStyleFromName(name));
    }
  }

  styleOf = (id: string): FontStyle => this.styles.get(id) ?? { bold: false, italic: false };
}

/**
 * Adds `tokenCount`, counted on first read: the outline and layout paths never need a page's
 * count (they count each node's text once), and tokenising every page up front cost about
 * 15 % of text extraction on the FinanceBench 10-Ks.
 */
export function lazyTokens(page: Omit<ParsedPage, "tokenCount">): ParsedPage {
  let tokens: number | undefined;
  return Object.defineProperty(page, "tokenCount", {
    get: () => {
      tokens ??= countDocumentTokens(page.text);
      return tokens;
    },
    enumerable: true,
  }) as ParsedPage;
}

/**
 * A page's text items packed while they wait for the second pass: strings and font ids in two
 * arrays, the numbers in one typed array. pdf.js hands over an object and a transform array per
 * item; kept for every page of a long manual until its fonts are named, they made the heap the
 * garbage collector walks several times larger. The second pass unpacks one page at a time.
 */
export interface PackedItems {
  readonly count: number;
  readonly strs: string[];
  readonly fonts: string[];
  /** Per item: the transform's numbers (six, as pdf.js gives them), width, height. */
  readonly numbers: Float64Array;
  /** Per item: how many numbers its transform has. */
  readonly transformLength: Uint8Array;
  readonly eol: Uint8Array;
}

/** Numbers kept per item (see {@link PackedItems.numbers}). */
const NUMBERS = 8;

/** Packs pdf.js text items (see {@link PackedItems}). */
export function packItems(items: readonly RawTextItem[]): PackedItems {
  const count = items.length;
  const strs = new Array<string>(count);
  const fonts = new Array<string>(count);
  const numbers = new Float64Array(count * NUMBERS);
  const transformLength = new Uint8Array(count);
  const eol = new Uint8Array(count);
  for (let i = 0; i < count; i++) {
    const item = items[i] as RawTextItem;
    const t = item.transform;
    const at = i * NUMBERS;
    transformLength[i] = Math.min(6, t.length);
    for (let k = 0; k < 6 && k < t.length; k++) numbers[at + k] = t[k] as number;
    numbers[at + 6] = item.width;
    numbers[at + 7] = item.height;
    strs[i] = item.str;
    fonts[i] = item.fontName;
    eol[i] = item.hasEOL ? 1 : 0;
  }
  return { count, strs, fonts, numbers, transformLength, eol };
}

/** The items again, as {@link assembleLines} and glyph repair read them. */
export function unpackItems(packed: PackedItems): RawTextItem[] {
  const { count, strs, fonts, numbers, transformLength, eol } = packed;
  const items = new Array<RawTextItem>(count);
  for (let i = 0; i < count; i++) {
    const at = i * NUMBERS;
    const length = transformLength[i] as number;
    const transform = new Array<number>(length);
    for (let k = 0; k < length; k++) transform[k] = numbers[at + k] as number;
    items[i] = {
      str: strs[i] as string,
      transform,
      width: numbers[at + 6] as number,
      height: numbers[at + 7] as number,
      fontName: fonts[i] as string,
      hasEOL: eol[i] === 1,
    };
  }
  return items;
}

/** A page's text as pdf.js extracts it, before its fonts are named: the first of two passes. */
export interface PageText {
  pageNumber: number;
  items: PackedItems;
  /** The pdf.js ids of the fonts the text uses. */
  fontIds: string[];
  /** Top and bottom of the page's view (user space). */
  top: number;
  bottom: number;
}

/** Extracts one page's text items. Frees the page's resources after. */
export async function readPageText(doc: PDFDocumentProxy, pageNumber: number): Promise<PageText> {
  const page = await doc.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    const [, , , top = 792] = page.view;
    const items = content.items.filter(
      (item): item is RawTextItem & (typeof content.items)[number] => "str" in item,
    ) as RawTextItem[];
    return {
      pageNumber,
      items: packItems(items),
      fontIds: Object.keys(content.styles),
      top,
      bottom: page.view[1] ?? 0,
    };
  } finally {
    page.cleanup();
  }
}

/** Whether any of the page's text is set in a font whose glyphs need repair. */
const needsRepair = (text: PageText, fonts: FontBook): boolean =>
  text.fontIds.some((id) => fonts.repairs.has(id));

/**
 * The page's text items with the glyphs pdf.js misread put right, for fonts {@link FontBook}
 * found in need (a partial ToUnicode map): only such pages pay for reading their operator
 * list, where each glyph's character code is. An unreadable operator list leaves the text as
 * pdf.js extracted it.
 */
async function repairGlyphs(
  page: PDFPageProxy,
  items: RawTextItem[],
  fonts: FontBook,
): Promise<RawTextItem[]> {
  const byFont = new Map<string, number[]>();
  items.forEach((item, i) => {
    if (!fonts.repairs.has(item.fontName)) return;
    const list = byFont.get(item.fontName);
    if (list) list.push(i);
    else byFont.set(item.fontName, [i]);
  });
  if (byFont.size === 0) return items;
  const { OPS } = await loadPdfJs();
  let ops: Awaited<ReturnType<PDFPageProxy["getOperatorList"]>>;
  try {
    ops = await page.getOperatorList(PAGE_DRAWING);
  } catch {
    return items;
  }
  const tokens = glyphTokens(ops, OPS, fonts.repairs);
  const out = [...items];
  for (const [font, indices] of byFont) {
    const fixed = repairStrings(
      indices.map((i) => (items[i] as RawTextItem).str),
      tokens.get(font) ?? [],
    );
    fixed?.forEach((str, n) => {
      const i = indices[n] as number;
      out[i] = { ...(items[i] as RawTextItem), str };
    });
  }
  return out;
}

/**
 * Names the fonts of the pages' text from the operator lists of a few light pages (see
 * {@link fontPages}), repairing those pages' glyphs while their operator list is at hand.
 * Returns the repaired items by page index.
 */
export async function learnFonts(
  doc: PDFDocumentProxy,
  texts: readonly (PageText | undefined)[],
  fonts: FontBook,
  signal?: AbortSignal,
): Promise<Map<number, RawTextItem[]>> {
  const repaired = new Map<number, RawTextItem[]>();
  for (const i of fontPages(texts.map((t) => t && { fontIds: t.fontIds, items: t.items.count }))) {
    throwIfAborted(signal);
    const text = texts[i] as PageText;
    const page = await doc.getPage(text.pageNumber);
    try {
      await fonts.learn(page, text.fontIds);
      if (needsRepair(text, fonts)) repaired.set(i, await repairGlyphs(page, unpackItems(text.items), fonts));
    } finally {
      page.cleanup();
    }
  }
  return repaired;
}

/**
 * Finishes one page once its fonts are named: repairs its glyphs (when a font needs it and
 * `repaired` has not yet) and groups its items into styled lines.
 */
export async function finishPage(
  doc: PDFDocumentProxy,
  text: PageText,
  fonts: FontBook,
  repaired: RawTextItem[] | undefined,
): Promise<ParsedPage> {
  let items = repaired ?? unpackItems(text.items);
  if (!repaired && needsRepair(text, fonts)) {
    const page = await doc.getPage(text.pageNumber);
    try {
      items = await repairGlyphs(page, items, fonts);
    } finally {
      page.cleanup();
    }
  }
  const lines = assembleLines(items, fonts.styleOf, text.top);
  return lazyTokens({
    pageNumber: text.pageNumber,
    text: lines.map((l) => l.text).join("\n"),
    lines,
    top: text.top,
    height: text.top - text.bottom,
  });
}
