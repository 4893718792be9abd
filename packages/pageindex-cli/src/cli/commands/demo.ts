import { join } from "node:path";
import type { CliContext } from "../context.js";
import { CliError, EXIT } from "../output.js";
import { packageDir } from "../package-dir.js";
import { askMany } from "./ask.js";
import { indexFiles } from "./index-files.js";

/** The questions the demo asks of the bundled samples: one per sample, from one shared index. */
export const DEMO_QUESTIONS = [
  "How do I rotate the TLS certificates without downtime?",
  "How much cash did Acme generate from operations in 2025, and why did it increase?",
];

/** The package's `samples/` folder, found from this file in `src/` (tests) or `dist/` (the bin). */
export function samplesDir(): string {
  const dir = packageDir();
  if (dir) return join(dir, "samples");
  throw new CliError(
    "The bundled sample documents were not found next to the pageindex-cli package",
    EXIT.failure,
  );
}

/** `pageindex demo`: index the bundled samples and ask a question — offline unless a model is set. */
export async function demo(ctx: CliContext, options: { question?: string }): Promise<number> {
  const samples = samplesDir();
  if (!ctx.options.json) ctx.io.err(`Indexing the bundled sample documents in ${samples}`);
  // One JSON document on stdout: the answer's; indexing reports only on stderr.
  const indexed = await indexFiles(ctx, [samples], {}, { json: false });
  if (indexed !== EXIT.ok) return indexed;
  if (!ctx.options.json) ctx.io.out("");
  return askMany(ctx, options.question ? [options.question] : DEMO_QUESTIONS, { k: 3 });
}
