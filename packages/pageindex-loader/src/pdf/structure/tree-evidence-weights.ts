/**
 * Fitted by scripts/fit-tree-evidence.ts on the train half of the split dev set (37 PDFs;
 * target: level-aware F1 ≥ 0.8). Weights in FEATURE_NAMES order: tocMismatch, wordTitles, listLike, wrapper, numbered, depth, numbering.
 */
// The shape of `EvidenceModel` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[] } = {
  bias: -0.6244,
  weights: [0.0031, -1.5594, -1.2776, -1.2009, 0.8987, 0.1559, 0.0934],
};
