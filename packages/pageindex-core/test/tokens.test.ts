import { Tiktoken } from "js-tiktoken/lite";
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { describe, expect, it } from "vitest";
import { countTokens, countTokensWith, o200kRanks, type RankTable } from "../src/tokens.js";

/** Deterministic pseudo-random text from an alphabet (no Math.random: counts must be stable). */
function randomText(alphabet: string, length: number, seed = 7): string {
  let s = seed;
  let out = "";
  for (let i = 0; i < length; i++) {
    s = (s * 1103515245 + 12345) % 2147483648;
    out += alphabet[s % alphabet.length];
  }
  return out;
}

const BASE64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/** A rank table that counts lookups: the work the counter does, independent of the clock. */
function countingTable(): RankTable & { lookups: number } {
  const ranks = o200kRanks();
  const table = {
    lookups: 0,
    get(key: string) {
      table.lookups += 1;
      return ranks.get(key);
    },
  };
  return table as unknown as RankTable & { lookups: number };
}

describe("countTokens", () => {
  const reference = new Tiktoken(o200kBase);
  const samples: Record<string, string> = {
    prose: "The quick brown fox jumps over the lazy dog. It's 2024; don't panic!\n\nNew paragraph here.",
    markdown:
      "# Title\n\n- item *one*\n- item `two`\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n```py\ndef f(x):\n    return x\n```\n",
    unicode: "Ünïcödé café — 你好，世界。こんにちは 🎉👩‍💻 naïve résumé",
    whitespace: "a  b\t\tc \n\n\n   d\r\n\r\n    e      \n",
    specialTokenText: "before <|endoftext|> after <|fim_prefix|>",
    longLetters: "a".repeat(700),
    longRule: "=".repeat(700),
    longBlank: `${" ".repeat(500)}x${"\n".repeat(80)}`,
    base64: randomText(BASE64, 3000),
    lowercaseRun: randomText("abcdefghijklmnopqrstuvwxyz", 600),
    dataUri: `![logo](data:image/png;base64,${randomText(BASE64, 1500, 3)}) and text after.`,
  };

  it("equals js-tiktoken's encode length exactly, including long runs without whitespace", () => {
    const ours = Object.fromEntries(Object.entries(samples).map(([k, v]) => [k, countTokens(v)]));
    const theirs = Object.fromEntries(
      Object.entries(samples).map(([k, v]) => [k, reference.encode(v, [], []).length]),
    );
    expect(ours).toEqual(theirs);
    expect(countTokens("")).toBe(0);
  });

  it("does work linear in the length of one long piece (rank lookups double when the run doubles)", () => {
    for (const make of [(n: number) => "a".repeat(n), (n: number) => randomText("abcdefghij", n)]) {
      const small = countingTable();
      const large = countingTable();
      // Whole-piece merging (no windows): the heap merge itself must scale.
      countTokensWith(make(20_000), small, Number.POSITIVE_INFINITY);
      countTokensWith(make(40_000), large, Number.POSITIVE_INFINITY);
      // A quadratic merge would do four times the lookups; O(n log n) stays near two.
      expect(large.lookups / small.lookups).toBeGreaterThan(1.8);
      expect(large.lookups / small.lookups).toBeLessThan(2.3);
    }
  });

  it("merges a single piece over 4 KiB window by window: exact on one-character runs, within a token per window otherwise", () => {
    // 8 "a"s and 64 "="s are single o200k tokens; whole-piece merging reaches them everywhere.
    expect(countTokens("a".repeat(2_000_000))).toBe(250_000);
    expect(countTokens("=".repeat(2_000_000))).toBe(31_250);
    const ruler = countingTable();
    countTokensWith("-".repeat(2_000_000), ruler);
    expect(ruler.lookups).toBeLessThan(20_000); // one 4 KiB window merged, the other 487 remembered
    const letters = randomText("abcdefghijklmnopqrstuvwxyz", 200_000);
    const whole = countTokensWith(letters, o200kRanks(), Number.POSITIVE_INFINITY);
    const windows = Math.ceil(200_000 / 4096);
    expect(Math.abs(countTokens(letters) - whole)).toBeLessThanOrEqual(windows);
  });
});
