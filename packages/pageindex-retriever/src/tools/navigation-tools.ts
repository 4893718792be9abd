import { Document } from "@langchain/core/documents";
import { tool } from "@langchain/core/tools";
import {
  DocumentNotFoundError,
  getNode,
  nodeDocumentId,
  type SkeletonNode,
  type TreeReader,
  type TreeSkeleton,
  walk,
} from "pageindex-store";
import { asData, formatRange, nodeMetadata, oneLine } from "pageindex-store/internals";
import { z } from "zod/v4";
import { resolveId } from "../judge/verdicts.js";
import { createDocumentTools } from "./document-tools.js";
import { renderSection, TOOL_DATA_NOTE, toolError } from "./format.js";
import { InvalidPageRangeError, parsePageRanges } from "./page-ranges.js";

/** Options of {@link createNavigationTools}. */
export interface NavigationToolOptions {
  /** Structure lines per page of `get_document_structure`. Default 150. */
  structurePageSize?: number;
  /** Characters of content returned per call of the content tools. Default 20 000. */
  maxContentChars?: number;
  /** Most pages one `get_page_content` call may ask for. Default 30. */
  maxPages?: number;
  /** Documents per page of `list_documents` when the agent does not say. Default 20 (at most 100 a page). */
  listPageSize?: number;
  /** Documents `search_documents` returns when the agent does not say. Default 10 (at most 50). */
  searchLimit?: number;
  /** Name prefix for the tools, e.g. "annual_" → "annual_list_documents". Default none. */
  prefix?: string;
}

async function skeletonOrError(reader: TreeReader, docId: string): Promise<TreeSkeleton | string> {
  try {
    return await reader.getSkeleton(docId);
  } catch (error) {
    if (error instanceof DocumentNotFoundError) {
      return `no document "${docId}"; call list_documents for the available ids`;
    }
    return `could not read document "${docId}": ${(error as Error).message}`;
  }
}

/** The node's own page span (its text before its first child). */
function ownPages(node: SkeletonNode): [number, number] | undefined {
  if (node.startPage === undefined) return undefined;
  const end =
    node.ownEndPage ?? (node.childIds.length === 0 ? (node.endPage ?? node.startPage) : node.startPage);
  return [node.startPage, Math.max(node.startPage, end)];
}

/** Builds Documents for nodes, reading only their texts, within a character budget. */
async function nodeContent(
  reader: TreeReader,
  skeleton: TreeSkeleton,
  nodes: SkeletonNode[],
  maxChars: number,
) {
  const texts = await reader.getNodeTexts(
    skeleton.docId,
    nodes.map((n) => n.nodeId),
  );
  const documents = nodes.map(
    (n) =>
      new Document({
        id: nodeDocumentId(skeleton.docId, n.nodeId),
        pageContent: texts.get(n.nodeId) ?? "",
        metadata: nodeMetadata(skeleton, n),
      }),
  );
  const perSection = Math.max(500, Math.floor(maxChars / Math.max(1, nodes.length)));
  const content = documents
    .map((d, i) => renderSection(skeleton, nodes[i] as SkeletonNode, d.pageContent, perSection))
    .join("\n\n");
  return { content, documents };
}

/** One structure line: "[0003] Title (pp. 3-5) — summary", on one line so a title cannot add lines. */
function structureLine(node: SkeletonNode, depth: number): string {
  const range = formatRange(node);
  const summary = oneLine(node.summary ?? node.prefixSummary ?? "").slice(0, 160);
  return `${"  ".repeat(depth - 1)}[${node.nodeId}] ${oneLine(node.title)}${range ? ` (${range})` : ""}${summary ? ` — ${summary}` : ""}`;
}

/**
 * Navigation tools an agent can drive itself (the contract of PageIndex's MCP server):
 * `list_documents` (paged), `search_documents` (the corpus catalog), `get_document_structure` (paged), `get_node_content` and
 * `get_page_content` ("5-7,12"). Bad input comes back as an error text the agent can fix,
 * never as a thrown error. Document content comes back delimited and escaped (see
 * {@link TOOL_DATA_NOTE}); the artifacts carry the same data unescaped, as structured values.
 */
export function createNavigationTools(reader: TreeReader, options: NavigationToolOptions = {}) {
  const pageSize = options.structurePageSize ?? 150;
  const maxChars = options.maxContentChars ?? 20_000;
  const maxPages = options.maxPages ?? 30;
  const name = (base: string) => `${options.prefix ?? ""}${base}`;

  const { listDocuments, searchDocuments } = createDocumentTools(reader, options);

  const getStructure = tool(
    async ({ docId, offset, maxDepth }, config) => {
      const skeleton = await skeletonOrError(reader, docId);
      if (typeof skeleton === "string") return toolError(skeleton, config);
      const lines: Array<{ node: SkeletonNode; line: string }> = [];
      walk(skeleton, (node, depth) => {
        if (maxDepth !== undefined && depth > maxDepth) return "skip";
        lines.push({ node, line: structureLine(node, depth) });
        return undefined;
      });
      const start = offset ?? 0;
      if (start >= lines.length && lines.length > 0) {
        return toolError(`offset ${start} is past the end (the structure has ${lines.length} lines)`, config);
      }
      const slice = lines.slice(start, start + pageSize);
      const more =
        start + slice.length < lines.length
          ? `\n… ${lines.length - start - slice.length} more lines: call again with offset=${start + slice.length}`
          : "";
      const toc = asData("toc", slice.map((l) => l.line).join("\n"), {
        docId: skeleton.docId,
        name: skeleton.docName,
      });
      const content = `Structure of docId=${skeleton.docId}, lines ${start + 1}-${start + slice.length} of ${lines.length}:\n${toc}${more}`;
      return [
        content,
        { docId: skeleton.docId, offset: start, total: lines.length, nodes: slice.map((l) => l.node) },
      ];
    },
    {
      name: name("get_document_structure"),
      description:
        "Show a document's table of contents: one section a line as [nodeId] title (pages) — summary. " +
        "Long structures come in pages; use offset to continue and maxDepth to see only the top levels. " +
        TOOL_DATA_NOTE,
      schema: z.object({
        docId: z.string().describe("document id from list_documents"),
        offset: z.number().int().min(0).optional().describe("first line to show (for paging)"),
        maxDepth: z.number().int().min(1).optional().describe("deepest level to show"),
      }),
      responseFormat: "content_and_artifact",
    },
  );

  const getNodeContent = tool(
    async ({ docId, nodeIds }, config) => {
      const skeleton = await skeletonOrError(reader, docId);
      if (typeof skeleton === "string") return toolError(skeleton, config);
      const offered = new Set(skeleton.nodes.map((n) => n.nodeId));
      const unknown: string[] = [];
      const nodes: SkeletonNode[] = [];
      for (const raw of nodeIds) {
        const id = resolveId(String(raw).trim(), offered);
        const node = id === undefined ? undefined : getNode(skeleton, id);
        if (node) {
          if (!nodes.includes(node)) nodes.push(node);
        } else unknown.push(String(raw));
      }
      if (nodes.length === 0) {
        return toolError(
          `no section ${unknown.map((u) => `"${u}"`).join(", ")} in "${docId}"; ids look like "0003" (see get_document_structure)`,
          config,
        );
      }
      const { content, documents } = await nodeContent(reader, skeleton, nodes, maxChars);
      const note = unknown.length > 0 ? `\n\n(Unknown ids skipped: ${unknown.join(", ")})` : "";
      return [`${content}${note}`, documents];
    },
    {
      name: name("get_node_content"),
      description: `Read the text of sections of a document by their node ids (from get_document_structure). ${TOOL_DATA_NOTE}`,
      schema: z.object({
        docId: z.string().describe("document id"),
        nodeIds: z.array(z.string()).min(1).max(20).describe('node ids such as "0003"'),
      }),
      responseFormat: "content_and_artifact",
    },
  );

  const getPageContent = tool(
    async ({ docId, pages }, config) => {
      const skeleton = await skeletonOrError(reader, docId);
      if (typeof skeleton === "string") return toolError(skeleton, config);
      if (!skeleton.nodes.some((n) => n.startPage !== undefined)) {
        return toolError(
          `document "${docId}" has no pages (it is ${skeleton.kind}); use get_node_content`,
          config,
        );
      }
      let wanted: number[];
      try {
        wanted = parsePageRanges(pages, {
          maxPages,
          ...(skeleton.pageCount !== undefined ? { pageCount: skeleton.pageCount } : {}),
        });
      } catch (error) {
        if (error instanceof InvalidPageRangeError)
          return toolError(`bad page range: ${error.message}`, config);
        throw error;
      }
      const set = new Set(wanted);
      const nodes = skeleton.nodes.filter((n) => {
        const own = ownPages(n);
        if (!own) return false;
        for (let p = own[0]; p <= own[1]; p += 1) if (set.has(p)) return true;
        return false;
      });
      if (nodes.length === 0) return toolError(`no section covers pages ${pages} of "${docId}"`, config);
      const { content, documents } = await nodeContent(reader, skeleton, nodes, maxChars);
      return [`Sections covering pages ${wanted.join(", ")}:\n\n${content}`, documents];
    },
    {
      name: name("get_page_content"),
      description:
        'Read the sections that cover some pages of a PDF document, e.g. pages "5-7,12" (1-based, at most ' +
        `${maxPages} pages). ${TOOL_DATA_NOTE}`,
      schema: z.object({
        docId: z.string().describe("document id"),
        pages: z.string().describe('pages and ranges, e.g. "5-7,12"'),
      }),
      responseFormat: "content_and_artifact",
    },
  );

  return { listDocuments, searchDocuments, getStructure, getNodeContent, getPageContent };
}
