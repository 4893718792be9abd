/**
 * The layout path's shape rules: each sets aside or reshapes what the heading candidates and the
 * nesting would otherwise give. Each is switchable so that scripts/ablate-shape-rules.ts can
 * measure whether it earns its place under producer-grouped cross-validation (a rule written for
 * one producer's habit must not change the trees of the others); the loader runs them all.
 *
 * Measured in the eighth session (scripts/ablate-shape-rules.ts, 86 train PDFs of 16 producers):
 * "promptLines", "contentsEntry" and "pagedRunningHeads" each change one PDF's tree and no other
 * producer's (held-out gain 0). With no evidence that they harm unseen documents, and a gain for
 * their own kind (cl-asdf's uiop, Texinfo, 68.2 → 93.8 % with prompt lines set aside), they stay.
 * A front-matter list ("Contents", "Tables") lifted off the chapters nested under it helped one
 * XEP PDF and hurt one htmldoc PDF (held-out gain below 0): cut.
 */
export const SHAPE_RULES = [
  /** A heading-styled line opening with a shell prompt or a sigil ("$ gcc", "#include") is code. */
  "promptLines",
  /** A contents page's own title read as a TOC entry ("Short Contents") is no section. */
  "contentsEntry",
  /** Captions, name lists and legends (a few lines, no body text) are no sections (labels.ts). */
  "labels",
  /** "Note", "Tip", "Caution" boxes are no sections (labels.ts). */
  "admonitions",
  /** An index's first group head ("Symbols" over the letters "A", "B", "C") is no section (index-groups.ts). */
  "indexGroups",
  /** Running heads that quote a recent heading under the page number are no sections. */
  "pagedRunningHeads",
  /** A bare "Chapter 3" over the chapter's title passes its number on and goes. */
  "chapterLabels",
  /** A sparse first page's lines are the title, not sections. */
  "titlePage",
  /** The title page's title printed again on the next pages (a book's verso) is no section (title-again.ts). */
  "titleAgain",
  /** Unnumbered titles recurring across the document stay below the top levels. */
  "repeatedLabels",
  /** A letter or roman number out of sequence ("J. David …") is an initial, not a list number (numbering.ts). */
  "initials",
  /** A manual of topic pages (man pages): a page whose changed head names its body opens a topic (topic-pages.ts). */
  "topicPages",
  /** A manual of topics opening mid-page: a line its dictionary-style heads quote opens a topic (topic-lines.ts). */
  "topicLines",
  /** A lone unnumbered top heading over everything, in a long document, is its title (tree-shape.ts). */
  "loneTitle",
] as const;

/** One of {@link SHAPE_RULES}. */
export type ShapeRule = (typeof SHAPE_RULES)[number];

/** The rules switched off (none, as the loader runs). */
export type RulesOff = ReadonlySet<ShapeRule>;

/** No rule switched off. */
export const ALL_RULES_ON: RulesOff = new Set<ShapeRule>();
