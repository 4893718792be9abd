/**
 * Fitted by scripts/fit-tree-evidence.ts on the train half of the split dev set and more PDFs of
 * its packages (520 rows: the PDFs read 2 ways, with their printed contents and without; target: level-aware F1 ≥ 0.8; L2 0.001;
 * features weighed: depth, contents; the cut by balanced error).
 * Weights in FEATURE_NAMES order: tocMismatch, wordTitles, listLike, wrapper, numbered, depth, numbering, repeatedTitles, symbolTitles, sparse, dropped, recurring, pageLabels, repeatedNumbers, orphanSections, contents.
 */
// The shape of `EvidenceModel` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[]; cut: number } = {
  bias: -6.8534,
  weights: [0, 0, 0, 0, 0, 6.9369, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0.854],
  cut: 0.4,
};
