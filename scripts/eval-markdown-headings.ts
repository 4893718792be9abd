// Compares the Markdown loader's headings with an independent reference on every file of
// ../shared/corpus/markdown: count, levels, titles, and `#` lines inside code that must not
// become headings. The reference is a line scanner written for this check (fences, HTML
// blocks, YAML `---`/`...` and TOML `+++` front matter, ATX and setext headings, HTML blocks
// that are one `<h1>`…`<h6>` element), sharing no code with the loader. Titles over 200
// characters are compared by the loader's capped prefix.
// Usage: pnpm build && npx tsx scripts/eval-markdown-headings.ts
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MarkdownTreeLoader } from "pageindex-loader";
import { requireCorpus } from "./corpus.js";

interface RefHeading {
  line: number;
  level: number;
  title: string;
}

const ATX = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const FENCE_OPEN = /^ {0,3}(`{3,}|~{3,})(.*)$/;
const SETEXT = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC = /^ {0,3}(?:(?:-[ \t]*){3,}|(?:\*[ \t]*){3,}|(?:_[ \t]*){3,})$/;
const LIST_ITEM = /^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:[ \t]|$)/;
const BLOCK_TAGS =
  "address|article|aside|base|basefont|blockquote|body|caption|center|col|colgroup|dd|details|dialog|dir|div|dl|dt|fieldset|figcaption|figure|footer|form|frame|frameset|h[1-6]|head|header|hr|html|iframe|legend|li|link|main|menu|menuitem|nav|noframes|ol|optgroup|option|p|param|search|section|summary|table|tbody|td|tfoot|th|thead|title|tr|track|ul";
const HTML_UNTIL_BLANK = new RegExp(`^ {0,3}</?(?:${BLOCK_TAGS})(?:[\\s/>]|$)`, "i");
const HTML_RAW = /^ {0,3}<(script|pre|style|textarea)(?:[\s>]|$)/i;

/** An HTML block that is exactly one heading element, as level and plain title. */
function htmlHeadingOf(block: string): RefHeading | undefined {
  const m = /^\s*<h([1-6])\b[^>]*>([\s\S]*)<\/h\1\s*>\s*$/i.exec(block);
  if (!m || /<\/?h[1-6]\b/i.test(m[2] ?? "")) return undefined;
  const alt = (tag: string) => / alt="([^"]*)"/i.exec(tag)?.[1] ?? "";
  const text = (m[2] ?? "").replace(/<img[^>]*>/gi, (tag) => ` ${alt(tag)} `).replace(/<[^>]*>/g, " ");
  return { line: 0, level: Number(m[1]), title: plainTitle(text) || "(untitled)" };
}

/** Inline markup to plain text, the simple way (enough for real headings). */
function plainTitle(raw: string): string {
  // Escaped punctuation is set aside first so it cannot pair up as emphasis.
  const hide = (c: string) => String.fromCharCode(0xe000 + c.charCodeAt(0));
  return raw
    .replace(/\\([!-/:-@[-`{-~])/g, (_, c: string) => hide(c))
    .replace(/!\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/\[([^\]]*)\]\([^)]*\)/g, "$1")
    .replace(/<[^>]+>/g, "")
    .replace(/`([^`]*)`/g, "$1")
    .replace(/(\*\*|__)(.+?)\1/g, "$2")
    .replace(/(^|\W)[*_](\S(?:.*?\S)?)[*_](?=\W|$)/g, "$1$2")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/[\ue000-\ue07f]/g, (c) => String.fromCharCode(c.charCodeAt(0) - 0xe000))
    .replace(/\s+/g, " ")
    .trim();
}

/** Reference headings plus the lines inside code that look like ATX headings. */
function scan(text: string): { headings: RefHeading[]; codeHashLines: number[]; column0: number } {
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  const headings: RefHeading[] = [];
  const codeHashLines: number[] = [];
  let i = 0;
  const fence = /^(---|\+\+\+)\s*$/.exec(lines[0] ?? "")?.[1];
  if (fence) {
    const closing = fence === "---" ? /^(?:---|\.\.\.)\s*$/ : /^\+\+\+\s*$/;
    const close = lines.findIndex((l, k) => k > 0 && closing.test(l));
    if (close > 0) i = close + 1;
  }
  let paragraph: string[] = [];
  let paragraphStart = 0;
  let inList = false;
  for (; i < lines.length; i++) {
    const line = lines[i] as string;
    const blank = line.trim() === "";
    const fence = FENCE_OPEN.exec(line);
    if (fence && !(fence[1]?.startsWith("`") && fence[2]?.includes("`"))) {
      const marker = fence[1] as string;
      paragraph = [];
      for (i += 1; i < lines.length; i++) {
        const l = lines[i] as string;
        const close = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(l);
        if (close && close[1]?.[0] === marker[0] && (close[1]?.length ?? 0) >= marker.length) break;
        if (/^\s*#{1,6}(?:\s|$)/.test(l)) codeHashLines.push(i + 1);
      }
      continue;
    }
    if (/^ {0,3}<!--/.test(line)) {
      while (i < lines.length && !(lines[i] as string).includes("-->")) i++;
      paragraph = [];
      continue;
    }
    const raw = HTML_RAW.exec(line);
    if (raw) {
      const end = new RegExp(`</${raw[1]}>`, "i");
      while (i < lines.length && !end.test(lines[i] as string)) i++;
      paragraph = [];
      continue;
    }
    if (HTML_UNTIL_BLANK.test(line) && paragraph.length === 0) {
      const start = i;
      while (i < lines.length && (lines[i] as string).trim() !== "") i++;
      const heading = htmlHeadingOf(lines.slice(start, i).join("\n"));
      if (heading) headings.push({ ...heading, line: start + 1 });
      continue;
    }
    if (blank) {
      paragraph = [];
      continue;
    }
    const atx = ATX.exec(line);
    if (atx) {
      headings.push({ line: i + 1, level: atx[1]?.length ?? 0, title: plainTitle(atx[2] ?? "") });
      paragraph = [];
      inList = false;
      continue;
    }
    const underline = SETEXT.exec(line);
    if (underline && paragraph.length > 0 && !inList) {
      headings.push({
        line: paragraphStart,
        level: underline[1]?.startsWith("=") ? 1 : 2,
        title: plainTitle(paragraph.join(" ")),
      });
      paragraph = [];
      continue;
    }
    if (THEMATIC.test(line)) {
      paragraph = [];
      inList = false;
      continue;
    }
    if (LIST_ITEM.test(line)) inList = true;
    else if (!/^\s/.test(line) && paragraph.length === 0) inList = false;
    if (/^ {0,3}>/.test(line) || LIST_ITEM.test(line) || /^ {0,3}\|/.test(line)) {
      paragraph = [];
      continue;
    }
    if (paragraph.length === 0) paragraphStart = i + 1;
    paragraph.push(line.trim());
  }
  // Lines a naive `^#+ ` regex would take for headings (the trap the README counts).
  const column0 = codeHashLines.filter((n) => /^#{1,6}(?:\s|$)/.test(lines[n - 1] ?? "")).length;
  return { headings, codeHashLines, column0 };
}

const dir = requireCorpus("markdown");
const files = readdirSync(dir)
  .filter((f) => f.endsWith(".md") && f !== "README.md")
  .sort();

console.log(
  "| file | headings found | reference | matched by line | level mismatches | title mismatches | `#` lines in code ignored (at column 0) |",
);
console.log("|---|---|---|---|---|---|---|");
const details: string[] = [];
let problems = 0;
for (const file of files) {
  const path = join(dir, file);
  const tree = await new MarkdownTreeLoader(path, { summaries: "none" }).loadTree();
  const found = tree.nodes.filter((n) => n.headingLevel !== undefined);
  const byLine = new Map(found.map((n) => [n.startLine, n]));
  const { headings: ref, codeHashLines, column0 } = scan(readFileSync(path, "utf8"));
  const refLines = new Set(ref.map((h) => h.line));
  let matched = 0;
  let levelMismatch = 0;
  let titleMismatch = 0;
  for (const h of ref) {
    const node = byLine.get(h.line);
    if (!node) {
      details.push(`${file}:${h.line} missing: h${h.level} "${h.title}"`);
      continue;
    }
    matched += 1;
    if (node.headingLevel !== h.level) {
      levelMismatch += 1;
      details.push(`${file}:${h.line} level ${node.headingLevel} vs reference ${h.level}`);
    }
    const capped = node.title.endsWith("…") && h.title.length > 200;
    if (capped ? !h.title.startsWith(node.title.slice(0, -1)) : node.title !== h.title) {
      titleMismatch += 1;
      details.push(`${file}:${h.line} title "${node.title}" vs reference "${h.title}"`);
    }
  }
  for (const n of found) {
    if (!refLines.has(n.startLine as number)) details.push(`${file}:${n.startLine} extra: "${n.title}"`);
  }
  const ignored = codeHashLines.filter((line) => !byLine.has(line)).length;
  const extra = found.length - matched;
  problems += ref.length - matched + extra + levelMismatch + titleMismatch + (codeHashLines.length - ignored);
  console.log(
    `| ${file} | ${found.length} | ${ref.length} | ${matched} | ${levelMismatch} | ${titleMismatch} | ${ignored}/${codeHashLines.length} (${column0}) |`,
  );
}
if (details.length > 0) {
  console.log("\nDifferences:");
  for (const d of details) console.log(`- ${d}`);
}
console.log(problems === 0 ? "\nAll headings agree with the reference." : `\n${problems} difference(s).`);
