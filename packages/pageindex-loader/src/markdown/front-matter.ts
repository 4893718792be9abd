import type MarkdownIt from "markdown-it";

type Md = InstanceType<typeof MarkdownIt>;
type BlockRule = Parameters<Md["block"]["ruler"]["before"]>[2];

/** The two front matter syntaxes static site generators share. */
export type FrontMatterFormat = "yaml" | "toml";

/** What the rule stores in the `front_matter` token's `meta`. */
export interface FrontMatterMeta<T> {
  /** Which fences opened the block. */
  format: FrontMatterFormat;
  /** The text between the fences, without them. */
  raw: string;
  /** What `read` made of `raw`. */
  value: T;
}

// Jekyll, Hugo and Pandoc: `---` opens YAML, closed by `---` or `...`; `+++` fences TOML (Hugo).
// Fences start at column 0 and are exactly three characters (trailing blanks allowed).
const OPEN = /^(---|\+\+\+)[ \t]*$/;
const CLOSE: Record<FrontMatterFormat, RegExp> = {
  yaml: /^(?:---|\.\.\.)[ \t]*$/,
  toml: /^\+\+\+[ \t]*$/,
};

/**
 * A markdown-it plugin: a block rule that reads front matter on the document's first line as a
 * hidden `front_matter` token (`map` covers the fences, `meta` is a {@link FrontMatterMeta}).
 * An unclosed block, or one that `read` declines (returns `undefined`), is not front matter:
 * its lines are parsed as Markdown (a `---` rule, a setext underline…). Unlike
 * `markdown-it-front-matter`, which only knows `---` and would close an unterminated block at
 * the end of the document, swallowing it.
 * @param read turns the raw text into a value, or declines it.
 */
export function frontMatterPlugin<T>(
  md: Md,
  read: (raw: string, format: FrontMatterFormat) => T | undefined,
): void {
  const rule: BlockRule = (state, startLine, endLine, silent) => {
    if (startLine !== 0 || state.blkIndent !== 0) return false;
    const lineText = (line: number) => state.src.slice(state.bMarks[line], state.eMarks[line]);
    const open = OPEN.exec(lineText(0));
    if (!open) return false;
    const format: FrontMatterFormat = open[1] === "+++" ? "toml" : "yaml";
    let close = 1;
    while (close < endLine && !CLOSE[format].test(lineText(close))) close += 1;
    if (close >= endLine) return false;
    const raw = close > 1 ? state.src.slice(state.bMarks[1], state.eMarks[close - 1]) : "";
    const value = read(raw, format);
    if (value === undefined) return false;
    if (silent) return true;
    const token = state.push("front_matter", "", 0);
    token.hidden = true;
    token.block = true;
    token.markup = open[1] as string;
    token.map = [0, close + 1];
    token.meta = { format, raw, value } satisfies FrontMatterMeta<T>;
    state.line = close + 1;
    return true;
  };
  md.block.ruler.before("table", "front_matter", rule);
}
