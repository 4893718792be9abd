import { gzipSync } from "node:zlib";
import { InMemoryStore } from "@langchain/core/stores";
import {
  Bm25fIndex,
  createTree,
  type NodeDraft,
  type TreeDocument,
  type TreeSkeleton,
  tokenizeQuery,
  toSkeleton,
} from "pageindex-core";
import { MemoryTreeReader, PageIndexStore, StoreReadOnlyError } from "pageindex-store";
import { describe, expect, it } from "vitest";
import { LexicalIndexDamagedError } from "../src/errors.js";
import { seededRandom as random } from "../src/eval/sample-sections.js";
import { LexicalIndexes } from "../src/lexical/index-cache.js";
import { nodeFields } from "../src/lexical/node-fields.js";
import { NodeTermIndex, queryTerms } from "../src/lexical/node-index.js";
import { POSTING_BLOCK, packNodeFields } from "../src/lexical/packed-fields.js";
import {
  decodeNodeFields,
  encodeNodeFields,
  LEGACY_LEXICAL_INDEX_ARTIFACT,
  LEXICAL_INDEX_ARTIFACT,
  skeletonFingerprint,
} from "../src/lexical/persisted.js";
import { annualReport, ID } from "./support/fixtures.js";

async function textsOf(tree: TreeDocument) {
  return new MemoryTreeReader([tree]).getNodeTexts(
    tree.docId,
    tree.nodes.map((n) => n.nodeId),
  );
}

async function indexed() {
  const tree = annualReport();
  return { skeleton: toSkeleton(tree), texts: await textsOf(tree) };
}

const saved = (skeleton: TreeSkeleton, texts: ReadonlyMap<string, string>) =>
  encodeNodeFields(skeleton, packNodeFields({ withText: true, fields: nodeFields(skeleton, texts) }));

// Words of the vocabulary (as tokenized): accents, CJK, digits, words the query expansion knows
// (so expanded, lower-weighted terms are scored too), and letters whose UTF-8 byte order differs
// from JavaScript's string order (U+FA0E sorts before U+20000 in bytes, after it in UTF-16).
const WORDS = [
  ..."anvil rocket margin revenue gross tax rate cash flow operating liquidity coyote desert lease debt".split(
    " ",
  ),
  ..."install configure kernel module printer driver font encoding page table index search".split(" "),
  ..."café naïve résumé 日本語 ｆｕｌｌ ＡＢＣ 2023 ﬁle 﨎﨎 﨎x 𠀀 𠀀語 𠀀x".split(" "),
];

const markdownTree = (docId: string, drafts: NodeDraft[]) =>
  createTree(
    {
      docId,
      docName: docId,
      kind: "markdown",
      build: { loader: "test", structure: "headings" },
      createdAt: "2024-01-01T00:00:00.000Z",
    },
    drafts,
  );

/** A generated tree: random depth and fan-out, texts of random words, some empty, some summaries. */
function generatedTree(seed: number): TreeDocument {
  const next = random(seed);
  const pick = (n: number) =>
    Array.from({ length: n }, () => WORDS[Math.floor(next() * WORDS.length)]).join(" ");
  const draft = (depth: number): NodeDraft => {
    const text = next() < 0.15 ? "" : pick(Math.floor(next() * 120));
    return {
      title: pick(1 + Math.floor(next() * 4)),
      text,
      tokenCount: text.length, // not counted: the index never reads it
      ...(next() < 0.5 ? { summary: pick(3 + Math.floor(next() * 10)) } : {}),
      ...(next() < 0.1 ? { prefixSummary: `${pick(2)} .......... 12` } : {}),
      children: depth > 0 ? Array.from({ length: Math.floor(next() * 4) }, () => draft(depth - 1)) : [],
    };
  };
  return markdownTree(
    `generated-${seed}`,
    Array.from({ length: 1 + Math.floor(next() * 3) }, () => draft(3)),
  );
}

describe("a saved lexical index", () => {
  it("scores exactly like the index built from the texts, at a fraction of their size", async () => {
    const { skeleton, texts } = await indexed();
    const bytes = saved(skeleton, texts);
    const packed = decodeNodeFields(skeleton, bytes);
    expect(packed?.withText).toBe(true);
    const built = new NodeTermIndex(skeleton, texts);
    const loaded = new NodeTermIndex(skeleton, packed);
    for (const query of ["effective tax rate 2023", "operating cash flow", "gross margin revenue"]) {
      const a = built.score(query);
      const b = loaded.score(query);
      expect([...b.own]).toEqual([...a.own]);
      expect([...b.subtree]).toEqual([...a.subtree]);
      expect(b.matched(ID.note12)).toEqual(a.matched(ID.note12));
    }
    expect(loaded.postings).toBe(built.postings);
    const textBytes = [...texts.values()].reduce((sum, t) => sum + Buffer.byteLength(t), 0);
    expect(bytes.length).toBeLessThan(textBytes);
  });

  it("scores generated trees exactly as BM25F over per-node maps does (the previous form)", async () => {
    let compared = 0;
    for (let seed = 1; seed <= 40; seed += 1) {
      const tree = generatedTree(seed);
      const skeleton = toSkeleton(tree);
      const texts = await textsOf(tree);
      for (const withText of [true, false]) {
        const fields = nodeFields(skeleton, withText ? texts : undefined);
        const reference = new Bm25fIndex(fields);
        const built = new NodeTermIndex(skeleton, withText ? texts : undefined);
        const bytes = encodeNodeFields(skeleton, built.fields);
        // At an odd offset too: a byte store may hand out a slice of a shared buffer.
        const shifted = new Uint8Array(bytes.length + 1).subarray(1);
        shifted.set(bytes);
        const loaded = [
          new NodeTermIndex(skeleton, decodeNodeFields(skeleton, bytes)),
          new NodeTermIndex(skeleton, decodeNodeFields(skeleton, shifted)),
        ];
        const next = random(seed * 7 + (withText ? 1 : 0));
        for (let q = 0; q < 12; q += 1) {
          const words = Array.from(
            { length: 1 + Math.floor(next() * 6) },
            () => WORDS[Math.floor(next() * WORDS.length)],
          );
          const query = `${words.join(" ")}${q % 4 === 0 ? " unheardof" : ""}${q % 3 === 0 ? ` ${words[0]}` : ""}`;
          const expected = reference.scoreAll(queryTerms(query));
          const words0 = [...new Set(tokenizeQuery(query))];
          const expectedShares = words0.map(
            (t) => reference.docs.filter((tf) => tf.has(t)).length / Math.max(1, skeleton.nodes.length),
          );
          for (const index of [built, ...loaded]) {
            const scores = index.score(query);
            expect(skeleton.nodes.map((n) => scores.own.get(n.nodeId))).toEqual(expected);
            expect(index.nodeShares(words0)).toEqual(expectedShares);
            skeleton.nodes.forEach((n, i) => {
              const tf = reference.docs[i] as ReadonlyMap<string, number>;
              expect(scores.matched(n.nodeId)).toEqual(words0.filter((t) => tf.has(t)));
            });
            compared += expected.filter((s) => s > 0).length;
          }
        }
        expect(built.postings).toBe(reference.docs.reduce((sum, tf) => sum + tf.size, 0));
      }
    }
    expect(compared).toBeGreaterThan(1000); // the queries matched: the scores compared are not all 0
  });

  it("is refused when built from another skeleton, of another format or unreadable", async () => {
    const { skeleton, texts } = await indexed();
    const bytes = saved(skeleton, texts);
    const renamed = {
      ...skeleton,
      nodes: skeleton.nodes.map((n) => (n.nodeId === ID.note12 ? { ...n, title: "Note 12. Taxes" } : n)),
    };
    expect(decodeNodeFields(renamed, bytes)).toBeUndefined();
    expect(decodeNodeFields(skeleton, bytes.slice(0, bytes.length - 8))).toBeUndefined();
    expect(decodeNodeFields(skeleton, new TextEncoder().encode("{}"))).toBeUndefined();
    expect(decodeNodeFields(skeleton, new Uint8Array(64))).toBeUndefined();
    const otherFormat = bytes.slice();
    new DataView(otherFormat.buffer).setUint32(4, 1, true);
    expect(decodeNodeFields(skeleton, otherFormat)).toBeUndefined();
  });

  it("checks a saved index's postings a block at a time, when a lookup first decodes the block", async () => {
    const { skeleton, texts } = await indexed();
    const bytes = saved(skeleton, texts);
    const { postings, words, wordEnds, phraseKeys, blockStarts } = packNodeFields({
      withText: true,
      fields: nodeFields(skeleton, texts),
    }).arrays;
    expect(blockStarts.length).toBeGreaterThan(3); // several blocks: damage stays in one
    const wordOf = (id: number) => new TextDecoder().decode(words.subarray(wordEnds[id], wordEnds[id + 1]));
    const wordCount = wordEnds.length - 1;
    const termOf = (id: number) => {
      if (id < wordCount) return wordOf(id);
      const key = phraseKeys[id - wordCount] as number;
      return `${wordOf(Math.floor(key / wordCount))} ${wordOf(key % wordCount)}`;
    };
    const lastTerm = wordCount + phraseKeys.length - 1;
    const intact = decodeNodeFields(skeleton, bytes);
    const postingsAt = bytes.length - words.length - postings.length;
    // A list longer than its block, its first posting past the last node, a varint cut short.
    for (const [offset, value, block] of [
      [0, 0x7f, 0],
      [1, 0x7f, 0],
      [postings.length - 1, 0x80, blockStarts.length - 2],
    ] as const) {
      const damaged = bytes.slice();
      damaged[postingsAt + offset] = value;
      const fields = decodeNodeFields(skeleton, damaged);
      expect(fields).toBeDefined(); // loaded without walking the postings
      const inBlock = termOf(block * POSTING_BLOCK);
      const elsewhere = termOf(block === 0 ? lastTerm : 0);
      expect(fields?.postings(elsewhere)).toEqual(intact?.postings(elsewhere));
      for (const lookUp of [() => fields?.postings(inBlock), () => fields?.entries]) {
        const error = (() => {
          try {
            lookUp();
          } catch (e) {
            return e;
          }
        })();
        expect(error).toBeInstanceOf(LexicalIndexDamagedError);
        expect((error as LexicalIndexDamagedError).message).toBe(
          `lexical index "${LEXICAL_INDEX_ARTIFACT}" of document "${skeleton.docId}": postings block ${block} is damaged (cut short, out of order or out of range)`,
        );
      }
    }
  });

  it("keeps phrases of a document with more than 65,536 words (wider phrase keys)", async () => {
    // Letters only (digits are split off by the tokenizer): 70,000 distinct made-up words.
    const word = (n: number) =>
      `q${Array.from({ length: 4 }, (_, i) => String.fromCharCode(97 + (Math.floor(n / 26 ** i) % 26))).join("")}`;
    const text = Array.from({ length: 70_000 }, (_, n) => word(n)).join(" ");
    const tree = markdownTree("wide", [
      { title: "Words", text, tokenCount: 70_000 },
      { title: "Other words", text: `${word(69_998)} ${word(69_999)} ${word(5)}`, tokenCount: 3 },
    ]);
    const skeleton = toSkeleton(tree);
    const texts = await textsOf(tree);
    const built = new NodeTermIndex(skeleton, texts);
    expect(built.fields.arrays.phraseKeys).toBeInstanceOf(Float64Array);
    const loaded = new NodeTermIndex(
      skeleton,
      decodeNodeFields(skeleton, encodeNodeFields(skeleton, built.fields)),
    );
    const reference = new Bm25fIndex(nodeFields(skeleton, texts));
    for (const query of [`${word(69_998)} ${word(69_999)}`, `${word(3)} ${word(4)} ${word(5)}`]) {
      const expected = reference.scoreAll(queryTerms(query));
      expect(expected.every((score) => score > 0)).toBe(true);
      for (const index of [built, loaded]) {
        const own = index.score(query).own;
        expect(skeleton.nodes.map((n) => own.get(n.nodeId))).toEqual(expected);
      }
    }
  });

  it("reads an index the previous release saved (v1), and saves it again as v2 where it can", async () => {
    const tree = annualReport();
    const skeleton = toSkeleton(tree);
    const texts = await textsOf(tree);
    // v1: gzipped JSON, per node and field [length, terms, term, count, …] over one vocabulary.
    const vocabulary: string[] = [];
    const nodes = nodeFields(skeleton, texts).map((fields) =>
      fields.flatMap((field) => [
        field.length,
        field.counts.size,
        ...[...field.counts].flatMap(([term, count]) => {
          if (!vocabulary.includes(term)) vocabulary.push(term);
          return [vocabulary.indexOf(term), count];
        }),
      ]),
    );
    const fingerprint = Buffer.from(skeletonFingerprint(skeleton)).toString("hex");
    const v1 = gzipSync(JSON.stringify({ format: 1, fingerprint, withText: true, vocabulary, nodes }));
    const byteStore = new InMemoryStore<Uint8Array>();
    const writer = new PageIndexStore(byteStore);
    await writer.addTree(tree);
    await writer.putDerived(tree.docId, LEGACY_LEXICAL_INDEX_ARTIFACT, v1);
    const built = new NodeTermIndex(skeleton, texts);
    // A handle that refuses writes, as a read-only folder store does.
    const readOnly = new Proxy(writer, {
      get(target, key) {
        if (key === "putDerived")
          return async () => {
            throw new StoreReadOnlyError("test", "read-only");
          };
        const value = Reflect.get(target, key);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
    for (const store of [readOnly, writer]) {
      let textsRead = 0;
      const index = await new LexicalIndexes(store).get(await store.getSkeleton(tree.docId), "judge", (n) => {
        textsRead += n;
      });
      expect(textsRead).toBe(0);
      const saved = await store.getDerived(tree.docId, LEXICAL_INDEX_ARTIFACT);
      expect(saved === undefined).toBe(store !== writer); // upgraded by the writable handle only
      for (const query of ["effective tax rate 2023", "operating cash flow"])
        expect([...index.score(query).own]).toEqual([...built.score(query).own]);
    }
  });
});
