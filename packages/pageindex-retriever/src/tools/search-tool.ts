import type { Document } from "@langchain/core/documents";
import { tool } from "@langchain/core/tools";
import { formatRange } from "pageindex-core";
import { z } from "zod/v4";
import type { PageIndexRetriever } from "../retriever.js";
import type { PageIndexDocumentMetadata } from "../types.js";
import { sectionBlock, TOOL_DATA_NOTE, toolError } from "./format.js";

/** Options of {@link createSearchTool}. */
export interface SearchToolOptions {
  name?: string;
  /** The tool's description; {@link TOOL_DATA_NOTE} is appended to it either way. */
  description?: string;
  /** Characters of text shown per section. Default 4000. */
  maxCharsPerSection?: number;
}

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
 * A search tool for agents: question → the sections that answer it, each with document, title,
 * pages and text (`content_and_artifact`: the text for the model, the Documents as artifact).
 */
export function createSearchTool(retriever: PageIndexRetriever, options: SearchToolOptions = {}) {
  const maxChars = options.maxCharsPerSection ?? 4000;
  return tool(
    async ({ query }, config) => {
      if (!query.trim()) return toolError("the query is empty; ask a question", config);
      let docs: Document<PageIndexDocumentMetadata>[];
      try {
        docs = await retriever.invoke(query, config);
      } catch (error) {
        return toolError(`search failed: ${(error as Error).message}`, config);
      }
      if (docs.length === 0) {
        return [
          "No section found for this question. Try other words, or browse with the structure tools.",
          { sections: [], documents: [] },
        ];
      }
      const content = docs
        .map((doc, i) => {
          const m = doc.metadata;
          const block = sectionBlock(
            {
              docId: m.docId,
              nodeId: m.nodeId,
              docName: m.docName,
              path: m.path,
              range: formatRange(m as unknown as Parameters<typeof formatRange>[0]),
              text: doc.pageContent,
              reason: m.reason,
            },
            maxChars,
          );
          return `[${i + 1}] score=${m.score.toFixed(2)}\n${block}`;
        })
        .join("\n\n");
      return [content, { sections: docs.map(citation), documents: docs }];
    },
    {
      name: options.name ?? "search_sections",
      description: `${
        options.description ??
        "Find the sections of the indexed documents that answer a question. Returns each section's document, " +
          "title path, pages and text. Cite the document and pages in your answer."
      } ${TOOL_DATA_NOTE}`,
      schema: z.object({ query: z.string().describe("the question, in natural language") }),
      responseFormat: "content_and_artifact",
    },
  );
}
