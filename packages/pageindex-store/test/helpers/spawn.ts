import { type ChildProcess, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

const REPO_ROOT = fileURLToPath(new URL("../../../../", import.meta.url));
const WRITER = fileURLToPath(new URL("../fixtures/store-writer.ts", import.meta.url));
const READER = fileURLToPath(new URL("../fixtures/store-reader.ts", import.meta.url));

/** A running writer process (see fixtures/store-writer.ts) and the lines it printed. */
export interface Writer {
  child: ChildProcess;
  lines: string[];
  /** When each line arrived (`performance.now()`), parallel to `lines`. */
  lineTimes: number[];
  /**
   * Resolves when the writer prints a line starting with `prefix`; rejects at once if it exits
   * first. The timeout only catches a hang: under load a tsx child can take 30 s+ to start.
   */
  waitFor(prefix: string, timeoutMs?: number): Promise<void>;
  /** Resolves with the exit code (or signal name) when the process ends. */
  exited: Promise<number | string>;
}

/** Starts a writer process running under tsx. */
export function startWriter(job: object): Writer {
  return startFixture(WRITER, job);
}

/** Starts a reader process (see fixtures/store-reader.ts) running under tsx. */
export function startReader(job: object): Writer {
  return startFixture(READER, job);
}

/** Starts a fixture script under tsx with a JSON job as its argument (as another user: `as`). */
export function startFixture(script: string, job: object, as?: { uid: number; gid: number }): Writer {
  const child = spawn(process.execPath, ["--import", "tsx", script, JSON.stringify(job)], {
    cwd: REPO_ROOT,
    stdio: ["pipe", "pipe", "pipe"],
    ...(as ?? {}),
  });
  const lines: string[] = [];
  const lineTimes: number[] = [];
  const waiters: Array<{ prefix: string; resolve: () => void }> = [];
  let stderr = "";
  let buffer = "";
  child.stdout?.setEncoding("utf8");
  child.stdout?.on("data", (data: string) => {
    buffer += data;
    let newline = buffer.indexOf("\n");
    while (newline >= 0) {
      const line = buffer.slice(0, newline);
      buffer = buffer.slice(newline + 1);
      lines.push(line);
      lineTimes.push(performance.now());
      for (const waiter of waiters.filter((w) => line.startsWith(w.prefix))) waiter.resolve();
      newline = buffer.indexOf("\n");
    }
  });
  child.stderr?.setEncoding("utf8");
  child.stderr?.on("data", (data: string) => {
    stderr += data;
  });
  const exited = new Promise<number | string>((resolve) =>
    child.on("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  return {
    child,
    lines,
    lineTimes,
    exited,
    waitFor(prefix, timeoutMs = 150_000) {
      if (lines.some((line) => line.startsWith(prefix))) return Promise.resolve();
      return new Promise<void>((resolve, reject) => {
        const timer = setTimeout(
          () => reject(new Error(`writer did not print "${prefix}" in ${timeoutMs} ms; stderr:\n${stderr}`)),
          timeoutMs,
        );
        void exited.then((code) => {
          if (!lines.some((line) => line.startsWith(prefix))) {
            clearTimeout(timer);
            reject(new Error(`writer exited (${code}) before printing "${prefix}"; stderr:\n${stderr}`));
          }
        });
        waiters.push({
          prefix,
          resolve: () => {
            clearTimeout(timer);
            resolve();
          },
        });
      });
    },
  };
}

/** SIGKILLs a writer and waits until it is gone. */
export async function kill(writer: Writer): Promise<void> {
  writer.child.kill("SIGKILL");
  await writer.exited;
}
