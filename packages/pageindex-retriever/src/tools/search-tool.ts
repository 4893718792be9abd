import type { Document } from "@langchain/core/documents";
import { tool } from "@langchain/core/tools";
import { asData, oneLine, type TreeReader } from "pageindex-core";
import { isLibraryReader, type LibraryDocumentHit } from "pageindex-store";
import { z } from "zod/v4";
import type { PageIndexRetriever } from "../retriever.js";
import type { PageIndexDocumentMetadata } from "../types.js";
import { locationOf, sectionBlock, TOOL_DATA_NOTE, toolError } from "./format.js";

/** Options of {@link createSearchTool}. */
export interface SearchToolOptions {
  name?: string;
  /** The tool's description; {@link TOOL_DATA_NOTE} is appended to it either way. */
  description?: string;
  /**
   * Least judge score (0..1) a section needs to be returned; weaker picks are left out and
   * counted. 0.5 kept every gold pick of the library dev set with the offline and the oracle
   * judges while dropping near misses (scripts/eval-search-threshold.ts). @defaultValue 0.5
   */
  minScore?: number;
  /** Sections returned when the agent does not say (it may ask for 1 to 10). @defaultValue 5 */
  limit?: number;
  /**
   * Characters of section text in one result, spent on the best sections first; a section cut
   * by it says how to read on (`get_node_content` with an offset). @defaultValue 12 000
   */
  maxChars?: number;
  /** Characters every returned section shows at least, however little budget is left. @defaultValue 400 */
  minCharsPerSection?: number;
  /** Most characters of one section in one result (the rest is read on with `get_node_content`). @defaultValue no cap but `maxChars` */
  maxCharsPerSection?: number;
}

/** Most sections one `search_sections` call may ask for. */
export const MAX_SEARCH_SECTIONS = 10;

/** A found section as the agent sees it (and the artifact carries). */
export interface SectionCitation {
  docId: string;
  docName: string;
  nodeId: string;
  title: string;
  path: string[];
  startPage?: number;
  endPage?: number;
  startLine?: number;
  endLine?: number;
  score: number;
  reason: string;
}

function citation(doc: Document<PageIndexDocumentMetadata>): SectionCitation {
  const m = doc.metadata;
  const out: SectionCitation = {
    docId: m.docId,
    docName: m.docName,
    nodeId: m.nodeId,
    title: m.title,
    path: m.path,
    score: m.score,
    reason: m.reason,
  };
  for (const key of ["startPage", "endPage", "startLine", "endLine"] as const) {
    if (m[key] !== undefined) out[key] = m[key];
  }
  return out;
}

/**
 * Text budgets for sections in rank order: each the rest of `total` (at least `floor`), so the
 * best section is read whole when it fits and later ones get what is left.
 */
export function budgets(lengths: readonly number[], total: number, floor: number): number[] {
  let left = total;
  return lengths.map((length) => {
    const give = Math.min(length, Math.max(floor, left));
    left = Math.max(0, left - give);
    return Math.max(1, give);
  });
}

/**
 * Other places to look: the documents the library index ranks first for the query (leaving out
 * `exclude`), one line each with its best sections' ids for `get_node_content` or
 * `get_document_structure`. The retriever searches a few documents; the index sees the whole
 * library, so this costs the agent no call. Empty when the reader has no library index.
 */
async function librarySuggestions(
  reader: TreeReader,
  query: string,
  exclude: ReadonlySet<string> = new Set(),
): Promise<string> {
  if (!isLibraryReader(reader)) return "";
  let hits: LibraryDocumentHit[];
  try {
    hits = await reader.searchLibrary(query, { limit: 3 + exclude.size, sectionsPerDocument: 2 });
  } catch {
    return "";
  }
  const lines = hits
    .filter((hit) => !exclude.has(hit.docId))
    .slice(0, 3)
    .map((hit) => {
      const sections = hit.sections
        .map((s) => {
          const where = locationOf(s);
          return `[${s.nodeId}] ${oneLine(s.title).slice(0, 80)}${where ? ` (${where})` : ""}`;
        })
        .join(" | ");
      return `- docId="${hit.docId}" (${oneLine(hit.card.docName).slice(0, 80)})${sections ? `: ${sections}` : ""}`;
    });
  // Names and titles are document content: inside a data block, escaped.
  return lines.length > 0 ? asData("toc", lines.join("\n"), { source: "library index" }) : "";
}

/** The "nothing passed" result: why, and the next step (a branch to browse, documents to open). */
async function nothingFound(
  reader: TreeReader,
  query: string,
  weak: Document<PageIndexDocumentMetadata>[],
  minScore: number,
): Promise<string> {
  const lines: string[] = [];
  const best = weak[0]?.metadata;
  if (best) {
    lines.push(
      `No section scored at least ${minScore} for this question (${weak.length} weaker pick(s) left out; the best, ` +
        `score ${best.score.toFixed(2)}: docId="${best.docId}", nodeId="${best.nodeId}").`,
    );
    lines.push(
      `Next step: browse that branch with get_document_structure docId="${best.docId}", nodeId="${best.nodeId}", ` +
        "or search again in other words.",
    );
  } else {
    lines.push("No section found for this question.");
  }
  const suggestions = await librarySuggestions(reader, query);
  if (suggestions) {
    lines.push(
      "Documents whose sections match the question's words (open one with get_document_structure, or read a " +
        "section with get_node_content):",
      suggestions,
    );
  } else if (!best) {
    lines.push(
      "Next step: search again in other words, or find documents with search_documents or list_documents.",
    );
  }
  return lines.join("\n");
}

/**
 * A search tool for agents: question → the sections that answer it, each with document, title,
 * pages and a page of its text (`content_and_artifact`: the text for the model, the Documents as
 * artifact). Only sections the judge scored at least `minScore` come back; the result says when
 * there are fewer than asked and, when none passed, what to open next. Text is spent on the
 * best sections first and never cut silently: a longer section says how to read on.
 *
 * @example
 * ```ts
 * const search = createSearchTool(retriever, { minScore: 0.6, maxChars: 8000 });
 * const agent = createAgent({ model, tools: [search] });
 * ```
 */
export function createSearchTool(retriever: PageIndexRetriever, options: SearchToolOptions = {}) {
  const minScore = options.minScore ?? 0.5;
  const defaultLimit = Math.min(MAX_SEARCH_SECTIONS, Math.max(1, options.limit ?? 5));
  const maxChars = options.maxChars ?? 12_000;
  const floor = options.minCharsPerSection ?? 400;
  const cap = options.maxCharsPerSection ?? Number.POSITIVE_INFINITY;
  return tool(
    async ({ query, limit }, config) => {
      if (!query.trim()) return toolError("the query is empty; ask a question", config);
      const asked = limit ?? defaultLimit;
      let docs: Document<PageIndexDocumentMetadata>[];
      try {
        docs = await retriever.invoke(query, config);
      } catch (error) {
        return toolError(`search failed: ${(error as Error).message}`, config);
      }
      const passed = docs.filter((d) => d.metadata.score >= minScore);
      const weak = docs.filter((d) => d.metadata.score < minScore);
      const shown = passed.slice(0, asked);
      if (shown.length === 0) {
        const content = await nothingFound(retriever.reader, query, weak, minScore);
        return [content, { sections: [], documents: [], leftOut: weak.map(citation) }];
      }
      const texts = shown.map((d) => d.pageContent.trim());
      const give = budgets(
        texts.map((t) => Math.min(t.length, cap)),
        maxChars,
        floor,
      );
      const blocks = shown.map((doc, i) => {
        const m = doc.metadata;
        const block = sectionBlock(
          {
            docId: m.docId,
            nodeId: m.nodeId,
            docName: m.docName,
            path: m.path,
            range: locationOf(m),
            text: texts[i] as string,
            reason: m.reason,
            ...(m.includesDescendants ? { whole: true } : {}),
          },
          give[i] as number,
        );
        return `[${i + 1}] score=${m.score.toFixed(2)}\n${block}`;
      });
      const elsewhere = await librarySuggestions(
        retriever.reader,
        query,
        new Set(shown.map((d) => d.metadata.docId)),
      );
      const others = elsewhere
        ? `\n\nOther documents the library index ranks high for these words (read a section with get_node_content if the sections above miss):\n${elsewhere}`
        : "";
      const header =
        shown.length < asked
          ? `${shown.length} of the ${asked} sections asked for: the search found ${passed.length} scoring at least ${minScore}` +
            `${weak.length > 0 ? ` (${weak.length} weaker pick(s) left out)` : ""}.`
          : `${shown.length} section(s), best first.`;
      return [
        `${header}\n\n${blocks.join("\n\n")}${others}`,
        { sections: shown.map(citation), documents: shown, leftOut: weak.map(citation) },
      ];
    },
    {
      name: options.name ?? "search_sections",
      description: `${
        options.description ??
        "Use first for any question: finds and returns the sections that answer it, library-wide (ids, title " +
          `path, pages or lines, score ≥ ${minScore}, text; best first). A long section ends with the call that reads ` +
          "on; other documents worth opening are listed after the sections. Cite document and pages."
      } ${TOOL_DATA_NOTE}`,
      schema: z.object({
        query: z
          .string()
          .describe("the question, in natural language (add the product or topic names you know)"),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_SECTIONS)
          .optional()
          .describe(`most sections returned (default ${defaultLimit})`),
      }),
      responseFormat: "content_and_artifact",
    },
  );
}
