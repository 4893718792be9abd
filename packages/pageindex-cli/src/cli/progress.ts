import cliProgress from "cli-progress";
import { restoreCursorOnExit } from "./cursor.js";
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

/** Progress output as the global options ask: none with `--json`, summary lines with `--no-progress`. */
export function progressModeOf(options: { json?: boolean; progress?: boolean }): ProgressMode {
  return options.json ? "off" : options.progress === false ? "summary" : "live";
}

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
  let release: (() => void) | undefined;
  let label = "";
  return {
    start(name) {
      label = terminalSafe(name);
      release ??= restoreCursorOnExit(stream);
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
      release?.();
      release = undefined;
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

/** Progress of a run over many files: a files/s bar on a terminal, lines elsewhere. */
export interface RunProgress {
  /** Reporter for one file being indexed (several may be open at once). */
  document(name: string): ProgressReporter;
  /** A line about a file (unchanged, renamed, a warning) that must not break the bar. */
  log(line: string, options?: { quiet?: boolean }): void;
  /** One file is finished, whatever its outcome: advances the count. */
  fileDone(): void;
  /** Ends the run with a summary line (none when empty). */
  finish(summary: string): void;
}

/** Files per second, to one decimal (or whole above 100). */
export function filesPerSecond(files: number, ms: number): string {
  const rate = ms > 0 ? (files * 1000) / ms : 0;
  return rate >= 100 ? rate.toFixed(0) : rate.toFixed(1);
}

/** A duration as a person reads it: "45 s", "3 min 05 s", "2 h 10 min". */
export function formatDuration(ms: number): string {
  const s = Math.max(1, Math.round(ms / 1000));
  if (s < 60) return `${s} s`;
  if (s < 3600) return `${Math.floor(s / 60)} min ${String(s % 60).padStart(2, "0")} s`;
  return `${Math.floor(s / 3600)} h ${String(Math.floor((s % 3600) / 60)).padStart(2, "0")} min`;
}

/**
 * Time left from the files finished so far, or "" until one is: a guess from nothing (the
 * bar library's own ETA, "NFs" until its buffer fills) helps no one.
 */
export function timeLeft(done: number, total: number, elapsedMs: number): string {
  if (done < 1 || done >= total) return "";
  return ` · about ${formatDuration((elapsedMs / done) * (total - done))} left`;
}

/**
 * A run's progress. `live` on a terminal: one bar counting files, with files/s, the time left (from
 * the files finished)
 * and what the latest file is doing; lines about files scroll above it, except `quiet` ones
 * (an unchanged file, counted by the bar only). `live` elsewhere: each file's phase lines and
 * summary, as {@link createProgress}. `summary`: summary lines only. `off`: nothing.
 */
export function createRunProgress(
  io: Io,
  mode: ProgressMode,
  total: number,
  stream: ProgressStream = process.stderr,
): RunProgress {
  if (mode === "off")
    return { document: () => createProgress(io, "off"), log() {}, fileDone() {}, finish() {} };
  if (mode === "summary" || !io.isTTY) {
    return {
      document: () => createProgress(io, mode, stream),
      log: (line) => io.err(line),
      fileDone() {},
      finish: (summary) => {
        if (summary) io.err(summary);
      },
    };
  }
  return runBar(io, total, stream);
}

function runBar(io: Io, total: number, stream: ProgressStream): RunProgress {
  const started = performance.now();
  const release = restoreCursorOnExit(stream);
  const multi = new cliProgress.MultiBar(
    {
      format: "[{bar}] {value}/{total} files · {rate} files/s{left} · {activity}",
      stream,
      hideCursor: true,
      clearOnComplete: true,
    },
    cliProgress.Presets.shades_classic,
  );
  let done = 0;
  let activity = "starting";
  const bar = multi.create(total, 0, { rate: "0.0", left: "", activity });
  const redraw = () => {
    const elapsed = performance.now() - started;
    bar.update(done, { rate: filesPerSecond(done, elapsed), left: timeLeft(done, total, elapsed), activity });
  };
  const log = (line: string) => multi.log(`${line}\n`);
  return {
    document(name) {
      return {
        start() {
          activity = `${name}: reading`;
          redraw();
        },
        update({ phase, done: pages, total: of }) {
          const count = phase === "parse" && of ? ` ${pages ?? 0}/${of} pages` : "";
          activity = `${name}: ${phaseLabel(phase)}${count}`;
          redraw();
        },
        stop: log,
      };
    },
    log(line, options) {
      if (!options?.quiet) log(line);
    },
    fileDone() {
      done += 1;
      redraw();
    },
    finish(summary) {
      multi.stop();
      release();
      if (summary) io.err(summary);
    },
  };
}

/** A step of building a library index's champion lists (`ChampionBuildProgress` of pageindex-store). */
export interface ListBuildStep {
  phase: "lengths" | "lists";
  done: number;
  total: number;
}

/** The words shown for a list-building phase, with its unit. */
const LIST_PHASES: Record<ListBuildStep["phase"], { label: string; unit: string }> = {
  lengths: { label: "reading section lengths", unit: "sections" },
  lists: { label: "building term lists", unit: "terms" },
};

/**
 * Progress of building a folder library index's champion lists (the first writable open of an
 * index written without them: minutes for a large library, one transaction that a kill leaves
 * undone). `live`: a bar on a terminal, else one line per phase; `summary`: the closing line
 * only; `off`: nothing. The returned function takes each step; `finish` writes the closing line
 * when anything was built.
 */
export function createListBuildProgress(
  io: Io,
  mode: ProgressMode,
  stream: ProgressStream = process.stderr,
): { step(step: ListBuildStep): void; finish(): void } {
  const started = performance.now();
  let bar: cliProgress.SingleBar | undefined;
  let release: (() => void) | undefined;
  let phase: ListBuildStep["phase"] | undefined;
  let built = false;
  const stopBar = () => {
    bar?.stop();
    bar = undefined;
    release?.();
    release = undefined;
  };
  return {
    step({ phase: now, done, total }) {
      built = true;
      if (mode !== "live") return;
      const { label, unit } = LIST_PHASES[now];
      if (!io.isTTY) {
        if (now !== phase) io.err(`Champion lists: ${label} (${total.toLocaleString("en")} ${unit})`);
        phase = now;
        return;
      }
      if (now !== phase) {
        stopBar();
        phase = now;
        release = restoreCursorOnExit(stream);
        bar = new cliProgress.SingleBar(
          { format: `Champion lists: ${label} [{bar}] {value}/{total} ${unit}`, stream, hideCursor: true },
          cliProgress.Presets.shades_classic,
        );
        bar.start(total, done);
        return;
      }
      bar?.update(done);
    },
    finish() {
      stopBar();
      if (built && mode !== "off")
        io.err(
          `Champion lists: built in ${formatDuration(performance.now() - started)} (kept by every later write)`,
        );
    },
  };
}
