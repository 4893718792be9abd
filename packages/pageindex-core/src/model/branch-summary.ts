import { childrenOf, type NodeGraph } from "./navigate.js";
import type { SkeletonNode } from "./types.js";

/** Fewest words (of two or more letters) a summary needs, its title aside, to tell a reader anything. */
const MIN_SUMMARY_WORDS = 5;
/** Longest derived overview of a branch, in characters. */
export const BRANCH_OVERVIEW_CHARS = 400;
/** Characters of a subsection's summary quoted in its parent's overview. */
const GIST_CHARS = 70;

const WORD = /\p{L}[\p{L}'’-]+/gu;

function flat(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** The text with a leading copy of the title (and its numbering) removed. */
function withoutTitle(text: string, title: string): string {
  const body = flat(text);
  const heading = flat(title).replace(/^[\dA-Z]{0,3}(?:[.)]\d+)*[.)]?\s+/, "");
  if (!heading) return body;
  const at = body.toLowerCase().indexOf(heading.toLowerCase());
  return at >= 0 && at <= 12 ? body.slice(at + heading.length) : body;
}

/**
 * Whether a summary tells a reader what a section is about: at least a few words besides the
 * section's own title. An empty text, a bare heading, a variable name ("R_DEFAULT_PACKAGES.")
 * or a page number is not.
 */
export function isReadableSummary(summary: string | undefined, title = ""): boolean {
  if (!summary) return false;
  const words = withoutTitle(summary, title).match(WORD) ?? [];
  return words.length >= MIN_SUMMARY_WORDS;
}

/** `text` cut to `max` characters at a word boundary, with an ellipsis. */
function cut(text: string, max: number): string {
  const f = flat(text);
  if (f.length <= max) return f;
  const head = f.slice(0, max - 1);
  const space = head.lastIndexOf(" ");
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:.]+$/, "")}…`;
}

/**
 * What a branch covers, from its subsections: their titles, each with the start of its own
 * summary when it has a readable one, e.g. `7 subsections: Sorting (how to sort a data frame…);
 * Factors; …`. Stays within `maxChars` (the rest counted as "and N more").
 */
export function branchOverview(
  children: ReadonlyArray<Pick<SkeletonNode, "title" | "summary" | "prefixSummary">>,
  maxChars = BRANCH_OVERVIEW_CHARS,
): string {
  const titled = children.filter((c) => flat(c.title));
  if (titled.length === 0) return "";
  const head = `${titled.length} subsection${titled.length === 1 ? "" : "s"}: `;
  const parts: string[] = [];
  let used = head.length;
  for (const [i, child] of titled.entries()) {
    const title = cut(child.title, 80);
    const own = child.summary ?? child.prefixSummary;
    const gist = isReadableSummary(own, child.title)
      ? cut(withoutTitle(own as string, child.title), GIST_CHARS)
      : "";
    const withGist = gist ? `${title} (${gist})` : title;
    const left = titled.length - i - 1;
    const tail = left > 0 ? `; and ${left} more`.length : 0;
    // Titles first: a gist is dropped before a title is.
    const part = used + withGist.length + 2 + tail <= maxChars ? withGist : title;
    if (used + part.length + 2 + tail > maxChars) {
      parts.push(`and ${titled.length - i} more`);
      break;
    }
    parts.push(part);
    used += part.length + 2;
  }
  return `${head}${parts.join("; ")}`;
}

/**
 * The summary a judge should read for a node: a leaf's summary; an internal node's intro summary
 * when it is readable, otherwise its stored `branchSummary`, otherwise an overview of its
 * subsections derived now (trees stored before branch summaries existed). `undefined` when
 * there is nothing to say.
 */
export function readableSummary(tree: NodeGraph, node: SkeletonNode): string | undefined {
  if (node.childIds.length === 0) return node.summary || undefined;
  const own = node.summary ?? node.prefixSummary;
  if (isReadableSummary(own, node.title)) return own;
  if (node.branchSummary) return node.branchSummary;
  // Derived for a tree stored without branch summaries; prompts render a node several times.
  let overview = derived.get(node);
  if (overview === undefined) {
    overview = branchOverview(childrenOf(tree, node));
    derived.set(node, overview);
  }
  return overview || own || undefined;
}

/** Overviews derived at query time, per node object (trees are immutable once built). */
const derived = new WeakMap<SkeletonNode, string>();
