import cliProgress from "cli-progress";
import { type Io, terminalSafe } from "./output.js";

/** Progress of one document being indexed. */
export interface ProgressUpdate {
  phase: string;
  done?: number;
  total?: number;
  llmCalls?: number;
}

/** Reports indexing progress: a bar on a terminal, plain lines otherwise (CI logs, pipes). */
export interface ProgressReporter {
  start(label: string): void;
  update(update: ProgressUpdate): void;
  stop(summary: string): void;
}

/** What the bar draws on: a terminal stream (stderr by default). */
export type ProgressStream = NodeJS.WritableStream & { isTTY?: boolean };

/** Loader phases as a person reads them; `done` is left to the summary line. */
const PHASES: Record<string, string> = {
  parse: "parsing",
  structure: "finding sections",
  split: "splitting long sections",
  summarize: "summarising",
  describe: "describing",
};

/** The words shown for a phase (unknown phases as they come). */
export function phaseLabel(phase: string): string {
  return PHASES[phase] ?? phase;
}

/**
 * How much to show: `live` (a bar on a TTY, phase lines otherwise, then a summary line per
 * document), `summary` (the summary lines only: `--no-progress`), `off` (nothing: `--json`).
 */
export type ProgressMode = "live" | "summary" | "off";

/**
 * A bar per document on a TTY; on anything else, one line per phase (`report.pdf: parsing 99
 * pages`), never repeated and never per page, so logs stay short.
 */
export function createProgress(
  io: Io,
  mode: ProgressMode,
  stream: ProgressStream = process.stderr,
): ProgressReporter {
  if (mode === "off") return { start() {}, update() {}, stop() {} };
  if (mode === "summary") return { start() {}, update() {}, stop: (summary) => io.err(summary) };
  return io.isTTY ? barProgress(io, stream) : lineProgress(io);
}

function barProgress(io: Io, stream: ProgressStream): ProgressReporter {
  let bar: cliProgress.SingleBar | undefined;
  let label = "";
  return {
    start(name) {
      label = terminalSafe(name);
      bar = new cliProgress.SingleBar(
        {
          format: "{label} [{bar}] {value}/{total} {phase} · LLM calls {llm}",
          stream,
          hideCursor: true,
          clearOnComplete: true,
        },
        cliProgress.Presets.shades_classic,
      );
      bar.start(1, 0, { label, phase: "reading", llm: 0 });
    },
    update({ phase, done, total, llmCalls }) {
      if (!bar) return;
      if (total !== undefined && total > 0) bar.setTotal(total);
      bar.update(done ?? 0, { label, phase: phaseLabel(phase), llm: llmCalls ?? 0 });
    },
    stop(summary) {
      bar?.stop();
      bar = undefined;
      io.err(summary);
    },
  };
}

function lineProgress(io: Io): ProgressReporter {
  let current = "";
  const seen = new Set<string>();
  return {
    start(name) {
      current = name;
      seen.clear();
    },
    update({ phase, total, llmCalls }) {
      // Each phase once; "done" is what the summary line says.
      if (phase === "done" || seen.has(phase)) return;
      seen.add(phase);
      const pages = phase === "parse" && total ? ` ${total} pages` : "";
      const calls = llmCalls ? ` (${llmCalls} LLM calls so far)` : "";
      io.err(`${current}: ${phaseLabel(phase)}${pages}${calls}`);
    },
    stop(summary) {
      io.err(summary);
    },
  };
}
