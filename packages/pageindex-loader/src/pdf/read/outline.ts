import type { PDFDocumentProxy } from "pdfjs-dist/legacy/build/pdf.mjs";
import type { OutlineEntry } from "../types.js";

interface RawOutlineItem {
  title: string;
  dest: string | unknown[] | null;
  items: RawOutlineItem[];
}

type RefLike = { num: number; gen: number };

const isRef = (v: unknown): v is RefLike =>
  typeof v === "object" && v !== null && typeof (v as RefLike).num === "number";

/**
 * Resolves an explicit destination array (`[pageRef | pageIndex, /XYZ, left, top, zoom]`) or a
 * named one to a 1-based physical page and, when given, the destination's top.
 */
async function resolveDest(
  doc: PDFDocumentProxy,
  dest: string | unknown[] | null,
): Promise<{ page: number | undefined; y?: number }> {
  let explicit: unknown[] | null = null;
  try {
    explicit = typeof dest === "string" ? await doc.getDestination(dest) : dest;
  } catch {
    explicit = null;
  }
  if (!Array.isArray(explicit) || explicit.length === 0) return { page: undefined };
  const target = explicit[0];
  let index: number | undefined;
  try {
    if (isRef(target)) index = await doc.getPageIndex(target);
    else if (typeof target === "number" && Number.isInteger(target)) index = target;
  } catch {
    index = undefined;
  }
  const page = index !== undefined && index >= 0 && index < doc.numPages ? index + 1 : undefined;
  const mode = (explicit[1] as { name?: string } | undefined)?.name;
  // /XYZ left top zoom, /FitH top, /FitBH top: the top is where the heading is.
  const top = mode === "XYZ" ? explicit[3] : mode === "FitH" || mode === "FitBH" ? explicit[2] : undefined;
  return typeof top === "number" ? { page, y: top } : { page };
}

/** Reads the document outline (bookmarks) with destinations resolved; `[]` when there is none. */
export async function readOutline(doc: PDFDocumentProxy): Promise<OutlineEntry[]> {
  let raw: RawOutlineItem[] | null;
  try {
    raw = (await doc.getOutline()) as RawOutlineItem[] | null;
  } catch {
    return [];
  }
  const convert = async (items: RawOutlineItem[], depth: number): Promise<OutlineEntry[]> => {
    const out: OutlineEntry[] = [];
    for (const item of items) {
      const { page, y } = await resolveDest(doc, item.dest);
      const children = depth < 32 ? await convert(item.items ?? [], depth + 1) : [];
      out.push({ title: item.title ?? "", page, ...(y !== undefined ? { y } : {}), children });
    }
    return out;
  };
  return raw ? convert(raw, 0) : [];
}
