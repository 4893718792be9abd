import { tool } from "@langchain/core/tools";
import { asData, type DocumentInfo, oneLine, type TreeReader } from "pageindex-core";
import {
  type DocumentMatch,
  type DocumentPage,
  isCatalogReader,
  isLibraryReader,
  type LibraryDocumentHit,
  type SectionHit,
} from "pageindex-store";
import { z } from "zod/v4";
import { locationOf, TOOL_DATA_NOTE, toolError } from "./format.js";

/** Options of {@link createDocumentTools} (a subset of the navigation tools' options). */
export interface DocumentToolOptions {
  /** Documents per page of `list_documents` when the agent does not say. Default 20. */
  listPageSize?: number;
  /** Documents `search_documents` returns when the agent does not say. Default 10. */
  searchLimit?: number;
  /** Name prefix for the tools. */
  prefix?: string;
}

/** Most documents one `list_documents` page may hold, whatever the agent asks. */
export const MAX_LIST_PAGE = 100;
/** Most documents one `search_documents` call may return. */
export const MAX_SEARCH_LIMIT = 50;

/** One document as a tool shows it: ids and counts as attributes, name and description as data. */
function documentBlock(d: DocumentInfo, extra: string[] = [], score?: number): string {
  const attributes: Record<string, string | number> = { docId: d.docId, kind: d.kind };
  if (d.pageCount) attributes.pages = d.pageCount;
  attributes.sections = d.nodeCount;
  if (score !== undefined) attributes.score = Number(score.toFixed(2));
  const lines = [`Name: ${oneLine(d.docName)}`];
  if (d.description) lines.push(`Description: ${oneLine(d.description)}`);
  lines.push(...extra);
  return asData("document", lines.join("\n"), attributes);
}

/** A section a library search matched: "[0042] Title (pp. 3-5) — summary line", on one line. */
function sectionLine(s: SectionHit): string {
  const where = locationOf(s);
  const summary = s.summary ? ` — ${oneLine(s.summary).slice(0, 160)}` : "";
  return `  [${s.nodeId}] ${oneLine(s.title).slice(0, 120)}${where ? ` (${where})` : ""}${summary}`;
}

/** One page of `list_documents` (cards from a catalog, list entries otherwise). */
type ListPage = Pick<DocumentPage, "total" | "offset"> & { documents: DocumentInfo[] };

/** A page of documents from a reader without a catalog: its full list, cut to the page. */
async function pageWithoutCatalog(reader: TreeReader, limit: number, offset: number): Promise<ListPage> {
  const all = await reader.listDocuments();
  return { documents: all.slice(offset, offset + limit), total: all.length, offset };
}

/**
 * `list_documents` (one page: `limit`, `offset`, and the total, so no result ever carries a whole
 * library) and `search_documents` (documents ranked by the corpus catalog for a query, with the
 * section titles that matched).
 */
export function createDocumentTools(reader: TreeReader, options: DocumentToolOptions = {}) {
  const pageSize = Math.min(MAX_LIST_PAGE, Math.max(1, options.listPageSize ?? 20));
  const searchLimit = Math.min(MAX_SEARCH_LIMIT, Math.max(1, options.searchLimit ?? 10));
  const name = (base: string) => `${options.prefix ?? ""}${base}`;

  const listDocuments = tool(
    async ({ limit, offset }, config) => {
      const size = Math.min(MAX_LIST_PAGE, limit ?? pageSize);
      const start = offset ?? 0;
      let page: ListPage;
      try {
        page = isCatalogReader(reader)
          ? await reader.listDocuments({ limit: size, offset: start })
          : await pageWithoutCatalog(reader, size, start);
      } catch (error) {
        return toolError(`could not list documents: ${(error as Error).message}`, config);
      }
      if (page.total === 0) return ["No documents are indexed.", page];
      if (page.documents.length === 0) {
        return toolError(`offset ${start} is past the end (${page.total} documents)`, config);
      }
      const end = start + page.documents.length;
      const more =
        end < page.total
          ? `\n… ${page.total - end} more: call again with offset=${end}, or use search_documents to find documents by topic`
          : "";
      const content = `Documents ${start + 1}-${end} of ${page.total}:\n${page.documents.map((d) => documentBlock(d)).join("\n")}${more}`;
      return [content, page];
    },
    {
      name: name("list_documents"),
      description:
        `List the indexed documents, one page at a time (ids, page counts, descriptions, and the total). ` +
        `To find documents about a topic in a large library, use search_documents instead. ${TOOL_DATA_NOTE}`,
      schema: z.object({
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_LIST_PAGE)
          .optional()
          .describe(`documents per page (default ${pageSize})`),
        offset: z.number().int().min(0).optional().describe("documents to skip (for paging)"),
      }),
      responseFormat: "content_and_artifact",
    },
  );

  const searchDocuments = tool(
    async ({ query, limit }, config) => {
      if (!query.trim())
        return toolError("the query is empty: say what the documents should be about", config);
      const size = Math.min(MAX_SEARCH_LIMIT, limit ?? searchLimit);
      if (isLibraryReader(reader)) {
        let hits: LibraryDocumentHit[];
        try {
          hits = await reader.searchLibrary(query, { limit: size, sectionsPerDocument: 3 });
        } catch (error) {
          return toolError(`could not search documents: ${(error as Error).message}`, config);
        }
        if (hits.length === 0) return [`No document matches "${oneLine(query)}".`, []];
        const blocks = hits.map((hit) =>
          documentBlock(
            hit.card,
            hit.sections.length > 0 ? ["Best sections:", ...hit.sections.map(sectionLine)] : [],
            hit.score,
          ),
        );
        return [
          `${hits.length} document(s), ranked by their sections' and cards' match, best first:\n${blocks.join("\n")}`,
          hits,
        ];
      }
      if (!isCatalogReader(reader)) {
        return toolError(
          "this library has no catalog to search; page through list_documents instead",
          config,
        );
      }
      let matches: DocumentMatch[];
      try {
        matches = await reader.searchDocuments(query, { limit: size });
      } catch (error) {
        return toolError(`could not search documents: ${(error as Error).message}`, config);
      }
      if (matches.length === 0) return [`No document matches "${oneLine(query)}".`, []];
      const blocks = matches.map((m) =>
        documentBlock(
          m.card,
          m.evidence.length > 0
            ? [`Matching sections: ${m.evidence.map((e) => `[${e.nodeId}] ${oneLine(e.title)}`).join(" | ")}`]
            : [],
          m.score,
        ),
      );
      return [`${matches.length} document(s), best first:\n${blocks.join("\n")}`, matches];
    },
    {
      name: name("search_documents"),
      description:
        "Which documents are about a topic: ranked by their sections and cards, each with its best sections " +
        "([nodeId] title, location — summary). Use when search_sections found nothing good; then get_node_content " +
        `or get_document_structure. ${TOOL_DATA_NOTE}`,
      schema: z.object({
        query: z.string().describe("what the documents should be about"),
        limit: z
          .number()
          .int()
          .min(1)
          .max(MAX_SEARCH_LIMIT)
          .optional()
          .describe(`most documents returned (default ${searchLimit})`),
      }),
      responseFormat: "content_and_artifact",
    },
  );

  return { listDocuments, searchDocuments };
}
