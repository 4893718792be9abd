import MarkdownIt from "markdown-it";
import frontMatterPlugin from "markdown-it-front-matter";
import { parse as parseYaml } from "yaml";

type Md = InstanceType<typeof MarkdownIt>;
type Token = ReturnType<Md["parse"]>[number];

/** One top-level heading of a Markdown document. */
export interface MarkdownHeading {
  /** `#` count (1-6); setext `===` is 1 and `---` is 2. */
  level: number;
  /** Plain-text title: inline markup removed, whitespace collapsed. */
  title: string;
  /** First line of the heading (1-based). */
  line: number;
  /** Last line of the heading: `line` for ATX, the underline for setext. */
  lastLine: number;
}

/** YAML front matter at the top of a document. */
export interface FrontMatter {
  /** The YAML text between the `---` lines. */
  raw: string;
  /** The parsed mapping; absent when the YAML has a syntax error. */
  data?: Record<string, unknown>;
  /** The YAML error message, when it could not be parsed. */
  error?: string;
  /** Last line of the block (its closing `---`), 1-based. */
  endLine: number;
}

/** A Markdown document split into what the tree builder needs. */
export interface ParsedMarkdown {
  /** The text with line endings normalised to `\n`, as the parser saw it. */
  text: string;
  /** Offset in `text` where each line starts (index 0 is line 1). */
  lineStarts: number[];
  /** Number of lines (a final newline does not start another line). */
  lineCount: number;
  /** Top-level headings in document order. */
  headings: MarkdownHeading[];
  frontMatter?: FrontMatter;
}

const UNTITLED = "(untitled)";

function createParser(withFrontMatter: boolean): Md {
  // CommonMark plus GFM tables (markdown-it's default preset), with HTML blocks honoured so a
  // `#` line inside an HTML block is not a heading.
  const md = new MarkdownIt({ html: true });
  if (withFrontMatter) md.use(frontMatterPlugin, () => {});
  // Only the block structure is needed: inline parsing runs just for heading titles, which
  // halves the parse time of a large document.
  md.core.ruler.disable(["inline", "text_join"], true);
  return md;
}

let parsers: { withFrontMatter: Md; plain: Md } | undefined;

function getParsers() {
  parsers ??= { withFrontMatter: createParser(true), plain: createParser(false) };
  return parsers;
}

/** Renders an inline token stream as plain text: code spans, emphasis, links and images keep their text. */
function inlineText(tokens: Token[]): string {
  let out = "";
  for (const token of tokens) {
    switch (token.type) {
      case "text":
      case "text_special":
      case "code_inline":
        out += token.content;
        break;
      case "softbreak":
      case "hardbreak":
        out += " ";
        break;
      case "image":
        out += token.children ? inlineText(token.children) : token.content;
        break;
      default:
        // html_inline and the open/close tokens of emphasis and links carry no text.
        break;
    }
  }
  return out;
}

function headingTitle(md: Md, content: string, env: Record<string, unknown>): string {
  const tokens: Token[] = [];
  md.inline.parse(content, md, env, tokens);
  const title = inlineText(tokens).replace(/\s+/g, " ").trim();
  return title || UNTITLED;
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

const CLOSING_FENCE = /^ {0,3}-{3,}[ \t]*$/;

/** The front matter token, if it is a closed block holding a YAML mapping (or nothing). */
function readFrontMatter(token: Token, text: string, lineStarts: number[]): FrontMatter | "not-front-matter" {
  const [, end] = token.map ?? [0, 0];
  const lastLine = text.slice(lineStarts[end - 1] ?? 0, (lineStarts[end] ?? text.length + 1) - 1);
  // The plugin closes an unterminated block at the end of the document, which would swallow
  // it whole; a document that merely starts with a `---` rule is not front matter.
  if (end < 2 || !CLOSING_FENCE.test(lastLine)) return "not-front-matter";
  const raw = String(token.meta ?? "");
  try {
    const data: unknown = parseYaml(raw);
    if (data === null || data === undefined) return { raw, data: {}, endLine: end };
    if (typeof data !== "object" || Array.isArray(data)) return "not-front-matter";
    return { raw, data: data as Record<string, unknown>, endLine: end };
  } catch (error) {
    return { raw, error: error instanceof Error ? error.message : String(error), endLine: end };
  }
}

/**
 * Parses Markdown (CommonMark, HTML blocks, YAML front matter) and lists its top-level
 * headings with their line numbers. Headings nested in block quotes or list items are not
 * sections. Runs in time linear in the input.
 */
export function parseMarkdown(source: string): ParsedMarkdown {
  // Normalise as markdown-it does, so its line numbers index our lines.
  let text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (text.includes("\r")) text = text.replace(/\r\n?/g, "\n");
  const lineStarts = lineStartsOf(text);
  const lineCount = text.length === 0 ? 0 : text.endsWith("\n") ? lineStarts.length - 1 : lineStarts.length;

  const { withFrontMatter, plain } = getParsers();
  let md = withFrontMatter;
  let env: Record<string, unknown> = {};
  let tokens = md.parse(text, env);
  let frontMatter: FrontMatter | undefined;
  const first = tokens[0];
  if (first?.type === "front_matter") {
    const read = readFrontMatter(first, text, lineStarts);
    if (read === "not-front-matter") {
      md = plain;
      env = {};
      tokens = md.parse(text, env);
    } else frontMatter = read;
  }

  const headings: MarkdownHeading[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i] as Token;
    if (token.type !== "heading_open" || token.level !== 0 || !token.map) continue;
    const inline = tokens[i + 1];
    headings.push({
      level: Number(token.tag.slice(1)),
      title: headingTitle(md, inline?.type === "inline" ? inline.content : "", env),
      line: token.map[0] + 1,
      lastLine: token.map[1],
    });
  }
  const parsed: ParsedMarkdown = { text, lineStarts, lineCount, headings };
  if (frontMatter) parsed.frontMatter = frontMatter;
  return parsed;
}

/** Text of lines `from`..`to` (1-based, inclusive) of a parsed document, without the final newline. */
export function linesText(parsed: ParsedMarkdown, from: number, to: number): string {
  if (to < from) return "";
  const start = parsed.lineStarts[from - 1] ?? parsed.text.length;
  const next = parsed.lineStarts[to];
  const end = next === undefined ? parsed.text.length : next - 1;
  return parsed.text.slice(start, end);
}
