import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";

let encoder: Tiktoken | undefined;

// js-tiktoken's BPE merge is quadratic in the length of one pre-tokenised piece, so a long run
// with no whitespace (a 20 kB line of "=" or of base64), or a long run of whitespace, would
// stall (minutes for 20 kB). Such runs are counted in slices of LONG_RUN characters; everything
// else in chunks cut at line ends. Both keep the cost linear; the count differs from encoding
// the whole text at once only at those cuts (+0.15 % on the corpus's Markdown specifications).
const LONG_RUN = 64;
const CHUNK = 8_192;

function encodeLength(text: string): number {
  encoder ??= new Tiktoken(o200kBase);
  return encoder.encode(text, [], []).length;
}

function countChunked(text: string): number {
  let total = 0;
  let start = 0;
  while (start < text.length) {
    let end = Math.min(start + CHUNK, text.length);
    if (end < text.length) {
      const newline = text.lastIndexOf("\n", end);
      if (newline > start) end = newline + 1;
    }
    total += encodeLength(text.slice(start, end));
    start = end;
  }
  return total;
}

/**
 * Counts tokens with the o200k_base encoding (GPT-4o family), the measure PageIndex uses for
 * its size thresholds. Deterministic, offline, and linear in the text length.
 */
export function countTokens(text: string): number {
  if (text.length === 0) return 0;
  if (text.length <= LONG_RUN) return encodeLength(text);
  let total = 0;
  let last = 0;
  for (const match of text.matchAll(/\S{64,}|\s{64,}/g)) {
    const index = match.index;
    if (index > last) total += countChunked(text.slice(last, index));
    const run = match[0];
    for (let i = 0; i < run.length; i += LONG_RUN) total += encodeLength(run.slice(i, i + LONG_RUN));
    last = index + run.length;
  }
  if (last < text.length) total += countChunked(text.slice(last));
  return total;
}
