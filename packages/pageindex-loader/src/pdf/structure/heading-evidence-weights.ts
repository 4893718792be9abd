/**
 * Fitted by scripts/fit-heading-evidence.ts on the train half of the split dev set and TRAIN_EXTRA (more PDFs of its packages and of the packages added in the sixth session) (67 PDFs,
 * 12761 candidates, L2 penalty 0.0001 chosen by grouped cross-validation, candidates weighing alike). Weights in HEADING_FEATURE_NAMES order: sizeRatio, bold, italic, numbered, numberDepth, inToc, missingFromToc, words, lowerWords, endsLikeSentence, bareWord, spaceAbove, pageDepth, indent, repeated, stylePages, label.
 */
// The shape of `HeadingModel` (heading-evidence.ts), written out: that module imports this one.
export const HEADING_MODEL: {
  bias: number;
  weights: readonly number[];
  threshold: number;
  lookWeight: number;
} = {
  bias: -2.7726,
  weights: [
    6.4327, -0.459, 1.6479, -0.8147, 3.2308, 3.7202, -6.1445, 0.138, 0.7306, -0.8437, -0.9655, 0.6419, 0.3692,
    -0.8274, -0.7945, 0.4464, -2.2251,
  ],
  threshold: 0.5,
  lookWeight: 0.25,
};
