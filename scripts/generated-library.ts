// The generated library of the scale benchmarks (bench-corpus, bench-library-index): seeded,
// so every run and every benchmark indexes the same documents. A 24,000-word made-up vocabulary
// drawn Zipf-like, a few topic words per document in its section titles; 2-200 sections a
// document (a skewed spread, median ~12), or mostly small (95 % with 2-5 sections, the rest up
// to 200: the 100,000-document shape).
import { createTree, type NodeDraft, type TreeDocument } from "pageindex-store";
import { rng } from "./random.js";

const SYLLABLES = "ka lo mi ne ru ta vo shi den gar bel tor quin sel mar pol fen dra vik zu".split(" ");
/** Made-up words, letters only (the tokenizer splits digits off). */
const VOCABULARY: string[] = (() => {
  const random = rng(7);
  const words = new Set<string>();
  while (words.size < 24_000) {
    const n = 2 + Math.floor(random() * 3);
    words.add(Array.from({ length: n }, () => SYLLABLES[Math.floor(random() * SYLLABLES.length)]).join(""));
  }
  return [...words];
})();

/** A Zipf-like word: low ranks much more often. */
export function zipfWord(random: () => number): string {
  return VOCABULARY[Math.floor(VOCABULARY.length ** random()) - 1] as string;
}

/** Number of sections of a document: mostly 2-5 when `small`, else a skewed 2-200. */
function sectionCount(random: () => number, small: boolean): number {
  if (small) return random() < 0.95 ? 2 + Math.floor(random() * 4) : 6 + Math.floor(random() * 195);
  return Math.min(200, 2 + Math.floor(2 ** (random() * 7.6)));
}

/** Document `i` of a generated library (`small`: the mostly-small shape): its tree and the words of one section (for questions). */
export function generate(i: number, small: boolean): { tree: TreeDocument; probe: [string, string, string] } {
  const random = rng(1000 + i);
  const topic = Array.from(
    { length: 4 },
    () => VOCABULARY[Math.floor(random() * VOCABULARY.length)] as string,
  );
  const sections = sectionCount(random, small);
  let probe: [string, string, string] = ["", "", ""];
  const drafts: NodeDraft[] = Array.from({ length: sections }, (_, s) => {
    const a = topic[s % 4] as string;
    const b = VOCABULARY[Math.floor(random() * VOCABULARY.length)] as string;
    const words = Array.from({ length: 40 + Math.floor(random() * 80) }, () => zipfWord(random));
    const rare = VOCABULARY[Math.floor(random() * VOCABULARY.length)] as string;
    words.splice(Math.floor(words.length / 2), 0, rare);
    if (s === Math.floor(sections / 2)) probe = [a, b, rare];
    const text = `${a} ${b}. ${words.join(" ")}.`;
    return {
      title: `${a} ${b}`,
      text,
      tokenCount: Math.ceil(text.length / 4),
      startPage: s + 1,
      endPage: s + 1,
    };
  });
  const tree = createTree(
    {
      docId: `doc-${String(i).padStart(6, "0")}`,
      docName: `${topic[0]}-${topic[1]}-report.pdf`,
      kind: "pdf",
      pageCount: sections,
      description: `A report on ${topic.join(", ")}.`,
      build: { loader: "bench", structure: "outline" },
    },
    drafts,
  );
  return { tree, probe };
}

/**
 * Questions about distinct documents of a library of `size`, drawn without replacement (seeded):
 * the `count` after the first `skip` (the warm-up's), so that a handle asking them never finds a
 * question's document already read — a small library would otherwise be served from caches
 * that a large one cannot fill.
 */
export function libraryQuestions(
  size: number,
  small: boolean,
  count: number,
  skip = 0,
): Array<{ docId: string; query: string }> {
  const random = rng(99 + size);
  const swapped = new Map<number, number>(); // a lazy Fisher-Yates shuffle of 0 … size-1
  const out: Array<{ docId: string; query: string }> = [];
  for (let k = 0; k < Math.min(size, skip + count); k += 1) {
    const j = k + Math.floor(random() * (size - k));
    const pick = swapped.get(j) ?? j;
    swapped.set(j, swapped.get(k) ?? k);
    if (k < skip) continue;
    const { tree, probe } = generate(pick, small);
    out.push({
      docId: tree.docId,
      query: `What does the ${probe[0]} ${probe[1]} section say about ${probe[2]}?`,
    });
  }
  return out;
}
