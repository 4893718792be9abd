import { countTokens } from "pageindex-core";

/**
 * Cuts a text to about `budget` tokens: a cut in proportion to its length, checked and repeated a
 * few times, so a long text costs a few token counts rather than one per character.
 */
export function truncateToTokens(text: string, budget: number): string {
  let cut = text;
  for (let i = 0; i < 4 && countTokens(cut) > budget; i += 1) {
    cut = cut.slice(0, Math.max(0, Math.floor((cut.length * budget) / Math.max(1, countTokens(cut))) - 1));
  }
  return cut;
}
