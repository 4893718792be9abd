import { detectBackMatter, looksLikePageList } from "pageindex-core";

/**
 * Titles that may be front matter about the manual itself (a preface, the licence, the edition,
 * the authors and their thanks): a reason to read the text, not a verdict — a "History" chapter
 * of a history book or "Authors" of a tool that manages authors is content.
 */
const FRONT_MATTER_TITLE =
  /\b(?:preface|foreword|prologue|about (?:this|the) (?:manual|guide|book|document|documentation|edition|text)|introduction|notices?|legal|licen[cs](?:e|es|ing)|copying|copyrights?|credits|acknowledge?ments?|thanks|contributors|authors?|maintainers?|(?:document|revision|edition|version|release) history|revisions?|editions?|colophon|front ?matter|title page|dedication|(?:typographic(?:al)?|notational|documentation) conventions|conventions used|how to (?:use|read) this|feedback|reporting (?:bugs|errors)|translations?|disclaimers?|warrant(?:y|ies)|trademarks?|status of this (?:document|memo))\b|\bcontribu\p{L}*\b.{0,30}\b(?:tutorial|manual|guide|handbook|documentation|docs|book)\b/iu;

/** A title that may be front matter: short, with one of those words in it. */
function frontMatterTitle(title: string): boolean {
  const words = title.trim().split(/\s+/);
  return words.length <= 8 && FRONT_MATTER_TITLE.test(title);
}

/**
 * Sentences about the document rather than its subject: licence and copyright terms, editions
 * and versions of the manual, who wrote, maintained, translated or is thanked, how to report
 * mistakes in it.
 */
const ABOUT_THE_DOCUMENT =
  /\b(?:this (?:manual|guide|book|document|documentation|edition|text|handbook|reference|tutorial)|copyright|©|\(c\)|licen[cs]ed?|permission is granted|free documentation license|general public license|creative commons|without (?:any )?warranty|trademarks?|edition|revision|printing|published|publisher|thanks?|thank you|grateful|acknowledge|maintain(?:ed|er|ers)|translat(?:ed|ion|ions|or|ors)|typeset|written by|authors?|contributors?|contributed|report (?:bugs|errors|mistakes|typos)|send (?:comments|corrections|suggestions)|mailing list|copies of|(?:all )?rights reserved)\b/i;

/**
 * Share of a text's sentences (and list items) that are about the document itself; a sentence
 * naming the document (`docName`'s file stem, e.g. "packaging-tutorial") counts too.
 */
export function aboutTheDocumentShare(text: string, docName?: string): number {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n{2,}|\n?\s*[▶►•]\s*|\n(?=\s*[-*]\s)/u)
    .map((s) => s.trim())
    .filter((s) => (s.match(/\p{L}{2,}/gu) ?? []).length >= 3);
  if (sentences.length === 0) return 0;
  const stem = docName?.split("/").at(-1)?.split(".")[0] ?? "";
  const named = stem.length >= 5 ? new RegExp(stem.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i") : undefined;
  return sentences.filter((s) => ABOUT_THE_DOCUMENT.test(s) || named?.test(s)).length / sentences.length;
}

/** What {@link isBoilerplate} knows of a section besides its title path and text. */
export interface BoilerplateOptions {
  /**
   * The section opens its document (its first page or line): a cover or title page, evidence
   * like a front-matter title. Default false.
   */
  opening?: boolean;
  /** Share of sentences about the document itself that makes front matter boilerplate. Default 0.4. */
  share?: number;
  /** The document's name: sentences naming it are about the document. */
  docName?: string;
}

/**
 * Whether a section is boilerplate no user asks about, by evidence in its title AND its text:
 * a title that may be front matter (preface, licence, edition, authors, acknowledgements…) or
 * the opening section of the document (a cover, a title page), whose text is mostly about the
 * document itself (at least `share` of its sentences); a contents page or other back matter
 * (pageindex-core's `detectBackMatter`); or a text that is a list of page numbers whatever its
 * title.
 *
 * @example
 * ```ts
 * isBoilerplate(["Preface", "Licence"], "Copyright 2019 … Permission is granted to copy …"); // true
 * isBoilerplate(["Preface", "Why git"], "Git tracks content, not files: …"); // false
 * ```
 */
export function isBoilerplate(
  path: readonly string[],
  text: string,
  options: BoilerplateOptions = {},
): boolean {
  const title = path.at(-1) ?? "";
  if (detectBackMatter({ title, text }) !== undefined) return true;
  if (looksLikePageList(text)) return true;
  const frontTitle = options.opening === true || path.some(frontMatterTitle);
  return frontTitle && aboutTheDocumentShare(text, options.docName) >= (options.share ?? 0.4);
}
