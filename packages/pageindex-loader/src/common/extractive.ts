/**
 * Extractive (no-LLM) summaries: a short, deterministic lead of a section with markup removed.
 * Works on a bounded window of the text so a huge section costs no more than a small one.
 */

/** How to read the text: Markdown markup is stripped; plain text (PDF) is only tidied. */
export type TextMarkup = "markdown" | "plain";

/** Options of {@link extractiveSummary} and {@link toPlainText}. */
export interface ExtractiveOptions {
  /** Longest summary in characters; whole sentences are kept up to this length. Default 300. */
  maxChars?: number;
  /** Default `"markdown"`. */
  markup?: TextMarkup;
  /** The section's title: dropped when the text starts with it (plain text) so the lead is content. */
  title?: string;
}

/** Default length of an extractive summary, in characters. */
export const DEFAULT_SUMMARY_CHARS = 300;

const ENTITIES: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  "#39": "'",
};

const ATX = /^ {0,3}#{1,6}(?:[ \t]|$)/;
const SETEXT = /^ {0,3}(?:=+|-+)[ \t]*$/;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const TABLE_RULE = /^\s*\|?\s*:?-{2,}:?\s*(?:\|\s*:?-{2,}:?\s*)*\|?\s*$/;
const LINK_DEFINITION = /^ {0,3}\[[^\]]+\]:\s/;
const LIST_ITEM = /^\s*(?:[-*+]|\d{1,9}[.)])\s/;
const THEMATIC = /^ {0,3}(?:(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;

/**
 * Removes inline Markdown/HTML markup from one line, keeping the readable text. Each rule runs
 * only when the line holds the character that starts it (no rule adds a character a later rule
 * looks for), so a plain prose line costs a few scans.
 */
function stripInline(line: string): string {
  let out = line;
  const has = (c: string) => out.includes(c);
  if (has("<!--")) out = out.replace(/<!--.*?-->/g, " ");
  if (has("[")) {
    if (has("![")) out = out.replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1");
    out = out.replace(/\[([^\]]+)\]\([^)]*\)/g, "$1").replace(/\[([^\]]+)\]\[[^\]]*\]/g, "$1");
  }
  if (has("<")) out = out.replace(/<((?:https?|mailto):[^>\s]+)>/g, "$1").replace(/<\/?[A-Za-z][^>]*>/g, " ");
  if (has("{%")) out = out.replace(/\{%[^%]*%\}/g, " ");
  if (has("`")) out = out.replace(/`+([^`]*)`+/g, "$1");
  if (has("*") || has("_") || has("~")) {
    out = out
      .replace(/(\*\*|__|~~)(?=\S)(.+?)(?<=\S)\1/g, "$2")
      .replace(/(^|[^\w*])[*_](?=\S)([^*_]+?)(?<=\S)[*_](?=[^\w*]|$)/g, "$1$2");
  }
  if (has("&"))
    out = out.replace(/&(#39|amp|lt|gt|quot|apos|nbsp);/g, (_, name: string) => ENTITIES[name] ?? "");
  if (has("|")) out = out.replace(/\|/g, " ");
  if (has("\\")) out = out.replace(/\\([\\`*_{}[\]()#+\-.!|>~])/g, "$1");
  return out;
}

/** Non-whitespace characters of a string. */
function visibleChars(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c > 32 && c !== 160) n++;
  }
  return n;
}

/**
 * The lines of a text as `split(/\r\n|\r|\n/)` gives them, cut only as far as they are read:
 * a reader that stops after the lead does not split the rest.
 */
class LazyLines {
  private readonly lines: string[] = [];
  private at = 0;

  constructor(private readonly text: string) {}

  get(i: number): string | undefined {
    const text = this.text;
    while (this.lines.length <= i && this.at <= text.length) {
      let end = this.at;
      while (end < text.length && text.charCodeAt(end) !== 10 && text.charCodeAt(end) !== 13) end++;
      this.lines.push(text.slice(this.at, end));
      this.at = text.charCodeAt(end) === 13 && text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
    }
    return this.lines[i];
  }
}

/**
 * Markdown to readable plain text: headings, fences, HTML comments, table rules, link
 * definitions and block markers (lists, quotes) removed; fenced/indented code kept only when
 * the text has no prose at all. Whitespace is collapsed to single spaces. With `enough`, stops
 * once the prose holds that many visible characters (`complete: false`): the text is then a
 * prefix of the whole conversion.
 */
function markdownToPlain(
  text: string,
  enough = Number.POSITIVE_INFINITY,
): { text: string; complete: boolean } {
  const prose: string[] = [];
  const code: string[] = [];
  let fence: string | undefined;
  let inComment = false;
  let previousBlank = true;
  let inList = false;
  let visible = 0;
  const lines = new LazyLines(text);
  for (let i = 0; ; i++) {
    const line = lines.get(i);
    if (line === undefined) break;
    if (fence !== undefined) {
      const marker = FENCE.exec(line)?.[1];
      if (
        marker !== undefined &&
        marker[0] === fence[0] &&
        marker.length >= fence.length &&
        !line.trim().slice(marker.length).trim()
      ) {
        fence = undefined;
      } else code.push(line);
      continue;
    }
    if (inComment) {
      if (line.includes("-->")) inComment = false;
      continue;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = open[1] as string;
      continue;
    }
    if (/^\s*<!--/.test(line) && !line.includes("-->")) {
      inComment = true;
      continue;
    }
    const blank = line.trim() === "";
    const indented = /^(?: {4}|\t)/.test(line);
    if (!blank && previousBlank && indented && !inList) {
      code.push(line);
      continue;
    }
    previousBlank = blank;
    // Indented lines after a list item continue it; they are not code.
    if (!blank) inList = LIST_ITEM.test(line) || (inList && indented);
    if (
      blank ||
      ATX.test(line) ||
      TABLE_RULE.test(line) ||
      LINK_DEFINITION.test(line) ||
      THEMATIC.test(line)
    ) {
      continue;
    }
    const next = lines.get(i + 1);
    if (next !== undefined && SETEXT.test(next) && !/^\s*[-*+]\s/.test(line)) {
      i += 1; // a setext heading: its text is the title, not content
      continue;
    }
    if (SETEXT.test(line)) continue;
    const body = line
      .replace(/^\s*(?:>\s?)+/, "")
      .replace(/^\s*(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/, "");
    const plain = stripInline(body);
    prose.push(plain);
    visible += visibleChars(plain);
    if (visible >= enough) return { text: collapse(prose.join(" ")), complete: false };
  }
  const chosen = prose.some((l) => l.trim()) ? prose : code;
  return { text: collapse(chosen.join(" ")), complete: true };
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function windowOf(text: string, maxChars: number): string {
  // Enough text for the lead even after markup removal, without touching the rest.
  const limit = Math.max(4000, maxChars * 12);
  if (text.length <= limit) return text;
  const cut = text.lastIndexOf("\n", limit);
  return text.slice(0, cut > limit / 2 ? cut : limit);
}

/** One line of a printed table of contents: a title, dot leaders and a page number (arabic or roman). */
const CONTENTS_ENTRY = /^[^\n]{0,160}?(?:[ \t]*[.·…_]){4,}[ \t]*(?:\d{1,4}|[ivxlc]{1,6})[ \t]*$/gim;

/**
 * Readable plain text of a section: Markdown markup stripped (or, for plain text, whitespace
 * collapsed and a leading repeat of the title dropped). Reads the whole text; see
 * {@link extractiveSummary} for a bounded lead.
 */
export function toPlainText(text: string, options: Omit<ExtractiveOptions, "maxChars"> = {}): string {
  const markup = options.markup ?? "markdown";
  // A printed contents entry ("Item 7. MD&A ........ 14") names another section: kept in a
  // summary it would make the contents page look like it holds every section it lists. Other
  // dot leaders are layout, not words.
  let plain =
    markup === "markdown"
      ? markdownToPlain(text).text
      : collapse(text.replace(CONTENTS_ENTRY, "").replace(/(?:[ \t]*[.·…_]){4,}/g, " "));
  const title = options.title ? collapse(options.title) : "";
  if (markup === "plain" && title) {
    // The heading line, with the section number a PDF prints before the title ("4.1 Background").
    const number = /^(?:\d+(?:\.\d+)*\.?|[A-Z](?:\.\d+)+\.?)\s+/.exec(plain)?.[0] ?? "";
    const at = plain.toLowerCase().startsWith(title.toLowerCase()) ? 0 : number.length;
    if (plain.slice(at).toLowerCase().startsWith(title.toLowerCase())) {
      plain = plain.slice(at + title.length).replace(/^[\s:.\-–—]+/, "");
    }
  }
  return plain;
}

/** `plain` cut to `maxChars` at a word, with an ellipsis. */
function cutAtWord(plain: string, maxChars: number): string {
  if (plain.length <= maxChars) return plain;
  const space = plain.lastIndexOf(" ", maxChars - 1);
  return `${plain.slice(0, space > maxChars / 2 ? space : maxChars - 1).replace(/[\s,;:]+$/, "")}…`;
}

/** Whole sentences from the start of `plain`, up to `maxChars`; a long first sentence is cut at a word. */
export function leadSentences(plain: string, maxChars: number): string {
  if (plain.length <= maxChars) return plain;
  const ends = /[.!?…]["')\]]*(?=\s|$)/g;
  let cut = 0;
  for (let m = ends.exec(plain); m !== null; m = ends.exec(plain)) {
    const end = m.index + m[0].length;
    if (end > maxChars) break;
    cut = end;
  }
  return cut > 0 ? plain.slice(0, cut) : cutAtWord(plain, maxChars);
}

/** Words that open a clause but not a sentence: text starting with one continues a sentence from the page before. */
const CONTINUATION =
  /^(?:and|or|but|nor|of|to|in|on|at|by|for|from|with|as|than|that|which|who|whose|whom|is|are|was|were|be|been|the|a|an|its|their|this|these|it|into|onto|upon|via|if|then|so)\b/;

/**
 * Drops a leading fragment of a sentence begun on an earlier page ("and the rest of it. The
 * next…"): lower-case text that opens with a joining word or a comma, when a sentence starts
 * soon after. A lower-case command name ("ls lists…") opens a real sentence and stays.
 */
function fromSentenceStart(plain: string): string {
  if (!/^\p{Ll}/u.test(plain) || !(CONTINUATION.test(plain) || /^\S+[,;]\s/.test(plain))) return plain;
  const next = /[.!?]["')\]]*\s+(?=[\p{Lu}\d"'(])/u.exec(plain.slice(0, 600));
  const rest = next ? plain.slice(next.index + next[0].length) : "";
  return rest.length >= 20 ? rest : plain;
}

/** A lead too thin to tell a reader anything: a bare name or a few words ("R_DEFAULT_PACKAGES."). */
const thin = (lead: string): boolean => lead.split(/\s+/).filter(Boolean).length < 4;

/**
 * A deterministic lead of a section: markup stripped, first sentences up to `maxChars`.
 * Returns `""` when the section has no content besides its heading.
 */
export function extractiveSummary(text: string, options: ExtractiveOptions = {}): string {
  const maxChars = options.maxChars ?? DEFAULT_SUMMARY_CHARS;
  const window = windowOf(text, maxChars);
  if ((options.markup ?? "markdown") === "markdown") {
    // Only the lead is kept: convert just enough prose. The sentence cut reads one character
    // past `maxChars` and a run of closing quotes or brackets; past such a run the prefix
    // decides exactly as the whole text would, else convert it all.
    const prefix = markdownToPlain(window, maxChars + 16);
    if (prefix.complete || /[^"')\]]/.test(prefix.text.slice(maxChars + 1)))
      return leadSentences(prefix.text, maxChars);
    return leadSentences(toPlainText(window, options), maxChars);
  }
  // Plain (PDF) text: start at a real sentence, and when the first sentence is only a name,
  // go on into the next one rather than stop at the name.
  const plain = fromSentenceStart(toPlainText(window, options));
  const lead = leadSentences(plain, maxChars);
  return thin(lead) && plain.length > lead.length ? cutAtWord(plain, maxChars) : lead;
}
