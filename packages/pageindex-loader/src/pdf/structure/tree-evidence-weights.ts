/**
 * Fitted by scripts/fit-tree-evidence.ts on the train half of the split dev set and more PDFs of
 * its packages (61 PDFs;
 * target: level-aware F1 ≥ 0.8). Weights in FEATURE_NAMES order: tocMismatch, wordTitles, listLike, wrapper, numbered, depth, numbering, repeatedTitles, symbolTitles.
 */
// The shape of `EvidenceModel` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[] } = {
  bias: -1.7779,
  weights: [0.23, 0, -0.7801, -0.7952, 1.3198, 0.7986, 0.0304, -0.7857, -1.2601],
};
