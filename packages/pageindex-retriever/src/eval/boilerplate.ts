import { detectBackMatter, looksLikePageList } from "pageindex-core";

/**
 * Titles that may be front matter about the manual itself (a preface, the licence, the edition,
 * the authors and their thanks): a reason to read the text, not a verdict — a "History" chapter
 * of a history book or "Authors" of a tool that manages authors is content.
 */
const FRONT_MATTER_TITLE =
  /^(?:preface|foreword|prologue|about (?:this|the) (?:manual|guide|book|document|documentation|edition|text)|introduction|notices?|legal|licen[cs](?:e|es|ing)|copying|copyrights?|credits|acknowledge?ments?|thanks|contributors|authors?|maintainers?|(?:document|revision|edition|version|release) history|revisions?|editions?|colophon|front ?matter|title page|dedication|(?:typographic(?:al)?|notational|documentation) conventions|conventions used|how to (?:use|read) this|feedback|reporting (?:bugs|errors)|translations?|disclaimers?|warrant(?:y|ies)|trademarks?|status of this (?:document|memo))\b/i;

/** A title that may be front matter: it starts with one of those words and is short. */
function frontMatterTitle(title: string): boolean {
  const bare = title
    .trim()
    .replace(
      /^(?:(?:chapter|part|section|appendix)\s+)?(?:[\divxlc]{1,6}|[a-z])(?:\.\d+)*[.:)]?\s+(?=\p{L})/iu,
      "",
    );
  return FRONT_MATTER_TITLE.test(bare) && bare.split(/\s+/).length <= 6;
}

/**
 * Sentences about the document rather than its subject: licence and copyright terms, editions
 * and versions of the manual, who wrote, maintained, translated or is thanked, how to report
 * mistakes in it.
 */
const ABOUT_THE_DOCUMENT =
  /\b(?:this (?:manual|guide|book|document|documentation|edition|text|handbook|reference|tutorial)|copyright|©|\(c\)|licen[cs]ed?|permission is granted|free documentation license|general public license|creative commons|without (?:any )?warranty|trademarks?|edition|revision|printing|published|publisher|thanks?|thank you|grateful|acknowledge|maintain(?:ed|er|ers)|translat(?:ed|ion|ions|or|ors)|typeset|written by|authors?|contributors?|contributed|report (?:bugs|errors|mistakes|typos)|send (?:comments|corrections|suggestions)|mailing list|copies of|(?:all )?rights reserved)\b/i;

/** Share of a text's sentences that are about the document itself. */
export function aboutTheDocumentShare(text: string): number {
  const sentences = text
    .split(/(?<=[.!?])\s+|\n{2,}|\n(?=\s*[-*•]\s)/)
    .map((s) => s.trim())
    .filter((s) => (s.match(/\p{L}{2,}/gu) ?? []).length >= 3);
  if (sentences.length === 0) return 0;
  return sentences.filter((s) => ABOUT_THE_DOCUMENT.test(s)).length / sentences.length;
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
  return frontTitle && aboutTheDocumentShare(text) >= (options.share ?? 0.4);
}
