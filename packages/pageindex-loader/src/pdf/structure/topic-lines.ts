import { mostCommon } from "../text/counts.js";
import type { ParsedPage, PdfLine, SectionEntry } from "../types.js";
import type { Heading } from "./candidates.js";
import { nestHeadings } from "./hierarchy.js";
import { SIZE_STEP, styleOf } from "./style.js";
import { normalizeTitle } from "./titles.js";
import {
  APART,
  MARGIN,
  nameKey,
  partsOf,
  RECURRING_SHARE,
  type TopicPage,
  topHead,
  topicAt,
  topicsHolding,
} from "./topic-pages.js";

/*
 * A reference manual of short topics (help pages, functions), several to a sheet, opens each
 * topic mid-page under a heading line that carries nothing a heading rule sees — R's Rd2pdf
 * sets "bread ⇥ Bread for Sandwiches" at the body's size, in a box — while its running heads
 * are dictionary-style, quoting the first or last topic of the page ("2 ⇥ bread", "estfun ⇥ 3").
 * The document's own evidence, then: a line set apart from the text above it whose first run is
 * one token that the head of its page (or of the next, for a topic opening low on a page)
 * quotes opens a topic of that name. Topics are TopicPage records (topic-pages.ts), the line
 * being the heading's.
 */

/** Fewer topics than this is no reference manual. */
const MIN_TOPICS = 3;
/** Share of the names the heads quote that must open a topic: heads quoting section titles do not. */
const QUOTED_SHARE = 0.8;
/** Share of the topics that must open mid-page (pages of one topic each are topic-pages.ts's). */
const MID_PAGE_SHARE = 0.5;

/** The line's first run (before a tab) when it is one token with a letter in it: a topic's name. */
function firstToken(line: PdfLine): string | undefined {
  const first = (line.text.split("\t")[0] ?? "").trim();
  return /^\S+$/.test(first) && /\p{L}/u.test(first) ? first : undefined;
}

/** The names a running head quotes: its one-token parts with a letter, exactly as printed. */
function quotedNames(head: PdfLine | undefined): Set<string> {
  return new Set(partsOf(head).filter((p) => /^\S+$/.test(p) && /\p{L}/u.test(p)));
}

/** Share of the pages whose top line must be a head at one height for the document to have running heads. */
const HEADED_SHARE = 0.5;

/**
 * Each page's running head: its top line set apart from the body ({@link topHead}) at the height
 * where most pages have one (a body line that merely opens a page is elsewhere), when half the
 * pages or more have one there.
 */
function runningHeads(pages: readonly ParsedPage[], bodySize: number): (PdfLine | undefined)[] {
  const heads = pages.map((p) => topHead(p, bodySize));
  const heights = new Map<number, number>();
  for (const h of heads) if (h) heights.set(Math.round(h.y), (heights.get(Math.round(h.y)) ?? 0) + 1);
  const [y, count] = [...heights].sort((a, b) => b[1] - a[1])[0] ?? [0, 0];
  if (count < pages.length * HEADED_SHARE) return pages.map(() => undefined);
  return heads.map((h) => (h && Math.abs(h.y - y) <= 1 ? h : undefined));
}

/**
 * The lines opening topics, when the document is a manual of them: at least {@link MIN_TOPICS},
 * most names its heads quote opened by one, half of them or more below another line of text on
 * their page, and not mostly headings in their own right (a module page's name set large, which
 * the layout rules read). Otherwise none.
 */
export function findTopicLines(
  pages: readonly ParsedPage[],
  bodySize: number,
  strong: readonly Heading[],
): TopicPage[] {
  const quoted = runningHeads(pages, bodySize).map((head) => quotedNames(head));
  const named = topicLinesWhere(
    pages,
    bodySize,
    (name, i) => quoted[i]?.has(name) || quoted[i + 1]?.has(name),
  );
  if (named.length < MIN_TOPICS) return [];
  const names = new Set(quoted.flatMap((q) => [...q]));
  const opened = new Set(named.map((t) => t.title));
  const covered = [...names].filter((n) => opened.has(n)).length;
  const midPage = named.filter((t) => t.line > 1).length;
  const strongAt = new Set(strong.map((h) => `${h.page}:${h.line}`));
  const headed = named.filter((t) => strongAt.has(`${t.page}:${t.line}`)).length;
  if (
    covered < names.size * QUOTED_SHARE ||
    midPage < named.length * MID_PAGE_SHARE ||
    headed >= named.length * 0.5
  )
    return [];
  // Dictionary heads quote only a page's first and last topic: those between share their look.
  const look = topicLook(pages, named);
  return topicLinesWhere(pages, bodySize, (name, i, j) => {
    const line = pages[i]?.lines[j] as PdfLine;
    return (
      quoted[i]?.has(name) === true ||
      quoted[i + 1]?.has(name) === true ||
      (Math.abs(line.x - look.x) <= MARGIN &&
        Math.abs(line.size - look.size) < 0.3 &&
        line.bold === look.bold &&
        line.gapBefore >= look.gap &&
        partsOf(line).length >= look.parts)
    );
  });
}

/** Share of the topics' usual gap above them that another line of their look needs. */
const GAP_SHARE = 0.6;

/** The look the heads' topics share: their commonest left edge, size and weight, gap above, runs. */
function topicLook(pages: readonly ParsedPage[], topics: readonly TopicPage[]) {
  const lines = topics.map((t) => pages[t.page - 1]?.lines[t.line] as PdfLine);
  // The first met wins a tie (as a stable sort by count would).
  const commonest = <T>(values: T[]): T => {
    const counts = new Map<T, number>();
    for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
    return mostCommon(counts, values[0] as T);
  };
  const x = commonest(lines.map((l) => Math.round(l.x)));
  const same = lines.filter((l) => Math.abs(l.x - x) <= MARGIN);
  const gaps = same
    .filter((_, k) => (topics[k]?.line ?? 0) > 1)
    .map((l) => l.gapBefore)
    .sort((a, b) => a - b);
  return {
    x,
    size: commonest(same.map((l) => l.size)),
    bold: commonest(same.map((l) => l.bold)),
    gap: (gaps[gaps.length >> 1] ?? 0) * GAP_SHARE,
    parts: commonest(same.map((l) => Math.min(2, partsOf(l).length))),
  };
}

/** The lines set apart whose first run is one token that `accept` takes, in order; a name's repeat under itself skipped. */
function topicLinesWhere(
  pages: readonly ParsedPage[],
  bodySize: number,
  accept: (name: string, page: number, line: number) => boolean | undefined,
): TopicPage[] {
  const topics: TopicPage[] = [];
  pages.forEach((page, i) => {
    const from = topHead(page, bodySize) ? 1 : 0;
    for (let j = from; j < page.lines.length; j++) {
      const line = page.lines[j] as PdfLine;
      if (j > 0 && line.gapBefore < line.size * APART) continue;
      const name = firstToken(line);
      // The open topic's name again (a line of its examples) is a mention, not another topic.
      if (!name || topics[topics.length - 1]?.title === name) continue;
      if (accept(name, i, j)) topics.push({ title: name, page: page.pageNumber, line: j });
    }
  });
  return topics;
}

/**
 * The tree of a manual of mid-page topics: each topic a top-level node titled by its name. The
 * sub-heads every topic repeats (Description, Usage, Arguments…) stay in their topic's text, as
 * such manuals' own outlines keep them; other headings the layout kept nest under their topic,
 * but one set larger than the topics' lines (an "Index" after the last) stands beside
 * them. A kept heading on a topic's own line (the printed contents placed it) is that topic.
 * Headings before the first topic stay at the top, as the layout nests them.
 */
export function topicLineTree(
  pages: readonly ParsedPage[],
  topics: readonly TopicPage[],
  strong: readonly Heading[],
  kept: readonly Heading[],
): { entries: SectionEntry[]; headings: Heading[] } {
  const topicHeadings: Heading[] = topics.map((t) => {
    const line = pages[t.page - 1]?.lines[t.line] as PdfLine;
    return { title: t.title, page: t.page, line: t.line, style: styleOf(line), strength: "strong" };
  });
  const look = topicHeadings[0]?.style;
  const names = new Set(topics.map((t) => nameKey(t.title)));
  // The last topic at or before each heading; those before the first count as one more (-1).
  const topicsOf = topicsHolding([...strong, ...kept], (h) => topicAt(topics, h.page, h.line));
  // The printed contents may have placed a topic by its entry's title with lines joined before
  // it ("2 ⇥ aggregate.zoo frequency<-", a running head and the entry): a heading ending in the
  // name of a topic on its page is that topic ("2 The abind package" over "abind" is not).
  const onTopic = (h: Heading): boolean =>
    names.has(nameKey(h.title)) ||
    topics.some(
      (t) =>
        t.page === h.page && (t.line === h.line || normalizeTitle(h.title).endsWith(normalizeTitle(t.title))),
    );
  const rest = kept.filter(
    (h) =>
      !onTopic(h) &&
      (topicsOf.get(normalizeTitle(h.title))?.size ?? 0) < Math.max(2, topics.length * RECURRING_SHARE),
  );
  const byPos = [
    ...topicHeadings.map((h) => ({ h, topic: true })),
    ...rest.map((h) => ({ h, topic: false })),
  ].sort((a, b) => a.h.page - b.h.page || a.h.line - b.h.line);
  const entries: SectionEntry[] = [];
  // A heading set larger than the topics' lines closes the open topic (an "Index" after the last);
  // where two or more such headings each open a run of topics (parts naming packages), each holds
  // the topics after it. One alone is no part: a contents' caption right above the first topic.
  const larger = (h: Heading): boolean => look !== undefined && h.style.size >= look.size + SIZE_STEP;
  const parts = byPos.filter((x, k) => !x.topic && larger(x.h) && byPos[k + 1]?.topic).length >= 2;
  let group: SectionEntry | undefined;
  let open: SectionEntry | undefined;
  let pending: Heading[] = [];
  const flush = (): void => {
    const home = open ?? group;
    if (home) home.children.push(...nestHeadings(pending));
    else entries.push(...nestHeadings(pending));
    pending = [];
  };
  byPos.forEach(({ h, topic }, k) => {
    if (topic) {
      flush();
      open = { title: h.title, page: h.page, line: h.line, children: [] };
      (group?.children ?? entries).push(open);
    } else if (larger(h) && (open || group || (parts && byPos[k + 1]?.topic))) {
      flush();
      open = undefined;
      const entry: SectionEntry = { title: h.title, page: h.page, line: h.line, children: [] };
      entries.push(entry);
      group = parts ? entry : undefined;
    } else pending.push(h);
  });
  flush();
  const headings = [...topicHeadings, ...rest].sort((a, b) => a.page - b.page || a.line - b.line);
  return { entries, headings };
}
