// The loader's document token counter must give exactly `countTokens`'s number on any text:
// its ASCII scanner has to cut the text where o200k's pre-tokenising pattern does.
import o200kBase from "js-tiktoken/ranks/o200k_base";
import { countTokens } from "pageindex-core";
import { describe, expect, it } from "vitest";
import { asciiPieceEnd, countDocumentTokens } from "../src/common/token-count.js";

const pattern = new RegExp(o200kBase.pat_str.replaceAll("('s|", "(?:'s|"), "gu");

/** Where the scanner and the pattern disagree on a piece boundary (the scanner may defer: -1). */
function disagreement(text: string): string | undefined {
  let at = 0;
  for (const match of text.matchAll(pattern)) {
    const end = asciiPieceEnd(text, at);
    if (end !== -1 && end !== at + match[0].length) {
      return `${JSON.stringify(text)} at ${at}: pattern ${JSON.stringify(match[0])}, scanner ${JSON.stringify(text.slice(at, end))}`;
    }
    at += match[0].length;
  }
  return undefined;
}

function random(seed: number): (n: number) => number {
  let s = seed;
  return (n) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
}

const PIECES = [
  ..."aZQesx19 \t\n\r/.(#-_$?!'\"`\v\f",
  "'s",
  "'RE",
  "'ll",
  "'d",
  "'t",
  "'M",
  "\r\n",
  "  ",
  "...",
  "//",
  "é",
  "É",
  "ß",
  "٣",
  "—",
  "\u00a0",
  "\u2028",
  "中文",
  "😀",
  "ǅ",
  "ʰ",
  "e\u0301",
  "Ⅻ",
  "²",
];

describe("countDocumentTokens", () => {
  it("cuts every piece where the pattern does, on random mixes of ASCII classes, contractions and Unicode", () => {
    const next = random(7);
    for (let t = 0; t < 5000; t++) {
      const onlyAscii = t % 2 === 0;
      let text = "";
      for (let i = 1 + next(40); i > 0; i--) text += PIECES[next(onlyAscii ? 33 : PIECES.length)];
      expect(disagreement(text)).toBeUndefined();
      expect(countDocumentTokens(text)).toBe(countTokens(text));
    }
  });

  it("equals countTokens on every printable and control ASCII pair and on Markdown-like text", () => {
    let all = "";
    for (let c = 0; c < 128; c++) all += String.fromCharCode(c);
    for (let c = 0; c < 128; c++) {
      const text = `${all.slice(c)}x${String.fromCharCode(c).repeat(3)}Word's 123456 ${all.slice(0, c)}`;
      expect(disagreement(text)).toBeUndefined();
      expect(countDocumentTokens(text)).toBe(countTokens(text));
    }
    const markdown = [
      "# Title\n\nSome *emphasis*, `code`, [a link](https://example.test/a_b?c=1).\n",
      "```js\nconst x = f(1, 2);  // comment\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n",
      "   indented\n\n\n  \n- item\n  - nested\n\nCafé naïve résumé — “quotes” and 😀.\n",
      `${"=".repeat(5000)}\n${"ab".repeat(3000)}\n${"A1".repeat(2500)}\n`,
    ].join("");
    expect(countDocumentTokens(markdown)).toBe(countTokens(markdown));
  });
});
