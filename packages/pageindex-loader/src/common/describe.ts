import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import {
  asData,
  clipModelText,
  DATA_NOT_INSTRUCTIONS,
  invokeStructured,
  oneLine,
  renderToc,
  type TreeDocument,
  type TreeNode,
  throwIfAborted,
  type UsageTracker,
} from "pageindex-core";
import { z } from "zod/v4";
import { leadSentences, type TextMarkup, toPlainText } from "./extractive.js";
import { isDateLine, wordCount } from "./text-measures.js";

/**
 * What a document says about itself, gathered by its loader: PDF metadata and title page,
 * Markdown front matter, H1 and first paragraph. The description is made of these.
 */
export interface DocumentFacts {
  /** The document's own title (metadata, title page, front matter, H1). */
  title?: string;
  /** A line under the title on a title page ("Reference Manual for GLPK Version 5.0"). */
  subtitle?: string;
  /** Who wrote it, when the document says so usefully (not "Administrator"). */
  author?: string;
  /**
   * One or two sentences saying what the document is: a PDF's Subject, front matter
   * `description`/`summary`, the first real paragraph, an abstract's opening.
   */
  lead?: string;
  /** Keywords or tags the document declares. */
  keywords?: string[];
  /** Leave the top-level section titles out (page-range trees: "Pages 1–5" says nothing). */
  noSections?: boolean;
}

/** Options of {@link describeDocument}. */
export interface DescribeOptions {
  /** A chat model writes the sentence when given; otherwise it is extractive. */
  model?: BaseChatModel;
  /** The document's title when known from elsewhere (e.g. front matter); else taken from the tree. */
  title?: string;
  /**
   * What the document says about itself (see {@link DocumentFacts}): the extractive
   * description is built from these and the top-level section titles, never from raw page
   * text. Without facts, the lead is the first sentence of the first node with prose.
   */
  facts?: DocumentFacts;
  /** How to read node text. Default `"markdown"`. */
  markup?: TextMarkup;
  /** Records the call under step `"describe"`. */
  usage?: UsageTracker;
  callbacks?: Callbacks;
  signal?: AbortSignal;
  /** Retries on a bad answer or rate limit. Default 1. */
  retries?: number;
  timeoutMs?: number;
}

/** Result of {@link describeDocument}. */
export interface DescriptionResult {
  /** Absent only when the document has neither title nor text. */
  description?: string;
  /** `fallback`: extractive because the model call failed. */
  method: "llm" | "extractive" | "fallback";
  /** Set when the model call failed. */
  warning?: string;
}

const DescriptionSchema = z.object({
  description: z.string().describe("one sentence saying what the document is and covers"),
});

const SYSTEM_PROMPT = [
  "You write a one-sentence description of a document (at most 40 words) that helps a retrieval",
  "system choose among many documents: say what kind of document it is, its subject, and what it",
  'covers. Answer as JSON: {"description": "..."}.',
  DATA_NOT_INSTRUCTIONS,
].join(" ");

const PREFACE = "Preface";

function children(byId: Map<string, TreeNode>, ids: string[]): TreeNode[] {
  return ids.map((id) => byId.get(id)).filter((n): n is TreeNode => n !== undefined);
}

/** Title of a Markdown heading with no text. */
const UNTITLED = "(untitled)";

/**
 * The document's title: the given one, the only top heading (not a page range or an empty
 * heading), else the document name.
 */
function documentTitle(tree: TreeDocument, roots: TreeNode[], given?: string, facts?: DocumentFacts): string {
  if (given?.trim()) return given.trim();
  const headed = roots.filter((n) => n.title !== PREFACE && n.title !== UNTITLED);
  return headed.length === 1 && headed[0] && !facts?.noSections ? headed[0].title : tree.docName;
}

/** A title that is only a division number ("PART II", "Chapter 3"): its children say more. */
const DIVISION = /^(?:part|chapter|book|volume|section|lecture|appendix|annex)\s+[\divxlc]{1,6}\.?$/i;

const isDivision = (n: TreeNode): boolean => DIVISION.test(n.title.trim()) && n.childIds.length > 0;

/**
 * Titles of the first level with several sections, descending through single-root chains and
 * through levels of bare division numbers ("PART I", "PART II" → their items).
 */
function mainSections(byId: Map<string, TreeNode>, roots: TreeNode[]): string[] {
  let level = roots.filter((n) => n.title !== PREFACE);
  for (;;) {
    if (level.length === 1 && level[0]) level = children(byId, level[0].childIds);
    else if (level.filter((n) => isDivision(n)).length > 1)
      level = level.flatMap((n) => (isDivision(n) ? children(byId, n.childIds) : [n]));
    else break;
  }
  return level.map((n) => n.title).filter(Boolean);
}

/** First sentence of the first node (in document order) that has prose of its own. */
function leadOf(tree: TreeDocument, markup: TextMarkup): string {
  for (const node of tree.nodes.slice(0, 20)) {
    const plain = toPlainText(node.text.slice(0, 4000), { markup, title: node.title });
    if (plain) return leadSentences(plain, 200);
  }
  return "";
}

/** Section titles that name no subject: front and back matter, an SEC filing's cover lines. */
const MATTER =
  /^(?:(?:table of )?contents|index|cover(?: page)?|title page|copyright|notices?|abstract|acknowledge?ments?|references|bibliography|united states|securities and exchange commission)$/i;

/** Items joined with ", " up to `max` characters, then "…". */
function listUpTo(items: readonly string[], max: number): string {
  let list = "";
  for (const item of items) {
    const next = list ? `${list}, ${item}` : item;
    if (next.length > max) return list ? `${list}, …` : `${item.slice(0, max - 1)}…`;
    list = next;
  }
  return list;
}

/** `text` ending in a full stop (unless it already ends in punctuation). */
const sentence = (text: string): string => (/[.!?…:;]["')\]]*$/.test(text) ? text : `${text}.`);

function extractiveDescription(
  tree: TreeDocument,
  title: string,
  markup: TextMarkup,
  facts: DocumentFacts | undefined,
): string | undefined {
  const byId = new Map(tree.nodes.map((n) => [n.nodeId, n]));
  const roots = children(byId, tree.rootIds);
  const parts: string[] = [];
  const lead = facts ? (facts.lead ? sentence(facts.lead) : "") : leadOf(tree, markup);
  let head = title;
  if (facts?.subtitle) head = `${head} — ${facts.subtitle}`;
  if (facts?.author) head = `${head} (${facts.author})`;
  parts.push(lead ? `${head}: ${lead}` : facts ? sentence(head) : head);
  if (facts?.keywords && facts.keywords.length > 0) parts.push(`Keywords: ${listUpTo(facts.keywords, 120)}.`);
  // A section repeating the title or a good part of it (a cover page read as headings) says
  // nothing new; a one- or two-word section that the title happens to contain still does.
  const compact = (text: string) => text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, "");
  const names = [title, facts?.subtitle ?? ""].map(compact).filter(Boolean);
  const repeats = (s: string) =>
    names.some((n) => n === compact(s) || (n.includes(compact(s)) && wordCount(s) >= 3));
  const sections = facts?.noSections
    ? []
    : mainSections(byId, roots).filter(
        (s) => !MATTER.test(s.replace(/^[\d.\s]+/, "")) && !isDateLine(s) && !repeats(s),
      );
  if (sections.length > 1) parts.push(`Sections: ${listUpTo(sections, 200)}.`);
  const text = parts.join(" ").replace(/\s+/g, " ").trim();
  return text || undefined;
}

/** The document block of the prompt: name, title and what the document says about itself. */
function documentBlock(tree: TreeDocument, title: string, facts: DocumentFacts | undefined): string {
  const lines = [`Document name: ${oneLine(tree.docName)}`, `Title: ${oneLine(title)}`];
  if (facts?.subtitle) lines.push(`Subtitle: ${oneLine(facts.subtitle)}`);
  if (facts?.author) lines.push(`Author: ${oneLine(facts.author)}`);
  if (facts?.lead) lines.push(`About: ${oneLine(facts.lead)}`);
  if (facts?.keywords?.length) lines.push(`Keywords: ${oneLine(facts.keywords.join(", "))}`);
  return lines.join("\n");
}

/**
 * A one-sentence description of a whole document, to choose among many documents: written by
 * the model when one is given (from the table of contents and the opening text), otherwise
 * extractive: from what the document says about itself (`facts`: title, subtitle, author,
 * lead sentences, keywords) and its main section titles. A failed model call falls back to
 * the extractive description with a warning; it never throws for a model problem.
 * @throws The abort error (see `abortError`) when `signal` fires.
 */
export async function describeDocument(
  tree: TreeDocument,
  options: DescribeOptions = {},
): Promise<DescriptionResult> {
  throwIfAborted(options.signal);
  const markup = options.markup ?? "markdown";
  const byId = new Map(tree.nodes.map((n) => [n.nodeId, n]));
  const title = documentTitle(
    tree,
    children(byId, tree.rootIds),
    options.facts?.title ?? options.title,
    options.facts,
  );
  const fallback = () => extractiveDescription(tree, title, markup, options.facts);
  if (!options.model) {
    const description = fallback();
    return description ? { description, method: "extractive" } : { method: "extractive" };
  }

  const toc = renderToc(tree, { ids: false, ranges: false, maxDepth: 3 }).slice(0, 6000);
  let opening = "";
  for (const node of tree.nodes) {
    if (opening.length >= 3000) break;
    opening += `${node.text.slice(0, 3000 - opening.length)}\n`;
  }
  const result = await invokeStructured(options.model, {
    schema: DescriptionSchema,
    step: "describe",
    messages: [
      new SystemMessage(SYSTEM_PROMPT),
      new HumanMessage(
        `${asData("document", documentBlock(tree, title, options.facts))}\n\n${asData("toc", toc)}\n\n${asData("section", opening, { part: "opening text" })}\n\nDescribe this document in one sentence.`,
      ),
    ],
    retries: options.retries ?? 1,
    ...(options.usage ? { usage: options.usage } : {}),
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  throwIfAborted(options.signal);
  // One or two sentences are asked for; a runaway answer is cut.
  const description = result.ok ? clipModelText(result.value.description, 1000) : "";
  if (description) return { description, method: "llm" };
  const reason = result.ok ? "the model returned an empty description" : result.error.message;
  const extractive = fallback();
  const warning = `document description fell back to extractive: ${reason}`;
  return extractive
    ? { description: extractive, method: "fallback", warning }
    : { method: "fallback", warning };
}
