import { readFile } from "node:fs/promises";
import { PageIndexError } from "pageindex-core";
import { z } from "zod/v4";
import type { Difficulty } from "./difficulty.js";

/** Where the answer to a question is: a page of a document, or a section title. */
export interface Evidence {
  /** Document name or id the evidence is in (file stem or name; matched loosely). */
  doc?: string;
  /** 1-based physical page. */
  page?: number;
  /** Section title (matched case-insensitively as a substring of a node's path). */
  section?: string;
  /**
   * The tree node that answers (generated questions): a returned section holds the evidence when
   * it is that node, or returns that node's ancestor whole; a chunk when it comes from that node.
   */
  nodeId?: string;
  /** Ids of the node's ancestors, root first (to credit an ancestor returned with its subtree). */
  ancestors?: string[];
}

/** One evaluation question. */
export interface EvalQuestion {
  id: string;
  question: string;
  /** Document the question is about, when the file says so. */
  doc?: string;
  evidence: Evidence[];
  answer?: string;
  /** How easily word matching finds the answer (generated sets record it; see `LexicalDifficulty`). */
  difficulty?: Difficulty;
  /** BM25 rank of the gold section among all sections when the set was made (null: no word matched). */
  lexicalRank?: number | null;
}

/** A questions file is malformed; names the file and line. */
export class QuestionsFileError extends PageIndexError {}

const EvidenceSchema = z
  .looseObject({
    doc_name: z.string().optional(),
    doc: z.string().optional(),
    page: z.number().int().positive().optional(),
    pages: z.array(z.number().int().positive()).optional(),
    section: z.string().optional(),
    title: z.string().optional(),
    node_id: z.string().min(1).optional(),
    ancestors: z.array(z.string()).optional(),
  })
  .refine((e) => e.page !== undefined || (e.pages?.length ?? 0) > 0 || e.section || e.title || e.node_id, {
    message: "evidence needs a page, pages, section, title or node_id",
  });

const QuestionSchema = z.looseObject({
  id: z.union([z.string(), z.number()]).optional(),
  question: z.string().min(1),
  doc_name: z.string().optional(),
  doc: z.string().optional(),
  answer: z.string().optional(),
  evidence: z.array(EvidenceSchema).min(1),
  difficulty: z.enum(["easy", "medium", "hard"]).optional(),
  lexical_rank: z.number().int().positive().nullable().optional(),
});

/**
 * Parses JSONL questions: `{id?, question, doc_name?|doc?, answer?, evidence: [{doc_name?, page |
 * pages | section | title | node_id (+ ancestors)}]}` per line (FinanceBench's layout, pages
 * 1-based; `node_id` as generated question sets write it). Blank lines skipped.
 * @throws {QuestionsFileError} naming the line and the problem.
 */
export function parseQuestions(text: string, source = "questions"): EvalQuestion[] {
  const out: EvalQuestion[] = [];
  text.split(/\r?\n/).forEach((line, i) => {
    if (!line.trim()) return;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (error) {
      throw new QuestionsFileError(`${source}:${i + 1}: not valid JSON (${(error as Error).message})`);
    }
    const parsed = QuestionSchema.safeParse(value);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new QuestionsFileError(
        `${source}:${i + 1}: ${issue?.path.join(".") || "(line)"}: ${issue?.message}`,
      );
    }
    const q = parsed.data;
    const doc = q.doc_name ?? q.doc;
    const evidence: Evidence[] = [];
    for (const e of q.evidence) {
      const eDoc = e.doc_name ?? e.doc ?? doc;
      const section = e.section ?? e.title;
      const pages = [...(e.page !== undefined ? [e.page] : []), ...(e.pages ?? [])];
      if (e.node_id !== undefined) {
        // One node is one piece of evidence; its page is where it starts, for the report.
        evidence.push({
          ...(eDoc ? { doc: eDoc } : {}),
          nodeId: e.node_id,
          ...(e.ancestors ? { ancestors: e.ancestors } : {}),
          ...(section ? { section } : {}),
          ...(pages[0] !== undefined ? { page: pages[0] } : {}),
        });
        continue;
      }
      if (pages.length === 0)
        evidence.push({ ...(eDoc ? { doc: eDoc } : {}), ...(section ? { section } : {}) });
      for (const page of pages) {
        evidence.push({ ...(eDoc ? { doc: eDoc } : {}), page, ...(section ? { section } : {}) });
      }
    }
    out.push({
      id: String(q.id ?? `q${out.length + 1}`),
      question: q.question,
      evidence,
      ...(doc ? { doc } : {}),
      ...(q.answer !== undefined ? { answer: q.answer } : {}),
      ...(q.difficulty !== undefined ? { difficulty: q.difficulty } : {}),
      ...(q.lexical_rank !== undefined ? { lexicalRank: q.lexical_rank } : {}),
    });
  });
  return out;
}

/** Reads and parses a JSONL questions file. */
export async function readQuestions(path: string): Promise<EvalQuestion[]> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new QuestionsFileError(
      `Cannot read questions file ${path}: ${(error as NodeJS.ErrnoException).code ?? error}`,
    );
  }
  return parseQuestions(text, path);
}
