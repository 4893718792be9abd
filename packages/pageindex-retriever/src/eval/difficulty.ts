import { Bm25Index, bm25Doc, type TreeReader, tokenize, tokenizeQuery } from "pageindex-core";

/**
 * How hard a question is for word matching: `easy` when BM25 over every section of the library
 * ranks the answering section in the top {@link DifficultyOptions.easyRank}, `medium` within the
 * top {@link DifficultyOptions.mediumRank}, `hard` below that or not matched at all.
 */
export type Difficulty = "easy" | "medium" | "hard";

/** What {@link LexicalDifficulty.measure} found about one question. */
export interface DifficultyMeasure {
  difficulty: Difficulty;
  /** Rank of the best gold section by BM25 among all sections (1 = first), or null when no word matched. */
  lexicalRank: number | null;
  /** The section's distinctive words the question uses (as the question spells them). */
  distinctiveWords: string[];
}

/** Options of {@link LexicalDifficulty}. */
export interface DifficultyOptions {
  /** Ranks up to this are `easy`: word matching alone finds the section. Default 3. */
  easyRank?: number;
  /** Ranks up to this are `medium`. Default 20. */
  mediumRank?: number;
  /**
   * A word is distinctive of a section when it is in its title, or in its text and in at most
   * this share of the library's sections. Default 0.01.
   */
  rareShare?: number;
}

/** One section of the library, as the difficulty index reads it. */
export interface LibrarySection {
  docId: string;
  nodeId: string;
  title: string;
  text: string;
}

/**
 * Measures how easily word matching finds a question's section: BM25 (pageindex-core's
 * `Bm25Index`, title and text) over every section of the library, the rank of the gold section
 * for the question, and which of the section's distinctive words (title words, rare text words)
 * the question repeats. The generator rewrites a question that is `easy`, telling the model which
 * words to avoid, so a generated set is as hard for lexical search as users' own questions.
 *
 * @example
 * ```ts
 * const difficulty = await LexicalDifficulty.fromReader(store, docIds);
 * difficulty.measure("How do I stop the kettle furring up?", [{ docId: "kettle", nodeId: "0003" }]);
 * // { difficulty: "hard", lexicalRank: 14, distinctiveWords: [] }
 * ```
 */
export class LexicalDifficulty {
  private readonly sections: readonly LibrarySection[];
  private readonly index: Bm25Index;
  private readonly byKey = new Map<string, number>();
  private readonly df = new Map<string, number>();
  private readonly easyRank: number;
  private readonly mediumRank: number;
  private readonly rareShare: number;

  constructor(sections: readonly LibrarySection[], options: DifficultyOptions = {}) {
    this.sections = sections;
    this.easyRank = options.easyRank ?? 3;
    this.mediumRank = options.mediumRank ?? 20;
    this.rareShare = options.rareShare ?? 0.01;
    this.index = new Bm25Index(
      sections.map((s) =>
        bm25Doc([
          { terms: tokenize(s.title), weight: 2 },
          { terms: tokenize(s.text), weight: 1 },
        ]),
      ),
    );
    for (const [i, s] of sections.entries()) this.byKey.set(`${s.docId}\u0000${s.nodeId}`, i);
    for (const doc of this.index.docs)
      for (const term of doc.tf.keys()) this.df.set(term, (this.df.get(term) ?? 0) + 1);
  }

  /** Every section of the documents, read from the store. */
  static async fromReader(
    reader: TreeReader,
    docIds: readonly string[],
    options: DifficultyOptions = {},
  ): Promise<LexicalDifficulty> {
    const sections: LibrarySection[] = [];
    for (const docId of docIds) {
      const skeleton = await reader.getSkeleton(docId);
      const texts = await reader.getNodeTexts(
        docId,
        skeleton.nodes.map((n) => n.nodeId),
      );
      for (const node of skeleton.nodes)
        sections.push({ docId, nodeId: node.nodeId, title: node.title, text: texts.get(node.nodeId) ?? "" });
    }
    return new LexicalDifficulty(sections, options);
  }

  /** How many sections the index holds. */
  get size(): number {
    return this.sections.length;
  }

  /** Rank, difficulty and the distinctive words used, for a question whose answer is in `gold`. */
  measure(question: string, gold: ReadonlyArray<{ docId: string; nodeId: string }>): DifficultyMeasure {
    const scores = this.index.scoreAll(tokenizeQuery(question));
    let best: number | null = null;
    const distinctive = new Set<string>();
    for (const g of gold) {
      const i = this.byKey.get(`${g.docId}\u0000${g.nodeId}`);
      if (i === undefined) continue;
      for (const term of this.distinctiveTerms(i)) distinctive.add(term);
      const own = scores[i] ?? 0;
      if (own <= 0) continue;
      // Ties count against the gold: a question every section matches equally finds nothing.
      const rank = scores.filter((s) => s >= own).length;
      best = best === null ? rank : Math.min(best, rank);
    }
    const difficulty: Difficulty =
      best !== null && best <= this.easyRank
        ? "easy"
        : best !== null && best <= this.mediumRank
          ? "medium"
          : "hard";
    return { difficulty, lexicalRank: best, distinctiveWords: wordsWithTerms(question, distinctive) };
  }

  /** Title terms, and text terms in at most `rareShare` of the sections. */
  private distinctiveTerms(i: number): Set<string> {
    const section = this.sections[i] as LibrarySection;
    const out = new Set(tokenize(section.title.replace(/^[\d.]+\s*/, "")));
    const limit = Math.max(2, Math.floor(this.sections.length * this.rareShare));
    const doc = this.index.docs[i];
    for (const term of doc?.tf.keys() ?? []) if (this.documentFrequency(term) <= limit) out.add(term);
    return out;
  }

  private documentFrequency(term: string): number {
    return this.df.get(term) ?? 0;
  }
}

/** The words of `text` (as written) whose terms are in `terms`, once each. */
function wordsWithTerms(text: string, terms: ReadonlySet<string>): string[] {
  const out: string[] = [];
  for (const match of text.matchAll(/[\p{L}\p{N}][\p{L}\p{N}_.+-]*[\p{L}\p{N}]|[\p{L}\p{N}]/gu)) {
    const word = match[0];
    if (out.includes(word)) continue;
    if (tokenize(word).some((t) => terms.has(t))) out.push(word);
  }
  return out;
}
