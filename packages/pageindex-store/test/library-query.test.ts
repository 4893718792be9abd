import { describe, expect, it } from "vitest";
import {
  aggregateSections,
  atLeastOf,
  type BooleanSyntax,
  cooccurringTerms,
  firstInOrder,
  MAX_CONJUNCTIONS,
  rankDocuments,
  unsizedContenders,
} from "../src/library/query.js";

/** A boolean query as a tree (what the syntax below writes, as JSON). */
type Node = { t: string } | { and: [Node, Node] } | { or: [Node, Node] } | { without: [Node, string] };

const TREE: BooleanSyntax = {
  term: (term) => JSON.stringify({ t: term }),
  and: (l, r) => JSON.stringify({ and: [JSON.parse(l), JSON.parse(r)] }),
  or: (l, r) => JSON.stringify({ or: [JSON.parse(l), JSON.parse(r)] }),
  without: (l, term) => JSON.stringify({ without: [JSON.parse(l), term] }),
};

/**
 * Whether a row holding `row` matches, and the occurrences an engine scoring only matching
 * nodes counts (FTS5's bm25: a node that does not match contributes nothing).
 */
function evaluate(node: Node, row: ReadonlySet<string>): { match: boolean; scored: string[] } {
  if ("t" in node) return row.has(node.t) ? { match: true, scored: [node.t] } : { match: false, scored: [] };
  if ("without" in node) {
    const left = evaluate(node.without[0], row);
    return left.match && !row.has(node.without[1]) ? left : { match: false, scored: [] };
  }
  const [l, r] = ("and" in node ? node.and : node.or).map((child) => evaluate(child, row)) as [
    ReturnType<typeof evaluate>,
    ReturnType<typeof evaluate>,
  ];
  const match = "and" in node ? l.match && r.match : l.match || r.match;
  return match
    ? { match, scored: [...(l.match ? l.scored : []), ...(r.match ? r.scored : [])] }
    : { match, scored: [] };
}

/** Every subset of `terms`. */
const subsets = (terms: readonly string[]): string[][] =>
  Array.from({ length: 2 ** terms.length }, (_, bits) => terms.filter((_, i) => bits & (1 << i)));

describe("atLeastOf: rows holding at least m of a query's terms", () => {
  const terms = ["anchor", "buoy", "cleat", "davit", "eyelet"];

  it("matches exactly the rows holding m or more of the terms, for every m", () => {
    for (let m = 1; m <= terms.length; m += 1) {
      const query = JSON.parse(atLeastOf(m, terms, TREE)) as Node;
      for (const held of subsets(terms)) {
        const row = new Set([...held, "unrelated"]);
        expect(evaluate(query, row).match, `m=${m} row=${held.join(",")}`).toBe(held.length >= m);
      }
    }
  });

  it("scores each term a matching row holds exactly once (one branch matches a row)", () => {
    for (let m = 1; m <= terms.length; m += 1) {
      const query = JSON.parse(atLeastOf(m, terms, TREE)) as Node;
      for (const held of subsets(terms).filter((s) => s.length >= m)) {
        expect(evaluate(query, new Set(held)).scored.sort(), `m=${m}`).toEqual([...held].sort());
      }
    }
  });

  it("refuses an m no row can meet", () => {
    expect(() => atLeastOf(0, terms, TREE)).toThrow(RangeError);
    expect(() => atLeastOf(6, terms, TREE)).toThrow(RangeError);
  });
});

describe("cooccurringTerms", () => {
  const counted = (rows: number[]) => rows.map((n, i) => ({ term: `t${i}`, weight: 1, rows: n }));

  it("keeps the rarest terms, in query order, as many as keep the query small", () => {
    const terms = counted(Array.from({ length: 30 }, (_, i) => 1000 - i));
    const pairs = cooccurringTerms(terms, 2);
    // C(23, 2) = 253 ≤ 256 < C(24, 2): the 23 rarest (the last 23 in query order).
    expect(pairs.map((t) => t.term)).toEqual(terms.slice(7).map((t) => t.term));
    for (const m of [2, 3, 4, 5]) {
      const k = cooccurringTerms(terms, m).length;
      let combos = 1;
      for (let i = 0; i < m; i += 1) combos = (combos * (k - i)) / (i + 1);
      expect(combos).toBeLessThanOrEqual(MAX_CONJUNCTIONS);
    }
    expect(cooccurringTerms(counted([5, 1, 9]), 2).map((t) => t.term)).toEqual(["t0", "t1", "t2"]);
  });

  it("gives none when fewer terms than m are found", () => {
    expect(cooccurringTerms(counted([5]), 2)).toEqual([]);
    expect(cooccurringTerms(counted([5, 3]), 3)).toEqual([]);
  });
});

describe("unsizedContenders: node counts read only where they can change the ranking", () => {
  /** A seeded generator (a linear congruential one: the same libraries every run). */
  const seeded = (seed: number) => () => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed / 2 ** 31;
  };

  it("ranks exactly as with every document's node count, reading a few of them", () => {
    let asked = 0;
    let documents = 0;
    let rounds = 0;
    for (let library = 0; library < 60; library += 1) {
      const random = seeded(library + 1);
      // As an engine's search gives them: 400 section rows, here of about 330 documents.
      const hits = Array.from({ length: 400 }, (_, i) => ({
        docId: `d${Math.floor(random() * 1000)}`,
        nodeId: String(i).padStart(4, "0"),
        score: random() * 10,
      }));
      const sections = aggregateSections(hits);
      const counts = new Map(sections.map((d) => [d.docId, Math.floor(random() ** 3 * 3000)]));
      const cards = new Map(
        Array.from({ length: 30 }, () => [`d${Math.floor(random() * 1200)}`, random() * 5] as const),
      );
      for (const limit of [1, 3, 10]) {
        const sizes = new Map<string, number>();
        for (
          let ask = unsizedContenders(sections, cards, limit, sizes);
          ask.length > 0;
          ask = unsizedContenders(sections, cards, limit, sizes)
        ) {
          for (const docId of ask) sizes.set(docId, counts.get(docId) ?? 0);
          rounds += 1;
        }
        const options = { limit, sectionsPerDocument: 2 };
        expect(rankDocuments(sections, cards, { ...options, sizes })).toEqual(
          rankDocuments(sections, cards, { ...options, sizes: counts }),
        );
        asked += sizes.size;
        documents += sections.length;
      }
    }
    // A fraction of the documents found had their count read.
    // A fraction of the documents found had their count read, in a few rounds a ranking (each
    // round is a statement, a round trip on PostgreSQL: 20.7 a ranking here when only the
    // window's unsized documents were asked, 13,619 counts; now 3.3, 15,513 counts).
    expect(asked).toBeLessThan(documents / 3);
    expect(rounds).toBeLessThan(5 * 180);
  });
});

describe("firstInOrder", () => {
  it("keeps what sorting everything and keeping the first k keeps, in that order", () => {
    // Scores with many ties (ids break them, as the ranking's order does), in a fixed pseudo-random order.
    let seed = 7;
    const next = () => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed / 2147483648;
    };
    const order = (a: { id: string; score: number }, b: { id: string; score: number }) =>
      b.score - a.score || (a.id < b.id ? -1 : 1);
    for (const size of [0, 1, 2, 7, 50, 400]) {
      const items = Array.from({ length: size }, (_, i) => ({
        id: `d${(i * 37) % 1000}-${i}`,
        score: Math.floor(next() * 8) / 4,
      }));
      for (const k of [0, 1, 3, 20, size, size + 5]) {
        const sorted = [...items].sort(order).slice(0, Math.max(0, k));
        expect(firstInOrder(items, k, order), `${size} items, k ${k}`).toEqual(sorted);
      }
    }
  });
});
