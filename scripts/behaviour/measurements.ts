/**
 * The measurements scripts/check-behaviour.ts runs in both checkouts, and how their outputs are
 * compared: wall-clock fields (durations, timestamps, load) are normalised out, everything else
 * must be equal.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";

/** How an output file is compared. */
export type OutputKind = "json" | "text" | "bytes";

/** One script run, the same in both checkouts. */
export interface Measurement {
  /** Short name shown in the table (also the folder of its outputs). */
  name: string;
  /** Script path inside the checkout. */
  script: string;
  /** Arguments; `outDir` is the run's own working folder (outputs land there). */
  args: (outDir: string) => string[];
  /** Output file relative to `outDir`; `stdout.txt` is the script's standard output. */
  output: string;
  kind: OutputKind;
  /**
   * Measurements of one group share inputs built on first use (a set's tree cache) and run in
   * order; groups run side by side.
   */
  group: string;
}

/** The stdout capture every run writes beside its outputs. */
export const STDOUT = "stdout.txt";

const benchCost = (set: string, noise: boolean): Measurement => ({
  name: `bench-cost ${set} ${noise ? "noise 2" : "oracle"}`,
  script: "scripts/bench-cost.ts",
  args: () => ["--set", set, ...(noise ? ["--noise", "2"] : [])],
  output: join(".bench-out", `bench-cost-${set}.json`),
  kind: "json",
  group: `bench-cost ${set}`,
});

/** Every measurement, with bench-cost over `sets` (each with the oracle judge and with `--noise 2`). */
export function measurements(sets: readonly string[]): Measurement[] {
  return [
    ...sets.flatMap((set) => [benchCost(set, false), benchCost(set, true)]),
    {
      name: "eval-offline-judge",
      script: "scripts/eval-offline-judge.ts",
      args: () => [],
      output: join(".bench-out", "eval-offline-judge.json"),
      kind: "json",
      group: "eval-offline-judge",
    },
    {
      name: "eval-section-starts",
      script: "scripts/eval-section-starts.ts",
      args: () => [],
      output: STDOUT,
      kind: "text",
      group: "eval-section-starts",
    },
    {
      name: "show-judge-prompts",
      script: "scripts/show-judge-prompts.ts",
      args: (outDir) => ["--out", join(outDir, "judge-prompts.txt")],
      output: "judge-prompts.txt",
      kind: "bytes",
      group: "show-judge-prompts",
    },
  ];
}

/** What identifies a measurement's definition (for the base's cache). */
export function definitionKey(m: Measurement): string {
  return createHash("sha1")
    .update(JSON.stringify([m.script, m.args("<out>"), m.output, m.kind]))
    .digest("hex")
    .slice(0, 10);
}

// ---------------------------------------------------------------- normalising
/** Keys whose values are wall-clock: durations, timestamps, load. */
const WALL_CLOCK_KEY =
  /^(ms|msPer\w+|seconds|duration|elapsed|timestamp|time|date|load|loadAverage|\w+(Ms|Seconds|Duration|Elapsed|Timestamp|At|Time))$/;
/** Durations printed in text outputs ("(1234 ms)", "12.5 s"). */
const WALL_CLOCK_TEXT = /\b\d+(\.\d+)?\s?(ms|s)\b/g;

function withoutWallClock(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutWallClock);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([key]) => !WALL_CLOCK_KEY.test(key))
        .map(([key, v]) => [key, withoutWallClock(v)]),
    );
  }
  return value;
}

/** `path = value` for every leaf, in document order: JSON made comparable line by line. */
function leaves(value: unknown, path = ""): string[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${path}[${i}]`));
  if (value && typeof value === "object") {
    return Object.entries(value).flatMap(([k, v]) => leaves(v, path ? `${path}.${k}` : k));
  }
  return [`${path} = ${JSON.stringify(value)}`];
}

/** The output as comparable lines (wall-clock removed; `bytes` outputs untouched). */
export function comparableLines(kind: OutputKind, content: string): string[] {
  if (kind === "json") return leaves(withoutWallClock(JSON.parse(content)));
  if (kind === "text") return content.replace(WALL_CLOCK_TEXT, "<time>").split("\n");
  return content.split("\n");
}

/** The first `limit` lines where the two sides differ (1-based line numbers, `∅` past the end). */
export function firstDifferences(base: string[], mine: string[], limit = 5): string[] {
  const out: string[] = [];
  for (let i = 0; i < Math.max(base.length, mine.length) && out.length < limit; i++) {
    if (base[i] === mine[i]) continue;
    out.push(`line ${i + 1}\n    base: ${base[i] ?? "∅"}\n    this: ${mine[i] ?? "∅"}`);
  }
  return out;
}

// ---------------------------------------------------------------- summaries
interface CostRow {
  questions: number;
  hitAtK: number;
  perQuestion: Array<{ calls: number; tokens: number }>;
}

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

/** A one-cell digest of an output for the table. */
export function summary(m: Measurement, content: string): string {
  if (m.script.endsWith("bench-cost.ts")) {
    const rows = (JSON.parse(content) as { rows: CostRow[] }).rows;
    if (rows.length === 0) return "no rows";
    const per = rows.flatMap((r) => r.perQuestion);
    return `${rows.length} rows, hit ${sum(rows.map((r) => r.hitAtK))}/${sum(rows.map((r) => r.questions))}, ${sum(per.map((p) => p.calls))} calls, ${sum(per.map((p) => p.tokens))} tok`;
  }
  if (m.script.endsWith("eval-offline-judge.ts")) {
    const out = JSON.parse(content) as Record<string, unknown>;
    return ["financebench", "reference"]
      .filter((set) => out[set])
      .map((set) => {
        // Settings are objects with a summary; other keys (counts, options) are skipped.
        const settings = Object.values(out[set] as Record<string, { summary?: { hitK?: number } }>);
        const hits = settings
          .filter((s) => typeof s?.summary?.hitK === "number")
          .map((s) => `${Math.round((s.summary?.hitK ?? 0) * 100)}`);
        return `${set.slice(0, 3)} hit@k ${hits.join("/")}%`;
      })
      .join(", ");
  }
  if (m.script.endsWith("eval-section-starts.ts")) {
    const totals = [...content.matchAll(/^(\w+): ([\d.-]+) % of (\d+) sections/gm)];
    return totals.map((t) => `${t[1]} ${t[2]}% of ${t[3]}`).join(", ") || "no totals";
  }
  const prompts = content.match(/^----- prompt /gm)?.length ?? 0;
  const digest = createHash("sha1").update(content).digest("hex").slice(0, 8);
  return `${prompts} prompts, ${Buffer.byteLength(content)} B, sha1 ${digest}`;
}
