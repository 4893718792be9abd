import { createTree, type NodeDraft, type TreeDocument, type TreeReader } from "pageindex-core";
import { MemoryTreeReader } from "pageindex-store";

const filler = (topic: string, n = 60) =>
  Array.from({ length: n }, (_, i) => `Paragraph ${i + 1} discusses ${topic} in general terms.`).join(" ");

/** A small 10-K-like report: Part I (Items 1, 1A), Part II (Item 7 with two parts, Item 8 with notes). */
export function annualReport(docId = "acme-10k", name = "ACME 2023 Form 10-K"): TreeDocument {
  const drafts: NodeDraft[] = [
    {
      title: "Part I",
      startPage: 1,
      text: "PART I",
      children: [
        {
          title: "Item 1. Business",
          startPage: 1,
          endPage: 5,
          text: `Item 1. Business. ACME makes anvils and rockets. Our customers are coyotes. ${filler("the business")}`,
          summary: "Company overview: products (anvils, rockets), customers, competition, employees.",
        },
        {
          title: "Item 1A. Risk Factors",
          startPage: 6,
          endPage: 10,
          text: `Item 1A. Risk Factors. Demand is cyclical and depends on desert weather. ${filler("risks")}`,
          summary: "Risks: cyclical demand, supply chain, regulation of explosives.",
        },
      ],
    },
    {
      title: "Part II",
      startPage: 11,
      text: "PART II",
      children: [
        {
          title: "Item 7. Management's Discussion and Analysis",
          startPage: 11,
          ownEndPage: 11,
          text: "Item 7. MD&A. This discussion covers results and liquidity.",
          prefixSummary: "Management's view of results of operations and liquidity.",
          children: [
            {
              title: "Results of Operations",
              startPage: 12,
              endPage: 20,
              text: `Results of Operations. Revenue grew 12% to $4.1 billion; gross margin was 41.2%. ${filler("results")}`,
              summary: "Revenue, gross margin and operating income compared with the prior year.",
            },
            {
              title: "Liquidity and Capital Resources",
              startPage: 21,
              endPage: 30,
              text: `Liquidity. Operating cash flow was $900 million and free cash flow $650 million. ${filler("liquidity")}`,
              summary: "Cash flows from operations, investing and financing; debt; free cash flow.",
            },
          ],
        },
        {
          title: "Item 8. Financial Statements and Supplementary Data",
          startPage: 31,
          ownEndPage: 31,
          text: "Item 8. Financial Statements.",
          prefixSummary: "The audited consolidated financial statements and their notes.",
          children: [
            {
              title: "Consolidated Statements of Income",
              startPage: 31,
              endPage: 32,
              text: `Consolidated Statements of Income. Net income $510 million. ${filler("income")}`,
              summary: "Revenue, costs, operating income and net income for three years.",
            },
            {
              title: "Consolidated Balance Sheets",
              startPage: 33,
              endPage: 34,
              text: `Consolidated Balance Sheets. Total assets $7.9 billion. ${filler("the balance sheet")}`,
              summary: "Assets, liabilities and shareholders' equity at year end.",
            },
            {
              title: "Notes to Consolidated Financial Statements",
              startPage: 35,
              ownEndPage: 35,
              text: "Notes to Consolidated Financial Statements.",
              prefixSummary: "Notes explaining accounting policies and balances.",
              children: [
                {
                  title: "Note 1. Summary of Significant Accounting Policies",
                  startPage: 35,
                  endPage: 40,
                  text: `Note 1. Accounting policies. Revenue is recognised at delivery. ${filler("policies")}`,
                  summary: "Basis of presentation, revenue recognition, use of estimates.",
                },
                {
                  title: "Note 5. Acquisitions",
                  startPage: 41,
                  endPage: 45,
                  text: `Note 5. Acquisitions. In 2023 ACME acquired RoadRunner Traps for $1.2 billion. ${filler("acquisitions")}`,
                  summary: "Businesses acquired in 2023, 2022 and 2021 and the purchase prices.",
                },
                {
                  title: "Note 12. Income Taxes",
                  startPage: 46,
                  endPage: 50,
                  text: `Note 12. Income Taxes. The effective tax rate was 21.4% in 2023 versus 19.8% in 2022. ${filler("taxes")}`,
                  summary: "Provision for income taxes and the effective tax rate reconciliation.",
                },
                {
                  title: "Note 15. Commitments and Contingencies",
                  startPage: 51,
                  endPage: 60,
                  text: `Note 15. Legal proceedings: ACME is defending a product liability lawsuit. ${filler("contingencies")}`,
                  summary: "Leases, purchase commitments and pending legal proceedings.",
                },
              ],
            },
          ],
        },
      ],
    },
  ];
  return createTree(
    {
      docId,
      docName: name,
      kind: "pdf",
      pageCount: 60,
      description: "Annual report of ACME Corp for fiscal 2023 (anvils and rockets).",
      build: { loader: "test", structure: "outline" },
      createdAt: "2024-01-01T00:00:00.000Z",
    },
    drafts,
  );
}

/** A second, unrelated document: a user manual. */
export function manual(docId = "rocket-manual"): TreeDocument {
  return createTree(
    {
      docId,
      docName: "Rocket Skates User Manual",
      kind: "pdf",
      pageCount: 12,
      description: "How to assemble, operate and maintain ACME rocket skates.",
      build: { loader: "test", structure: "outline" },
      createdAt: "2024-01-01T00:00:00.000Z",
    },
    [
      {
        title: "Assembly",
        startPage: 1,
        endPage: 4,
        text: `Assembly. Attach the rockets to the skates. ${filler("assembly")}`,
        summary: "Attaching rockets and fuel tanks to the skates.",
      },
      {
        title: "Operation",
        startPage: 5,
        endPage: 8,
        text: `Operation. Ignite, then lean forward. Braking is not supported. ${filler("operation")}`,
        summary: "Ignition, steering, speed control; braking is not supported.",
      },
      {
        title: "Maintenance and Warranty",
        startPage: 9,
        endPage: 12,
        text: `Maintenance. Replace the fuel filter every 10 flights. Warranty is void after a cliff fall. ${filler("maintenance")}`,
        summary: "Cleaning, fuel filter replacement, warranty terms.",
      },
    ],
  );
}

/** Node ids of the annual report by title, for readable assertions. */
export const ID = {
  partI: "0000",
  item1: "0001",
  item1a: "0002",
  partII: "0003",
  item7: "0004",
  results: "0005",
  liquidity: "0006",
  item8: "0007",
  income: "0008",
  balance: "0009",
  notes: "0010",
  note1: "0011",
  note5: "0012",
  note12: "0013",
  note15: "0014",
} as const;

/** A reader that records which node texts were read. */
export class SpyReader implements TreeReader {
  readonly inner: MemoryTreeReader;
  readonly textReads: Array<{ docId: string; nodeIds: string[] }> = [];
  constructor(trees: TreeDocument[]) {
    this.inner = new MemoryTreeReader(trees);
  }
  listDocuments() {
    return this.inner.listDocuments();
  }
  getSkeleton(docId: string) {
    return this.inner.getSkeleton(docId);
  }
  getNodeTexts(docId: string, nodeIds: readonly string[]) {
    this.textReads.push({ docId, nodeIds: [...nodeIds] });
    return this.inner.getNodeTexts(docId, nodeIds);
  }
  get nodeIdsRead(): string[] {
    return this.textReads.flatMap((r) => r.nodeIds);
  }
}

/** A node offered in a judging prompt, as a model would read it. */
export interface OfferedNode {
  id: string;
  title: string;
  pages?: [number, number];
}

/**
 * Parses the candidates of a judging prompt: the `<node>` blocks of an expansion prompt, or the
 * `[id] title (pages)` lines of an outline prompt (`<toc>` without attributes; groups included).
 */
export function offeredNodes(prompt: string): OfferedNode[] {
  const out: OfferedNode[] = [];
  for (const block of prompt.matchAll(/<toc>\n([\s\S]*?)\n<\/toc>/g)) {
    for (const m of (block[1] ?? "").matchAll(
      /^ *\[([^\]]+)\] (.*?)(?: \((?:pp?\. (\d+)(?:-(\d+))?|lines [\d-]+)\))?(?: \[\+\d+ subsections\])?$/gm,
    )) {
      const node: OfferedNode = { id: m[1] as string, title: m[2] as string };
      if (m[3]) node.pages = [Number(m[3]), Number(m[4] ?? m[3])];
      out.push(node);
    }
  }
  for (const m of prompt.matchAll(
    /<node id="([^"]+)"(?: pages="(\d+)-(\d+)")?[^>]*>\n([\s\S]*?)\n<\/node>/g,
  )) {
    const title = /^Title: (.*)$/m.exec(m[4] ?? "")?.[1] ?? "";
    const node: OfferedNode = { id: m[1] as string, title };
    if (m[2] && m[3]) node.pages = [Number(m[2]), Number(m[3])];
    out.push(node);
  }
  return out;
}

/**
 * A fake judge that answers like a model: it selects the offered nodes whose title matches the
 * pattern (scores from `scores` by title match, default 0.9).
 */
export function judgeByTitle(pattern: RegExp, scores: Array<[RegExp, number]> = [], self?: RegExp) {
  return (prompt: string) =>
    JSON.stringify({
      relevant: offeredNodes(prompt)
        .filter((n) => pattern.test(n.title))
        .map((n) => ({
          id: n.id,
          score: scores.find(([re]) => re.test(n.title))?.[1] ?? 0.9,
          reason: `the title "${n.title}" fits`,
          ...(self?.test(n.title) ? { self: true } : {}),
        })),
    });
}

/** Path to the tax note: Part II > Item 8 > Notes > Note 12. */
export const TAX_PATH = /^(Part II|Item 8\.|Notes to|Note 12\.)/;
