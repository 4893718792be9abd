import { Embeddings } from "@langchain/core/embeddings";
import { countTokens, createTree, type TreeDocument } from "pageindex-core";
import { markdownToTree } from "pageindex-loader";
import { describe, expect, it } from "vitest";
import { RetrieverConfigError } from "../src/errors.js";
import {
  Bm25ChunkRetriever,
  type ChunkMetadata,
  chunkTree,
  cosineSimilarity,
  HashingEmbeddings,
  VectorChunkRetriever,
} from "../src/eval/baselines.js";

/** Distinct sentences, so overlaps and positions can be checked by content. */
const sentences = (topic: string, n: number) =>
  Array.from({ length: n }, (_, i) => `Sentence ${i + 1} about ${topic} number ${i * 7 + 3}.`).join(" ");

/** A 4000-character "word" (a path-like blob) with no whitespace to split at. */
const LONG_WORD = Array.from({ length: 800 }, (_, i) => `k${i % 10}z`).join("/");

function pdfTree(): TreeDocument {
  return createTree(
    {
      docId: "report",
      docName: "report.pdf",
      kind: "pdf",
      source: "/data/report.pdf",
      build: { loader: "test", structure: "outline" },
      pageCount: 9,
    },
    [
      {
        title: "Overview",
        startPage: 1,
        ownEndPage: 2,
        text: `Overview. ${sentences("the company", 40)}`,
        children: [
          { title: "Cover", startPage: 3, endPage: 3, text: "" },
          {
            title: "Revenue",
            startPage: 3,
            endPage: 5,
            text: `Revenue. ${sentences("revenue growth", 120)}`,
          },
        ],
      },
      {
        title: "Liquidity",
        startPage: 6,
        endPage: 6,
        text: "Liquidity. Operating cash flow was 900 million.",
      },
      { title: "Appendix", startPage: 7, endPage: 9, text: `Appendix ${LONG_WORD} end` },
    ],
  );
}

const MARKDOWN = [
  "# Manual",
  "",
  "Intro line.",
  "",
  "## Install",
  "",
  ...Array.from({ length: 30 }, (_, i) => `Install step ${i + 1}: run the installer with flag --opt${i}.`),
  "",
  "## Security",
  "",
  "### TLS certificates",
  "",
  "Rotate certificates with tillerctl tls reload on each broker in turn.",
  "",
].join("\n");

const chunksOf = <D extends { metadata: ChunkMetadata }>(docs: D[], nodeId: string) =>
  docs.filter((d) => d.metadata.nodeId === nodeId);

describe("chunkTree", () => {
  it("cuts node texts into bounded, overlapping chunks that never span two nodes", () => {
    const tree = pdfTree();
    const chunks = chunkTree(tree, { chunkTokens: 60, overlapTokens: 15 });
    expect(chunks.map((c) => c.metadata.chunk)).toEqual(chunks.map((_, i) => i));
    for (const chunk of chunks) {
      const node = tree.nodes.find((n) => n.nodeId === chunk.metadata.nodeId);
      expect(node?.text).toContain(chunk.pageContent);
      expect(chunk.metadata.tokenCount).toBe(countTokens(chunk.pageContent));
      expect(chunk.metadata.tokenCount).toBeLessThanOrEqual(62); // per-word counts may differ by a token or two from joint encoding
      expect(chunk.pageContent).toBe(chunk.pageContent.trim());
    }
    // The empty "Cover" node yields nothing.
    const cover = tree.nodes.find((n) => n.title === "Cover");
    expect(chunksOf(chunks, cover?.nodeId ?? "")).toHaveLength(0);

    const revenue = tree.nodes.find((n) => n.title === "Revenue");
    const parts = chunksOf(chunks, revenue?.nodeId ?? "");
    expect(parts.length).toBeGreaterThan(3);
    // Every word of the node is in some chunk, first and last included, in order.
    expect(revenue?.text.startsWith(parts[0]?.pageContent ?? "?")).toBe(true);
    expect(revenue?.text.endsWith(parts.at(-1)?.pageContent ?? "?")).toBe(true);
    let covered = 0;
    for (const [i, part] of parts.entries()) {
      const at = revenue?.text.indexOf(part.pageContent, Math.max(0, covered - 200)) ?? -1;
      expect(at).toBeGreaterThanOrEqual(0);
      expect(at).toBeLessThanOrEqual(covered + 1); // no gap beyond the separating space
      if (i > 0) {
        // The overlap: this chunk starts before the previous one ended, by at most ~15 tokens.
        expect(at).toBeLessThan(covered);
        expect(countTokens(revenue?.text.slice(at, covered) ?? "")).toBeLessThanOrEqual(17);
      }
      covered = at + part.pageContent.length;
    }
    expect(covered).toBe(revenue?.text.length);
  });

  it("gives PDF chunks their node's own pages and the document's identity", () => {
    const chunks = chunkTree(pdfTree(), { chunkTokens: 80, overlapTokens: 0 });
    const byTitle = (title: string) => chunks.filter((c) => c.metadata.title === title);
    const overview = byTitle("Overview");
    expect(overview.length).toBeGreaterThan(1);
    for (const c of overview) {
      expect(c.metadata).toMatchObject({
        docId: "report",
        docName: "report.pdf",
        source: "/data/report.pdf",
      });
      expect([c.metadata.startPage, c.metadata.endPage, c.metadata.page]).toEqual([1, 2, undefined]);
      expect(c.metadata.path).toEqual(["Overview"]);
    }
    expect(byTitle("Revenue")[0]?.metadata).toMatchObject({
      startPage: 3,
      endPage: 5,
      path: ["Overview", "Revenue"],
    });
    expect(byTitle("Liquidity")[0]?.metadata).toMatchObject({ page: 6, startPage: 6, endPage: 6 });
    expect(byTitle("Liquidity")[0]?.id).toBe(`report#${byTitle("Liquidity")[0]?.metadata.chunk}`);
    // Without overlap, chunks of a node tile its text exactly.
    const revenueText = pdfTree().nodes.find((n) => n.title === "Revenue")?.text;
    expect(
      byTitle("Revenue")
        .map((c) => c.pageContent)
        .join(" "),
    ).toBe(revenueText);
  });

  it("cuts a word longer than a chunk instead of emitting an oversized chunk", () => {
    const chunks = chunkTree(pdfTree(), { chunkTokens: 50, overlapTokens: 5 }).filter(
      (c) => c.metadata.title === "Appendix",
    );
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.metadata.tokenCount).toBeLessThanOrEqual(52);
    expect(chunks.map((c) => c.pageContent).join("")).toContain(LONG_WORD);
    expect(chunks.at(-1)?.pageContent.endsWith("end")).toBe(true);
  });

  it("gives Markdown chunks the exact source lines they come from", async () => {
    const tree = await markdownToTree(MARKDOWN, { docName: "manual.md" });
    const lines = MARKDOWN.split("\n");
    const chunks = chunkTree(tree, { chunkTokens: 40, overlapTokens: 8 });
    expect(chunks.length).toBeGreaterThan(4);
    for (const c of chunks) {
      const { startLine, endLine } = c.metadata;
      expect(startLine).toBeDefined();
      const source = lines.slice((startLine ?? 0) - 1, endLine).join("\n");
      expect(source).toContain(c.pageContent);
      // The first and last source lines of the range really hold the chunk's first and last words.
      expect(lines[(startLine ?? 0) - 1]).toContain(c.pageContent.split(/\s+/)[0]);
      expect(lines[(endLine ?? 0) - 1]).toContain(c.pageContent.split(/\s+/).at(-1));
      expect(c.metadata.page).toBeUndefined();
    }
    const tls = chunks.find((c) => c.metadata.title === "TLS certificates");
    expect(tls?.metadata.path).toEqual(["Manual", "Security", "TLS certificates"]);
    expect(lines[(tls?.metadata.startLine ?? 0) - 1]).toBe("### TLS certificates");
  });

  it("rejects options that cannot work", () => {
    const tree = pdfTree();
    expect(() => chunkTree(tree, { chunkTokens: 0 })).toThrow(RetrieverConfigError);
    expect(() => chunkTree(tree, { chunkTokens: 100, overlapTokens: 100 })).toThrow(/overlapTokens/);
    expect(() => chunkTree(tree, { chunkTokens: 100, overlapTokens: -1 })).toThrow(RetrieverConfigError);
  });
});

describe("Bm25ChunkRetriever", () => {
  it("ranks the chunk holding the rare query terms first and respects k", async () => {
    const tree = pdfTree();
    const retriever = Bm25ChunkRetriever.fromTrees([tree], { chunkTokens: 60, overlapTokens: 10, k: 3 });
    const docs = await retriever.invoke("What was the operating cash flow?");
    expect(docs[0]?.metadata.title).toBe("Liquidity");
    expect(docs.length).toBeLessThanOrEqual(3);
    const scores = docs.map((d) => d.metadata.score as number);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores[0]).toBeGreaterThan(0);
    // Results are copies: the indexed chunk keeps no score.
    expect(retriever.documents.some((d) => "score" in d.metadata)).toBe(false);
  });

  it("returns nothing when no chunk shares a term with the query", async () => {
    const retriever = Bm25ChunkRetriever.fromTrees([pdfTree()]);
    expect(await retriever.invoke("zebra quantum")).toEqual([]);
    expect(() => new Bm25ChunkRetriever({ documents: [], k: 0 })).toThrow(RetrieverConfigError);
    expect(await new Bm25ChunkRetriever({ documents: [] }).invoke("cash")).toEqual([]);
  });
});

/** Counts calls and can fail once, to check batching and recovery. */
class CountingEmbeddings extends Embeddings {
  batches: number[] = [];
  failNext = false;
  private readonly inner = new HashingEmbeddings({ dimensions: 256 });
  constructor() {
    super({});
  }
  override async embedDocuments(texts: string[]): Promise<number[][]> {
    if (this.failNext) {
      this.failNext = false;
      throw new Error("rate limited");
    }
    this.batches.push(texts.length);
    return this.inner.embedDocuments(texts);
  }
  override async embedQuery(text: string): Promise<number[]> {
    return this.inner.embedQuery(text);
  }
}

describe("VectorChunkRetriever", () => {
  it("embeds chunks once, in batches, and ranks by cosine similarity", async () => {
    const embeddings = new CountingEmbeddings();
    const retriever = VectorChunkRetriever.fromTrees([pdfTree()], {
      embeddings,
      chunkTokens: 60,
      overlapTokens: 0,
      batchSize: 4,
      k: 2,
    });
    const n = retriever.documents.length;
    const docs = await retriever.invoke("operating cash flow liquidity");
    expect(docs[0]?.metadata.title).toBe("Liquidity");
    expect(docs).toHaveLength(2);
    expect(embeddings.batches.reduce((a, b) => a + b, 0)).toBe(n);
    expect(Math.max(...embeddings.batches)).toBe(4);
    await retriever.invoke("revenue growth");
    expect(embeddings.batches.reduce((a, b) => a + b, 0)).toBe(n); // not embedded again
  });

  it("retries embedding after a failure instead of caching it", async () => {
    const embeddings = new CountingEmbeddings();
    embeddings.failNext = true;
    const retriever = VectorChunkRetriever.fromTrees([pdfTree()], { embeddings, chunkTokens: 60 });
    await expect(retriever.invoke("cash")).rejects.toThrow(/rate limited/);
    const docs = await retriever.invoke("operating cash flow");
    expect(docs[0]?.metadata.title).toBe("Liquidity");
  });

  it("rejects embeddings that return the wrong number of vectors", async () => {
    class Short extends HashingEmbeddings {
      override async embedDocuments(texts: string[]) {
        return (await super.embedDocuments(texts)).slice(1);
      }
    }
    const retriever = VectorChunkRetriever.fromTrees([pdfTree()], { embeddings: new Short() });
    await expect(retriever.invoke("cash")).rejects.toThrow(RetrieverConfigError);
  });
});

describe("HashingEmbeddings", () => {
  const e = new HashingEmbeddings();

  it("is deterministic, unit length and of the configured size", async () => {
    const [a, b] = await e.embedDocuments(["Operating cash flow rose.", "Operating cash flow rose."]);
    expect(a).toEqual(b);
    expect(a).toHaveLength(512);
    expect(Math.hypot(...(a ?? []))).toBeCloseTo(1, 10);
    expect(new HashingEmbeddings({ dimensions: 64 }).embed("cash")).toHaveLength(64);
    expect(e.embed("the of and")).toEqual(new Array(512).fill(0)); // stop words only
    expect(() => new HashingEmbeddings({ dimensions: 0 })).toThrow(RetrieverConfigError);
  });

  it("scores texts sharing words above unrelated texts, and sees word order through bigrams", async () => {
    const q = await e.embedQuery("How do I rotate TLS certificates?");
    const near = e.embed("Rotating certificates: run tls reload on each broker.");
    const far = e.embed("Consumer lag grows when consumers are too slow.");
    expect(cosineSimilarity(q, near)).toBeGreaterThan(0.3);
    expect(cosineSimilarity(q, near)).toBeGreaterThan(cosineSimilarity(q, far) + 0.3);
    const ordered = e.embed("cash flow statement");
    const shuffled = e.embed("statement flow cash");
    expect(cosineSimilarity(ordered, shuffled)).toBeLessThan(0.99);
    const unigrams = new HashingEmbeddings({ bigrams: false });
    expect(
      cosineSimilarity(unigrams.embed("cash flow statement"), unigrams.embed("statement flow cash")),
    ).toBeCloseTo(1, 10);
  });

  it("cosineSimilarity is 0 for a zero vector", () => {
    expect(cosineSimilarity([0, 0], [1, 0])).toBe(0);
    expect(cosineSimilarity([1, 0], [1, 0])).toBe(1);
    expect(cosineSimilarity([1, 0], [-1, 0])).toBe(-1);
  });
});
