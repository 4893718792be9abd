import { clipModelText, unescapeData } from "pageindex-core";
import { z } from "zod/v4";

/**
 * What a judging model answers. Kept lenient (ids as strings or numbers, score and reason
 * optional) because the ids are validated against the offered set afterwards anyway, and a
 * strict schema would throw good answers away over trivia.
 */
export const SelectionItemSchema = z.object({
  id: z.union([z.string(), z.number()]).describe("id of a section that may contain the answer"),
  doc: z
    .union([z.string(), z.number()])
    .optional()
    .describe("document key, only when sections of several documents are offered"),
  score: z.number().optional().describe("confidence from 0 to 1"),
  reason: z.string().optional().describe("one short sentence"),
  self: z
    .boolean()
    .optional()
    .describe("true when a section with subsections answers in its own introduction text"),
});

/** A judge's answer: only the sections that may hold the answer; `[]` when none does. */
export const SelectionSchema = z.object({
  relevant: z.array(SelectionItemSchema).describe("sections that may contain the answer, best first"),
});

/**
 * A library prompt's answer: the picks, and, when none of the candidates fits, the words the
 * answering section would use, for the library to be searched with again.
 */
export const LibrarySelectionSchema = SelectionSchema.extend({
  search: z
    .string()
    .optional()
    .describe("when no listed document fits: words the answering section would use, to search again"),
});

export type SelectionItem = z.infer<typeof SelectionItemSchema>;
export type Selection = z.infer<typeof SelectionSchema>;
export type LibrarySelection = z.infer<typeof LibrarySelectionSchema>;

/** Clamps a model's score into [0, 1]; a missing or odd score counts as fairly confident. */
export function normaliseScore(score: number | undefined, rank: number): number {
  if (score === undefined || !Number.isFinite(score)) return Math.max(0.5, 0.9 - rank * 0.05);
  if (score > 1 && score <= 10) return score / 10; // "8/10"-style answers
  if (score > 10 && score <= 100) return score / 100;
  return Math.min(1, Math.max(0, score));
}

/**
 * A model's reason as plain text, or `fallback` when it gave none. The model read document text
 * escaped as data and often quotes it with its entities (`&lt;`, `R&amp;D`); decoded here, the
 * reason is plain in metadata and escaped once where it is shown as data again (tool output).
 */
export function modelReason(reason: string | undefined, fallback: string): string {
  return clipModelText(unescapeData(reason ?? ""), 500) || fallback;
}
