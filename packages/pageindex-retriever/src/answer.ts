import type { Callbacks } from "@langchain/core/callbacks/manager";
import type { DocumentInterface } from "@langchain/core/documents";
import type { BaseChatModel } from "@langchain/core/language_models/chat_models";
import { HumanMessage, SystemMessage } from "@langchain/core/messages";
import {
  asData,
  DATA_NOT_INSTRUCTIONS,
  formatRange,
  oneLine,
  pathLine,
  raceAbort,
  type SkeletonNode,
} from "pageindex-core";

/**
 * A retrieved section as a one-line citation: "report.pdf › Item 7 › Liquidity (pp. 41-43)".
 * A document whose id is not its name is also named by id ("notes.md (notes-1a2b3c4d.md) › …"),
 * so two same-name files stay apart. Titles come from the document, so they are put on one line
 * (a title cannot add lines).
 */
export function citationOf(doc: DocumentInterface): string {
  const meta = doc.metadata as Partial<SkeletonNode> & {
    docId?: string;
    docName?: string;
    path?: string[];
    title?: string;
  };
  const path = meta.path?.length ? pathLine(meta.path) : oneLine(meta.title ?? "");
  const range = formatRange(meta as SkeletonNode);
  const name = oneLine(meta.docName ?? meta.docId ?? "document");
  const id = meta.docId && meta.docName && meta.docId !== meta.docName ? ` (${oneLine(meta.docId)})` : "";
  return `${name}${id} › ${path}${range ? ` (${range})` : ""}`;
}

/** Longest wait for an answer (ms) unless the caller says otherwise. */
export const DEFAULT_ANSWER_TIMEOUT_MS = 120_000;

/**
 * Answers a question from retrieved sections with numbered citations ([1], [2], …). The sections
 * are passed as delimited data; the model is told to say when they do not hold the answer.
 * @throws the abort error of `signal`, or a `TimeoutError` after `timeoutMs` (default 2 min).
 */
export async function answerWithCitations(
  model: BaseChatModel,
  question: string,
  sections: DocumentInterface[],
  options: {
    callbacks?: Callbacks;
    maxCharsPerSection?: number;
    timeoutMs?: number;
    signal?: AbortSignal;
  } = {},
): Promise<string> {
  const max = options.maxCharsPerSection ?? 12_000;
  // Bounded: a model server that never answers must not hold the caller (a client's own
  // timeout can be ten minutes, times its retries).
  const timeout = AbortSignal.timeout(options.timeoutMs ?? DEFAULT_ANSWER_TIMEOUT_MS);
  const signal = options.signal ? AbortSignal.any([options.signal, timeout]) : timeout;
  const context = sections
    .map((doc, i) => asData("section", doc.pageContent.slice(0, max), { id: i + 1, source: citationOf(doc) }))
    .join("\n\n");
  const response = await raceAbort(
    model.invoke(
      [
        new SystemMessage(
          `You answer questions about documents using only the sections given. ${DATA_NOT_INSTRUCTIONS} ` +
            "Cite the sections you use as [1], [2], … by their id. If the sections do not contain the answer, say so plainly.",
        ),
        new HumanMessage(`${context}\n\nQuestion: ${question}`),
      ],
      { signal, ...(options.callbacks ? { callbacks: options.callbacks } : {}) },
    ),
    signal,
  );
  return typeof response.content === "string"
    ? response.content
    : response.content
        .map((part) => ("text" in part && typeof part.text === "string" ? part.text : ""))
        .join("");
}
