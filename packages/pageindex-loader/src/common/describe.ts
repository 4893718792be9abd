import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import {
  asData,
  DATA_NOT_INSTRUCTIONS,
  invokeStructured,
  oneLine,
  renderToc,
  type TreeDocument,
  type TreeNode,
  throwIfAborted,
  type UsageTracker,
} from "pageindex-store";
import { z } from "zod";
import { leadSentences, type TextMarkup, toPlainText } from "./extractive.js";

/** Options of {@link describeDocument}. */
export interface DescribeOptions {
  /** A chat model writes the sentence when given; otherwise it is extractive. */
  model?: BaseChatModel;
  /** The document's title when known from elsewhere (e.g. front matter); else taken from the tree. */
  title?: string;
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

/** The document's title: the given one, the only top heading, else the document name. */
function documentTitle(tree: TreeDocument, roots: TreeNode[], given?: string): string {
  if (given?.trim()) return given.trim();
  const headed = roots.filter((n) => n.title !== PREFACE);
  return headed.length === 1 && headed[0] ? headed[0].title : tree.docName;
}

/** Titles of the first level with several sections, descending through single-root chains. */
function mainSections(byId: Map<string, TreeNode>, roots: TreeNode[]): string[] {
  let level = roots.filter((n) => n.title !== PREFACE);
  while (level.length === 1 && level[0]) level = children(byId, level[0].childIds);
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

function extractiveDescription(tree: TreeDocument, title: string, markup: TextMarkup): string | undefined {
  const byId = new Map(tree.nodes.map((n) => [n.nodeId, n]));
  const roots = children(byId, tree.rootIds);
  const parts: string[] = [];
  const lead = leadOf(tree, markup);
  parts.push(lead ? `${title}: ${lead}` : title);
  const sections = mainSections(byId, roots);
  if (sections.length > 1) {
    let list = "";
    for (const s of sections) {
      const next = list ? `${list}, ${s}` : s;
      if (next.length > 200) {
        list = `${list}, …`;
        break;
      }
      list = next;
    }
    parts.push(`Sections: ${list}.`);
  }
  const text = parts.join(" ").replace(/\s+/g, " ").trim();
  return text || undefined;
}

/**
 * A one-sentence description of a whole document, to choose among many documents: written by
 * the model when one is given (from the table of contents and the opening text), otherwise
 * extractive (title, first sentence, main section titles). A failed model call falls back to
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
  const title = documentTitle(tree, children(byId, tree.rootIds), options.title);
  const fallback = () => extractiveDescription(tree, title, markup);
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
        `${asData("document", `Document name: ${oneLine(tree.docName)}\nTitle: ${oneLine(title)}`)}\n\n${asData("toc", toc)}\n\n${asData("section", opening, { part: "opening text" })}\n\nDescribe this document in one sentence.`,
      ),
    ],
    retries: options.retries ?? 1,
    ...(options.usage ? { usage: options.usage } : {}),
    ...(options.callbacks ? { callbacks: options.callbacks } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.timeoutMs !== undefined ? { timeoutMs: options.timeoutMs } : {}),
  });
  throwIfAborted(options.signal);
  const description = result.ok ? result.value.description.replace(/\s+/g, " ").trim() : "";
  if (description) return { description, method: "llm" };
  const reason = result.ok ? "the model returned an empty description" : result.error.message;
  const extractive = fallback();
  const warning = `document description fell back to extractive: ${reason}`;
  return extractive
    ? { description: extractive, method: "fallback", warning }
    : { method: "fallback", warning };
}
