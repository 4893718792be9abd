import { asData } from "pageindex-core";
import { z } from "zod/v4";
import type { PdfPage } from "../types.js";
import type { LlmCaller } from "./caller.js";
import { type Entry, longestNonDecreasing } from "./entries.js";
import { locateEntries, MAX_ENTRIES_PER_LOCATE } from "./locate.js";
import { groupPages, type PageSet, renderPages } from "./pages.js";

const VerifySchema = z.object({
  checks: z.array(
    z.object({
      index: z.union([z.number(), z.string()]),
      appears: z.boolean(),
      starts_at_top: z.boolean().nullable().optional(),
    }),
  ),
});

const TASK =
  "Task: section check. <toc> lists claims, each with an index, a section title and a physical_page. For each claim decide: " +
  "appears — does the section's heading appear as a heading on the page with that physical_page (allow small differences in " +
  "spacing, case and punctuation; a mere mention, a running header or a table-of-contents line does not count)? " +
  "starts_at_top — is that heading the first content of the page (nothing before it but running headers, footers or " +
  "page numbers)? " +
  'Answer as JSON: {"checks": [{"index": 3, "appears": true, "starts_at_top": false}, ...]} with one item per claim.';

/** Claims per verification call. */
const MAX_CHECKS_PER_CALL = 40;
/** Relocation rounds for entries that failed the check (PageIndex's bound). */
const FIX_ROUNDS = 3;
/** Above this share of confirmed entries, the wrong ones are re-located; below, the mode fails. */
export const ACCEPT_RATIO = 0.6;

/** Settings shared by verification and relocation. */
export interface CheckContext {
  caller: LlmCaller;
  pages: PageSet;
  /** Page tokens per call. */
  budgetTokens: number;
  warnings: string[];
}

/**
 * Checks, in batched calls, that each located entry's title starts on its page, and whether at
 * the top. Sets `verified` (false also when the call failed: unconfirmed) and `appearStart`.
 */
export async function verifyEntries(entries: Entry[], ctx: CheckContext): Promise<void> {
  const todo = entries.filter((e) => e.page !== undefined).sort((a, b) => a.page! - b.page! || a.id - b.id);
  const batches: Entry[][] = [];
  let batch: Entry[] = [];
  let pagesIn = new Set<number>();
  let tokens = 0;
  for (const entry of todo) {
    const page = ctx.pages.get(entry.page!);
    const extra = pagesIn.has(entry.page!) ? 0 : (page?.tokenCount ?? 0);
    if (batch.length > 0 && (batch.length >= MAX_CHECKS_PER_CALL || tokens + extra > ctx.budgetTokens)) {
      batches.push(batch);
      batch = [];
      pagesIn = new Set();
      tokens = 0;
    }
    batch.push(entry);
    if (!pagesIn.has(entry.page!)) tokens += page?.tokenCount ?? 0;
    pagesIn.add(entry.page!);
  }
  if (batch.length > 0) batches.push(batch);

  await Promise.all(
    batches.map(async (items) => {
      const pageList = [...new Set(items.map((e) => e.page!))]
        .map((n) => ctx.pages.get(n))
        .filter((p): p is PdfPage => p !== undefined);
      const claims = items
        .map((e) => JSON.stringify({ index: e.id, title: e.title, physical_page: e.page }))
        .join("\n");
      const answer = await ctx.caller.ask(
        "verify",
        VerifySchema,
        TASK,
        `${asData("toc", claims)}\nThe pages named in the claims:\n${renderPages(pageList)}`,
      );
      const byId = new Map<number, { appears: boolean; top: boolean }>();
      for (const c of answer?.checks ?? [])
        byId.set(Number(c.index), { appears: c.appears, top: c.starts_at_top ?? false });
      for (const e of items) {
        const verdict = byId.get(e.id);
        e.verified = verdict?.appears ?? false;
        if (verdict?.appears) e.appearStart = verdict.top;
      }
    }),
  );
}

/** Outcome of {@link verifyAndFix}. */
export interface CheckedEntries {
  /** Enough entries were confirmed: the wrong ones were re-located or dropped. */
  accepted: boolean;
  /** Share of entries confirmed by the first check. */
  accuracy: number;
  /** Accepted: the final entries. Not accepted: the confirmed ones only (for a partial result). */
  entries: Entry[];
}

/** Drops entries whose page is outside the pages given, with a warning naming them. */
export function dropOutOfRange(entries: Entry[], pages: PageSet, warnings: string[], label: string): Entry[] {
  const out = entries.filter((e) => e.page === undefined || pages.has(e.page));
  const dropped = entries.filter((e) => e.page !== undefined && !pages.has(e.page));
  if (dropped.length > 0) {
    const names = dropped.slice(0, 5).map((e) => `"${e.title}" (page ${e.page})`);
    warnings.push(
      `${label}: dropped ${dropped.length} entr${dropped.length === 1 ? "y" : "ies"} pointing outside pages ${pages.first}-${pages.last}: ${names.join(", ")}${dropped.length > 5 ? ", …" : ""}`,
    );
  }
  return out;
}

/**
 * PageIndex's acceptance rule, batched: check every located entry; all confirmed → accept;
 * more than 60 % confirmed → re-locate the others between their confirmed neighbours (up to 3
 * rounds, dropping what is still wrong); otherwise the mode failed. `countUnlocated` makes
 * entries that no step could place count against the accuracy.
 */
export async function verifyAndFix(
  input: Entry[],
  ctx: CheckContext,
  label: string,
  countUnlocated: boolean,
): Promise<CheckedEntries> {
  let entries = dropOutOfRange(input, ctx.pages, ctx.warnings, label);
  // Pages must run forward: the fewest entries that break the order lose their page.
  const located = entries.filter((e) => e.page !== undefined);
  const keep = longestNonDecreasing(located.map((e) => e.page!));
  located.forEach((e, i) => {
    if (!keep.has(i)) delete e.page;
  });

  await verifyEntries(entries, ctx);
  const checked = entries.filter((e) => e.page !== undefined);
  const denominator = countUnlocated ? entries.length : checked.length;
  const confirmed = entries.filter((e) => e.verified === true).length;
  const accuracy = denominator === 0 ? 0 : confirmed / denominator;
  const wrong = () => entries.filter((e) => e.verified !== true);

  if (accuracy <= ACCEPT_RATIO) {
    return { accepted: false, accuracy, entries: entries.filter((e) => e.verified === true) };
  }
  for (let round = 0; round < FIX_ROUNDS && wrong().length > 0 && !ctx.caller.gaveUp; round += 1) {
    const moved = await relocate(entries, ctx);
    if (moved.length === 0) break;
    await verifyEntries(moved, ctx);
  }
  const still = wrong();
  if (still.length > 0) {
    const names = still.slice(0, 5).map((e) => `"${e.title}"`);
    ctx.warnings.push(
      `${label}: ${still.length} section(s) could not be located and were left out: ${names.join(", ")}${still.length > 5 ? ", …" : ""}`,
    );
    entries = entries.filter((e) => e.verified === true);
  }
  return { accepted: true, accuracy, entries };
}

/**
 * Looks for each unconfirmed entry between its confirmed neighbours. Entries sharing a window
 * go in one call (split into page groups when the window is large). Returns the entries that got
 * a new page.
 */
async function relocate(entries: Entry[], ctx: CheckContext): Promise<Entry[]> {
  const windows: Array<{ from: number; to: number; items: Entry[] }> = [];
  let prevPage = ctx.pages.first;
  let open: Entry[] = [];
  const close = (to: number) => {
    if (open.length > 0) windows.push({ from: prevPage, to, items: open });
    open = [];
  };
  for (const e of entries) {
    if (e.verified === true) {
      close(e.page!);
      prevPage = e.page!;
    } else {
      open.push(e);
    }
  }
  close(ctx.pages.last);

  const moved: Entry[] = [];
  await Promise.all(
    windows.map(async (w) => {
      const groups = groupPages(ctx.pages.range(w.from, w.to), ctx.budgetTokens);
      const found = new Map<number, number>();
      // Entries in order across the groups of one window; the earliest page claimed wins.
      for (let i = 0; i < w.items.length; i += MAX_ENTRIES_PER_LOCATE) {
        const items = w.items.slice(i, i + MAX_ENTRIES_PER_LOCATE);
        const answers = await Promise.all(groups.map((g) => locateEntries(items, g, ctx.caller, "relocate")));
        for (const answer of answers) {
          for (const [id, page] of answer) if (!found.has(id) || page < found.get(id)!) found.set(id, page);
        }
      }
      // Keep only placements that run forward within the window.
      let floor = w.from;
      for (const e of w.items) {
        const page = found.get(e.id);
        if (page === undefined || page < floor || page > w.to) continue;
        e.page = page;
        delete e.verified;
        delete e.appearStart;
        moved.push(e);
        floor = page;
      }
    }),
  );
  return moved;
}
