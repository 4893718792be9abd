/**
 * Printed page labels ("iii", "12", "A-3") against physical pages (1-based). A PDF's page
 * labels say what number is printed on each page; prompts show physical ranges, while index
 * entries and cross-references in the text ("see page 4") use the printed ones.
 */

/**
 * The labels worth keeping: `undefined` when there are none or every label is just the physical
 * page number (nothing to map).
 */
export function meaningfulPageLabels(
  labels: ReadonlyArray<string | null | undefined> | null | undefined,
): string[] | undefined {
  if (!labels || labels.length === 0) return undefined;
  const clean = labels.map((l) => (typeof l === "string" ? l.trim() : ""));
  if (clean.every((l, i) => l === "" || l === String(i + 1))) return undefined;
  return clean;
}

/** The printed label of a physical page, when the document has labels for it. */
export function printedLabel(labels: readonly string[] | undefined, page: number): string | undefined {
  const label = labels?.[page - 1];
  return label ? label : undefined;
}

/**
 * The printed labels of a physical range, e.g. `"4-6"` for pages 8-10, or `undefined` when the
 * document has no labels or they equal the physical numbers.
 */
export function printedRange(
  labels: readonly string[] | undefined,
  start: number | undefined,
  end: number | undefined,
): string | undefined {
  if (!labels || start === undefined) return undefined;
  const a = printedLabel(labels, start);
  const b = printedLabel(labels, end ?? start);
  if (!a || !b) return undefined;
  if (a === String(start) && b === String(end ?? start)) return undefined;
  return a === b ? a : `${a}-${b}`;
}

/**
 * The physical pages whose printed label is `printed` (case-insensitive), e.g. the page an
 * index entry "23" or a cross-reference "see page iv" points to. Empty when no page has it.
 */
export function physicalPagesOf(labels: readonly string[] | undefined, printed: string): number[] {
  if (!labels) return [];
  const wanted = printed.trim().toLowerCase();
  const pages: number[] = [];
  labels.forEach((label, i) => {
    if (label.toLowerCase() === wanted) pages.push(i + 1);
  });
  return pages;
}
