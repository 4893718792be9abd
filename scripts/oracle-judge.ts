import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { countTokens } from "pageindex-core";

const RANGE = String.raw`\((?:p\. (\d+)|(?:pp\.|lines) (\d+)-(\d+))\)`;
/** An outline or table-of-contents line: `[id] title (pp. a-b)` or `(lines a-b)`, maybe followed by a marker. */
const ENTRY = new RegExp(String.raw`^ *\[([^\]]+)\] .*? ${RANGE}`, "gm");
/** An expansion prompt's candidate block (pages of a PDF, lines of a Markdown file). */
const NODE = /<node id="([^"]+)" (?:pages|lines)="(\d+)-(\d+)"/g;

interface Offered {
  id: string;
  start: number;
  end: number;
}

function entries(text: string): Offered[] {
  return [...text.matchAll(ENTRY)].map((m) => ({
    id: m[1] as string,
    start: Number(m[2] ?? m[3]),
    end: Number(m[2] ?? m[4]),
  }));
}

/** A document name as prompts show it (escaped, clipped, maybe followed by " — description"), for comparison. */
function nameKey(name: string): string {
  return name
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&amp;/g, "&")
    .replace(/&quot;/g, '"')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "")
    .slice(0, 60);
}

/** A deterministic 32-bit hash (FNV-1a) of a string. */
function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i += 1) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return h;
}

/** The document a question's gold pages (or lines) are in. */
export interface GoldDocument {
  docId: string;
  docName: string;
}

/** A document name as prompts print it (`asData` escapes `&`, `<` and `>`). */
function escaped(name: string): string {
  return name.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;");
}

/**
 * A chat model that knows where each answer is: it picks exactly the offered entries (sections
 * or groups) whose pages hold a gold page; in a single-shot table of contents, the most
 * specific such entry per gold page. Records every prompt it is sent (its size and text).
 *
 * Gold numbers are pages, or lines for a Markdown document (its ranges are printed as lines).
 * When `goldDoc` knows the question's document (a library), only that document's entries are
 * picked, and a document-choice prompt gets that document when it is offered.
 *
 * With `noise`, it also lists that many other offered entries at score 0.2, chosen by a hash of
 * the question and the entry (a simulated judge that names near misses, as real models do).
 *
 * With the question's document in `goldDocs` (its name), it picks only inside that document
 * (another document's pages are not the answer's), and in a library prompt (candidate documents,
 * each with its best-matching sections) it picks the gold document's sections holding a gold
 * page, or the gold document itself when none of its sections offered does.
 */
export class OracleJudge extends BaseChatModel {
  /** Gold pages by question text. */
  readonly gold = new Map<string, number[]>();
  /** The document holding the gold pages, by question text (library evaluations). */
  readonly goldDoc = new Map<string, GoldDocument>();
  /** Name of the document that answers, by question text (optional: without it, any document). */
  readonly goldDocs = new Map<string, string>();
  /** Tokens of each prompt since the last `reset()`. */
  prompts: number[] = [];
  /** Text of each prompt since the last `reset()`. */
  texts: string[] = [];
  /** What each prompt opened (its "Opened:" line), since the last `reset()`. */
  opened: string[] = [];
  private readonly noise: number;

  constructor(options: { noise?: number } = {}) {
    super({});
    this.noise = options.noise ?? 0;
  }

  _llmType(): string {
    return "oracle-judge";
  }

  reset(): void {
    this.prompts = [];
    this.texts = [];
    this.opened = [];
  }

  async _generate(messages: BaseMessage[]): Promise<ChatResult> {
    const prompt = messages.map((m) => (typeof m.content === "string" ? m.content : "")).join("\n");
    this.prompts.push(countTokens(prompt));
    this.texts.push(prompt);
    this.opened.push(
      /^(Opened: .*|Section being opened: .*|Top-level sections.*)$/m.exec(prompt)?.[1] ??
        "(table of contents)",
    );
    const question = /^Question: (.*)$/m.exec(prompt)?.[1] ?? "";
    const goldDoc = this.goldDoc.get(question);
    // Another document's sections never hold the answer, whatever their page numbers.
    const inGoldDoc = (name: string | undefined) =>
      goldDoc === undefined || name === undefined || name === escaped(goldDoc.docName).slice(0, 120);
    const openedDoc = /^Document: (.*?)(?: — .*)?$/m.exec(prompt)?.[1];
    const pages = inGoldDoc(openedDoc) ? (this.gold.get(question) ?? []) : [];
    const holds = (o: Offered) => pages.some((p) => p >= o.start && p <= o.end);
    const goldName = this.goldDocs.get(question) ?? goldDoc?.docName;
    const isGold = (name: string | undefined) =>
      goldName === undefined ||
      name === undefined ||
      nameKey(name).startsWith(nameKey(goldName).slice(0, 40));
    // A library prompt lists several documents: its blocks are gated by their own names (the
    // first "Document:" line is only the first candidate's), so they read the gold pages as given.
    const goldPages = this.gold.get(question) ?? [];
    const holdsInBlock = (o: Offered) => goldPages.some((p) => p >= o.start && p <= o.end);
    const library = this.library(prompt, holdsInBlock, isGold, question) ?? this.catalog(prompt, isGold);
    if (library) return library;
    // A one-document prompt about another document than the answer's: nothing holds it.
    const shown = /^Document: (.*)$/m.exec(prompt)?.[1];
    const here = isGold(shown);
    const picks: Array<{ id: string; doc?: string }> = [];
    const tocs = [...prompt.matchAll(/<toc( doc="(\d+)")?([^>]*)>\n([\s\S]*?)\n<\/toc>/g)].map((m) => {
      const name = /name="([^"]*)"/.exec(m[3] as string)?.[1];
      return [m[0], m[1], m[2], here && isGold(name) ? (m[4] as string) : ""] as const;
    });
    for (const toc of tocs) {
      const offered = entries(toc[3] as string).filter(holds);
      if (toc[1] === undefined) picks.push(...offered.map((o) => ({ id: o.id })));
      else {
        // Single-shot: the narrowest entry holding each gold page.
        for (const page of pages) {
          const best = offered
            .filter((o) => page >= o.start && page <= o.end)
            .sort((a, b) => a.end - a.start - (b.end - b.start))[0];
          if (best && !picks.some((p) => p.id === best.id))
            picks.push({ id: best.id, doc: toc[2] as string });
        }
      }
    }
    const offeredHere: Offered[] = [];
    if (tocs.length === 0) {
      for (const m of prompt.matchAll(NODE)) {
        const o = { id: m[1] as string, start: Number(m[2]), end: Number(m[3]) };
        offeredHere.push(o);
        if (here && holds(o)) picks.push({ id: o.id });
      }
    } else if (tocs.every((t) => t[1] === undefined)) {
      for (const toc of tocs) offeredHere.push(...entries(toc[3] as string));
    }
    const noise = offeredHere
      .filter((o) => !holds(o))
      .sort((a, b) => hash(`${question}|${a.id}`) - hash(`${question}|${b.id}`))
      .slice(0, this.noise);
    const answer = JSON.stringify({
      relevant: [
        ...picks.map((p) => ({ ...p, score: 0.9, reason: "holds the page" })),
        ...noise.map((o) => ({ id: o.id, score: 0.2, reason: "a near miss" })),
      ],
    });
    return { generations: [{ text: answer, message: new AIMessage(answer) }] };
  }

  /** The answer to a catalog's document-choice prompt (`<document id=…>` cards): the gold document. */
  private catalog(prompt: string, isGold: (name: string) => boolean): ChatResult | undefined {
    const cards = [...prompt.matchAll(/<document id="([^"]+)">\nName: (.*)$/gm)];
    if (cards.length === 0) return undefined;
    const picks = cards.filter((c) => isGold(c[2] as string)).map((c) => c[1] as string);
    const answer = JSON.stringify({
      relevant: picks.map((id) => ({ id, score: 0.9, reason: "the answer's document" })),
    });
    return { generations: [{ text: answer, message: new AIMessage(answer) }] };
  }

  /** The answer to a library prompt (`<toc doc="d1" name=…>` blocks of sections), or undefined. */
  private library(
    prompt: string,
    holds: (o: Offered) => boolean,
    isGold: (name: string) => boolean,
    question: string,
  ): ChatResult | undefined {
    const blocks = [...prompt.matchAll(/<toc doc="(d\d+)" name="([^"]*)"[^>]*>\n([\s\S]*?)\n<\/toc>/g)];
    if (blocks.length === 0) return undefined;
    const picks: string[] = [];
    const others: Offered[] = [];
    for (const [, key, name, body] of blocks) {
      const sections = entries(body as string);
      if (!isGold(name as string)) {
        others.push(...sections);
        continue;
      }
      const holding = sections.filter(holds);
      others.push(...sections.filter((o) => !holds(o)));
      if (holding.length > 0) picks.push(...holding.map((o) => o.id));
      else picks.push(key as string);
    }
    const noise = others
      .sort((a, b) => hash(`${question}|${a.id}`) - hash(`${question}|${b.id}`))
      .slice(0, this.noise);
    const answer = JSON.stringify({
      relevant: [
        ...picks.map((id) => ({ id, score: 0.9, reason: "holds the page" })),
        ...noise.map((o) => ({ id: o.id, score: 0.2, reason: "a near miss" })),
      ],
    });
    return { generations: [{ text: answer, message: new AIMessage(answer) }] };
  }
}
