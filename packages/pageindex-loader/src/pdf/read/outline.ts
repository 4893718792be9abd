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

/** The part of pdf.js's message port used here. */
interface MessagePort {
  postMessage(message: unknown, transfer?: unknown): void;
}

/** Longest wait for the outline: pdf.js answers in milliseconds even for large outlines. */
const OUTLINE_TIMEOUT_MS = 30_000;

/**
 * Runs a pdf.js call that must settle. In Node, pdf.js runs its worker in-process and clones
 * each answer with `structuredClone`, which overflows the stack on an outline nested thousands of
 * levels deep; that happens in a callback nobody awaits, so the call would never settle and the
 * error would become an unhandled rejection (a crash). For the call's duration the document's
 * port turns that failure into a rejection of this call (pdf.js internals, looked up defensively:
 * where they differ, a timeout still bounds the wait).
 */
async function settlingCall<T>(doc: PDFDocumentProxy, call: () => Promise<T>): Promise<T> {
  const port = (doc as unknown as { _transport?: { messageHandler?: { comObj?: MessagePort } } })._transport
    ?.messageHandler?.comObj;
  let fail: (error: Error) => void = () => undefined;
  const failed = new Promise<never>((_, reject) => {
    fail = reject;
  });
  const original = port?.postMessage;
  const own = port !== undefined && Object.hasOwn(port, "postMessage");
  if (port && original) {
    port.postMessage = function (this: MessagePort, message: unknown, transfer?: unknown) {
      try {
        original.call(this, message, transfer);
      } catch (error) {
        if (!(error instanceof RangeError)) throw error;
        fail(error);
      }
    };
  }
  const timer = setTimeout(
    () => fail(new Error(`no answer in ${OUTLINE_TIMEOUT_MS} ms`)),
    OUTLINE_TIMEOUT_MS,
  );
  try {
    return await Promise.race([call(), failed]);
  } finally {
    clearTimeout(timer);
    if (port && original) {
      if (own) port.postMessage = original;
      else delete (port as Partial<MessagePort>).postMessage;
    }
  }
}

/**
 * Reads the document outline (bookmarks) with destinations resolved; `[]` when there is none or
 * it cannot be read (e.g. nested too deep for pdf.js to hand over): the layout path takes over.
 */
export async function readOutline(doc: PDFDocumentProxy): Promise<OutlineEntry[]> {
  let raw: RawOutlineItem[] | null;
  try {
    raw = (await settlingCall(doc, () => doc.getOutline())) as RawOutlineItem[] | null;
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
