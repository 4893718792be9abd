import type { NodeDraft } from "pageindex-core";
import { rangeTitle } from "../structure/flat.js";
import type { PdfPage } from "../types.js";
import type { Entry } from "./entries.js";
import { chunkPages } from "./pages.js";

/** Whether `parent` is a proper prefix of `child` by dotted segments ("1.2" of "1.2.3"). */
function isAncestorCode(parent: string, child: string): boolean {
  return child.length > parent.length && child.startsWith(`${parent}.`);
}

/**
 * Nests a flat, ordered entry list by structure code: "1.2.3" goes under the nearest earlier
 * entry whose code is its prefix ("1.2", else "1"); an entry without a code is a root.
 */
export function nestEntries(entries: Entry[]): NodeDraft[] {
  const roots: NodeDraft[] = [];
  const stack: Array<{ code: string; draft: NodeDraft }> = [];
  for (const e of entries) {
    if (e.page === undefined) continue;
    const draft: NodeDraft = {
      title: e.title,
      startPage: e.page,
      metadata: { appearStart: e.appearStart ?? false },
    };
    const code = e.structure;
    if (code === undefined) {
      stack.length = 0;
      roots.push(draft);
      continue;
    }
    while (stack.length > 0 && !isAncestorCode(stack[stack.length - 1]!.code, code)) stack.pop();
    const parent = stack[stack.length - 1];
    if (parent) {
      parent.draft.children ??= [];
      parent.draft.children.push(draft);
    } else {
      roots.push(draft);
    }
    stack.push({ code, draft });
  }
  return roots;
}

/** Most pages in one range node: under the 10-page size at which large nodes are re-split. */
export const RANGE_NODE_PAGES = 10;

/** "Pages 12–20" nodes covering `pages`, for what no mode could structure. */
export function rangeDrafts(pages: PdfPage[], maxTokens: number): NodeDraft[] {
  return chunkPages(pages, maxTokens, RANGE_NODE_PAGES).map((chunk) => {
    const first = chunk[0]!.pageNumber;
    const last = chunk[chunk.length - 1]!.pageNumber;
    return {
      title: rangeTitle(first, last),
      startPage: first,
      metadata: { appearStart: true },
    };
  });
}
