/**
 * Query expansion for financial questions. Analysts ask for a metric ("gross margin", "quick
 * ratio", "free cash flow") while a filing prints the line items it is computed from ("cost of
 * sales", "current liabilities", "purchases of property and equipment") in statement tables.
 * Each entry maps a metric to those line items, textbook accounting definitions, not anything
 * tuned to a particular document. Expanded terms are added to the query at a reduced weight, so
 * a section that names the metric itself still ranks first.
 */
import { tokenize } from "pageindex-core";

const RELATED: ReadonlyArray<readonly [string, string]> = [
  ["gross margin", "gross profit, cost of sales, cost of revenue, cost of goods sold, net sales, revenues"],
  ["gross profit", "cost of sales, cost of revenue, net sales, revenues"],
  ["operating margin", "operating income, income from operations, operating expenses, total revenue"],
  ["operating profit", "operating income, income from operations"],
  ["net margin", "net income, net sales, revenues"],
  [
    "free cash flow",
    "cash flows, operating activities, capital expenditures, purchases of property and equipment",
  ],
  ["cash conversion", "cash flows, operating activities, net income"],
  ["capital expenditure", "purchases of property plant and equipment, investing activities"],
  ["capex", "capital expenditures, purchases of property plant and equipment, investing activities"],
  ["quick ratio", "current assets, current liabilities, cash equivalents, receivables, balance sheets"],
  ["current ratio", "current assets, current liabilities, balance sheets"],
  ["working capital", "current assets, current liabilities"],
  ["debt to equity", "total debt, borrowings, shareholders equity, balance sheets"],
  ["leverage ratio", "total debt, borrowings, shareholders equity"],
  ["return on assets", "net income, total assets"],
  ["return on equity", "net income, shareholders equity"],
  ["inventory turnover", "inventories, cost of sales"],
  ["days sales outstanding", "accounts receivable, revenues"],
  ["effective tax rate", "provision for income taxes, income tax expense, income before income taxes"],
  ["ebitda", "depreciation, amortization, operating income"],
  ["earnings per share", "net income, weighted average shares, diluted"],
  ["eps", "earnings per share, net income, diluted"],
  ["dividend payout", "dividends declared, net income"],
  ["sg&a", "selling general and administrative expenses"],
  ["buyback", "share repurchases, repurchase of common stock"],
  ["stock repurchase", "share repurchases, repurchase of common stock, treasury stock"],
  ["acquisition", "business combinations, acquired, purchase price"],
  ["lawsuit", "litigation, legal proceedings"],
  ["legal", "litigation, legal proceedings, contingencies"],
  ["revenue breakdown", "disaggregation of revenue, segment information"],
];

/** Term sequences of each entry, tokenised like queries. */
const ENTRIES = RELATED.map(([metric, related]) => ({
  metric: tokenize(metric),
  related: related.split(",").map((phrase) => tokenize(phrase)),
}));

/** Weight of an expanded term relative to a query term. */
export const EXPANSION_WEIGHT = 0.3;

/**
 * Related phrases (as term sequences) for a tokenised query: the line items of every metric the
 * query names as consecutive terms.
 */
export function expandQuery(terms: readonly string[]): string[][] {
  const joined = ` ${terms.join(" ")} `;
  const out: string[][] = [];
  for (const { metric, related } of ENTRIES) {
    if (metric.length > 0 && joined.includes(` ${metric.join(" ")} `)) out.push(...related);
  }
  return out;
}
