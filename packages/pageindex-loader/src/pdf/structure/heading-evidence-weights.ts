/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set (37 PDFs,
 * 7035 candidates). Weights in HEADING_FEATURE_NAMES order: sizeRatio, bold, caps, italic, numbered, numberDepth, keyword, inToc, missingFromToc, words, lowerWords, endsLikeSentence, bareWord, spaceAbove, firstOnPage, pageDepth, indent, repeated, stylePages, label.
 */
// The shape of `HeadingModel` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: { bias: number; weights: readonly number[]; threshold: number } = {
  bias: 0.8723,
  weights: [
    3.4662, 0.2752, -2.7209, 1.9791, 0.217, 0.4626, -2.0791, 3.4926, -2.4797, 0.7763, -1.1853, 0.0233,
    -1.8604, 0.3477, -2.8257, -0.7128, -0.6074, -1.5115, -1.7323, -1.5216,
  ],
  threshold: 0.25,
};
