import { type BaseMessage, HumanMessage, SystemMessage } from "@langchain/core/messages";
import {
  asData,
  type BackMatterKind,
  DATA_NOT_INSTRUCTIONS,
  detectBackMatter,
  formatRange,
  oneLine,
  pathLine,
  printedRange,
  readableSummary,
  type SkeletonNode,
  type TreeSkeleton,
  titlePath,
} from "pageindex-core";

/**
 * The second look at a dead end, worded neutrally: nothing below may hold the answer, and an
 * empty list is a good answer then.
 */
const SECOND_LOOK =
  "Second look: the part being opened was judged possibly relevant, and none of the entries below it " +
  "was picked. Check the entries once more: pick any that may hold the answer; an empty list is the " +
  "right answer when none does.";

/** Expert knowledge / preferences, as given to the retriever. */
export type ExpertKnowledge = string | readonly string[] | undefined;

/** Summary characters per candidate in a children prompt (trimmed when a prompt is over budget). */
export const SUMMARY_CHARS = 600;

/** `text` on one line, cut to `max` characters with an ellipsis. */
export function clip(text: string, max: number): string {
  const flat = oneLine(text);
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

function expertBlock(expert: ExpertKnowledge): string {
  const rules = typeof expert === "string" ? [expert] : [...(expert ?? [])];
  const kept = rules.map((r) => r.trim()).filter(Boolean);
  if (kept.length === 0) return "";
  return `\n\nExpert knowledge and preferences from the application (trusted; follow them):\n${kept
    .map((r) => `- ${r}`)
    .join("\n")}`;
}

/** The system message every judging prompt shares: the task, data rules, expert knowledge, answer format. */
export function system(task: string, expert: ExpertKnowledge): SystemMessage {
  return new SystemMessage(
    `${task}\n\n${DATA_NOT_INSTRUCTIONS}${expertBlock(expert)}\n\n` +
      'Answer with JSON only: {"relevant": [{"id": "<id>", "score": <0..1>, "reason": "<short>"}]}. ' +
      "List only items that may contain the answer, best first; use an empty list when none does. " +
      "Use only ids that were offered.",
  );
}

/**
 * What a prompt shows beside a section's physical range: its printed page numbers, when the
 * PDF's labels differ (an index or a cross-reference in the text cites those), e.g.
 * ` [printed iv-vi]`; empty otherwise.
 */
export function printedPages(
  skeleton: TreeSkeleton,
  node: Pick<SkeletonNode, "startPage" | "endPage">,
): string {
  const printed = printedRange(skeleton.pageLabels, node.startPage, node.endPage);
  return printed ? ` [printed ${printed}]` : "";
}

/** The marker of a back-matter section in a prompt, e.g. ` [back matter: index]`; empty for content. */
export function backMatterMark(node: SkeletonNode): string {
  const kind: BackMatterKind | undefined = detectBackMatter(node);
  return kind ? ` [back matter: ${kind}]` : "";
}

/** Titles from the root to a candidate (one that is not a node, such as an introduction, sits under its parent). */
function candidatePath(skeleton: TreeSkeleton, node: SkeletonNode): string[] {
  const path = titlePath(skeleton, node.nodeId);
  if (path.length > 0 || node.parentId === null) return path;
  return [...titlePath(skeleton, node.parentId), node.title];
}

/**
 * One candidate node as a data block: id, page range, path, size and summary. Title and path
 * are put on one line (a title cannot add a fake "Summary:" line); {@link asData} escapes them.
 */
export function renderCandidate(
  skeleton: TreeSkeleton,
  node: SkeletonNode,
  summaryChars = SUMMARY_CHARS,
): string {
  const range = formatRange(node);
  const lines = [
    `Title: ${oneLine(node.title)}${backMatterMark(node)}`,
    `Path: ${pathLine(candidatePath(skeleton, node))}`,
  ];
  if (range) lines.push(`Location: ${range}${printedPages(skeleton, node)}`);
  lines.push(
    node.childIds.length > 0
      ? `Has ${node.childIds.length} subsection(s)`
      : `Leaf section, about ${node.tokenCount} tokens`,
  );
  const summary = readableSummary(skeleton, node);
  if (summary && summaryChars > 0) lines.push(`Summary: ${clip(summary, summaryChars)}`);
  const attributes: Record<string, string | number> = { id: node.nodeId };
  if (node.startPage !== undefined) attributes.pages = `${node.startPage}-${node.endPage ?? node.startPage}`;
  else if (node.startLine !== undefined)
    attributes.lines = `${node.startLine}-${node.endLine ?? node.startLine}`;
  return asData("node", lines.join("\n"), attributes);
}

/** Prompt asking which of a node's children can contain the answer (all siblings in one call). */
export function judgeChildrenPrompt(
  query: string,
  skeleton: TreeSkeleton,
  parent: SkeletonNode | null,
  candidates: readonly SkeletonNode[],
  expert: ExpertKnowledge,
  secondLook = false,
  summaryChars = SUMMARY_CHARS,
): BaseMessage[] {
  const where = parent
    ? `Section being opened: ${pathLine(titlePath(skeleton, parent.nodeId))}${
        formatRange(parent) ? ` (${formatRange(parent)})` : ""
      }`
    : "Top-level sections of the document.";
  const doc = `Document: ${oneLine(skeleton.docName)}${skeleton.description ? ` — ${clip(skeleton.description, 300)}` : ""}`;
  return [
    system(
      "You navigate a document's table of contents top-down, like a reader looking for the part that " +
        "answers a question. For each offered section decide whether it (or its subsections) can contain " +
        'the answer. For a section with subsections, add "self": true only when its own introduction ' +
        "text answers by itself." +
        (secondLook ? ` ${SECOND_LOOK}` : ""),
      expert,
    ),
    new HumanMessage(
      `Question: ${query}\n\n${asData("document", `${doc}\n${where}`)}\n\nCandidate sections:\n${candidates
        .map((c) => renderCandidate(skeleton, c, summaryChars))
        .join("\n")}`,
    ),
  ];
}

/** What an outline prompt shows: one opened level of a document, as deep as its budget allowed. */
export interface OutlineView {
  skeleton: TreeSkeleton;
  /** The section being opened (`null`: the document's top level). */
  parent: SkeletonNode | null;
  /** The opened level is one group of the parent's subsections (its prompt id). */
  groupId?: string;
  /** The outline text (see `buildOutline`). */
  outline: string;
  /** The view is one of several parts of a level too large for one prompt. */
  part?: { index: number; of: number };
}

const OUTLINE_TASK =
  "You navigate a document's table of contents, like a reader looking for the part that answers a " +
  "question. The outline lists entries as `[id] title (pages)`, indented under their parent, some with " +
  "a summary line. `[+N subsections]` marks a section whose subsections are not listed yet; a " +
  '"group of N sections" entry stands for a run of consecutive sibling sections (its "includes" line ' +
  "samples their titles). Pick the entries that most likely contain the answer, at any depth shown: " +
  "prefer the most specific section listed; pick a collapsed section or a group to have it opened. Pick " +
  'a section whose subsections are listed only when its own text answers (then add "self": true).';

/**
 * Prompt asking which entries of an outline can contain the answer. Cache-friendly: the fixed
 * instructions come first, then the question, then what varies from call to call.
 */
export function judgeOutlinePrompt(
  query: string,
  view: OutlineView,
  expert: ExpertKnowledge,
  secondLook = false,
): BaseMessage[] {
  const { skeleton, parent } = view;
  const opened = parent
    ? `Opened: ${pathLine(titlePath(skeleton, parent.nodeId))}${formatRange(parent) ? ` (${formatRange(parent)})` : ""}`
    : "Opened: the top level of the document";
  const scope = `${opened}${view.groupId ? `, group ${view.groupId}` : ""}${
    view.part ? `, part ${view.part.index} of ${view.part.of}` : ""
  }`;
  const doc = `Document: ${oneLine(skeleton.docName)}${skeleton.description ? ` — ${clip(skeleton.description, 300)}` : ""}`;
  return [
    system(OUTLINE_TASK, expert),
    new HumanMessage(
      `Question: ${query}\n\n${secondLook ? `${SECOND_LOOK}\n\n` : ""}${asData("document", `${doc}\n${scope}`)}\n\n${asData("toc", view.outline)}`,
    ),
  ];
}

/** Prompt with the whole table of contents of one or more documents (single-shot strategy). */
export function singleShotPrompt(
  query: string,
  docs: ReadonlyArray<{ key: string; skeleton: TreeSkeleton; toc: string }>,
  k: number,
  expert: ExpertKnowledge,
): BaseMessage[] {
  const blocks = docs
    .map(({ key, skeleton, toc }) =>
      asData("toc", toc, {
        doc: key,
        name: skeleton.docName.slice(0, 120),
        ...(skeleton.pageCount ? { pages: skeleton.pageCount } : {}),
      }),
    )
    .join("\n");
  return [
    system(
      "You are given the table(s) of contents of documents: one section a line as `[id] title (pages)`, " +
        `optionally followed by its summary. Pick up to ${k} sections whose text most likely contains the ` +
        "answer to the question; prefer the most specific section. " +
        (docs.length > 1 ? 'Give each item\'s document key as "doc".' : ""),
      expert,
    ),
    new HumanMessage(`Question: ${query}\n\n${blocks}`),
  ];
}

/** Prompt asking which documents can answer, from their names and descriptions. */
export function chooseDocumentsPrompt(
  query: string,
  docs: ReadonlyArray<{
    docId: string;
    docName: string;
    description?: string;
    pageCount?: number;
    /** Section titles that matched the question (why the catalog ranked the document). */
    evidence?: readonly string[];
  }>,
  max: number,
  expert: ExpertKnowledge,
): BaseMessage[] {
  return [
    system(
      `Choose up to ${max} documents that can contain the answer to the question, from their names, ` +
        'descriptions and matching sections. The "id" of an item is the document id.',
      expert,
    ),
    new HumanMessage(
      `Question: ${query}\n\nDocuments:\n${docs
        .map((d) =>
          asData(
            "document",
            `Name: ${oneLine(d.docName)}${d.pageCount ? `\nPages: ${d.pageCount}` : ""}${d.description?.trim() ? `\nDescription: ${clip(d.description, 500)}` : ""}${d.evidence?.length ? `\nMatching sections: ${d.evidence.map((t) => clip(t, 120)).join(" | ")}` : ""}`,
            { id: d.docId },
          ),
        )
        .join("\n")}`,
    ),
  ];
}
