import { type Box, placeLabels } from "./label-layout.js";
import type { RetrieverSummary } from "./metrics.js";
import type { EvalQuestion } from "./questions.js";
import type { EvaluationResult } from "./run.js";

const fmt = (n: number, digits = 1) => (Number.isInteger(n) ? String(n) : n.toFixed(digits));

/** "0", or "3/12" judgments that fell back to the lexical judge ("12/12 (all)" when every one did). */
export function fallbackCell(s: RetrieverSummary): string {
  if (s.fallbacks === 0) return "0";
  return `${s.fallbacks}/${s.judgments}${s.fallbacks >= s.judgments ? " (all)" : ""}`;
}

/** "12 ✓ · 3 ½ · 5 ✗ (70 %)": answer grades, or "n/a" when answers were not graded. */
export function answersCell(s: RetrieverSummary): string {
  const a = s.answers;
  if (!a) return "n/a";
  const ungraded = a.ungraded > 0 ? ` · ${a.ungraded} ungraded` : "";
  return `${a.correct} ✓ · ${a.partial} ½ · ${a.wrong} ✗${ungraded} (${(a.correctRate * 100).toFixed(0)} % correct)`;
}

/** The evaluation as a Markdown table, one row per retriever. */
export function evaluationTable(result: EvaluationResult): string {
  const graded = result.summaries.some((s) => s.answers);
  const rows = result.summaries.map((s) =>
    [
      s.name,
      s.questions,
      `${(s.hitRate * 100).toFixed(0)} %`,
      s.mrr.toFixed(2),
      ...(graded ? [answersCell(s)] : []),
      fmt(s.meanReturnedTokens, 0),
      fmt(s.meanLlmCalls),
      fmt(s.meanPromptTokens, 0),
      fmt(s.meanCompletionTokens, 0),
      fallbackCell(s),
      fmt(s.meanLatencyMs, 0),
      s.indexMs === undefined ? "n/a" : fmt(s.indexMs, 0),
      s.errors,
    ].join(" | "),
  );
  const answerHead = graded ? " answers (correct · partial · wrong) |" : "";
  return [
    `| retriever | questions | hit@${result.k} | MRR |${answerHead} returned tokens / q | LLM calls / q | prompt tokens / q | completion tokens / q | judge fallbacks | latency ms / q | index ms | errors |`,
    `|---|---|---|---|${graded ? "---|" : ""}---|---|---|---|---|---|---|---|`,
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}

/** A Markdown table cell: one line, pipes escaped, cut to `max` characters. */
function cell(text: string, max = 90): string {
  const line = text.replace(/\s+/g, " ").trim().replace(/\|/g, "\\|");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/** A settings value on one line. */
function settingText(value: unknown): string {
  if (Array.isArray(value))
    return value.length > 8 ? `${value.slice(0, 8).join(", ")}, … (${value.length})` : value.join(", ");
  if (value !== null && typeof value === "object") return JSON.stringify(value);
  return String(value);
}

const DIFFICULTIES = ["easy", "medium", "hard"] as const;

/**
 * Hits by question difficulty (how easily word matching finds the answer, see
 * `LexicalDifficulty`): the set's distribution, then each retriever's hits in each class, so a
 * reader sees which kind of question each retriever wins. Empty when no question has one.
 */
export function difficultyTable(result: EvaluationResult, questions: readonly EvalQuestion[]): string {
  const measured = questions.filter((q) => q.difficulty !== undefined);
  if (measured.length === 0) return "";
  const of = (d: string) => measured.filter((q) => q.difficulty === d);
  const head = DIFFICULTIES.map((d) => `${d} (${of(d).length})`);
  const rows = result.summaries.map((s) => {
    const byId = new Map((result.scores[s.name] ?? []).map((score) => [score.id, score]));
    const cells = DIFFICULTIES.map((d) => {
      const set = of(d);
      if (set.length === 0) return "–";
      const hits = set.filter((q) => (byId.get(q.id)?.firstHitRank ?? null) !== null).length;
      return `${hits}/${set.length} (${Math.round((100 * hits) / set.length)} %)`;
    });
    return `| ${cell(s.name, 40)} | ${cells.join(" | ")} |`;
  });
  return [
    `| hits@${result.k} by difficulty | ${head.join(" | ")} |`,
    `|---|${DIFFICULTIES.map(() => "---:|").join("")}`,
    ...rows,
  ].join("\n");
}

/**
 * The whole report as Markdown: the settings it ran with, the summary table, and one row per
 * question with each retriever's first hit and answer grade, so a reader can check any number.
 */
export function evaluationReport(
  result: EvaluationResult,
  questions: readonly EvalQuestion[],
  settings: Record<string, unknown>,
): string {
  const names = result.summaries.map((s) => s.name);
  const byName = new Map(
    names.map((name) => [name, new Map((result.scores[name] ?? []).map((q) => [q.id, q]))]),
  );
  const measured = questions.some((q) => q.difficulty !== undefined);
  const rows = questions.map((q) => {
    const cells = names.map((name) => {
      const score = byName.get(name)?.get(q.id);
      if (!score) return "—";
      const hit =
        score.error !== undefined
          ? "error"
          : score.firstHitRank === null
            ? "miss"
            : `hit@${score.firstHitRank}`;
      return score.answer ? `${hit} · ${score.answer.grade}` : hit;
    });
    const difficulty = measured
      ? ` ${q.difficulty ?? "–"}${q.lexicalRank ? ` (#${q.lexicalRank})` : ""} |`
      : "";
    return `| ${cell(q.id, 20)} | ${cell(q.question)} |${difficulty} ${cells.join(" | ")} |`;
  });
  const byDifficulty = difficultyTable(result, questions);
  const lines = [
    "# A/B evaluation",
    "",
    "## Settings",
    "",
    ...Object.entries(settings)
      .filter(([, value]) => value !== undefined)
      .map(([key, value]) => `- ${key}: ${cell(settingText(value), 300)}`),
    "",
    "## Results",
    "",
    evaluationTable(result),
    "",
    `A question is a hit when a returned section is the answering section or holds its evidence page; hit@${result.k} and MRR count the first such section.`,
    "",
    ...(byDifficulty
      ? [
          "## By difficulty",
          "",
          "Difficulty: the BM25 rank of the answering section among every section of the documents when the set was made — easy: top 3 (word matching alone finds it), medium: top 20, hard: below, or no word in common.",
          "",
          byDifficulty,
          "",
        ]
      : []),
    "## Per question",
    "",
    `| id | question |${measured ? " difficulty (BM25 rank) |" : ""} ${names.map((n) => cell(n, 40)).join(" | ")} |`,
    `|---|---|${measured ? "---|" : ""}${names.map(() => "---|").join("")}`,
    ...rows,
    "",
  ];
  return lines.join("\n");
}

const escapeXml = (s: string) =>
  s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c] ?? c);

/** Colours for other retrievers; none is one of the known retrievers' colours below. */
const PALETTE = ["#dc2626", "#9333ea", "#0891b2", "#4b5563", "#be185d", "#ca8a04"];
/** The usual retrievers keep their colour whatever model or option is in their label. */
const KNOWN_COLOURS: Record<string, string> = {
  pageindex: "#2563eb",
  bm25: "#ea580c",
  vector: "#16a34a",
};

/**
 * A retriever's colour, the same in every chart: fixed for the first word `pageindex`, `bm25`
 * and `vector` (any case), else picked by a hash of the name (not by its position in the run).
 */
export function colourFor(name: string): string {
  const first = name.trim().split(/[\s(]/)[0]?.toLowerCase() ?? "";
  const known = KNOWN_COLOURS[first];
  if (known) return known;
  let hash = 0;
  for (const char of name) hash = (Math.imul(hash, 31) + (char.codePointAt(0) ?? 0)) >>> 0;
  return PALETTE[hash % PALETTE.length] as string;
}

/** One plotted retriever: its point and where its two-line label goes. */
export interface ChartPoint {
  name: string;
  colour: string;
  cx: number;
  cy: number;
  r: number;
  label: Box;
  lines: [string, string];
}

/** Geometry of {@link evaluationChart}, exposed so layout can be checked without parsing SVG. */
export interface ChartLayout {
  width: number;
  height: number;
  /** The plot area (no border is drawn: the grid's 0 % and 100 % lines sit inside it). */
  frame: Box;
  xMax: number;
  /** Pixel position of a token count and of a hit rate. */
  x: (tokens: number) => number;
  y: (hitRate: number) => number;
  points: ChartPoint[];
}

const FONT = 12;
/** Generous widths of a 12 px character (bold names, regular stats), so that wide fonts fit too. */
const BOLD_CHAR_WIDTH = 7.8;
const CHAR_WIDTH = 6.9;
const RADIUS = 7;

/** Places the points (hit rate against tokens per query) and their labels without overlaps. */
export function chartLayout(result: EvaluationResult): ChartLayout {
  const width = 640;
  const height = 400;
  const m = { left: 64, right: 24, top: 48, bottom: 56 };
  const frame: Box = {
    x: m.left,
    y: m.top,
    width: width - m.left - m.right,
    height: height - m.top - m.bottom,
  };
  // Points stay a radius and a margin inside the frame, so 0 % and 100 % never sit on its edge.
  const inset = RADIUS + 5;
  const maxTokens = Math.max(1, ...result.summaries.map((s) => s.meanReturnedTokens));
  const xMax = niceCeil(maxTokens * 1.1);
  const x = (v: number) => frame.x + inset + (v / xMax) * (frame.width - 2 * inset);
  const y = (v: number) => frame.y + inset + (1 - v) * (frame.height - 2 * inset);
  const points = result.summaries.map((s) => ({
    name: s.name,
    colour: colourFor(s.name),
    cx: x(s.meanReturnedTokens),
    cy: y(s.hitRate),
    r: RADIUS,
    lines: [
      s.name,
      `${(s.hitRate * 100).toFixed(0)}% · MRR ${s.mrr.toFixed(2)} · ${fmt(s.meanLlmCalls)} calls${s.answers ? ` · ${(s.answers.correctRate * 100).toFixed(0)}% answers correct` : ""}`,
    ] as [string, string],
  }));
  const labels = placeLabels(
    points.map((p) => ({
      cx: p.cx,
      cy: p.cy,
      r: p.r,
      width: Math.max(p.lines[0].length * BOLD_CHAR_WIDTH, p.lines[1].length * CHAR_WIDTH),
      height: 2 * FONT + 6,
    })),
    frame,
  );
  return {
    width,
    height,
    frame,
    xMax,
    x,
    y,
    points: points.map((p, i) => ({ ...p, label: labels[i] as Box })),
  };
}

/**
 * An SVG chart a person would rather look at than read: hit rate (y) against tokens returned per
 * query (x, what the answering model must read), one labelled point per retriever; up and left
 * is better. Labels are placed so they overlap neither each other nor the points.
 */
export function evaluationChart(result: EvaluationResult, title = "Hit rate vs context size"): string {
  const layout = chartLayout(result);
  const { width, height, frame, xMax, x, y } = layout;
  const bottom = frame.y + frame.height;
  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${width}" height="${height}" viewBox="0 0 ${width} ${height}" font-family="Helvetica, Arial, sans-serif" font-size="${FONT}">`,
    `<rect width="100%" height="100%" fill="white"/>`,
    `<text x="${width / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${escapeXml(title)}</text>`,
  ];
  for (let i = 0; i <= 5; i += 1) {
    const v = i / 5;
    const t = (xMax * i) / 5;
    parts.push(
      `<line x1="${frame.x}" x2="${frame.x + frame.width}" y1="${y(v)}" y2="${y(v)}" stroke="${i === 0 ? "#9ca3af" : "#e5e7eb"}"/>`,
      `<text x="${frame.x - 8}" y="${y(v) + 4}" text-anchor="end">${(v * 100).toFixed(0)}%</text>`,
      `<line x1="${x(t)}" x2="${x(t)}" y1="${frame.y}" y2="${bottom}" stroke="${i === 0 ? "#9ca3af" : "#f3f4f6"}"/>`,
      `<text x="${x(t)}" y="${bottom + 18}" text-anchor="middle">${Math.round(t)}</text>`,
    );
  }
  parts.push(
    `<text x="${frame.x + frame.width / 2}" y="${height - 14}" text-anchor="middle">tokens returned per query (lower is cheaper)</text>`,
    `<text transform="translate(16 ${frame.y + frame.height / 2}) rotate(-90)" text-anchor="middle">hit@${result.k} (higher is better)</text>`,
  );
  for (const p of layout.points) {
    const lx = p.label.x.toFixed(1);
    parts.push(
      `<circle cx="${p.cx.toFixed(1)}" cy="${p.cy.toFixed(1)}" r="${p.r}" fill="${p.colour}" fill-opacity="0.85"/>`,
      `<text x="${lx}" y="${(p.label.y + FONT).toFixed(1)}" fill="${p.colour}" font-weight="bold">${escapeXml(p.lines[0])}</text>`,
      `<text x="${lx}" y="${(p.label.y + 2 * FONT + 4).toFixed(1)}" fill="#374151">${escapeXml(p.lines[1])}</text>`,
    );
  }
  parts.push("</svg>");
  return parts.join("\n");
}

function niceCeil(value: number): number {
  const magnitude = 10 ** Math.floor(Math.log10(value));
  for (const step of [1, 2, 2.5, 5, 10]) if (step * magnitude >= value) return step * magnitude;
  return 10 * magnitude;
}
