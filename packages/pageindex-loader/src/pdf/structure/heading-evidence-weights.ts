/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set (37 PDFs,
 * 7035 candidates). Weights in HEADING_FEATURE_NAMES order: sizeRatio, bold, italic, numbered, numberDepth, inToc, missingFromToc, words, lowerWords, endsLikeSentence, bareWord, spaceAbove, pageDepth, indent, repeated, stylePages, label.
 */
// The shape of `HeadingModel` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: {
  bias: number;
  weights: readonly number[];
  threshold: number;
  lookWeight: number;
} = {
  bias: -1.9598,
  weights: [
    4.9071, -0.5846, 2.8409, 0.1654, 1.4507, 4.5672, -3.7476, 0.1315, 0.159, -0.5795, -1.9081, 0.5655, 0.0643,
    -0.849, -0.4178, -1.2489, -1.3303,
  ],
  threshold: 0.5,
  lookWeight: 0.75,
};
