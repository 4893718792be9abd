import type { TreeDocument } from "pageindex-core";
import type { DocumentFacts } from "../common/describe.js";
import { leadSentences, toPlainText } from "../common/extractive.js";
import { isDateLine, isProse, letterCount as letters, wordCount as words } from "../common/text-measures.js";
import type { PdfInfo } from "./read/read-pdf.js";
import { BYLINE } from "./structure/candidates.js";
import { bodyStyle } from "./structure/style.js";
import { normalizeTitle, titleSimilarity } from "./structure/titles.js";
import type { Furniture } from "./text/running-heads.js";
import type { ParsedPage, PdfLine } from "./types.js";

// What a PDF says about itself, for its description: the info dictionary (Title, Subject,
// Keywords, Author) when it is not a producer's placeholder, the title page (its largest-font
// lines, and the lines under them), and an abstract or summary. Never the first page's
// running text.

const LEAD_CHARS = 250;
const URL_OR_MAIL = /https?:\/\/|www\.|\S@\S+\.\S/i;
/** Titles that producers write by themselves: "Microsoft Word - report.docx", "untitled", "Slide 1". */
const PRODUCER_PREFIX = /^(?:microsoft\s+(?:word|powerpoint|excel)|ms\s+word)\s*-\s*/i;
const FILE_EXTENSION = /\.(?:docx?|pdf|tex|dvi|ps|indd|qxd|rtf|odt|pptx?|xlsx?|html?)$/i;
const PLACEHOLDER = /^(?:untitled\d*|title|document\d*|slide\s*\d+|presentation\d*|no title|none|unknown)$/i;
/** Authors that name an account or a program, not a writer. */
const NO_AUTHOR =
  /^(?:admin(?:istrator)?|user|owner|author|unknown|default|system|root|pc|windows user|microsoft(?: office)? user)$|hyperref|acrobat|distiller|latex|\bpdf\b|\b(?:edgar|donnelley|workiva|toppan merrill)\b/i;
/** Form headers that open every filing of a kind and name no document: an SEC cover's first lines. */
const FORM_HEADER =
  /^(?:united states(?: of america)?|(?:united states )?securities and exchange commission|washington,? d\.?\s?c\.?(?: \d{5})?)$/i;
/** Sections that say what the document is about, best first. */
const ABSTRACT_TITLES = [/^abstract$/i, /^(?:executive )?summary$/i, /^overview$/i];
/** A line opening an abstract on the first pages: "ABSTRACT", "Summary:", "SUMMARY: The Commission …". */
const ABSTRACT_LINE = /^\s*(?:abstract|summary)\s*(?:[:.—–-]\s*|$)/i;

/** A metadata or title-page title worth showing, or undefined for placeholders and file names. */
export function usableTitle(raw: string | undefined): string | undefined {
  if (!raw) return undefined;
  // "Microsoft Word - Budget Outlook.docx" names the document; a bare file name does not.
  const named = PRODUCER_PREFIX.test(raw)
    ? raw.replace(PRODUCER_PREFIX, "").replace(FILE_EXTENSION, "")
    : raw;
  if (FILE_EXTENSION.test(named)) return undefined;
  const title = named.replace(/\s+/g, " ").trim();
  if (letters(title) < 3 || title.length > 200 || PLACEHOLDER.test(title)) return undefined;
  // One "word" with digits, dashes or underscores is a file or job name ("adbe-20221202", "10k_final").
  if (!/\s/.test(title) && /[\d_-]/.test(title)) return undefined;
  return title;
}

function usableAuthor(raw: string | undefined): string | undefined {
  const author = raw?.replace(/\s+/g, " ").trim();
  if (
    !author ||
    author.length > 80 ||
    letters(author) < 2 ||
    NO_AUTHOR.test(author) ||
    URL_OR_MAIL.test(author)
  )
    return undefined;
  return author;
}

function keywordsOf(raw: string | undefined): string[] | undefined {
  const list = (raw ?? "")
    .split(/[,;]/)
    .map((k) => k.replace(/\s+/g, " ").trim())
    .filter((k) => letters(k) >= 2 && k.length <= 60);
  return list.length > 0 ? [...new Set(list)].slice(0, 8) : undefined;
}

/** A line that can be part of a title: not a date, a number, an address, a byline or furniture. */
function titleLine(line: PdfLine): boolean {
  const text = line.text.trim();
  return (
    letters(text) >= 3 &&
    text.length <= 160 &&
    !isDateLine(text) &&
    !URL_OR_MAIL.test(text) &&
    !BYLINE.test(text) &&
    !FORM_HEADER.test(text)
  );
}

/** Consecutive lines of one size on a page. */
interface Block {
  size: number;
  bold: boolean;
  first: number;
  text: string;
  lines: number;
}

function blocksOf(page: ParsedPage, skip: ReadonlySet<number> | undefined): Block[] {
  const blocks: Block[] = [];
  let current: Block | undefined;
  page.lines.forEach((line, i) => {
    if (skip?.has(i) || !titleLine(line)) {
      current = undefined;
      return;
    }
    const text = line.text.replace(/\t/g, " ").replace(/\s+/g, " ").trim();
    const same = current && Math.abs(current.size - line.size) <= 0.25 && current.bold === line.bold;
    if (current && same && current.first + current.lines === i) {
      current.text = /-$/.test(current.text)
        ? `${current.text.slice(0, -1)}${text}`
        : `${current.text} ${text}`;
      current.lines += 1;
    } else {
      current = { size: line.size, bold: line.bold, first: i, text, lines: 1 };
      blocks.push(current);
    }
  });
  return blocks;
}

const fitsTitle = (b: Block) => b.lines <= 4 && b.text.length <= 200;
const fitsSubtitle = (b: Block) => b.lines <= 3 && b.text.length <= 120 && words(b.text) >= 2;

/**
 * The title page's title and subtitle: the first block set in the page's largest font (when
 * larger than body text), else (with `boldTitle`) a short bold block at the top of a page of
 * body-size text; the
 * subtitle is the block right under the title on a sparse page, else the nearest block in the
 * next larger font.
 */
export function titlePage(
  pages: readonly ParsedPage[],
  furniture: Furniture,
  options: { boldTitle: boolean },
): { title?: string; subtitle?: string } {
  const page = pages.slice(0, 2).find((p) => p.lines.some(titleLine));
  if (!page) return {};
  const body = bodyStyle(pages.slice(0, 20));
  const blocks = blocksOf(page, furniture.get(page.pageNumber));
  const larger = blocks.filter((b) => b.size >= body.size * 1.15);
  const bySize = [...larger].sort((a, b) => b.size - a.size || a.first - b.first);
  let title = bySize.find(fitsTitle);
  if (!title && options.boldTitle && !body.bold) {
    title = blocks.find((b) => b.first < 6 && b.bold && b.lines <= 3 && fitsTitle(b) && !/:$/.test(b.text));
  }
  if (!title) return {};
  const sparse = page.lines.length <= 15;
  const next = blocks.find((b) => b.first === (title as Block).first + (title as Block).lines);
  const subtitle =
    (sparse && next && fitsSubtitle(next) ? next : undefined) ??
    bySize
      .filter((b) => b !== title && b.size > body.size + 0.5 && fitsSubtitle(b))
      .sort(
        (a, b) =>
          b.size - a.size ||
          Math.abs(a.first - (title as Block).first) - Math.abs(b.first - (title as Block).first),
      )[0];
  return { title: title.text, ...(subtitle ? { subtitle: subtitle.text } : {}) };
}

/** One or two sentences of plain text, when they make a statement: prose of six words or more. */
function leadOf(text: string, title?: string): string | undefined {
  const plain = toPlainText(text.replace(/(\p{Ll})-\n(\p{Ll})/gu, "$1$2"), {
    markup: "plain",
    ...(title ? { title } : {}),
  });
  const lead = leadSentences(plain, LEAD_CHARS);
  return words(lead) >= 6 && isProse(lead) ? lead : undefined;
}

/** The opening of an abstract or summary: a section so titled, else one opening on the first two pages. */
function abstractLead(tree: TreeDocument, pages: readonly ParsedPage[]): string | undefined {
  const early = tree.nodes.slice(0, 30);
  for (const pattern of ABSTRACT_TITLES) {
    const node = early.find((n) => pattern.test(n.title.trim()));
    const lead = node && leadOf(node.text.slice(0, 3000), node.title);
    if (lead) return lead;
  }
  for (const page of pages.slice(0, 2)) {
    const i = page.lines.findIndex((l) => ABSTRACT_LINE.test(l.text));
    if (i < 0) continue;
    const opening = page.lines
      .slice(i, i + 20)
      .map((l) => l.text)
      .join("\n");
    const lead = leadOf(opening.replace(ABSTRACT_LINE, ""));
    if (lead) return lead;
  }
  return undefined;
}

const similar = (a: string, b: string): boolean => {
  const na = normalizeTitle(a);
  const nb = normalizeTitle(b);
  return (
    titleSimilarity(a, b) >= 0.7 || (na.length > 0 && nb.length > 0 && (na.includes(nb) || nb.includes(na)))
  );
};

/** What a PDF says about itself: metadata, title page, abstract (see the module comment). */
export function pdfFacts(input: {
  info: PdfInfo;
  pages: readonly ParsedPage[];
  furniture: Furniture;
  tree: TreeDocument;
}): DocumentFacts {
  const { info, pages, tree } = input;
  const meta = usableTitle(info.title);
  // A bold line at the top is a weak sign of a title: used only when the metadata has none.
  const printed = titlePage(pages, input.furniture, { boldTitle: meta === undefined });
  const pageTitle = usableTitle(printed.title);
  let title = meta ?? pageTitle;
  let subtitle = printed.subtitle;
  if (meta && pageTitle) {
    if (similar(meta, pageTitle)) title = meta.length >= pageTitle.length ? meta : pageTitle;
    else subtitle = subtitle ? `${pageTitle}, ${subtitle}` : pageTitle;
  }
  const facts: DocumentFacts = {};
  if (title) facts.title = title;
  const subject = info.subject?.replace(/\s+/g, " ").trim();
  const usefulSubject =
    subject && words(subject) >= 2 && !(title && similar(subject, title)) ? subject : undefined;
  if (usefulSubject && words(usefulSubject) < 4 && !subtitle) subtitle = usefulSubject;
  if (subtitle && title && !similar(subtitle, title)) facts.subtitle = subtitle;
  const author = usableAuthor(info.author);
  const named = [facts.title, facts.subtitle].filter((t): t is string => t !== undefined);
  if (author && !named.some((t) => normalizeTitle(t).includes(normalizeTitle(author)))) facts.author = author;
  const lead =
    (usefulSubject && words(usefulSubject) >= 4 ? leadSentences(usefulSubject, LEAD_CHARS) : undefined) ??
    abstractLead(tree, pages);
  if (lead) facts.lead = lead;
  const keywords = keywordsOf(info.keywords);
  if (keywords) facts.keywords = keywords;
  if (tree.build.structure === "flat") facts.noSections = true;
  return facts;
}
