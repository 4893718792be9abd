/**
 * Fitted by scripts/fit-tree-evidence.ts on the train half of the split dev set and more PDFs of
 * its packages (95 PDFs, each tree as its producer's held-out heading model built it; target: level-aware F1 ≥ 0.8; L2 0.001;
 * features weighed: recurring, depth; the cut by balanced error).
 * Weights in FEATURE_NAMES order: tocMismatch, wordTitles, listLike, wrapper, numbered, depth, numbering, repeatedTitles, symbolTitles, sparse, dropped, recurring.
 */
// The shape of `EvidenceModel` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[]; cut: number } = {
  bias: -5.3647,
  weights: [0, 0, 0, 0, 0, 5.9012, 0, 0, 0, 0, 0, -4.288],
  cut: 0.4,
};
