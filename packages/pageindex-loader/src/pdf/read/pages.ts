import type { PDFDocumentProxy, PDFPageProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import { countDocumentTokens } from "../../common/token-count.js";
import { fontRepairs, glyphTokens, type PdfJsFontFacts, repairStrings } from "../text/ligatures.js";
import type { ParsedPage } from "../types.js";
import { loadPdfJs } from "./document.js";
import { type FontStyle, fontStyleFromName } from "./fonts.js";
import { assembleLines, type RawTextItem } from "./lines.js";

/**
 * Font names (and so weights) per pdf.js font id. pdf.js's text content only names fonts by
 * an internal id; the PostScript name reaches the main thread when a page's operator list is
 * built. Fonts are shared by the whole document, so only pages that use a font not seen yet
 * pay for an operator list (a handful per document).
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
      await page.getOperatorList();
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
 * The page's text items with the glyphs pdf.js misread put right, for fonts {@link FontBook}
 * found in need (a partial ToUnicode map): only such pages pay for reading their operator
 * list, where each glyph's character code is.
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
  const tokens = glyphTokens(await page.getOperatorList(), OPS, fonts.repairs);
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

/** Reads one page: lines with style, text and token count. Frees the page's resources after. */
export async function readPage(
  doc: PDFDocumentProxy,
  pageNumber: number,
  fonts: FontBook,
): Promise<ParsedPage> {
  const page = await doc.getPage(pageNumber);
  try {
    const content = await page.getTextContent();
    await fonts.learn(page, Object.keys(content.styles));
    const [, , , top = 792] = page.view;
    const bottom = page.view[1] ?? 0;
    const items = content.items.filter(
      (item): item is RawTextItem & (typeof content.items)[number] => "str" in item,
    ) as RawTextItem[];
    const lines = assembleLines(await repairGlyphs(page, items, fonts), fonts.styleOf, top);
    const text = lines.map((l) => l.text).join("\n");
    return lazyTokens({ pageNumber, text, lines, top, height: top - bottom });
  } finally {
    page.cleanup();
  }
}
