// Runs the BUILT `pageindex` binary (pnpm test builds first), the way a shell user would, or
// the same command in-process (runCli from the sources) where a child process is not what a
// test is about: a Node start and the CLI's imports cost seconds each on a loaded machine.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import { runCli } from "../../packages/pageindex-cli/src/cli/main.js";
import { type Io, terminalSafe } from "../../packages/pageindex-cli/src/cli/output.js";

/** The bin under test: the workspace build, or another one (e.g. a packed install) via PAGEINDEX_TEST_BIN. */
export const BIN =
  process.env.PAGEINDEX_TEST_BIN ?? resolve(import.meta.dirname, "../../packages/pageindex-cli/dist/cli.mjs");

/** Exit code and output of one run. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** The clean environment both runners give the CLI: PATH and HOME only, plus `env`. */
const cleanEnv = (env: Record<string, string>) => ({
  PATH: process.env.PATH ?? "",
  HOME: process.env.HOME ?? "",
  ...env,
});

/** Runs `pageindex <args>` with a clean environment plus `env`. */
export function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: cleanEnv(env),
        timeout: 170_000, // a hang bound, under the tests' own 180 s

        maxBuffer: 20 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/**
 * Runs `pageindex <args>` in this process, with the output captured line by line as the bin
 * prints it (terminal-safe, newline-ended) and the same clean environment as {@link cli}.
 */
export async function cliInProcess(args: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const line = (text: string) => {
    const safe = terminalSafe(text);
    return safe.endsWith("\n") ? safe : `${safe}\n`;
  };
  const io: Io = {
    out: (text) => (stdout += line(text)),
    err: (text) => (stderr += line(text)),
    isTTY: false,
  };
  const code = await runCli(args, io, cleanEnv(env));
  return { code, stdout, stderr };
}

/** Writes a one-section PageIndex (Python) tree, as `pageindex import` reads it. */
export function writePageIndexTree(file: string, docName: string, title: string, endPage = 1): Promise<void> {
  const structure = [{ title, node_id: "0000", start_index: 1, end_index: endPage }];
  return writeFile(file, JSON.stringify({ doc_name: docName, structure }));
}
