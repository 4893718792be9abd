/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set (37 PDFs,
 * 7033 candidates). Weights in HEADING_FEATURE_NAMES order: sizeRatio, bold, italic, numbered, numberDepth, inToc, missingFromToc, words, lowerWords, endsLikeSentence, bareWord, spaceAbove, pageDepth, indent, repeated, stylePages, label.
 */
// The shape of `HeadingModel` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: {
  bias: number;
  weights: readonly number[];
  threshold: number;
  lookWeight: number;
} = {
  bias: -2.0962,
  weights: [
    5.7391, -0.1, 2.4569, -1.2296, 1.2441, 4.7524, -4.4124, 0.8392, -0.6691, -0.1068, -2.5769, 0.7397,
    -0.0801, -0.8794, -1.0453, -0.2165, -1.5909,
  ],
  threshold: 0.4,
  lookWeight: 0.25,
};
