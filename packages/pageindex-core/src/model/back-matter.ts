import type { BackMatterKind, SkeletonNode } from "./types.js";

/** What back-matter detection reads of a node: its title and whatever text or summary it has. */
export type BackMatterInput = Pick<SkeletonNode, "title"> &
  Partial<Pick<SkeletonNode, "summary" | "prefixSummary" | "backMatter">> & { text?: string };

/** Titles that are back matter whatever their content, after numbering is removed. */
const BY_TITLE: ReadonlyArray<[BackMatterKind, RegExp]> = [
  ["contents", /^(?:(?:table of |brief |detailed |short )?contents|contents at a glance|toc)$/],
  [
    "index",
    /^(?:index|indices|indexes|(?:general|alphabetical|subject|main) index|index of [\p{L} ,&-]{1,40})$/u,
  ],
  ["figures", /^(?:list of (?:figures|illustrations|plates)|table of figures)$/],
  ["tables", /^list of tables$/],
  [
    "list",
    /^list of (?:listings|examples|algorithms|abbreviations|acronyms|symbols|programs|code listings|exhibits)$/,
  ],
  ["bibliography", /^(?:bibliography|references|works cited|literature cited|bibliographical notes)$/],
  ["glossary", /^glossary(?: of terms)?$/],
];

/** Words before "index" that make a manual's index ("Concept Index", "Function Index"). */
const INDEX_QUALIFIER =
  /^(?:[\p{L}-]+ )?(?:concept|function|functions|variable|variables|command|commands|keyword|keywords|program|option|options|name|author|type|data type|operator|class|method|macro|symbol|file|key|topic|procedure|api|example|term|terms)s? index$/u;

/** Titles of the part before the first section, which often holds the cover and the contents. */
const FRONT = /^(?:preface|front matter|title page|cover|untitled|\(untitled\))$/;

/** Leading numbering ("12", "A.", "Appendix C:", "Chapter 9 -") of a title, lower-cased. */
function bareTitle(title: string): string {
  return title
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim()
    .replace(
      /^(?:(?:appendix|chapter|part|section)\s+)?(?:[\divxlc]{1,6}|[a-z])(?:\.\d+)*[.:)]?\s+(?=\p{L})/u,
      "",
    )
    .replace(/^(?:appendix|chapter|part)\s*[:.-]\s*/, "")
    .replace(/[\s.:;]+$/, "");
}

/**
 * Whether a text reads like a list of page references (an index: "xls 23, 32 cat 4, 27"; a
 * table of contents: "Overview .... 3"): many of its tokens are page numbers.
 */
export function looksLikePageList(text: string): boolean {
  // A printed table of contents: titles, dot leaders, page numbers.
  if ((text.match(/(?:\. ?){4,}\s*(?:\d{1,4}|[ivxlc]{1,6})\b/gi) ?? []).length >= 3) return true;
  const tokens = text.split(/\s+/).filter(Boolean);
  if (tokens.length < 12) return false;
  const numbers = tokens.filter((t) => /^[([]?(?:\d{1,4}|[ivxlc]{1,6})[)\],.;]?$/i.test(t)).length;
  return numbers >= 6 && numbers / tokens.length >= 0.2;
}

/** Lists and indexes are not prose: a text with several long sentences is about the subject instead. */
function isProse(text: string): boolean {
  const sentences = text.split(/[.!?](?:\s|$)/).filter((s) => (s.match(/\p{L}{2,}/gu) ?? []).length >= 10);
  return sentences.length >= 2;
}

/** Kinds whose pages are lists, never prose. */
const LISTS: ReadonlySet<BackMatterKind> = new Set(["contents", "index", "figures", "tables", "list"]);

/**
 * The kind of back matter a section is, from its title and the shape of its text or summary:
 * an index, a table of contents, a list of figures or tables, a bibliography, a glossary. A
 * stored `backMatter` wins. `undefined` for content (the default).
 */
export function detectBackMatter(node: BackMatterInput): BackMatterKind | undefined {
  if (node.backMatter) return node.backMatter;
  const title = bareTitle(node.title);
  const body = node.text ?? `${node.summary ?? ""} ${node.prefixSummary ?? ""}`;
  for (const [kind, pattern] of BY_TITLE) {
    // "Table of Contents" in a manual about a tool that makes them is content.
    if (pattern.test(title)) return LISTS.has(kind) && isProse(body) ? undefined : kind;
  }
  if (INDEX_QUALIFIER.test(title) && (body.trim() === "" || looksLikePageList(body))) return "index";
  if (/ index$/.test(title) && looksLikePageList(body)) return "index";
  // The pages before the first section: a cover and the contents, not a foreword or a summary
  // (an extractive summary of an older tree may keep only the contents' heading).
  if (FRONT.test(title) && !isProse(body)) {
    const shaped = node.text === undefined ? /\b(?:table of contents|contents)\b/i : undefined;
    if (looksLikePageList(body) || shaped?.test(body)) return "contents";
  }
  return undefined;
}

/** What a question must mention to be asking for a kind of back matter. */
const ASKS: Record<BackMatterKind, RegExp> = {
  contents: /\b(?:table of contents|contents|toc)\b/i,
  index: /\b(?:index|indices|indexes)\b/i,
  figures: /\b(?:list of (?:figures|illustrations)|table of figures)\b/i,
  tables: /\blist of tables\b/i,
  list: /\blist of\b|\b(?:abbreviations|acronyms)\b/i,
  bibliography: /\b(?:bibliograph\w*|references|citations?|cited|works cited)\b/i,
  glossary: /\b(?:glossary|definitions? of terms)\b/i,
};

/** Whether a question asks for this kind of back matter (e.g. "index", "list of figures"). */
export function asksForBackMatter(query: string, kind: BackMatterKind): boolean {
  return ASKS[kind].test(query);
}
