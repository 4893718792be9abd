// Writes the demo's sample PDF: a fictional company's annual report, generated here so the
// project ships only documents it made itself. Deterministic: re-running gives the same text
// and structure. Usage: npx tsx scripts/make-samples.ts
import { writeFile } from "node:fs/promises";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import {
  buildPdf,
  type LineSpec,
  type PageSpec,
  tocPage,
} from "../packages/pageindex-loader/test/fixtures/pdf-builder.js";

const OUT = resolve(
  dirname(fileURLToPath(import.meta.url)),
  "../packages/pageindex-cli/samples/acme-annual-report-2025.pdf",
);

/** Wraps prose into body lines of at most `width` characters (10 pt Helvetica fits ~90). */
function prose(text: string, width = 88): LineSpec[] {
  const lines: LineSpec[] = [];
  for (const paragraph of text.trim().split(/\n\s*\n/)) {
    let line = "";
    for (const word of paragraph.split(/\s+/)) {
      if (line && line.length + word.length + 1 > width) {
        lines.push({ text: line });
        line = word;
      } else line = line ? `${line} ${word}` : word;
    }
    if (line) lines.push({ text: line });
    lines.push({ text: " ", size: 4 });
  }
  return lines;
}

const h1 = (text: string): LineSpec => ({ text, size: 16, bold: true, gap: 10 });
const h2 = (text: string): LineSpec => ({ text, size: 12.5, bold: true, gap: 6 });

// Physical page n carries printed page n - 2 (cover and contents are unnumbered).
const page = (printed: number, lines: LineSpec[]): PageSpec => ({ lines, footer: String(printed) });

const sections = {
  letter: `Dear shareholders, 2025 was the year Acme Tools became a software company that also makes
hardware. Subscription revenue from our FleetSense maintenance platform passed hardware revenue for
the first time, and we ended the year with more recurring revenue than in any year of our history.

We also made hard choices. We closed the Dayton assembly plant, moved production of corded tools to
our partner in Monterrey, and cut the number of product variants by a third. These steps lowered
costs but also led to restructuring charges that weigh on this year's operating income.`,
  business: `Acme Tools designs and sells cordless power tools for professional trades and the FleetSense
software that tracks, maintains and insures those tools on job sites. We sell through national
home-improvement retailers, industrial distributors and directly to contractors with more than fifty
employees.`,
  products: `Our hardware line has three families: the V20 cordless platform (drills, drivers, saws), the
Titan heavy-duty line for concrete and steel, and batteries and chargers that fit both. FleetSense is
sold per tool per month; each subscription includes tracking tags, predictive maintenance alerts and
theft insurance underwritten by a partner insurer.`,
  customers: `No customer accounted for more than 10 % of revenue in 2025. Our three largest retail partners
together accounted for 27 % of revenue, down from 33 % in 2024, as direct contractor sales grew.`,
  risks: `Our results depend on residential and commercial construction activity, which slowed in the
second half of 2025. Lithium-ion cells come from two suppliers in Asia; a disruption at either would
limit battery output for several months. FleetSense stores location data about our customers' job
sites, and a security breach could expose that data and harm our reputation. Tariffs on imported
motors raised our cost of goods by about 1.5 percentage points in 2025.`,
  mdaIntro: `The following discussion compares fiscal 2025 with fiscal 2024. All amounts are in millions of
US dollars unless stated otherwise.`,
  results: `Total revenue grew 9 % to $1,284 million. Hardware revenue fell 4 % to $612 million as unit
volumes declined in retail, while FleetSense subscription revenue rose 24 % to $672 million, driven by
41,000 new connected tools and a price increase in April. Operating income was $118 million, down
from $131 million, because of $46 million of restructuring charges for the Dayton plant closure.
Excluding those charges, operating margin improved from 11.1 % to 12.8 %.`,
  gross: `Gross margin rose to 44.6 % from 40.2 %. Subscription gross margin was 71 %, hardware gross
margin 21 %; the shift toward subscriptions added about 3 percentage points to the total, lower freight
costs about 1 point, and tariffs took away 1.5 points.`,
  liquidity: `Net cash provided by operating activities was $212 million in 2025, compared with $164 million
in 2024. The increase came mainly from higher subscription collections, which are billed annually in
advance, and from a $38 million reduction in inventory after we cut product variants. Capital
expenditures were $54 million, mostly for FleetSense data centers and tooling in Monterrey. We ended
the year with $305 million of cash and equivalents and an undrawn $250 million revolving credit
facility that matures in 2029. We believe cash on hand and cash from operations will cover our needs
for at least the next twelve months.`,
  outlook: `For 2026 we expect revenue growth of 6 to 8 %, subscription revenue above 55 % of the total,
and no further restructuring charges. We plan to return $80 million to shareholders through buybacks.`,
  income: `Consolidated statements of income (in millions): revenue 1,284 (2024: 1,178); cost of revenue
711 (705); gross profit 573 (473); research and development 142 (121); selling, general and
administrative 267 (221); restructuring 46 (0); operating income 118 (131); interest expense 9 (11);
income before taxes 109 (120); income tax 24 (27); net income 85 (93).`,
  balance: `Consolidated balance sheet at December 31, 2025 (in millions): cash and equivalents 305; accounts
receivable 188; inventory 161; property, plant and equipment 244; goodwill 212; total assets 1,302.
Deferred subscription revenue 233; long-term debt 150; total shareholders' equity 621.`,
  cashflows: `Consolidated statements of cash flows (in millions): net income 85; depreciation and
amortization 61; change in deferred revenue 52; change in inventory 38; other working capital -24;
net cash from operating activities 212. Capital expenditures -54; acquisitions 0; net cash used in
investing activities -54. Share repurchases -40; dividends -22; net cash used in financing -62.`,
  note1: `Note 1 — Revenue recognition. Hardware revenue is recognised when tools ship to the customer.
FleetSense subscriptions are billed annually in advance and recognised evenly over the subscription
term; amounts billed but not yet recognised are reported as deferred subscription revenue.`,
  note2: `Note 2 — Debt. Long-term debt consists of $150 million of 4.25 % senior notes due 2030. The
$250 million revolving credit facility was undrawn at year end; it requires a net leverage ratio below
3.0, which we met with ample room (0.4 at December 31, 2025).`,
};

async function main(): Promise<void> {
  const toc = [
    { title: "Letter to Shareholders", page: 1 },
    { title: "Item 1. Business", page: 2 },
    { title: "Item 1A. Risk Factors", page: 3 },
    { title: "Item 7. Management's Discussion and Analysis", page: 4 },
    { title: "Results of Operations", page: 4, level: 2 },
    { title: "Liquidity and Capital Resources", page: 5, level: 2 },
    { title: "Item 8. Financial Statements", page: 6 },
    { title: "Notes to the Financial Statements", page: 8, level: 2 },
  ];
  const pages: PageSpec[] = [
    {
      lines: [
        { text: "ACME TOOLS, INC.", size: 24, bold: true, gap: 200 },
        { text: "Annual Report 2025", size: 18, gap: 12 },
        { text: "A fictional company. This report was generated for the pageindex demo.", size: 9, gap: 24 },
      ],
    },
    tocPage(toc),
    page(1, [h1("Letter to Shareholders"), ...prose(sections.letter)]),
    page(2, [
      h1("Item 1. Business"),
      ...prose(sections.business),
      h2("Products"),
      ...prose(sections.products),
      h2("Customers"),
      ...prose(sections.customers),
    ]),
    page(3, [h1("Item 1A. Risk Factors"), ...prose(sections.risks)]),
    page(4, [
      h1("Item 7. Management's Discussion and Analysis"),
      ...prose(sections.mdaIntro),
      h2("Results of Operations"),
      ...prose(sections.results),
      h2("Gross Margin"),
      ...prose(sections.gross),
    ]),
    page(5, [
      h2("Liquidity and Capital Resources"),
      ...prose(sections.liquidity),
      h2("Outlook"),
      ...prose(sections.outlook),
    ]),
    page(6, [
      h1("Item 8. Financial Statements"),
      h2("Consolidated Statements of Income"),
      ...prose(sections.income),
      h2("Consolidated Balance Sheet"),
      ...prose(sections.balance),
    ]),
    page(7, [h2("Consolidated Statements of Cash Flows"), ...prose(sections.cashflows)]),
    page(8, [h2("Notes to the Financial Statements"), ...prose(sections.note1), ...prose(sections.note2)]),
  ];
  const bytes = await buildPdf({ pages });
  await writeFile(OUT, bytes);
  console.log(`wrote ${OUT} (${pages.length} pages, ${bytes.length} bytes)`);
}

await main();
