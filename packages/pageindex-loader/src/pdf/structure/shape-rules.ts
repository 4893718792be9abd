/**
 * The layout path's shape rules: each sets aside or reshapes what the heading candidates and the
 * nesting would otherwise give. Each is switchable so that scripts/ablate-shape-rules.ts can
 * measure whether it earns its place under producer-grouped cross-validation (a rule written for
 * one producer's habit must not change the trees of the others); the loader runs them all.
 *
 * Cut in the eighth session, as each changed the trees of one producer only (held-out gain 0 or
 * below over 86 train PDFs of 16 producers): a heading opening with a prompt or sigil ("$ gcc")
 * set aside (one Texinfo PDF), a contents page's own title among the TOC's entries (one LaTeX
 * PDF), running heads quoting a recent heading under the page number (one LibreOffice PDF), a
 * front-matter list ("Contents", "Tables") lifted off the chapters nested under it (one XEP PDF
 * gained, one htmldoc PDF lost).
 */
export const SHAPE_RULES = [
  /** Captions, name lists and legends (a few lines, no body text) are no sections (labels.ts). */
  "labels",
  /** "Note", "Tip", "Caution" boxes are no sections (labels.ts). */
  "admonitions",
  /** A bare "Chapter 3" over the chapter's title passes its number on and goes. */
  "chapterLabels",
  /** A sparse first page's lines are the title, not sections. */
  "titlePage",
  /** Unnumbered titles recurring across the document stay below the top levels. */
  "repeatedLabels",
  /** A letter or roman number out of sequence ("J. David …") is an initial, not a list number (numbering.ts). */
  "initials",
  /** A lone unnumbered top heading over everything, in a long document, is its title (tree-shape.ts). */
  "loneTitle",
] as const;

/** One of {@link SHAPE_RULES}. */
export type ShapeRule = (typeof SHAPE_RULES)[number];

/** The rules switched off (none, as the loader runs). */
export type RulesOff = ReadonlySet<ShapeRule>;

/** No rule switched off. */
export const ALL_RULES_ON: RulesOff = new Set<ShapeRule>();
