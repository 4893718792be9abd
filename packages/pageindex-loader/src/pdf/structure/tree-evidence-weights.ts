/**
 * Fitted by scripts/fit-tree-evidence.ts on the train half of the split dev set and more PDFs of
 * its packages (86 PDFs, each tree as its package's held-out heading model built it; target: level-aware F1 ≥ 0.8; L2 0.001;
 * features weighed: recurring, dropped, numbered, depth; the cut by the fewest bad trees above the line plus good ones below it).
 * Weights in FEATURE_NAMES order: tocMismatch, wordTitles, listLike, wrapper, numbered, depth, numbering, repeatedTitles, symbolTitles, sparse, dropped, recurring.
 */
// The shape of `EvidenceModel` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[]; cut: number } = {
  bias: -5.3839,
  weights: [0, 0, 0, 0, 2.4714, 4.1171, 0, 0, 0, 0, -0.3477, -3.4662],
  cut: 0.15,
};
