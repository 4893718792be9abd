// Runs the BUILT `pageindex` binary (pnpm test builds first), the way a shell user would.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { resolve } from "node:path";

/** The bin under test: the workspace build, or another one (e.g. a packed install) via PAGEINDEX_TEST_BIN. */
export const BIN =
  process.env.PAGEINDEX_TEST_BIN ?? resolve(import.meta.dirname, "../../packages/pageindex-cli/dist/cli.mjs");

/** Exit code and output of one run. */
export interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs `pageindex <args>` with a clean environment plus `env`. */
export function cli(args: string[], env: Record<string, string> = {}): Promise<Run> {
  return new Promise((done) => {
    execFile(
      process.execPath,
      [BIN, ...args],
      {
        env: { PATH: process.env.PATH ?? "", HOME: process.env.HOME ?? "", ...env },
        timeout: 120_000,
        maxBuffer: 20 * 1024 * 1024,
      },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        done({ code, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

/** Writes a one-section PageIndex (Python) tree, as `pageindex import` reads it. */
export function writePageIndexTree(file: string, docName: string, title: string, endPage = 1): Promise<void> {
  const structure = [{ title, node_id: "0000", start_index: 1, end_index: endPage }];
  return writeFile(file, JSON.stringify({ doc_name: docName, structure }));
}
