import {
  assertSafeId,
  type BuildInfo,
  createTree,
  type TreeDocument,
  throwIfAborted,
  toDocId,
  UsageTracker,
} from "pageindex-core";
import { checkLoaderSummaryOptions, enrichTree, type TreeLoaderOptions } from "../common/enrich.js";
import { EmptyDocumentError, InvalidInputError } from "../common/errors.js";
import { DEFAULT_SUMMARY_CHARS } from "../common/extractive.js";
import {
  decodeText,
  type LoadedSource,
  type ReadSourceOptions,
  type SourceInput,
  sha256Hex,
} from "../common/source.js";
import { DEFAULT_SUMMARY_CONCURRENCY, DEFAULT_SUMMARY_THRESHOLD } from "../common/summarize.js";
import { readOptionsOf, sourceInfo, TreeLoader } from "../common/tree-loader.js";
import { markdownFacts } from "./describe-facts.js";
import { parseMarkdown } from "./parse.js";
import { buildSections, thinSections, toDrafts } from "./sections.js";
import { capTitle } from "./title.js";

/** Options of {@link MarkdownTreeLoader} and {@link markdownToTree}. */
export interface MarkdownTreeLoaderOptions extends TreeLoaderOptions {
  /**
   * Merge small subtrees: a section whose subtree has fewer than `minTokens` tokens absorbs its
   * descendants. Default: off.
   */
  thinning?: { minTokens: number } | false;
}

function checkOptions(options: MarkdownTreeLoaderOptions): void {
  const where = options.docName ?? "(options)";
  checkLoaderSummaryOptions(options, where);
  const thinning = options.thinning;
  if (thinning && !(Number.isFinite(thinning.minTokens) && thinning.minTokens >= 0)) {
    throw new InvalidInputError(
      where,
      `thinning.minTokens must be a non-negative number, got ${thinning.minTokens}`,
    );
  }
  if (options.docId !== undefined) assertSafeId(options.docId);
}

/** The options that shape the result, as recorded in `build.options`. */
function recordedOptions(options: MarkdownTreeLoaderOptions): Record<string, unknown> {
  const mode = options.summaries ?? "extractive";
  const recorded: Record<string, unknown> = {
    summaries: mode,
    thinning: options.thinning ? { minTokens: options.thinning.minTokens } : false,
    description: options.description ?? false,
  };
  if (mode === "extractive" || mode === "llm")
    recorded.summaryChars = options.summaryChars ?? DEFAULT_SUMMARY_CHARS;
  if (mode === "llm") {
    recorded.summaryThreshold = options.summaryThreshold ?? DEFAULT_SUMMARY_THRESHOLD;
    recorded.concurrency = options.concurrency ?? DEFAULT_SUMMARY_CONCURRENCY;
  }
  return recorded;
}

function stripExtension(name: string): string {
  return name.replace(/\.(?:md|markdown|mdx|mdown|mkd|txt)$/i, "") || name;
}

/** What {@link markdownToTree} needs to know about the input besides its text. */
export interface MarkdownSourceInfo {
  /** Display name of the input (e.g. the file name). */
  name?: string;
  /** File path, used as `source`. */
  path?: string;
  /** What to call the input in errors. Default: the name. */
  label?: string;
  /** SHA-256 of the source bytes; computed from the text when omitted. */
  contentHash?: string;
  /** Problems met while reading the source (e.g. stray NUL bytes dropped), kept in `build.warnings`. */
  warnings?: string[];
}

/**
 * Builds a tree from Markdown text (the loader's work after reading the file): headings become
 * nodes, optional thinning, summaries and description.
 * @throws {EmptyDocumentError} when the text is empty or only whitespace.
 * @throws {InvalidInputError} for inconsistent options (e.g. LLM summaries without a model).
 * @throws The abort error (see `abortError`) when `options.signal` fires before the tree is done.
 */
export async function markdownToTree(
  markdown: string,
  options: MarkdownTreeLoaderOptions = {},
  info: MarkdownSourceInfo = {},
): Promise<TreeDocument> {
  checkOptions(options);
  throwIfAborted(options.signal);
  const contentHash = info.contentHash ?? sha256Hex(new TextEncoder().encode(markdown));
  const label = info.label ?? info.path ?? options.docName ?? info.name ?? "(in-memory input)";
  if (markdown.trim() === "") throw new EmptyDocumentError(label);

  const name = options.docName ?? info.name ?? `markdown-${contentHash.slice(0, 12)}`;
  const docId = options.docId ?? toDocId(name);
  const warnings: string[] = [...(info.warnings ?? [])];
  const usage = new UsageTracker();

  const parsed = parseMarkdown(markdown);
  const frontMatter = parsed.frontMatter;
  if (frontMatter?.error !== undefined) warnings.push(`front matter is not valid YAML: ${frontMatter.error}`);
  const rawTitle = frontMatter?.data?.title;
  const fmTitle = typeof rawTitle === "string" && rawTitle.trim() ? capTitle(rawTitle.trim()) : undefined;
  const fallbackTitle = fmTitle ?? capTitle(stripExtension(name));

  const sections = buildSections(parsed, fallbackTitle);
  if (options.thinning) thinSections(parsed, sections, options.thinning.minTokens);

  const build: BuildInfo = {
    loader: "markdown",
    structure: parsed.headings.length > 0 ? "headings" : "flat",
    options: recordedOptions(options),
  };
  const metadata: Record<string, unknown> = {};
  if (frontMatter) {
    // Unparsed front matter (TOML, invalid YAML) is kept as its raw text.
    metadata.frontMatter = frontMatter.data ?? { raw: frontMatter.raw };
    if (frontMatter.format === "toml") metadata.frontMatterFormat = "toml";
  }

  const source = options.source ?? info.path;
  const tree = createTree(
    {
      docId,
      docName: name,
      kind: "markdown",
      build,
      lineCount: parsed.lineCount,
      contentHash,
      ...(source !== undefined ? { source } : {}),
      ...(frontMatter ? { metadata } : {}),
    },
    toDrafts(sections),
  );

  await enrichTree(tree, options, {
    mode: options.summaries ?? "extractive",
    markup: "markdown",
    usage,
    warnings,
    facts: markdownFacts(parsed, frontMatter?.data),
  });
  return tree;
}

/**
 * A LangChain document loader that turns a Markdown file into a PageIndex tree: one node per
 * heading (ATX or setext, nested by level), text before the first heading as a "Preface",
 * line ranges, token counts, and summaries.
 *
 * `load()` returns one `Document` per node (see `treeToDocuments`); `loadTree()` returns the
 * tree itself, ready for a tree store.
 *
 * @example
 * ```ts
 * const tree = await new MarkdownTreeLoader("docs/guide.md").loadTree();
 * const docs = await new MarkdownTreeLoader({ text: "# Title\n\nBody" }).load();
 * ```
 */
export class MarkdownTreeLoader extends TreeLoader {
  readonly options: MarkdownTreeLoaderOptions;

  /**
   * @param input a file path (a bare string is always a path), `file:` URL, `Blob`/`File`,
   *   bytes, or `{ text, name? }` for Markdown already in memory.
   * @throws {InvalidInputError} at once for inconsistent options.
   */
  constructor(input: SourceInput, options: MarkdownTreeLoaderOptions = {}) {
    super(input);
    checkOptions(options);
    this.options = options;
  }

  /** A loader for Markdown text held in memory. */
  static fromText(
    markdown: string,
    options: MarkdownTreeLoaderOptions & { name?: string } = {},
  ): MarkdownTreeLoader {
    const { name, ...rest } = options;
    return new MarkdownTreeLoader(name === undefined ? { text: markdown } : { text: markdown, name }, rest);
  }

  protected override readOptions(): ReadSourceOptions {
    return readOptionsOf(this.options);
  }

  /**
   * @throws {SourceNotFoundError} for a missing path.
   * @throws {UnsupportedContentError} for binary or non-UTF-8 content.
   * @throws {EmptyDocumentError} for an empty or whitespace-only document.
   */
  protected treeFrom(loaded: LoadedSource): Promise<TreeDocument> {
    return markdownFromSource(loaded, this.options);
  }
}

/** Builds a Markdown tree from an input already read into memory. */
export function markdownFromSource(
  loaded: LoadedSource,
  options: MarkdownTreeLoaderOptions,
): Promise<TreeDocument> {
  const warnings: string[] = [];
  const text = loaded.text ?? decodeText(loaded.bytes, loaded.label, warnings);
  return markdownToTree(text, options, {
    ...sourceInfo(loaded),
    contentHash: sha256Hex(loaded.bytes),
    warnings,
  });
}
