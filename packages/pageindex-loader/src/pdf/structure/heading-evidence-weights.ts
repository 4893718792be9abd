/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set and TRAIN_EXTRA (more PDFs of its packages and of the packages added in the sixth session) (67 PDFs,
 * 12761 candidates, L2 penalty 0.0001 chosen by grouped cross-validation, candidates weighing alike, left out: italic). Weights in HEADING_FEATURE_NAMES order: sizeRatio, bold, italic, numbered, numberDepth, inToc, missingFromToc, words, lowerWords, endsLikeSentence, bareWord, spaceAbove, pageDepth, indent, repeated, stylePages, label.
 */
// The shape of `HeadingModel` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: {
  bias: number;
  weights: readonly number[];
  threshold: number;
  lookWeight: number;
} = {
  bias: -2.7956,
  weights: [
    6.4351, -0.4244, 0, -0.6466, 2.9817, 3.7017, -6.1953, 0.27, 0.7074, -0.7221, -0.9711, 0.6248, 0.3416,
    -0.8163, -0.7157, 0.576, -2.2843,
  ],
  threshold: 0.55,
  lookWeight: 0.25,
};
