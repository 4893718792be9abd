import type { DocumentFacts } from "../common/describe.js";
import { leadSentences, toPlainText } from "../common/extractive.js";
import { letterCount, wordCount } from "../common/text-measures.js";
import { linesText, type ParsedMarkdown } from "./parse.js";
import { capTitle, UNTITLED } from "./title.js";

// What a Markdown document says about itself, for its description: front matter (title,
// subtitle, description or summary, author, keywords or tags), the only H1, and the first real
// paragraph — not a row of badges, a table of contents or a line of links.

const LEAD_CHARS = 250;
const LEAD_FIELDS = ["description", "summary", "abstract", "excerpt"];
const LINKED_IMAGE = /\[\s*!\[[^\]]*\]\([^)]*\)\s*\]\([^)]*\)/g;
const IMAGE = /!\[[^\]]*\](?:\([^)]*\)|\[[^\]]*\])|<img\b[^>]*>/gi;
const LINK_TEXT = /\[([^\]]+)\](?:\([^)]*\)|\[[^\]]*\])/g;
const CONTENTS = /^(?:table of contents|contents|toc)\b/i;

const oneLine = (value: string): string => value.replace(/\s+/g, " ").trim();

function stringField(data: Record<string, unknown> | undefined, key: string): string | undefined {
  const value = data?.[key];
  return typeof value === "string" && value.trim() ? oneLine(value) : undefined;
}

/** A front matter list (`[a, b]`, `"a, b"`) as strings. */
function listField(data: Record<string, unknown> | undefined, key: string): string[] {
  const value = data?.[key];
  const items = Array.isArray(value) ? value : typeof value === "string" ? value.split(",") : [];
  return items
    .filter((v): v is string => typeof v === "string")
    .map(oneLine)
    .filter(Boolean);
}

function authorOf(data: Record<string, unknown> | undefined): string | undefined {
  const value = data?.author ?? data?.authors;
  const names = (Array.isArray(value) ? value : [value])
    .map((v) => (typeof v === "object" && v !== null ? (v as { name?: unknown }).name : v))
    .filter((v): v is string => typeof v === "string" && v.trim() !== "")
    .map(oneLine);
  const joined = names.join(", ");
  return joined && joined.length <= 80 ? joined : undefined;
}

/**
 * The first top-level paragraph that reads as prose: four words or more once images, badges
 * and HTML are gone, mostly not link text, not a "Contents" line. One or two sentences of it.
 */
export function firstParagraphLead(parsed: ParsedMarkdown): string | undefined {
  for (const { line, lastLine } of parsed.leadParagraphs) {
    // A paragraph's line breaks are soft: one line, so emphasis spanning two lines is read whole.
    // The lead is a sentence or two: the paragraph's opening is enough (a 2 MB one-line
    // paragraph costs no more than a short one).
    const raw = linesText(parsed, line, Math.min(lastLine, line + 40))
      .slice(0, 4000)
      .replace(/\n[ \t]*/g, " ")
      .replace(LINKED_IMAGE, " ")
      .replace(IMAGE, " ");
    let linked = 0;
    for (const match of raw.matchAll(LINK_TEXT)) linked += letterCount(match[1] ?? "");
    const plain = toPlainText(raw, { markup: "markdown" });
    const letters = letterCount(plain);
    if (wordCount(plain) < 4 || letters < 20 || linked > letters / 2 || CONTENTS.test(plain)) continue;
    return leadSentences(plain, LEAD_CHARS);
  }
  return undefined;
}

/** What a Markdown document says about itself (see the module comment). */
export function markdownFacts(
  parsed: ParsedMarkdown,
  frontMatter: Record<string, unknown> | undefined,
): DocumentFacts {
  const facts: DocumentFacts = {};
  const h1s = parsed.headings.filter((h) => h.level === 1 && h.title !== UNTITLED);
  const title = stringField(frontMatter, "title") ?? (h1s.length === 1 ? h1s[0]?.title : undefined);
  if (title) facts.title = capTitle(title);
  const subtitle = stringField(frontMatter, "subtitle");
  if (subtitle) facts.subtitle = capTitle(subtitle);
  const author = authorOf(frontMatter);
  if (author) facts.author = author;
  const declared = LEAD_FIELDS.map((f) => stringField(frontMatter, f)).find((v) => v !== undefined);
  const lead = declared
    ? leadSentences(toPlainText(declared, { markup: "markdown" }), LEAD_CHARS)
    : firstParagraphLead(parsed);
  if (lead) facts.lead = lead;
  const keywords = [...listField(frontMatter, "keywords"), ...listField(frontMatter, "tags")];
  if (keywords.length > 0) facts.keywords = [...new Set(keywords)].slice(0, 8);
  return facts;
}
