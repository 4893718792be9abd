/**
 * Fitted by scripts/fit-tree-evidence.ts on the train half of the split dev set and more PDFs of
 * its packages (86 PDFs, each tree as its package's held-out heading model built it; target: level-aware F1 ≥ 0.8; L2 0.01;
 * features weighed: recurring; the cut by the fewest bad trees above the line plus good ones below it).
 * Weights in FEATURE_NAMES order: tocMismatch, wordTitles, listLike, wrapper, numbered, depth, numbering, repeatedTitles, symbolTitles, sparse, dropped, recurring.
 */
// The shape of `EvidenceModel` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[]; cut: number } = {
  bias: 0.0789,
  weights: [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1.4716],
  cut: 0.4,
};
