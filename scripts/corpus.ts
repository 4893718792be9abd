import { existsSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/** `../shared/corpus` beside the repository: evaluation data, never needed by tests. */
export const CORPUS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), "../../shared/corpus");

/** Exits cleanly with a message when the corpus is not there (e.g. a user's clone). */
export function requireCorpus(sub = ""): string {
  const dir = resolve(CORPUS_DIR, sub);
  if (!existsSync(dir)) {
    console.log(`Corpus not found at ${dir}: this script evaluates on ../shared/corpus; nothing to do.`);
    process.exit(0);
  }
  return dir;
}
