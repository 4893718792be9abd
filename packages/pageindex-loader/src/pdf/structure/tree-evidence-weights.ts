/**
 * Fitted by scripts/fit-tree-evidence.ts on the train half of the split dev set and more PDFs of
 * its packages (61 PDFs; target: level-aware F1 ≥ 0.8). Weights in FEATURE_NAMES
 * order: tocMismatch, wordTitles, listLike, wrapper, numbered, depth, numbering, repeatedTitles, symbolTitles.
 */
// The shape of `EvidenceModel` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[]; cut: number } = {
  bias: -2.0954,
  weights: [0.2322, 0, -0.8917, -0.7446, 1.6446, 0.7915, 0.0775, -0.705, 0, 0, 0, 0],
  cut: 0,
};
