import type { SearchLedger } from "./ledger.js";
import { openOutline } from "./open-outline.js";
import { openSiblings } from "./open-siblings.js";
import type { SearchState, WorkItem } from "./work.js";

/**
 * Opening a node, the one step every strategy schedules: its children (or one group of them)
 * are judged and the relevant ones become results or items to open next. `siblings` asks about
 * the children in one prompt (a level wider than `fanOut`, or a group, through an outline of
 * groups); `outline` shows the opened level as deep as `lookaheadTokens` allows, or the whole
 * subtree where it fits.
 */
export const openNode = {
  siblings: (ctx: SearchLedger, item: WorkItem, state: SearchState) => openSiblings(ctx, item, state),
  outline: (ctx: SearchLedger, item: WorkItem, state: SearchState) => openOutline(ctx, item, state, true),
} as const;
