import { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { AIMessage, type BaseMessage } from "@langchain/core/messages";
import type { ChatResult } from "@langchain/core/outputs";
import { countTokens } from "pageindex-core";

const RANGE = String.raw`\((?:p\. (\d+)|(?:pp\.|lines) (\d+)-(\d+))\)`;
/** An outline or table-of-contents line: `[id] title (pp. a-b)` or `(lines a-b)`, maybe followed by a marker. */
const ENTRY = new RegExp(String.raw`^ *\[([^\]]+)\] .*? ${RANGE}`, "gm");
/** An expansion prompt's candidate block (pages of a PDF, lines of a Markdown file). */
const NODE = /<node id="([^"]+)" (?:pages|lines)="(\d+)-(\d+)"/g;
/** A document offered for choice (`chooseDocumentsPrompt`). */
const DOCUMENT = /<document id="([^"]+)">/g;

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
 */
export class OracleJudge extends BaseChatModel {
  /** Gold pages by question text. */
  readonly gold = new Map<string, number[]>();
  /** The document holding the gold pages, by question text (library evaluations). */
  readonly goldDoc = new Map<string, GoldDocument>();
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
    const picks: Array<{ id: string; doc?: string }> = [];
    for (const m of prompt.matchAll(DOCUMENT)) {
      if (goldDoc && m[1] === goldDoc.docId) picks.push({ id: m[1] });
    }
    const tocs = [
      ...prompt.matchAll(/<toc( doc="(\d+)")?(?: name="([^"]*)")?[^>]*>\n([\s\S]*?)\n<\/toc>/g),
    ].filter((toc) => inGoldDoc(toc[3]));
    for (const toc of tocs) {
      const offered = entries(toc[4] as string).filter(holds);
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
        if (holds(o)) picks.push({ id: o.id });
      }
    } else if (tocs.every((t) => t[1] === undefined)) {
      for (const toc of tocs) offeredHere.push(...entries(toc[4] as string));
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
}
