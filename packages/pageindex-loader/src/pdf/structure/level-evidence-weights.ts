/**
 * Fitted by scripts/fit-level-evidence.ts on the train half of the split dev set (37 PDFs,
 * 5494 stack questions). Per relation (higher, same, lower): a bias and weights in
 * LEVEL_FEATURE_NAMES order: sizeDiff, smaller, larger, boldDiff, capsDiff, italicDiff, tocDeeper, tocSame, tocShallower, onlyOpenToc, onlyNextToc, tocChildFollows, dottedDeeper, dottedSame, dottedShallower, tierDiff, onlyOpenKeyword, onlyNextKeyword, sameClass, otherClass, nextClassOpen, onlyOpenNumbered, onlyNextNumbered, seriesGoesOn, successor, opensList, indentDiff, previous, sameLook.
 */
// The shape of `LevelModel` (level-evidence.ts), written out: that module imports this one.
export const LEVEL_MODEL: {
  bias: readonly number[];
  weights: readonly (readonly number[])[];
  overrule: number;
} = {
  bias: [-3.9263, 1.8312, -1.4747],
  weights: [
    [
      -2.214, 1.3105, -2.8447, 0.1982, -0.4854, -0.9947, 2.2203, -1.8471, -2.939, 3.6619, -2.7966, 0.5616,
      1.0313, -0.5371, 0.0051, 0, -2.2556, -0.0382, 0.4617, -0.5291, -1.6869, 2.4619, -0.4501, -0.1631,
      -1.8297, 1.9205, -0.1413, 3.1289, -2.5223,
    ],
    [
      0.4013, -0.7549, -0.4874, 0.1193, 0.3794, 0.2081, -2.6396, 1.9912, -1.3858, -3.2292, -0.2961, 0.2206,
      -2.5963, 0.9262, -0.6096, 0, 1.8738, -0.8097, -2.183, -0.5679, -1.6164, -1.4704, -0.7176, -1.052, 2.612,
      1.254, 0.0821, -1.2537, 2.4365,
    ],
    [
      1.2325, -2.3453, 1.7428, 0.1158, -0.1182, 0.8629, -0.6548, -1.2724, 2.4693, -1.5625, 1.6926, -0.6844,
      0.6928, -0.1636, 0.8035, 0, -1.4187, 1.2693, 1.2637, 0.8648, 1.6173, -0.011, 0.8461, 1.3527, -2.9072,
      -2.6723, -0.0197, -0.4426, -1.725,
    ],
  ],
  overrule: 1,
};
