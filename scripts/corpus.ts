import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * `../shared/corpus` beside the repository: evaluation data, never needed by tests.
 * `PAGEINDEX_CORPUS` points elsewhere (a git worktree has no `shared` folder beside it).
 */
export const CORPUS_DIR = process.env.PAGEINDEX_CORPUS
  ? resolve(process.env.PAGEINDEX_CORPUS)
  : resolve(dirname(fileURLToPath(import.meta.url)), "../../shared/corpus");

/** Exits cleanly with a message when the corpus is not there (e.g. a user's clone). */
export function requireCorpus(sub = ""): string {
  const dir = resolve(CORPUS_DIR, sub);
  if (!existsSync(dir)) {
    console.log(`Corpus not found at ${dir}: this script evaluates on ../shared/corpus; nothing to do.`);
    process.exit(0);
  }
  return dir;
}

/** Every PDF of the corpus (FinanceBench filings, then PageIndex's samples), sorted by name; exits cleanly when absent. */
export function corpusPdfs(): string[] {
  const corpus = requireCorpus();
  return ["financebench/pdfs", "pageindex-reference/pdfs"].flatMap((sub) =>
    readdirSync(join(corpus, sub))
      .filter((f) => f.toLowerCase().endsWith(".pdf"))
      .sort()
      .map((f) => join(corpus, sub, f)),
  );
}

/** One FinanceBench question: its filing's file stem, and the pages of its evidence. */
export interface FinanceBenchQuestion {
  id: string;
  doc: string;
  question: string;
  pages: number[];
}

/** FinanceBench's questions (`questions.jsonl` in `dir`, the corpus's `financebench` folder). */
export function financeBenchQuestions(dir: string): FinanceBenchQuestion[] {
  return readFileSync(join(dir, "questions.jsonl"), "utf8")
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => {
      const q = JSON.parse(l) as {
        id: string;
        doc_name: string;
        question: string;
        evidence: Array<{ page: number }>;
      };
      return { id: q.id, doc: q.doc_name, question: q.question, pages: q.evidence.map((e) => e.page) };
    });
}
