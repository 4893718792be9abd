import {
  type Bm25fField,
  Bm25fIndex,
  createTree,
  type NodeDraft,
  tokenize,
  tokenizeQuery,
} from "pageindex-core";
import { PageIndexRetriever } from "pageindex-retriever";
import { describe, expect, it } from "vitest";
import { documentPriors, UNNAMED_DOCUMENT_PRIOR } from "../src/lexical/doc-names.js";
import { expandQuery } from "../src/lexical/expand.js";
import { AUTO_TEXT_MAX_TOKENS, NodeTermIndex, needsText, queryTerms } from "../src/lexical/node-index.js";
import { annualReport, ID } from "./support/fixtures.js";

describe("tokenizer: numbers, abbreviations, query phrasing", () => {
  it("keeps years and small numbers, drops amounts, splits letters from digits", () => {
    expect(tokenize("Item 7: revenue of $4,935.2 million (1234567 units) in FY2023")).toEqual([
      "item",
      "7",
      "revenu",
      "million",
      "unit",
      "fiscal",
      "2023",
    ]);
  });

  it("stems -es plurals to the singular", () => {
    expect(tokenize("taxes matches businesses tax match business")).toEqual([
      "tax",
      "match",
      "business",
      "tax",
      "match",
      "business",
    ]);
  });

  it("drops the words that only phrase a request, in queries only", () => {
    expect(tokenizeQuery("Please explain whether the list of exhibits is complete")).toEqual([
      "exhibit",
      "complet",
    ]);
    expect(tokenize("List of Exhibits")).toEqual(["list", "exhibit"]);
  });
});

describe("BM25F", () => {
  const field = (text: string, weight: number, b: number): Bm25fField => ({
    terms: tokenize(text),
    weight,
    b,
  });
  const filler = "other words about the business and its many unrelated activities ".repeat(20);

  it("weighs a title match above the same word deep in a long text", () => {
    const index = new Bm25fIndex([
      [field("Income taxes", 3, 0.3), field(`${filler} taxes`, 1, 0.75)],
      [field("Overview", 3, 0.3), field(`${filler} taxes taxes`, 1, 0.75)],
      [field("Segments", 3, 0.3), field(filler, 1, 0.75)],
    ]);
    const [titled, inText, none] = index.scoreAll([{ term: "tax", weight: 1 }]);
    expect(titled).toBeGreaterThan(inText as number);
    expect(inText).toBeGreaterThan(0);
    expect(none).toBe(0);
  });

  it("counts a repeated query word more, with saturation, and expansions less", () => {
    const index = new Bm25fIndex([[field("margin", 1, 0)], [field("profile", 1, 0)], [field("other", 1, 0)]]);
    const once = index.scoreAll([{ term: "margin", weight: 1 }])[0] as number;
    const twice = index.scoreAll([
      { term: "margin", weight: 1 },
      { term: "margin", weight: 1 },
    ])[0] as number;
    expect(twice).toBeGreaterThan(once);
    expect(twice).toBeLessThan(2 * once);
    const expanded = index.scoreAll([{ term: "margin", weight: 0.3 }])[0] as number;
    expect(expanded).toBeLessThan(once);
  });

  it("ranks an exact phrase above the same words scattered", () => {
    const make = (text: string): NodeDraft => ({ title: "Section", text, summary: "x" });
    const tree = createTree(
      {
        docId: "phrases",
        docName: "phrases.pdf",
        kind: "pdf",
        build: { loader: "test", structure: "outline" },
      },
      [
        make("The flow of goods and the cash position were reviewed by the board."),
        make("Net cash flow from operating activities was reviewed by the board."),
        make("Unrelated text about the weather in the desert."),
      ],
    );
    const texts = new Map(tree.nodes.map((n) => [n.nodeId, n.text]));
    const scores = new NodeTermIndex(tree, texts).score("cash flow");
    expect(scores.own.get("0001")).toBeGreaterThan(scores.own.get("0000") as number);
    expect(queryTerms("cash flow").map((t) => t.term)).toContain("cash flow");
  });
});

describe("financial query expansion", () => {
  it("adds the line items a metric is computed from, and nothing for other queries", () => {
    const related = expandQuery(tokenizeQuery("Is the gross margin improving?")).map((p) => p.join(" "));
    expect(related).toEqual(expect.arrayContaining(["cost sale", "gross profit"]));
    expect(expandQuery(tokenizeQuery("how often to replace the fuel filter"))).toEqual([]);
  });

  it("finds the income statement table for a margin question it never names", async () => {
    const tree = createTree(
      { docId: "co", docName: "co.pdf", kind: "pdf", build: { loader: "test", structure: "outline" } },
      [
        {
          title: "Our people",
          text: "We hire engineers and improve our culture; turnover improved.",
          summary: "Hiring and culture.",
        },
        {
          title: "Consolidated Statements of Operations",
          text: "Net sales 4,100 3,900 Cost of sales 2,400 2,300 Operating income 900 850",
          summary: "Statement table.",
        },
        { title: "Properties", text: "We lease offices and warehouses.", summary: "Leases." },
      ],
    );
    const docs = await new PageIndexRetriever({ trees: [tree], k: 1 }).invoke(
      "Is the company's gross margin improving?",
    );
    expect(docs[0]?.metadata.title).toBe("Consolidated Statements of Operations");
  });
});

describe("documents named by the query", () => {
  const docs = [
    { docId: "a", docName: "ADOBE_2022_10K.pdf" },
    { docId: "b", docName: "BESTBUY_2023_10K.pdf" },
    { docId: "c", docName: "10k.pdf", description: "Annual report of Ulta Beauty, Inc." },
  ];

  it("prefers the documents whose name or description the query mentions", () => {
    expect(documentPriors("Are Best Buy's gross margins stable?", docs)).toEqual(
      new Map([
        ["a", UNNAMED_DOCUMENT_PRIOR],
        ["b", 1],
        ["c", UNNAMED_DOCUMENT_PRIOR],
      ]),
    );
    expect(documentPriors("What drove Ulta Beauty's inventories?", docs).get("c")).toBe(1);
    expect(documentPriors("What drove Ulta Beauty's inventories?", docs).get("a")).toBe(
      UNNAMED_DOCUMENT_PRIOR,
    );
  });

  it("leaves every document equal when none is named, or only shared words match", () => {
    expect([...documentPriors("What are the gross margins?", docs).values()]).toEqual([1, 1, 1]);
    // "10-K" is in every name: it tells no document apart.
    expect([...documentPriors("Which 10-K mentions leases?", docs.slice(0, 2)).values()]).toEqual([1, 1]);
    expect(documentPriors("Adobe", docs.slice(0, 1)).get("a")).toBe(1);
  });

  it("ranks and selects the named document when several have the same sections", async () => {
    const trees = [
      annualReport("acme-10k", "ACME_2023_10K.pdf"),
      annualReport("globex-10k", "GLOBEX_2023_10K.pdf"),
    ];
    const all = await new PageIndexRetriever({ trees, k: 2 }).invoke("What was Globex's effective tax rate?");
    expect(all[0]?.metadata).toMatchObject({ docId: "globex-10k", nodeId: ID.note12 });
    expect(all[0]?.metadata.score).toBeGreaterThan(all[1]?.metadata.score as number);

    const selecting = new PageIndexRetriever({ trees, k: 2, documentSelection: "llm", maxDocuments: 1 });
    const chosen = await selecting.invoke("What was Globex's effective tax rate?");
    expect(selecting.lastRun?.docIds).toEqual(["globex-10k"]);
    expect(chosen.every((d) => d.metadata.docId === "globex-10k")).toBe(true);
  });
});

describe("which text auto mode indexes", () => {
  it("reads texts unless the document is very large and summarised", () => {
    const tree = annualReport();
    expect(needsText(tree)).toBe(true);
    const huge = { ...tree, nodes: tree.nodes.map((n) => ({ ...n, tokenCount: AUTO_TEXT_MAX_TOKENS })) };
    expect(needsText(huge)).toBe(false);
    const bare = {
      ...huge,
      nodes: huge.nodes.map((n) => ({ ...n, summary: undefined, prefixSummary: undefined })),
    };
    expect(needsText(bare)).toBe(true);
  });
});

describe("printed tables of contents", () => {
  it("are left out of the index: dot leaders followed by a page number", async () => {
    const { withoutTocLines } = await import("../src/lexical/node-fields.js");
    expect(
      withoutTocLines(
        "Contents\nLiquidity and Capital Resources ........ 41\nItem 8. Statements . . . . . 52\nBody text.",
      ),
    ).toBe("Contents\n \nItem 8. \nBody text.");
    expect(withoutTocLines("Revenue grew 9 %... mostly in Q4.")).toBe("Revenue grew 9 %... mostly in Q4.");
  });

  it("so a contents page does not outrank the sections it lists", async () => {
    const filler = (topic: string) => `${topic} `.repeat(3) + "and other matters of the year. ".repeat(30);
    const tree = createTree(
      {
        docId: "toc-report",
        docName: "report.pdf",
        kind: "pdf",
        pageCount: 9,
        build: { loader: "t", structure: "layout" },
      },
      [
        {
          title: "Annual Report",
          startPage: 1,
          text: [
            "Annual Report 2025",
            "Table of Contents",
            "Results of Operations ............ 4",
            "Liquidity and Capital Resources ........ 6",
            "Operating Cash Flow Statement ........ 8",
          ].join("\n"),
        },
        { title: "Results of Operations", startPage: 4, endPage: 5, text: filler("revenue growth") },
        {
          title: "Liquidity and Capital Resources",
          startPage: 6,
          endPage: 7,
          text: `Operating cash flow was $212 million. ${filler("liquidity")}`,
        },
        { title: "Statements", startPage: 8, endPage: 9, text: filler("balance sheet") },
      ],
    );
    const docs = await new PageIndexRetriever({ trees: [tree], k: 3 }).invoke(
      "What was the operating cash flow and how is liquidity?",
    );
    expect(docs[0]?.metadata.title).toBe("Liquidity and Capital Resources");
    expect(docs.map((d) => d.metadata.title)).not.toContain("Annual Report");
  });
});
