/**
 * Fitted by scripts/fit-tree-evidence.ts on the train half of the split dev set and more PDFs of
 * its packages (95 PDFs; target: level-aware F1 ≥ 0.8; L2 0.01;
 * features weighed: recurring, depth; the cut by balanced error).
 * Weights in FEATURE_NAMES order: tocMismatch, wordTitles, listLike, wrapper, numbered, depth, numbering, repeatedTitles, symbolTitles, sparse, dropped, recurring, pageLabels, repeatedNumbers, orphanSections, contents
 * (the last three added after the fit, weighed 0: repeatedNumbers and orphanSections are named
 * doubts, tree-evidence.ts's evidenceDoubts; contents is measured only). The fifteenth session's
 * refit on 520 rows (depth, contents) warned fewer bad trees on 68 PDFs it was not fitted on
 * (4 → 3 of 9 with contents, 8 → 7 of 14 without), so it is not shipped: docs/history.
 */
// The shape of `EvidenceModel` (tree-evidence.ts), written out: that module imports this one.
export const EVIDENCE_MODEL: { bias: number; weights: readonly number[]; cut: number } = {
  bias: -1.1819,
  weights: [0, 0, 0, 0, 0, 1.2996, 0, 0, 0, 0, 0, -1.0293, 0, 0, 0, 0],
  cut: 0.5,
};
