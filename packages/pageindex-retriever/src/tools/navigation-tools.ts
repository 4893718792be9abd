import { Document } from "@langchain/core/documents";
import { tool } from "@langchain/core/tools";
import {
  asData,
  DocumentNotFoundError,
  formatRange,
  getNode,
  nodeDocumentId,
  nodeMetadata,
  oneLine,
  pathLine,
  type SkeletonNode,
  subtreeNodes,
  type TreeReader,
  type TreeSkeleton,
  titlePath,
  walk,
} from "pageindex-core";
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

/**
 * Builds Documents for nodes, reading only their texts, and shows each one page of its text:
 * `maxChars` shared between them, from `offset` (the same for every node: paging is meant for one
 * long section). With `whole`, a node's text is its subtree's texts joined as the retriever joins
 * a section returned whole, so an offset from `search_sections` reads on in the same text. The
 * Documents hold the whole texts; the content says what is left to read.
 */
async function nodeContent(
  reader: TreeReader,
  skeleton: TreeSkeleton,
  nodes: SkeletonNode[],
  maxChars: number,
  { offset = 0, whole = false }: { offset?: number; whole?: boolean } = {},
) {
  const members = nodes.map((n) => (whole ? subtreeNodes(skeleton, n.nodeId) : [n]));
  const texts = await reader.getNodeTexts(skeleton.docId, [...new Set(members.flat().map((n) => n.nodeId))]);
  const documents = nodes.map((n, i) => {
    const parts = (members[i] as SkeletonNode[]).map((m) => texts.get(m.nodeId) ?? "");
    const metadata: Record<string, unknown> = nodeMetadata(skeleton, n);
    if (whole) metadata.includesDescendants = true;
    return new Document({
      id: nodeDocumentId(skeleton.docId, n.nodeId),
      pageContent: whole ? parts.filter((t) => t.trim().length > 0).join("\n\n") : (parts[0] ?? ""),
      metadata,
    });
  });
  const perSection = Math.max(500, Math.floor(maxChars / Math.max(1, nodes.length)));
  const content = documents
    .map((d, i) =>
      renderSection(skeleton, nodes[i] as SkeletonNode, d.pageContent, perSection, offset, whole),
    )
    .join("\n\n");
  return { content, documents };
}

/**
 * One structure line: "[0003] Title (pp. 3-5) — summary", on one line so a title cannot add lines;
 * "[+N subsections]" when `maxDepth` hides the node's children (open them with its nodeId).
 */
function structureLine(node: SkeletonNode, depth: number, hidden: boolean): string {
  const range = formatRange(node);
  const summary = oneLine(node.summary ?? node.prefixSummary ?? "").slice(0, 160);
  const below = hidden ? ` [+${node.childIds.length} subsections]` : "";
  return `${"  ".repeat(depth - 1)}[${node.nodeId}] ${oneLine(node.title)}${range ? ` (${range})` : ""}${below}${summary ? ` — ${summary}` : ""}`;
}

/** A node id the agent gave, resolved against the skeleton ("13", "[0013]" and "0013" alike). */
function findNode(skeleton: TreeSkeleton, raw: string): SkeletonNode | undefined {
  const id = resolveId(String(raw).trim(), new Set(skeleton.nodes.map((n) => n.nodeId)));
  return id === undefined ? undefined : getNode(skeleton, id);
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
    async ({ docId, nodeId, offset, maxDepth }, config) => {
      const skeleton = await skeletonOrError(reader, docId);
      if (typeof skeleton === "string") return toolError(skeleton, config);
      let from: SkeletonNode | undefined;
      if (nodeId !== undefined) {
        from = findNode(skeleton, nodeId);
        if (!from) {
          return toolError(
            `no section "${nodeId}" in "${skeleton.docId}"; ids look like "0003" (call get_document_structure without nodeId for the top of the document)`,
            config,
          );
        }
      }
      const lines: Array<{ node: SkeletonNode; line: string }> = [];
      const visit = (node: SkeletonNode, depth: number) => {
        const hidden = maxDepth !== undefined && depth >= maxDepth && node.childIds.length > 0;
        lines.push({ node, line: structureLine(node, depth, hidden) });
        return hidden ? "skip" : undefined;
      };
      if (from) walk(skeleton, visit, from.nodeId);
      else walk(skeleton, visit);
      const start = offset ?? 0;
      if (start >= lines.length && lines.length > 0) {
        return toolError(`offset ${start} is past the end (the structure has ${lines.length} lines)`, config);
      }
      const slice = lines.slice(start, start + pageSize);
      const again = [`docId="${skeleton.docId}"`];
      if (from) again.push(`nodeId="${from.nodeId}"`);
      if (maxDepth !== undefined) again.push(`maxDepth=${maxDepth}`);
      const more =
        start + slice.length < lines.length
          ? `\n… ${lines.length - start - slice.length} more lines: call again with ${again.join(", ")}, offset=${start + slice.length}`
          : "";
      const attributes: Record<string, string> = { docId: skeleton.docId, name: skeleton.docName };
      if (from) attributes.branch = `[${from.nodeId}] ${pathLine(titlePath(skeleton, from.nodeId))}`;
      const toc = asData("toc", slice.map((l) => l.line).join("\n"), attributes);
      const scope = from ? ` under nodeId=${from.nodeId}` : "";
      const content = `Structure of docId=${skeleton.docId}${scope}, lines ${start + 1}-${start + slice.length} of ${lines.length}:\n${toc}${more}`;
      return [
        content,
        {
          docId: skeleton.docId,
          ...(from ? { nodeId: from.nodeId } : {}),
          offset: start,
          total: lines.length,
          nodes: slice.map((l) => l.node),
        },
      ];
    },
    {
      name: name("get_document_structure"),
      description:
        "Browse a document's table of contents: [nodeId] title (location) — summary; [+N subsections] marks a " +
        "branch hidden by maxDepth. Give nodeId to open just that branch. Use when you know the document but not " +
        "the section; in a big one start with maxDepth=1 or 2. Paged (offset). " +
        TOOL_DATA_NOTE,
      schema: z.object({
        docId: z
          .string()
          .describe("document id (docId) from search_documents, search_sections or list_documents"),
        nodeId: z
          .string()
          .optional()
          .describe('open only this section\'s branch, e.g. "0042" (default: the whole document)'),
        offset: z.number().int().min(0).optional().describe("first line to show (for paging)"),
        maxDepth: z
          .number()
          .int()
          .min(1)
          .optional()
          .describe("levels to show, counted from the top (or from nodeId)"),
      }),
      responseFormat: "content_and_artifact",
    },
  );

  const getNodeContent = tool(
    async ({ docId, nodeIds, offset, withSubsections }, config) => {
      const skeleton = await skeletonOrError(reader, docId);
      if (typeof skeleton === "string") return toolError(skeleton, config);
      const unknown: string[] = [];
      const nodes: SkeletonNode[] = [];
      for (const raw of nodeIds) {
        const node = findNode(skeleton, raw);
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
      const { content, documents } = await nodeContent(reader, skeleton, nodes, maxChars, {
        offset: offset ?? 0,
        whole: withSubsections === true,
      });
      if (offset && documents.every((d) => offset >= d.pageContent.trim().length)) {
        const sizes = documents
          .map((d, i) => `${nodes[i]?.nodeId}: ${d.pageContent.trim().length}`)
          .join(", ");
        return toolError(`offset ${offset} is past the end of the text (characters: ${sizes})`, config);
      }
      const note = unknown.length > 0 ? `\n\n(Unknown ids skipped: ${unknown.join(", ")})` : "";
      return [`${content}${note}`, documents];
    },
    {
      name: name("get_node_content"),
      description:
        "Read sections by nodeId (from any tool's result). Text comes in pages of about " +
        `${maxChars} characters: a result says what is left; call again with the offset it gives to read to the ` +
        `end. ${TOOL_DATA_NOTE}`,
      schema: z.object({
        docId: z.string().describe("document id"),
        nodeIds: z.array(z.string()).min(1).max(20).describe('node ids such as "0003"'),
        offset: z
          .number()
          .int()
          .min(0)
          .optional()
          .describe("character to start reading from, to continue a long section (default 0)"),
        withSubsections: z
          .boolean()
          .optional()
          .describe("read each section together with all its subsections, as one text (default false)"),
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
        'Read the sections covering pages of a PDF, e.g. "5-7,12" (at most ' +
        `${maxPages} pages), when you know the page. ${TOOL_DATA_NOTE}`,
      schema: z.object({
        docId: z.string().describe("document id"),
        pages: z.string().describe('pages and ranges, e.g. "5-7,12"'),
      }),
      responseFormat: "content_and_artifact",
    },
  );

  return { listDocuments, searchDocuments, getStructure, getNodeContent, getPageContent };
}
