import type { TreeReader } from "pageindex-core";
import type { PageIndexRetriever } from "../retriever.js";
import { createNavigationTools, type NavigationToolOptions } from "./navigation-tools.js";
import { createSearchTool, type SearchToolOptions } from "./search-tool.js";

export * from "./document-tools.js";
export {
  clipText,
  renderSection,
  type SectionBlockInput,
  sectionBlock,
  TOOL_DATA_NOTE,
  toolError,
} from "./format.js";
export * from "./navigation-tools.js";
export { InvalidPageRangeError, parsePageRanges } from "./page-ranges.js";
export { createSearchTool, type SearchToolOptions, type SectionCitation } from "./search-tool.js";

/**
 * Every tool at once: the search tool over `retriever` plus the navigation tools over its
 * reader, ready for `createAgent({ tools })`.
 */
export function createPageIndexTools(
  retriever: PageIndexRetriever,
  options: { search?: SearchToolOptions; navigation?: NavigationToolOptions; reader?: TreeReader } = {},
) {
  const nav = createNavigationTools(options.reader ?? retriever.reader, options.navigation);
  return [
    createSearchTool(retriever, options.search),
    nav.searchDocuments,
    nav.listDocuments,
    nav.getStructure,
    nav.getNodeContent,
    nav.getPageContent,
  ];
}
