/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set and TRAIN_EXTRA (more PDFs of its packages and of the packages added since the sixth session) (114 PDFs,
 * 22389 candidates, L2 penalty 0.0001, candidates weighing alike, left out: italic, cut chosen "global"). Weights in HEADING_FEATURE_NAMES order: sizeRatio, bold, italic, numbered, numberDepth, inToc, missingFromToc, words, lowerWords, endsLikeSentence, bareWord, spaceAbove, pageDepth, indent, repeated, stylePages, label.
 */
// The shape of `HeadingModel` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: {
  bias: number;
  weights: readonly number[];
  threshold: number;
  lookWeight: number;
} = {
  bias: -1.6319,
  weights: [
    3.3999, 0.1668, 0, 0.5609, 1.6843, 3.399, -3.7762, -0.8643, -0.1314, -1.0752, -0.117, 0.2646, -0.5513,
    -0.6991, -0.8769, 1.1894, -3.86,
  ],
  threshold: 0.5,
  lookWeight: 0.5,
};
