import { MemoryTreeReader } from "pageindex-store";

/**
 * In-memory trees with a catalog but no library index (`hasLibrary: false`, as a store opened
 * without `library`): the retriever chooses documents from their cards (`chooseDocuments`), the
 * path a reader with a library index no longer takes.
 * @example
 * ```ts
 * const retriever = new PageIndexRetriever({ reader: new CatalogOnlyReader([treeA, treeB]), model });
 * ```
 */
export class CatalogOnlyReader extends MemoryTreeReader {
  readonly hasLibrary = false;
}

/** The two document-choice paths: a library reader (section evidence) and a catalog-only one. */
export const DOCUMENT_CHOICE_PATHS = [
  {
    path: "library",
    reader: (trees: ConstructorParameters<typeof MemoryTreeReader>[0]) => new MemoryTreeReader(trees),
  },
  {
    path: "catalog",
    reader: (trees: ConstructorParameters<typeof MemoryTreeReader>[0]) => new CatalogOnlyReader(trees),
  },
] as const;
