/** Longest node title in characters; the full heading stays in the node's text. */
export const MAX_TITLE_CHARS = 200;

/** Title of a heading with no text. */
export const UNTITLED = "(untitled)";

/**
 * Caps a title at `max` characters: cut at the last word boundary in the second half of the
 * limit (else mid-word) and marked with "…", so a runaway heading (a pasted paragraph, a
 * generated 25 kB line) cannot flood tables of contents and prompts.
 */
export function capTitle(title: string, max = MAX_TITLE_CHARS): string {
  if (title.length <= max) return title;
  let room = title.slice(0, max - 1);
  // Never split a surrogate pair (an emoji): half of one is not a character.
  if (/[\uD800-\uDBFF]$/.test(room)) room = room.slice(0, -1);
  // `room` may end exactly at a word's end; else back up to the last space.
  const space = title.charAt(room.length) === " " ? room.length : room.lastIndexOf(" ");
  const cut = space >= max / 2 ? room.slice(0, space) : room;
  return `${cut.replace(/[\s,;:.\-–—]+$/, "")}…`;
}

// One heading element and nothing else: `<h1 align="center">Project</h1>`, possibly spread
// over lines. The inner part must hold no other heading tag, else the block is two elements.
const HTML_HEADING = /^\s*<h([1-6])(?:\s[^>]*)?>([\s\S]*)<\/h\1\s*>\s*$/i;
const OTHER_HEADING_TAG = /<\/?h[1-6](?:[\s/>]|$)/i;
// Tags never span a `<`: stopping there keeps each scan to the next tag, so a line of a million
// `<` (or `<img `) without `>` is linear rather than quadratic.
const IMAGE_ALT = /<img\b[^<>]*?\balt\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'<>]+))[^<>]*>/gi;

/**
 * Replaces each closed `<!-- … -->` comment with `replacement`; an unclosed one stays. A loop of
 * `indexOf` rather than a lazy regex, which rescans to the end from every unclosed `<!--`.
 */
export function replaceComments(html: string, replacement: string): string {
  let out = "";
  let at = 0;
  for (;;) {
    const open = html.indexOf("<!--", at);
    const close = open === -1 ? -1 : html.indexOf("-->", open + 4);
    if (close === -1) return out + html.slice(at);
    out += html.slice(at, open) + replacement;
    at = close + 3;
  }
}

/**
 * Reads an HTML block that is a single heading element (as READMEs write centred titles) as
 * a heading: its level, and its text content as the title (tags stripped, an image counted
 * by its `alt` text as in Markdown titles, entities decoded). Any other HTML block is text.
 * @param decode decodes character references (markdown-it's `utils.unescapeAll`).
 * @returns undefined when the block is not exactly one `<h1>`…`<h6>` element.
 */
export function htmlHeading(
  html: string,
  decode: (text: string) => string,
): { level: number; title: string } | undefined {
  const match = HTML_HEADING.exec(html);
  if (!match) return undefined;
  const inner = match[2] ?? "";
  if (OTHER_HEADING_TAG.test(inner)) return undefined;
  const text = replaceComments(inner, " ")
    .replace(IMAGE_ALT, (_, d?: string, s?: string, u?: string) => ` ${d ?? s ?? u ?? ""} `)
    .replace(/<br\s*\/?>/gi, " ")
    .replace(/<[^<>]*>/g, "");
  const title = decode(text).replace(/\s+/g, " ").trim();
  return { level: Number(match[1]), title: title || UNTITLED };
}
