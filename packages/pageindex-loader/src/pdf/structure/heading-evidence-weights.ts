/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set and TRAIN_EXTRA (more PDFs of its packages and of the packages added in the sixth and seventh sessions) (86 PDFs,
 * 14463 candidates, L2 penalty 0.0001 chosen by grouped cross-validation, candidates weighing alike, left out: italic). Weights in HEADING_FEATURE_NAMES order: sizeRatio, bold, italic, numbered, numberDepth, inToc, missingFromToc, words, lowerWords, endsLikeSentence, bareWord, spaceAbove, pageDepth, indent, repeated, stylePages, label.
 */
// The shape of `HeadingModel` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: {
  bias: number;
  weights: readonly number[];
  threshold: number;
  lookWeight: number;
} = {
  bias: -1.8473,
  weights: [
    4.0483, -0.3304, 0, 0.3347, 1.4024, 3.765, -3.8135, -0.1286, 0.176, -0.5387, -0.5362, 0.5628, -0.3283,
    -0.8628, -0.7191, 1.0301, -4.8416,
  ],
  threshold: 0.25,
  lookWeight: 0,
};
