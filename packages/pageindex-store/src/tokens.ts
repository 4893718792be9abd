import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";

let encoder: Tiktoken | undefined;

// js-tiktoken's BPE merge step is quadratic in the length of one pre-tokenised piece; a
// pathological piece (a 1 MB run of one character) would stall. Long texts are counted in
// slices cut at whitespace, which keeps the count exact for ordinary text and linear always.
const SLICE = 20_000;

/**
 * Counts tokens with the o200k_base encoding (GPT-4o family), the same measure PageIndex uses
 * for its size thresholds. Deterministic and offline.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  encoder ??= new Tiktoken(o200kBase);
  if (text.length <= SLICE) return encoder.encode(text, [], []).length;
  let total = 0;
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + SLICE, text.length);
    if (end < text.length) {
      const space = text.lastIndexOf(" ", end);
      if (space > start + SLICE / 2) end = space;
    }
    total += encoder.encode(text.slice(start, end), [], []).length;
    start = end;
  }
  return total;
}
