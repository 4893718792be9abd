/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set (37 PDFs,
 * 7033 candidates). Weights in HEADING_FEATURE_NAMES order: sizeRatio, bold, caps, italic, numbered, numberDepth, keyword, inToc, missingFromToc, words, lowerWords, endsLikeSentence, bareWord, spaceAbove, firstOnPage, pageDepth, indent, repeated, stylePages, label.
 */
// The shape of `HeadingModel` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: {
  bias: number;
  weights: readonly number[];
  threshold: number;
  lookWeight: number;
} = {
  bias: -1.0987,
  weights: [
    5.9774, -0.1562, -1.9275, 2.6906, 0.6949, -0.5866, -3.0796, 5.1263, -4.0735, 0.6236, -0.925, 0.0365,
    -1.5536, 0.5233, -2.9107, -0.6978, -0.8496, -1.0792, -0.9268, -1.7087,
  ],
  threshold: 0.4,
  lookWeight: 0.25,
};
