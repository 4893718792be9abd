import { Bm25Index, bm25Doc, createTree, stem, tokenize } from "pageindex-core";
import { PageIndexRetriever } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { NodeTermIndex } from "../src/lexical/node-index.js";
import { annualReport, ID, manual, SpyReader } from "./support/fixtures.js";

describe("tokenizer", () => {
  it("lowercases, drops stop words and punctuation, and stems lightly", () => {
    expect(tokenize("What were the Company's Gross Margins in 2023?")).toEqual([
      "company",
      "gross",
      "margin",
      "2023",
    ]);
    expect(stem("policies")).toBe("policy");
    expect(stem("running")).toBe("run");
    expect(stem("billing")).toBe("bill");
    expect(stem("acquisitions")).toBe(stem("acquisition"));
    // Light: distinct financial terms stay apart.
    expect(stem("operating")).not.toBe(stem("operator"));
    expect(tokenize("Café naïve")).toEqual(["cafe", "naiv"]);
  });
});

describe("BM25", () => {
  it("ranks rare, frequent and short matches higher", () => {
    const docs = [
      "income tax provision and effective tax rate",
      "revenue and gross margin",
      "tax",
      "revenue revenue revenue and costs and many other words that dilute the document length a lot",
    ].map((t) => bm25Doc([{ terms: tokenize(t), weight: 1 }]));
    const index = new Bm25Index(docs);
    const [a, b, c, d] = index.scoreAll(tokenize("effective tax rate"));
    expect(a).toBeGreaterThan(c as number);
    expect(c).toBeGreaterThan(0);
    expect(b).toBe(0);
    const rev = index.scoreAll(tokenize("revenue"));
    expect(rev[1]).toBeGreaterThan(0);
    expect(rev[3]).toBeGreaterThan(0);
    expect(d).toBe(0);
    expect(index.idf("tax")).toBeLessThan(index.idf("effective"));
  });
});

describe("node term index", () => {
  it("propagates the best match of a subtree to its ancestors", async () => {
    const tree = annualReport();
    const skeleton = await new SpyReader([tree]).getSkeleton(tree.docId);
    const scores = new NodeTermIndex(skeleton).score("effective tax rate");
    expect(scores.bestIn.get(ID.partII)).toBe(ID.note12);
    expect(scores.subtree.get(ID.partII)).toBeGreaterThan(scores.subtree.get(ID.partI) ?? 0);
    expect(scores.matched(ID.note12)).toEqual(expect.arrayContaining(["effectiv", "tax", "rate"]));
  });
});

describe("offline retrieval (no model)", () => {
  it("navigates with the lexical judge and explains its choice", async () => {
    const trees = [annualReport(), manual()];
    const reader = new SpyReader(trees);
    const retriever = new PageIndexRetriever({ reader, k: 2 });
    const docs = await retriever.invoke("What was the effective tax rate?");
    expect(docs[0]?.metadata).toMatchObject({ nodeId: ID.note12, judge: "lexical" });
    expect(docs[0]?.metadata.reason).toMatch(/lexical match on .*tax/);
    expect(docs[0]?.metadata.visited).toEqual([ID.partII, ID.item8, ID.notes, ID.note12]);
    expect(retriever.lastRun?.stats).toMatchObject({ calls: 0, roundTrips: 0 });
    // `auto` indexes the texts of (small) documents once: one read of all nodes per document,
    // otherwise only the returned sections' texts are read.
    const whole = (r: { docId: string; nodeIds: string[] }) =>
      r.nodeIds.length === trees.find((t) => t.docId === r.docId)?.nodes.length;
    const indexReads = () => reader.textReads.filter(whole).map((r) => r.docId);
    expect(indexReads().sort()).toEqual(trees.map((t) => t.docId).sort());
    expect(reader.textReads.filter((r) => !whole(r)).flatMap((r) => r.nodeIds)).toEqual(
      docs.map((d) => d.metadata.nodeId),
    );

    const manualDocs = await retriever.invoke("how often to replace the fuel filter");
    expect(indexReads()).toHaveLength(2);
    expect(manualDocs[0]?.id).toBe("rocket-manual:0002");
    const acq = await retriever.invoke("acquisitions made in 2023");
    expect(acq[0]?.metadata.nodeId).toBe(ID.note5);
  });

  it("reads node texts once per document when the tree has no summaries", async () => {
    const tree = createTree(
      { docId: "bare", docName: "bare.pdf", kind: "pdf", build: { loader: "test", structure: "imported" } },
      [
        { title: "Chapter A", startPage: 1, endPage: 2, text: "General remarks about apples." },
        {
          title: "Chapter B",
          startPage: 3,
          endPage: 4,
          text: "The zeppelin mooring procedure is described here.",
        },
      ],
    );
    const reader = new SpyReader([tree]);
    const retriever = new PageIndexRetriever({ reader, k: 1 });
    const docs = await retriever.invoke("zeppelin mooring");
    expect(docs[0]?.metadata.nodeId).toBe("0001");
    const indexRead = reader.textReads[0]?.nodeIds.length;
    expect(indexRead).toBe(2);
    await retriever.invoke("apples");
    // Second query: the index is reused, only the result's text is read.
    expect(reader.textReads.slice(2).flatMap((r) => r.nodeIds)).toEqual(["0000"]);

    const skeletonOnly = new PageIndexRetriever({ reader: new SpyReader([tree]), lexicalText: "skeleton" });
    expect(await skeletonOnly.invoke("zeppelin mooring")).toEqual([]);
  });
});
