import type { ParsedPage, PdfLine, SectionEntry } from "../types.js";
import type { Heading } from "./candidates.js";
import { nestHeadings } from "./hierarchy.js";
import { SIZE_STEP } from "./style.js";
import { normalizeTitle } from "./titles.js";

/**
 * A reference manual made of per-topic pages (man pages, help pages) prints each topic's title
 * only in its running head ("FREE(1)  User Commands  FREE(1)"), and every topic repeats one set
 * of section heads (NAME, SYNOPSIS, DESCRIPTION…). Neither looks like a heading to the layout
 * rules: the head is furniture, and the section heads recur dozens of times on crowded pages.
 * The evidence read here is the document's own: a page whose head changes from the previous
 * page's and names the first word of its body ("free - Display amount…") opens a topic.
 */
export interface TopicPage {
  /** The head's part naming the topic ("FREE(1)"). */
  title: string;
  page: number;
  /** The head's line on the page. */
  line: number;
}

/** Fewer topics than this is no reference manual: a document's chapter heads change as often. */
const MIN_TOPICS = 2;
/** Share of head changes that must name their page's body: chapter heads that merely change do not. */
const NAMED_SHARE = 0.8;
/** Body lines under the head searched for the topic's name (NAME sits between them). */
const BODY_LINES = 4;
/** A head stands apart: the next line is this many of the head's sizes below it, or more. */
export const APART = 1.8;
/** A section-head title recurring in this share of topics or more is the topics' own set. */
export const RECURRING_SHARE = 0.3;
/** A look's left edge within this distance (points) is the same margin. */
export const MARGIN = 2;

/** The page's top line when it is a head set apart from the body, at the body's size or smaller. */
export function topHead(page: ParsedPage, bodySize: number): PdfLine | undefined {
  const [head, next] = page.lines;
  if (!head || !next || head.size >= bodySize + SIZE_STEP) return undefined;
  return next.gapBefore >= head.size * APART ? head : undefined;
}

/** A name as the body prints it: lower case, without a section suffix "(1)" or punctuation around it. */
export const nameKey = (text: string): string =>
  text
    .trim()
    .replace(/\([^)]*\)$/, "")
    .replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, "")
    .toLowerCase();

/** A head's parts, the runs set apart by tabs ("PM-GAWK(1)", "Utility Commands", "PM-GAWK(1)"). */
export const partsOf = (line: PdfLine | undefined): string[] =>
  (line?.text ?? "")
    .split("\t")
    .map((p) => p.trim())
    .filter((p) => p.length > 0);

/** The head's part (a run set apart by a tab) naming the first word of a body line just under it. */
function namedPart(head: PdfLine, page: ParsedPage): string | undefined {
  const firstWords = new Set(
    page.lines
      .slice(1, 1 + BODY_LINES)
      .map((l) => nameKey(l.text.trim().split(/[\s,]+/)[0] ?? ""))
      .filter((w) => w.length > 0),
  );
  return partsOf(head).find((p) => firstWords.has(nameKey(p)));
}

/**
 * The pages opening a topic, when the document is made of topics: at least {@link MIN_TOPICS} of
 * them, and most pages whose head changed name their body's first word in it. Otherwise none.
 */
export function findTopicPages(pages: readonly ParsedPage[], bodySize: number): TopicPage[] {
  const topics: TopicPage[] = [];
  let changes = 0;
  let previous: string | undefined;
  for (const page of pages) {
    const head = topHead(page, bodySize);
    const text = head?.text.replace(/\s+/g, " ").trim();
    if (!head || !text || text === previous) {
      previous = text ?? previous;
      continue;
    }
    previous = text;
    changes++;
    const title = namedPart(head, page);
    if (title) topics.push({ title, page: page.pageNumber, line: 0 });
  }
  return topics.length >= MIN_TOPICS && topics.length >= changes * NAMED_SHARE ? topics : [];
}

/**
 * The last topic (index) opening at or before line `line` of page `page`, or -1 before the first:
 * a binary search, topics being in document order (a full reference manual holds over a thousand).
 */
export function topicAt(topics: readonly TopicPage[], page: number, line: number): number {
  let lo = 0;
  let hi = topics.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const t = topics[mid] as TopicPage;
    if (t.page < page || (t.page === page && t.line <= line)) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** Which topic (index) a heading's page falls in, or -1 before the first (a topic opens its page). */
const topicOf = (topics: readonly TopicPage[], page: number): number =>
  topicAt(topics, page, Number.POSITIVE_INFINITY);

/**
 * Per title (normalized), the topics holding a heading of it: `topicIndex` gives a heading's
 * topic, or undefined for one counted in none.
 */
export function topicsHolding(
  headings: readonly Heading[],
  topicIndex: (h: Heading) => number | undefined,
): Map<string, Set<number>> {
  const out = new Map<string, Set<number>>();
  for (const h of headings) {
    const t = topicIndex(h);
    if (t === undefined) continue;
    const key = normalizeTitle(h.title);
    const set = out.get(key) ?? new Set<number>();
    set.add(t);
    out.set(key, set);
  }
  return out;
}

interface Look {
  size: number;
  bold: boolean;
  x: number;
}

const lookOf = (pages: readonly ParsedPage[], h: Heading): Look => ({
  size: h.style.size,
  bold: h.style.bold,
  x: pages[h.page - 1]?.lines[h.line]?.x ?? 0,
});
const sameLook = (a: Look, b: Look): boolean =>
  Math.abs(a.size - b.size) < 0.3 && a.bold === b.bold && Math.abs(a.x - b.x) <= MARGIN;

/**
 * The look of the section heads every topic repeats (NAME, SYNOPSIS…): the commonest look among
 * candidates whose title recurs in {@link RECURRING_SHARE} of the topics or more.
 */
function recurringLook(
  pages: readonly ParsedPage[],
  topics: readonly TopicPage[],
  candidates: readonly Heading[],
) {
  const topicsOf = topicsHolding(candidates, (h) => {
    const t = topicOf(topics, h.page);
    return t < 0 ? undefined : t;
  });
  const looks: { look: Look; count: number }[] = [];
  for (const h of candidates) {
    if (
      (topicsOf.get(normalizeTitle(h.title))?.size ?? 0) <
      Math.max(MIN_TOPICS, topics.length * RECURRING_SHARE)
    )
      continue;
    const look = lookOf(pages, h);
    const same = looks.find((l) => sameLook(l.look, look));
    if (same) same.count++;
    else looks.push({ look, count: 1 });
  }
  return looks.sort((a, b) => b.count - a.count)[0]?.look;
}

/**
 * Topics whose pages mostly print their name as a heading too (a module page's "release_handler"
 * set large under the head naming it) are titled by the document already: the layout reads them.
 */
function selfTitled(topics: readonly TopicPage[], strong: readonly Heading[]): boolean {
  const named = topics.filter((t) =>
    strong.some((h) => h.page === t.page && nameKey(h.title) === nameKey(t.title)),
  ).length;
  return named >= topics.length * 0.5;
}

/** The first part of page `at`'s top line that page `from`'s lacks: the new topic's name, if the head changed. */
function changedPart(pages: readonly ParsedPage[], from: number, at: number): string | undefined {
  const before = new Set(partsOf(pages[from - 1]?.lines[0]));
  return partsOf(pages[at - 1]?.lines[0]).find((p) => !before.has(p));
}

/**
 * Topics whose name the body does not open with: a page whose first line under the head is the
 * head that opens most topics (NAME) starts another topic, named by the part its head changed
 * ("PM-GAWK(1)" opening "persistent memory gawk - …"), or by the same head when it did not
 * (pgrep's page, then pkill's and pidwait's, all under "PGREP(1)").
 */
function withReopened(
  pages: readonly ParsedPage[],
  topics: readonly TopicPage[],
  heads: readonly Heading[],
): TopicPage[] {
  const firsts = new Map<string, number>();
  let at = -1;
  for (const h of heads) {
    const t = topicOf(topics, h.page);
    if (t === at) continue;
    at = t;
    const k = normalizeTitle(h.title);
    firsts.set(k, (firsts.get(k) ?? 0) + 1);
  }
  const opener = [...firsts].sort((a, b) => b[1] - a[1])[0];
  if (!opener || opener[1] < topics.length * 0.5) return [...topics];
  const starts = new Set(topics.map((t) => t.page));
  const out = [...topics];
  for (const h of heads) {
    const t = topicOf(topics, h.page);
    const page = pages[h.page - 1];
    // The opener right under a head set apart, at most the opener's size.
    if (h.line !== 1 || !page || !topHead(page, h.style.size) || starts.has(h.page)) continue;
    if (normalizeTitle(h.title) !== opener[0]) continue;
    const previous = topics[t];
    const title = previous
      ? (changedPart(pages, previous.page, h.page) ?? previous.title)
      : partsOf(page.lines[0])[0];
    if (title) out.push({ title, page: h.page, line: 0 });
    starts.add(h.page);
  }
  return out.sort((a, b) => a.page - b.page);
}

/**
 * The tree of a manual made of topics: each topic a top-level node titled by its head; under it
 * the heads of the look every topic repeats, from all strong candidates (the crowded-page and
 * recurring-label rules would take them); under those, the headings the layout path kept, nested
 * as it nests them. Headings before the first topic stay at the top, as the layout nests them.
 */
export function topicTree(
  pages: readonly ParsedPage[],
  found: readonly TopicPage[],
  strong: readonly Heading[],
  kept: readonly Heading[],
): { entries: SectionEntry[]; headings: Heading[] } | undefined {
  if (selfTitled(found, strong)) return undefined;
  let topics = found;
  const look = recurringLook(pages, topics, strong);
  const ofLook = (h: Heading): boolean => look !== undefined && sameLook(lookOf(pages, h), look);
  topics = withReopened(pages, topics, strong.filter(ofLook));
  const isHead = (h: Heading): boolean => topicOf(topics, h.page) >= 0 && ofLook(h);
  const heads = strong.filter(isHead);
  const headKeys = new Set(heads.map((h) => `${h.page}:${h.line}`));
  const rest = kept.filter((h) => !headKeys.has(`${h.page}:${h.line}`) && !isHead(h));
  const entries: SectionEntry[] = [];
  const topicEntries = topics.map(
    (t): SectionEntry => ({ title: t.title, page: t.page, line: t.line, children: [] }),
  );
  // Walk the document once: a topic opens, a repeated head opens under it, other headings nest
  // under the open head (or the topic when none is open yet).
  const byPos = [...heads.map((h) => ({ h, head: true })), ...rest.map((h) => ({ h, head: false }))].sort(
    (a, b) => a.h.page - b.h.page || a.h.line - b.h.line,
  );
  let open: SectionEntry | undefined;
  let pending: Heading[] = [];
  let topicAt = -1;
  const flush = (): void => {
    if (pending.length === 0) return;
    const nested = nestHeadings(pending);
    const home = open ?? topicEntries[topicAt];
    if (home) home.children.push(...nested);
    else entries.push(...nested);
    pending = [];
  };
  for (const { h, head } of byPos) {
    const t = topicOf(topics, h.page);
    if (t !== topicAt) {
      flush();
      for (let i = topicAt + 1; i <= t; i++) entries.push(topicEntries[i] as SectionEntry);
      topicAt = t;
      open = undefined;
    }
    if (head) {
      flush();
      open = { title: h.title, page: h.page, line: h.line, children: [] };
      (topicEntries[t] as SectionEntry).children.push(open);
    } else pending.push(h);
  }
  flush();
  for (let i = topicAt + 1; i < topicEntries.length; i++) entries.push(topicEntries[i] as SectionEntry);
  const topicHeadings: Heading[] = topics.map((t) => {
    const line = pages[t.page - 1]?.lines[t.line];
    return {
      title: t.title,
      page: t.page,
      line: t.line,
      style: { size: line?.size ?? 0, bold: line?.bold ?? false, italic: line?.italic ?? false, caps: false },
      strength: "strong",
    };
  });
  const headings = [...topicHeadings, ...heads, ...rest].sort((a, b) => a.page - b.page || a.line - b.line);
  return { entries, headings };
}
