import type { TreeReader } from "pageindex-core";
import { RetrieverConfigError } from "../errors.js";
import type { PageIndexRetriever } from "../retriever.js";
import { createNavigationTools, type NavigationToolOptions } from "./navigation-tools.js";
import { createSearchTool, type SearchToolOptions } from "./search-tool.js";

export * from "./document-tools.js";
export {
  clipText,
  continuation,
  locationOf,
  renderSection,
  type SectionBlockInput,
  sectionBlock,
  type TextPage,
  TOOL_DATA_NOTE,
  textPage,
  toolError,
} from "./format.js";
export * from "./navigation-tools.js";
export { InvalidPageRangeError, parsePageRanges } from "./page-ranges.js";
export {
  createSearchTool,
  MAX_SEARCH_SECTIONS,
  type SearchToolOptions,
  type SectionCitation,
} from "./search-tool.js";

/**
 * Every tool at once: the search tool over `retriever` plus the navigation tools over its
 * reader, ready for `createAgent({ tools })`. Their descriptions tell a model which to use when:
 * `search_sections` first; `search_documents` to choose a document; `get_document_structure` to
 * browse a document or one branch (nodeId); `get_node_content` to read a section (to its end,
 * with offset); `get_page_content` for cited pages; `list_documents` to page through the library.
 *
 * @example
 * ```ts
 * const tools = createPageIndexTools(new PageIndexRetriever({ reader: store, model }));
 * const agent = createAgent({ model, tools });
 * ```
 */
export function createPageIndexTools(
  retriever: PageIndexRetriever,
  options: { search?: SearchToolOptions; navigation?: NavigationToolOptions; reader?: TreeReader } = {},
) {
  const nav = createNavigationTools(options.reader ?? retriever.reader, options.navigation);
  const tools = [
    createSearchTool(retriever, options.search),
    nav.searchDocuments,
    nav.listDocuments,
    nav.getStructure,
    nav.getNodeContent,
    nav.getPageContent,
  ];
  // Two tools of one name: a provider refuses the request, or an agent runs the wrong one.
  const [search, ...others] = tools;
  if (search && others.some((tool) => tool.name === search.name)) {
    throw new RetrieverConfigError(
      `createPageIndexTools: search.name "${search.name}" is the name of another of the tools: choose another`,
    );
  }
  return tools;
}
