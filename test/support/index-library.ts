// A library of generated Markdown files, a byte store that counts what it is asked, and a CLI
// context over it: what the `pageindex index` library tests and scripts/bench-index-library.ts
// run `indexFiles` with, in process.
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import type { BaseStore } from "@langchain/core/stores";
import { PageIndexStore } from "pageindex-store";
import type { CliContext } from "../../packages/pageindex-cli/src/cli/context.js";
import type { Io } from "../../packages/pageindex-cli/src/cli/output.js";
import { CountingByteStore } from "./counting-store.js";

export { CountingByteStore };

const WORDS =
  "harbour tide vessel cargo crane berth pilot anchor ledger audit invoice freight customs quay dredge buoy channel survey permit tariff".split(
    " ",
  );

/** Writes `count` small Markdown documents (two or three sections of varied words) under `dir`. */
export async function writeLibrary(
  dir: string,
  count: number,
  options: { from?: number } = {},
): Promise<string[]> {
  await mkdir(dir, { recursive: true });
  const files: string[] = [];
  for (let i = options.from ?? 0; i < (options.from ?? 0) + count; i++) {
    const word = (k: number) => WORDS[(i * 7 + k * 3) % WORDS.length] as string;
    const sections = Array.from(
      { length: 2 + (i % 2) },
      (_, s) =>
        `## ${word(s)} ${s}\n\nThe ${word(s + 1)} of document ${i} meets the ${word(s + 2)} at ${s}.\n`,
    );
    const file = join(dir, `doc-${String(i).padStart(5, "0")}.md`);
    await writeFile(
      file,
      `# Document ${i}: ${word(0)}\n\nAbout ${word(1)} and ${word(2)}.\n\n${sections.join("\n")}`,
    );
    files.push(file);
  }
  return files;
}

/** What a run printed. */
export interface CapturedIo extends Io {
  stdout: string[];
  stderr: string[];
}

export function captureIo(isTTY = false): CapturedIo {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (t) => stdout.push(t), err: (t) => stderr.push(t), isTTY };
}

/** An offline CLI context over a given store, as `createContext` builds for the real command. */
export function libraryContext(
  store: PageIndexStore,
  io: Io = captureIo(),
  options: { json?: boolean; progress?: boolean } = { json: true },
): CliContext {
  return {
    io,
    options,
    env: {},
    store: async () => store,
    model: async () => undefined,
    modelLabel: () => "offline",
    modelIdentity: () => undefined,
    redact: (text) => text,
    describeError: (error) => (error instanceof Error ? error.message : String(error)),
    close: async () => {},
  };
}

/** A store over a counting byte store (in memory unless given). */
export function countingStore(inner?: BaseStore<string, Uint8Array>, writeDelayMs = 0) {
  const bytes = new CountingByteStore(inner, writeDelayMs);
  return { bytes, store: new PageIndexStore(bytes, { onProblem: () => {} }) };
}
