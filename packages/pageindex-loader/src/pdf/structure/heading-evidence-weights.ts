/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set and TRAIN_EXTRA (more PDFs of its packages and of the packages added in the sixth and seventh sessions) (95 PDFs,
 * 18255 candidates, L2 penalty 0.1 chosen by grouped cross-validation, candidates weighing alike, left out: italic). Weights in HEADING_FEATURE_NAMES order: sizeRatio, bold, italic, numbered, numberDepth, inToc, missingFromToc, words, lowerWords, endsLikeSentence, bareWord, spaceAbove, pageDepth, indent, repeated, stylePages, label.
 */
// The shape of `HeadingModel` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: {
  bias: number;
  weights: readonly number[];
  threshold: number;
  lookWeight: number;
} = {
  bias: -0.4866,
  weights: [
    0.1555, 0.1518, 0, 0.6085, 0.5062, 0.7273, -0.1538, 0.0384, 0.0038, -0.0921, -0.0054, 0.2745, -0.0386,
    -0.2396, -0.3696, 0.0721, -0.2938,
  ],
  threshold: 0.45,
  lookWeight: 0.75,
};
