import type { EvaluationResult } from "./run.js";

const fmt = (n: number, digits = 1) => (Number.isInteger(n) ? String(n) : n.toFixed(digits));

/** The evaluation as a Markdown table, one row per retriever. */
export function evaluationTable(result: EvaluationResult): string {
  const rows = result.summaries.map(
    (s) =>
      `| ${s.name} | ${s.questions} | ${(s.hitRate * 100).toFixed(0)} % | ${s.mrr.toFixed(2)} | ${fmt(s.meanReturnedTokens, 0)} | ${fmt(s.meanLlmCalls)} | ${fmt(s.meanPromptTokens, 0)} | ${fmt(s.meanLatencyMs, 0)} | ${s.errors} |`,
  );
  return [
    `| retriever | questions | hit@${result.k} | MRR | returned tokens / q | LLM calls / q | prompt tokens / q | latency ms / q | errors |`,
    "|---|---|---|---|---|---|---|---|---|",
    ...rows,
  ].join("\n");
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);
const COLORS = ["#2563eb", "#dc2626", "#16a34a", "#9333ea", "#ea580c", "#0891b2", "#4b5563"];

/**
 * An SVG chart a person would rather look at than read: hit rate (y) against tokens returned per
 * query (x, what the answering model must read), one labelled point per retriever; up and left
 * is better.
 */
export function evaluationChart(result: EvaluationResult, title = "Hit rate vs context size"): string {
  const width = 640;
  const height = 400;
  const m = { left: 64, right: 24, top: 48, bottom: 56 };
  const plotW = width - m.left - m.right;
  const plotH = height - m.top - m.bottom;
  const maxTokens = Math.max(1, ...result.summaries.map((s) => s.meanReturnedTokens));
  const xMax = niceCeil(maxTokens * 1.1);
  const x = (v: number) => m.left + (v / xMax) * plotW;
  const y = (v: number) => m.top + (1 - v) * plotH;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="12">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (let i = 0; i <= 5; i += 1) {
    const v = i / 5;
    parts.push(
      `<line x1="${m.left}" x2="${width - m.right}" y1="${y(v)}" y2="${y(v)}" stroke="#e5e7eb"/>`,
      `<text x="${m.left - 8}" y="${y(v) + 4}" text-anchor="end">${(v * 100).toFixed(0)}%</text>`,
    );
    const t = (xMax * i) / 5;
    parts.push(
      `<line x1="${x(t)}" x2="${x(t)}" y1="${m.top}" y2="${m.top + plotH}" stroke="#f3f4f6"/>`,
      `<text x="${x(t)}" y="${m.top + plotH + 18}" text-anchor="middle">${Math.round(t)}</text>`,
    );
  }
  parts.push(
    `<rect x="${m.left}" y="${m.top}" width="${plotW}" height="${plotH}" fill="none" stroke="#9ca3af"/>`,
    `<text x="${m.left + plotW / 2}" y="${height - 14}" text-anchor="middle">tokens returned per query (lower is cheaper)</text>`,
    `<text transform="translate(16 ${m.top + plotH / 2}) rotate(-90)" text-anchor="middle">hit@${result.k} (higher is better)</text>`,
  );
  result.summaries.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const cx = x(s.meanReturnedTokens);
    const cy = y(s.hitRate);
    const anchor = cx > m.left + plotW * 0.7 ? "end" : "start";
    const dx = anchor === "end" ? -10 : 10;
    parts.push(
      `<circle cx="${cx.toFixed(1)}" cy="${cy.toFixed(1)}" r="7" fill="${color}" fill-opacity="0.85"/>`,
      `<text x="${(cx + dx).toFixed(1)}" y="${(cy - 8).toFixed(1)}" text-anchor="${anchor}" fill="${color}" font-weight="bold">${escapeXml(s.name)}</text>`,
      `<text x="${(cx + dx).toFixed(1)}" y="${(cy + 8).toFixed(1)}" text-anchor="${anchor}" fill="#374151">${(s.hitRate * 100).toFixed(0)}% · MRR ${s.mrr.toFixed(2)} · ${fmt(s.meanLlmCalls)} calls</text>`,
    );
  });
  parts.push("</svg>");
  return parts.join("\n");
}

function niceCeil(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}
