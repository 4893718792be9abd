import { asData, formatRange, type SkeletonNode, type TreeSkeleton, titlePath } from "pageindex-store";

/** Cuts text to `max` characters, saying so. */
export function clipText(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}\n[… ${text.length - max} more characters cut]` : text;
}

/** One section as the agent sees it: a header line with its citation, the text delimited as data. */
export function renderSection(
  skeleton: Pick<TreeSkeleton, "docId" | "docName" | "nodes" | "rootIds">,
  node: SkeletonNode,
  text: string,
  maxChars: number,
  extra = "",
): string {
  const range = formatRange(node);
  const header = `${skeleton.docName} — ${titlePath(skeleton, node.nodeId).join(" > ")}${range ? ` (${range})` : ""} [docId=${skeleton.docId} nodeId=${node.nodeId}]${extra}`;
  const attributes: Record<string, string> = { doc: skeleton.docId, node: node.nodeId };
  if (range) attributes.location = range;
  return `${header}\n${asData("section", clipText(text.trim() || "(no text of its own; see its subsections)", maxChars), attributes)}`;
}

/** An error the agent can read and act on (tools return it instead of throwing). */
export function toolError(message: string): [string, { error: string }] {
  return [`Error: ${message}`, { error: message }];
}
