import cliProgress from "cli-progress";
import type { Io } from "./output.js";

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

/** A bar per document on a TTY; on anything else, one line per phase change. */
export function createProgress(io: Io, enabled: boolean): ProgressReporter {
  if (!enabled) return { start() {}, update() {}, stop() {} };
  if (io.isTTY) {
    let bar: cliProgress.SingleBar | undefined;
    let label = "";
    return {
      start(name) {
        label = name;
        bar = new cliProgress.SingleBar(
          {
            format: "{label} [{bar}] {value}/{total} {phase} · LLM calls {llm}",
            stream: process.stderr,
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
        bar.update(done ?? 0, { label, phase, llm: llmCalls ?? 0 });
      },
      stop(summary) {
        bar?.stop();
        bar = undefined;
        io.err(summary);
      },
    };
  }
  let lastPhase = "";
  let current = "";
  return {
    start(name) {
      current = name;
      lastPhase = "";
      io.err(`${name}: reading`);
    },
    update({ phase, done, total }) {
      if (phase === lastPhase) return;
      lastPhase = phase;
      io.err(`${current}: ${phase}${total ? ` (${done ?? 0}/${total})` : ""}`);
    },
    stop(summary) {
      io.err(summary);
    },
  };
}
