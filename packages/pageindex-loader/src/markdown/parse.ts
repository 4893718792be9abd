import MarkdownIt from "markdown-it";
import { parse as parseYaml } from "yaml";
import { type FrontMatterFormat, type FrontMatterMeta, frontMatterPlugin } from "./front-matter.js";
import { capTitle, htmlHeading, replaceComments, UNTITLED } from "./title.js";

type Md = InstanceType<typeof MarkdownIt>;
type Token = ReturnType<Md["parse"]>[number];

/** One top-level heading of a Markdown document. */
export interface MarkdownHeading {
  /** `#` count (1-6); setext `===` is 1 and `---` is 2; `<hN>` is N. */
  level: number;
  /** Plain-text title: inline markup removed, whitespace collapsed, capped at 200 characters. */
  title: string;
  /** First line of the heading (1-based). */
  line: number;
  /** Last line of the heading: `line` for ATX, the underline for setext. */
  lastLine: number;
}

/** Front matter at the top of a document: YAML (`---` … `---` or `...`) or TOML (`+++` … `+++`). */
export interface FrontMatter {
  /** `yaml` for `---` fences, `toml` for `+++` fences. */
  format: FrontMatterFormat;
  /** The text between the fences. */
  raw: string;
  /** The parsed YAML mapping; absent for TOML (not parsed) and when the YAML has a syntax error. */
  data?: Record<string, unknown>;
  /** The YAML error message, when it could not be parsed. */
  error?: string;
  /** Last line of the block (its closing fence), 1-based. */
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
  /**
   * First line of the first top-level block that holds content: not front matter, a heading,
   * a thematic break, an HTML comment or a link reference definition. Undefined when none.
   */
  firstContentLine?: number;
  frontMatter?: FrontMatter;
  /**
   * Line ranges (1-based, inclusive) of the first top-level paragraphs, at most
   * {@link LEAD_PARAGRAPHS}: where a description's opening sentence is looked for.
   */
  leadParagraphs: Array<{ line: number; lastLine: number }>;
}

/** How many top-level paragraphs {@link parseMarkdown} lists in `leadParagraphs`. */
export const LEAD_PARAGRAPHS = 8;

type FrontMatterValue = Pick<FrontMatter, "data" | "error">;

/**
 * A block is front matter when it parses as a YAML mapping (or is empty), or fails to parse
 * (kept raw, with the error); a YAML scalar or list (`---\nprose\n---`) is Markdown after
 * all: a rule and a setext heading. TOML is kept raw: no TOML parser is bundled.
 */
function readFrontMatterValue(raw: string, format: FrontMatterFormat): FrontMatterValue | undefined {
  if (format === "toml") return {};
  try {
    const data: unknown = parseYaml(raw);
    if (data === null || data === undefined) return { data: {} };
    if (typeof data !== "object" || Array.isArray(data)) return undefined;
    return { data: data as Record<string, unknown> };
  } catch (error) {
    return { error: error instanceof Error ? error.message : String(error) };
  }
}

function createParser(): Md {
  // CommonMark plus GFM tables (markdown-it's default preset), with HTML blocks honoured so a
  // `#` line inside an HTML block is not a heading.
  const md = new MarkdownIt({ html: true });
  md.use(frontMatterPlugin<FrontMatterValue>, readFrontMatterValue);
  md.block.ruler.before("front_matter", "drain", drainRule);
  // Only the block structure is needed: inline parsing runs just for heading titles, which
  // halves the parse time of a large document.
  md.core.ruler.disable(["inline", "text_join"], true);
  return md;
}

let parser: Md | undefined;

type BlockRule = Parameters<Md["block"]["ruler"]["before"]>[2];
/** The `env` key under which a parse asks for finished blocks (see {@link drainRule}). */
const TAKE = "pageindexTakeTokens";
type TakeTokens = (tokens: Token[]) => void;

/**
 * A block rule that consumes nothing: run before every other rule at each top-level block
 * start, it hands the tokens of the blocks finished so far to the parse that asked (through
 * `env`) and drops them, so a large document's tokens die young instead of filling the heap
 * until the parse ends. Only at the root: container rules (lists, quotes) look back at their
 * own tokens by index while they run.
 */
const drainRule: BlockRule = (state) => {
  const take = (state.env as Record<string, unknown>)[TAKE] as TakeTokens | undefined;
  if (take && state.level === 0 && state.parentType === "root" && state.tokens.length > 0) {
    take(state.tokens);
    state.tokens.length = 0;
  }
  return false;
};

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
  return capTitle(title || UNTITLED);
}

function lineStartsOf(text: string): number[] {
  const starts = [0];
  for (let i = text.indexOf("\n"); i !== -1; i = text.indexOf("\n", i + 1)) starts.push(i + 1);
  return starts;
}

/** Whether a top-level block is only markup: nothing a reader would call content. */
function isContentless(token: Token): boolean {
  if (token.type === "hr" || token.type === "front_matter") return true;
  return token.type === "html_block" && replaceComments(token.content, "").trim() === "";
}

/**
 * Parses Markdown (CommonMark, HTML blocks, YAML or TOML front matter) and lists its
 * top-level headings with their line numbers: ATX, setext, and HTML blocks that are a single
 * `<h1>`…`<h6>` element. Headings nested in block quotes or list items are not sections.
 * Runs in time linear in the input.
 */
export function parseMarkdown(source: string): ParsedMarkdown {
  // Normalise as markdown-it does, so its line numbers index our lines.
  let text = source.charCodeAt(0) === 0xfeff ? source.slice(1) : source;
  if (text.includes("\r")) text = text.replace(/\r\n?/g, "\n");
  const lineStarts = lineStartsOf(text);
  const lineCount = text.length === 0 ? 0 : text.endsWith("\n") ? lineStarts.length - 1 : lineStarts.length;

  parser ??= createParser();
  const md = parser;
  const parsed: ParsedMarkdown = { text, lineStarts, lineCount, headings: [], leadParagraphs: [] };
  // Inline titles are read once the whole document is parsed: a link reference in a heading may
  // be defined further down.
  const inlineTitles: Array<{ heading: MarkdownHeading; content: string }> = [];
  const take: TakeTokens = (tokens) => {
    for (let i = 0; i < tokens.length; i++) {
      const token = tokens[i] as Token;
      // Reference definitions stay in the block tokens until the core's strip_references rule.
      if (token.level !== 0 || !token.map || token.nesting === -1 || token.type === "reference_definition")
        continue;
      const [start, end] = token.map;
      if (token.type === "paragraph_open" && parsed.leadParagraphs.length < LEAD_PARAGRAPHS) {
        parsed.leadParagraphs.push({ line: start + 1, lastLine: end });
      }
      if (token.type === "front_matter") {
        // Set by our own front matter rule, the only producer of this token type.
        const meta = token.meta as unknown as FrontMatterMeta<FrontMatterValue>;
        parsed.frontMatter = { format: meta.format, raw: meta.raw, ...meta.value, endLine: end };
        continue;
      }
      const html = token.type === "html_block" ? htmlHeading(token.content, md.utils.unescapeAll) : undefined;
      if (html) {
        parsed.headings.push({
          level: html.level,
          title: capTitle(html.title),
          line: start + 1,
          lastLine: end,
        });
      } else if (token.type === "heading_open") {
        const inline = tokens[i + 1];
        const heading = { level: Number(token.tag.slice(1)), title: "", line: start + 1, lastLine: end };
        parsed.headings.push(heading);
        inlineTitles.push({ heading, content: inline?.type === "inline" ? inline.content : "" });
      } else if (parsed.firstContentLine === undefined && !isContentless(token)) {
        parsed.firstContentLine = start + 1;
      }
    }
  };
  const env: Record<string, unknown> = { [TAKE]: take };
  take(md.parse(text, env));
  delete env[TAKE];
  for (const { heading, content } of inlineTitles) heading.title = headingTitle(md, content, env);
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
